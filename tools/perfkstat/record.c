// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat record -I INTERVAL [-r RECORDS] [-o FILE.csv] [-t SECONDS]
 *                  [-p PID] [-e SPEC]... [NAME...] [-- COMMAND...]
 *
 * A series of the counters in the kernel, drained every 0.2 s while
 * COMMAND runs, for SECONDS, until PID exits or until SIGINT; then the
 * counters stop, the series settles (every online CPU records twice more,
 * for at most 10 s and 10 intervals), and its records become CSV: what
 * each event counted on each CPU (or, with -p, by the process) since the
 * previous record, in time order. A summary goes to standard error.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfkstat.h"

#define NSEC 1000000000ULL
#define DRAIN_NS (200 * 1000000ULL)

struct event {
	char *name;		/* the counter */
	const char *label;	/* the CSV's column: the SPEC, or the NAME */
	bool mine;		/* a temporary, made from a -e SPEC */
	s128 sum;		/* what its rows add up to */
	char *final;		/* a temporary's value once stopped */
};

static struct event *ev;
static int nev;
static char *records_path;

/* interval_ns: INTERVAL, a number and ns, us, ms or s, in ns; 0 if not that */
static u64 interval_ns(const char *s)
{
	const char *u = s + strspn(s, "0123456789");
	char *num = xasprintf("%.*s", (int)(u - s), s);
	u64 n, m;

	m = !strcmp(u, "ns") ? 1 : !strcmp(u, "us") ? 1000 :
		!strcmp(u, "ms") ? 1000000 : !strcmp(u, "s") ? NSEC : 0;
	if (!parse_u64(num, &n) || !m || n > UINT64_MAX / m)
		n = 0;
	free(num);
	return n * m;
}

/* seconds_ns: SECONDS (digits, a point and digits) in ns; false if not that */
static bool seconds_ns(const char *s, u64 *ns)
{
	u64 whole = 0, frac = 0, scale = NSEC;
	const char *p = s;

	if (!*s || !strcmp(s, ".") || strspn(s, "0123456789.") != strlen(s) ||
	    strchr(s, '.') != strrchr(s, '.'))
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (whole > (UINT64_MAX / NSEC - 9) / 10)
			return false;
		whole = 10 * whole + (*p - '0');
	}
	if (*p == '.')
		for (p++; *p; p++) {
			scale /= 10;
			frac += (*p - '0') * scale;
		}
	*ns = whole * NSEC + frac;
	return true;
}

static void drain(struct sbuf *to)
{
	read_all(records_path, to);
}

/* online_cpus: the online CPUs, as /sys/devices/system/cpu/online lists them */
static u64 *online_cpus(int *n)
{
	char *s = read_text("/sys/devices/system/cpu/online"), *p, *save = NULL;
	u64 *cpus = NULL, lo, hi, c;
	char *dash;

	*n = 0;
	if (!s)
		return NULL;
	for (p = strtok_r(s, ",\n", &save); p; p = strtok_r(NULL, ",\n", &save)) {
		lo = leading_u64(p);
		dash = strrchr(p, '-');
		hi = dash ? leading_u64(dash + 1) : lo;
		for (c = lo; c <= hi; c++) {
			cpus = xrealloc(cpus, (*n + 1) * sizeof(*cpus));
			cpus[(*n)++] = c;
		}
	}
	free(s);
	return cpus;
}

/* fields: S's blank-separated words into F (at most MAX); their number */
static int fields(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		s += strspn(s, " \t");
		if (!*s)
			return n;
		if (n < max)
			f[n] = s;
		n++;
		s += strcspn(s, " \t");
		if (*s)
			*s++ = '\0';
	}
}

/* settled: every online CPU recorded twice in LAST, made after the stop */
static bool settled(const struct sbuf *last, const u64 *cpus, int ncpus)
{
	char *copy, *line, *save = NULL, *f[2], c[24];
	int *seen = xmalloc(ncpus * sizeof(*seen)), i;
	bool ok = true;

	memset(seen, 0, ncpus * sizeof(*seen));
	copy = xstrdup(last->buf ? last->buf : "");
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (fields(line, f, 2) < 2)
			continue;
		for (i = 0; i < ncpus; i++) {
			snprintf(c, sizeof(c), "%llu", (unsigned long long)cpus[i]);
			if (!strcmp(f[1], c))
				seen[i]++;
		}
	}
	for (i = 0; i < ncpus; i++)
		if (seen[i] < 2)
			ok = false;
	free(copy);
	free(seen);
	return ok;
}

/* a row of the CSV: the record's time and CPU, and its deltas as text */
struct row {
	u64 time, cpu;
	char *line;	/* "TIME CPU DELTA..." ("-" for none) */
};

static int by_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return strcmp(x->line, y->line);
}

static int by_time_cpu(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return strcmp(x->line, y->line);
}

/* the previous value of an event on a CPU (or of the process: slot 0) */
struct prevs {
	u64 *v;
	u64 ncpus;
};

static u64 *prev_of(struct prevs *p, u64 cpu, int i)
{
	u64 n;

	if (cpu >= p->ncpus) {
		n = cpu + 1;
		p->v = xrealloc(p->v, n * nev * sizeof(*p->v));
		memset(p->v + p->ncpus * nev, 0, (n - p->ncpus) * nev * sizeof(*p->v));
		p->ncpus = n;
	}
	return &p->v[cpu * nev + i];
}

/*
 * deltas: RAW's records as rows of what each event counted since the
 * previous record of its CPU (with TASK, of the process, over all CPUs,
 * the records first put in time order). Counts the rows and CPUs.
 */
static struct row *deltas(struct sbuf *raw, struct prevs *prev, bool task,
			  int *nrows, int *ncpus)
{
	struct row *in = NULL, *out = NULL;
	char *line, *text = raw->buf, **f, *copy, num[48];
	struct sbuf sb;
	int nin = 0, k, i, nf;
	u64 *cpus_seen = NULL, cpu, v, *p;
	s128 d;

	while ((line = next_line(&text))) {
		in = xrealloc(in, (nin + 1) * sizeof(*in));
		in[nin].time = leading_u64(line);
		in[nin].cpu = 0;
		in[nin].line = line;
		nin++;
	}
	if (task)
		qsort(in, nin, sizeof(*in), by_time);
	f = xmalloc((nev + 2) * sizeof(*f));
	*nrows = 0;
	*ncpus = 0;
	for (k = 0; k < nin; k++) {
		copy = xstrdup(in[k].line);
		nf = fields(copy, f, nev + 2);
		if (nf != nev + 2 || !all_digits(f[0]) || !all_digits(f[1])) {
			warn("warning: a malformed record: %s", in[k].line);
			free(copy);
			continue;
		}
		cpu = leading_u64(f[1]);
		memset(&sb, 0, sizeof(sb));
		sb_printf(&sb, "%s %s", f[0], f[1]);
		for (i = 0; i < nev; i++) {
			if (!strcmp(f[i + 2], "-")) {
				sb_add(&sb, " -", 2);
				continue;
			}
			v = leading_u64(f[i + 2]);
			p = prev_of(prev, task ? 0 : cpu, i);
			d = (s128)v - (s128)*p;
			*p = v;
			ev[i].sum += d;
			sb_printf(&sb, " %s", fmt_s128(num, d));
		}
		out = xrealloc(out, (*nrows + 1) * sizeof(*out));
		out[*nrows].time = leading_u64(f[0]);
		out[*nrows].cpu = cpu;
		out[*nrows].line = sb.buf;
		(*nrows)++;
		for (i = 0; i < *ncpus && cpus_seen[i] != cpu; i++)
			;
		if (i == *ncpus) {
			cpus_seen = xrealloc(cpus_seen, (*ncpus + 1) * sizeof(*cpus_seen));
			cpus_seen[(*ncpus)++] = cpu;
		}
		free(copy);
	}
	qsort(out, *nrows, sizeof(*out), by_time_cpu);
	free(cpus_seen);
	free(f);
	free(in);
	return out;
}

/* write_csv: the header and ROWS to F */
static void write_csv(FILE *f, const struct row *rows, int nrows)
{
	char *copy, **w;
	const char *p;
	int k, i;

	fputs("time,cpu", f);
	for (i = 0; i < nev; i++) {
		if (!strpbrk(ev[i].label, "\",")) {
			fprintf(f, ",%s", ev[i].label);
			continue;
		}
		fputs(",\"", f);
		for (p = ev[i].label; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	}
	fputc('\n', f);
	w = xmalloc((nev + 2) * sizeof(*w));
	for (k = 0; k < nrows; k++) {
		copy = xstrdup(rows[k].line);
		fields(copy, w, nev + 2);
		/* seconds since the first record, as printf's %.6f rounds them */
		fprintf(f, "%.6f,%s", (double)(rows[k].time - rows[0].time) / 1e9, w[1]);
		for (i = 0; i < nev; i++)
			fprintf(f, ",%s", strcmp(w[i + 2], "-") ? w[i + 2] : "");
		fputc('\n', f);
		free(copy);
	}
	free(w);
}

/* base: a NAMEd counter's values per CPU now, where its deltas start */
static bool base(struct prevs *prev, int i)
{
	char *path = dbg_path("counters/%s/percpu", ev[i].name), *s, *line;
	char *save = NULL, *f[2];

	s = read_text(path);
	free(path);
	if (!s)
		return false;
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (fields(line, f, 2) >= 2)
			*prev_of(prev, leading_u64(f[0]), i) = leading_u64(f[1]);
	free(s);
	return true;
}

/* why a process's rows may sum to less than its counter */
static const char after_last[] = " (counted after the last record of the process: ";
static const char why_after[] = "it exited, or ran on until the counter stopped)";

int cmd_record(int argc, char **argv)
{
	const char *ival = "", *nrec = "", *out = NULL, *secs = NULL, *pidarg = NULL;
	char *series, *cmd, *why, *spec, *dir, *wrap, *dropped, *skipped, *p;
	struct sbuf raw = { 0 }, last = { 0 }, sb = { 0 };
	/* the previous values per CPU, from the NAMEd ones' bases; of -p's process */
	struct prevs prev = { 0 }, task = { 0 };
	u64 ns, records = 0, tns = 0, deadline, next_drain, t0, *cpus;
	int i, n = 0, rc = 0, ncpus, nrows, nrcpus, status;
	bool named_only = true;
	struct row *rows;
	pid_t pid = 0, child;
	char num[48];
	FILE *f;

	series = xasprintf(ME "-%d-series", (int)getpid());
	catch_signals(true, true);
	/* a SIGINT before or while recording ends the recording */
	int_stops(true);
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-I") || !strcmp(a, "-r") || !strcmp(a, "-o") ||
		    !strcmp(a, "-t") || !strcmp(a, "-p") || !strcmp(a, "-e")) {
			if (i + 1 >= argc)
				usage();
			switch (a[1]) {
			case 'I':
				ival = argv[++i];
				break;
			case 'r':
				nrec = argv[++i];
				break;
			case 'o':
				out = argv[++i];
				break;
			case 't':
				secs = argv[++i];
				break;
			case 'p':
				pidarg = argv[++i];
				break;
			default:
				ev = xrealloc(ev, (nev + 1) * sizeof(*ev));
				memset(&ev[nev], 0, sizeof(*ev));
				ev[nev].name = xasprintf(ME "-%d-%d", (int)getpid(), ++n);
				ev[nev].label = argv[++i];
				ev[nev].mine = true;
				nev++;
				named_only = false;
			}
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (a[0] == '-') {
			usage();
		} else {
			ev = xrealloc(ev, (nev + 1) * sizeof(*ev));
			memset(&ev[nev], 0, sizeof(*ev));
			ev[nev].name = xstrdup(a);
			ev[nev].label = a;
			nev++;
		}
	}
	argv += i;
	argc -= i;
	if (out && !*out)
		out = NULL;
	if (secs && !*secs)
		secs = NULL;
	if (pidarg && !*pidarg)
		pidarg = NULL;
	if (!*ival)
		die("record needs -I INTERVAL (e.g. -I 10ms)");
	if (!nev)
		die("no counters: name one, or an event with -e");
	if (!all_digits(nrec))
		die("-r takes a number");
	if (secs && !seconds_ns(secs, &tns))
		die("-t takes seconds");
	if (secs && argc)
		die("-t is for a recording without COMMAND");
	if (pidarg && !all_digits(pidarg))
		die("-p takes a process id");
	if (pidarg) {
		u64 v;

		if (argc)
			die("-p is for a recording without COMMAND");
		if (!parse_u64(pidarg, &v) || v > INT32_MAX || kill((pid_t)v, 0) < 0)
			die("-p %s: no such process", pidarg);
		pid = (pid_t)v;
		if (named_only)
			die("-p: NAMEd counters are not the process's: name events with -e");
	}
	if (out) {
		struct stat st;

		dir = dir_of(out);
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			die("%s: no such directory", out);
		free(dir);
	}
	need_dir();
	/* the rings hold a second of intervals: the drains come every 0.2 s */
	ns = interval_ns(ival);
	if (!*nrec && ns) {
		records = 4096;
		while (ns < NSEC && records * ns < NSEC && records < 1048576)
			records *= 2;
	}

	/*
	 * The counters: -e events made disabled, NAMEd ones as they are
	 * (their values now are where their deltas start).
	 */
	for (i = 0; i < nev; i++) {
		if (!ev[i].mine) {
			if (!base(&prev, i))
				die("no all-CPUs counter named %s", ev[i].name);
			continue;
		}
		wrap = xasprintf(",%s,", ev[i].label);
		if (strstr(wrap, ",cpu=") || strstr(wrap, ",pid="))
			die("%s: record takes events of all CPUs or of -p PID (no cpu=, no pid=)",
			    ev[i].label);
		spec = xasprintf("%s%s", ev[i].label,
				 strstr(wrap, ",disabled,") ? "" : ",disabled");
		if (pid) {
			p = spec;
			spec = xasprintf("%s,pid=%d", p, (int)pid);
			free(p);
		}
		free(wrap);
		/* a temporary before it exists: a signal meanwhile leaks nothing */
		temp_add(ev[i].name, false);
		cmd = xasprintf("add %s %s", ev[i].name, spec);
		if (ctl(cmd, true)) {
			temp_drop_last();
			why = last_error();
			if (lacks(why)) {
				p = strstr(why, ": add ");
				if (p)
					*p = '\0';
				die("%s: this machine cannot count it (%s)", ev[i].label, why);
			}
			ctl_complain(cmd);
			exit(1);
		}
		free(cmd);
		free(spec);
	}
	temp_add(series, true);
	sb_printf(&sb, "series %s %s", series, ival);
	if (*nrec)
		sb_printf(&sb, ",records=%s", nrec);
	else if (ns)
		sb_printf(&sb, ",records=%llu", (unsigned long long)records);
	for (i = 0; i < nev; i++)
		sb_printf(&sb, " %s", ev[i].name);
	if (ctl(sb.buf, false))
		exit(1);
	sb_free(&sb);
	if (!ns)
		die("-I %s: not understood", ival);
	records_path = dbg_path("series/%s/records", series);
	for (i = 0; i < nev; i++) {
		if (!ev[i].mine)
			continue;
		cmd = xasprintf("enable %s", ev[i].name);
		if (ctl(cmd, false))
			exit(1);
		free(cmd);
	}

	/*
	 * Recording: a drain every 0.2 s. A COMMAND's end is waited for as
	 * SIGCHLD (held, taken by sigtimedwait), -p's process looked for every
	 * 0.1 s, as perfkstat's own wakeups count on a CPU too.
	 */
	next_drain = mono_ns();
	deadline = next_drain + tns;
	if (argc) {
		sigset_t chld, old;
		struct timespec ts = { 0, DRAIN_NS };

		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, &old);
		/* a caught signal waits for the command, as for a shell's */
		defer_signals(true);
		child = run_command(argv);
		for (;;) {
			drain(&raw);
			if (waitpid(child, &status, WNOHANG) == child) {
				rc = WIFSIGNALED(status) ? 128 + WTERMSIG(status) :
					WEXITSTATUS(status);
				break;
			}
			sigtimedwait(&chld, NULL, &ts);
		}
		sigprocmask(SIG_SETMASK, &old, NULL);
		defer_signals(false);
	} else {
		while (!stop_requested()) {
			u64 now = mono_ns(), step = pid ? DRAIN_NS / 2 : DRAIN_NS;

			if (pid && kill(pid, 0) < 0)
				break;
			if (secs && now >= deadline)
				break;
			if (now >= next_drain) {
				drain(&raw);
				next_drain = now + DRAIN_NS;
			}
			if (next_drain - now < step)
				step = next_drain - now;
			if (secs && deadline - now < step)
				step = deadline - now;
			/* SIGINT cuts it short */
			sleep_ns(step);
		}
	}
	int_stops(false);

	for (i = 0; i < nev; i++) {
		if (!ev[i].mine)
			continue;
		cmd = xasprintf("disable %s", ev[i].name);
		if (ctl(cmd, false))
			exit(1);
		free(cmd);
	}
	drain(&raw);
	/*
	 * 10 s and 10 intervals at most, in steps of 50 ms: a timer comes
	 * late on a loaded or emulated machine, and waiting for it costs only
	 * then. A process records only when it runs, and its last record
	 * holds what it counted until it last left a CPU: no waiting for
	 * every CPU, one more drain.
	 */
	cpus = online_cpus(&ncpus);
	t0 = mono_ns();
	deadline = ns > (UINT64_MAX - t0 - 10 * NSEC) / 10 ? UINT64_MAX :
		t0 + 10 * NSEC + 10 * ns;
	if (pid) {
		sleep_ns(50000000);
		drain(&last);
	} else {
		while (!settled(&last, cpus, ncpus)) {
			if (mono_ns() > deadline) {
				warn("warning: a CPU did not record after the counters stopped");
				break;
			}
			sleep_ns(50000000);
			drain(&last);
		}
	}
	if (last.len)
		sb_add(&raw, last.buf, last.len);
	p = dbg_path("series/%s/dropped", series);
	dropped = read_text(p);
	free(p);
	p = dbg_path("series/%s/skipped", series);
	skipped = read_text(p);
	free(p);
	for (i = 0; i < nev; i++) {
		if (!ev[i].mine)
			continue;
		p = dbg_path("counters/%s/value", ev[i].name);
		ev[i].final = read_text(p);
		free(p);
	}
	release();

	/*
	 * Deltas per CPU in record order (of a process: in time order, over
	 * all CPUs), then sorted by time and CPU.
	 */
	rows = deltas(&raw, pid ? &task : &prev, pid != 0, &nrows, &nrcpus);
	if (out) {
		f = fopen(out, "w");
		if (!f)
			die("could not write %s: %s", out, strerror(errno));
		write_csv(f, rows, nrows);
		if (fclose(f) == EOF)
			die("could not write %s: %s", out, strerror(errno));
	} else {
		write_csv(stdout, rows, nrows);
		flush_stdout();
	}

	/* the summary; a temporary counter's total is its value */
	warn("%d records, %d CPUs, %s dropped, %s intervals skipped", nrows, nrcpus,
	     dropped ? dropped : "", skipped ? skipped : "");
	for (i = 0; i < nev; i++) {
		fmt_s128(num, ev[i].sum);
		if (!ev[i].mine) {
			warn("%s total %s", ev[i].label, num);
			continue;
		}
		warn("%s total %s, counter %s", ev[i].label, num, ev[i].final ? ev[i].final : "");
		if (!ev[i].final || strcmp(num, ev[i].final))
			warn("warning: %s: the records sum to %s, the counter read %s%s%s",
			     ev[i].label, num, ev[i].final ? ev[i].final : "",
			     pid ? after_last : "", pid ? why_after : "");
	}
	return rc;
}

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

/*
 * A CPU number above any kernel's (NR_CPUS is 8192 at most): a record of
 * a higher one is malformed, and the tables indexed by CPU stay small.
 */
#define CPU_LIMIT (1024 * 1024)

/*
 * The records, binary, in one array grown by doubling: a row is a record's
 * time and CPU, a value per event, and a bit per event set when the kernel
 * could not read it ("-" in the records file). The values are what the
 * counters read until deltas() makes them what each counted since the
 * previous record: differences of counts below 2^63 (a perf count is an
 * s64 in the kernel; a record with a higher one is malformed), so an s64
 * each.
 */
struct row {
	u64 time;
	u32 cpu;
	u32 unused;
	s64 v[];	/* nev values, then the bits, in u64 words */
};

static struct {
	char *buf;
	size_t n, cap, size;	/* rows, rows allocated, bytes a row */
} rows;

static struct row *row_at(size_t k)
{
	return (struct row *)(rows.buf + k * rows.size);
}

static u64 *missing(struct row *r)
{
	return (u64 *)&r->v[nev];
}

static void rows_init(void)
{
	rows.size = sizeof(struct row) + nev * sizeof(s64) +
		(nev + 63) / 64 * sizeof(u64);
}

static struct row *row_new(void)
{
	struct row *r;

	if (rows.n == rows.cap) {
		rows.cap = rows.cap ? 2 * rows.cap : 1024;
		if (rows.cap > SIZE_MAX / rows.size)
			die("out of memory");
		rows.buf = xrealloc(rows.buf, rows.cap * rows.size);
	}
	r = row_at(rows.n++);
	memset(r, 0, rows.size);
	return r;
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

/* count: S is a count, a number below 2^63, into V */
static bool count(const char *s, u64 *v)
{
	return parse_u64(s, v) && *v <= INT64_MAX;
}

/*
 * parse: a record, "TIME CPU VALUE..." ("-" for a value not read), as a
 * new row; a malformed one is said and left out
 */
static void parse(const char *line, char **f)
{
	char *copy = xstrdup(line);
	struct row *r = NULL;
	u64 t, cpu, v;
	int i;

	if (fields(copy, f, nev + 2) != nev + 2 || !parse_u64(f[0], &t) ||
	    !parse_u64(f[1], &cpu) || cpu >= CPU_LIMIT)
		goto bad;
	r = row_new();
	r->time = t;
	r->cpu = cpu;
	for (i = 0; i < nev; i++) {
		if (!strcmp(f[i + 2], "-"))
			missing(r)[i / 64] |= 1ULL << (i % 64);
		else if (count(f[i + 2], &v))
			r->v[i] = (s64)v;
		else
			goto bad;
	}
	free(copy);
	return;
bad:
	if (r)
		rows.n--;
	warn("warning: a malformed record: %s", line);
	free(copy);
}

/*
 * drain: the records the series holds now, as rows; false when they
 * cannot be read (the series is gone: deleted by hand, or perfkmod
 * unloaded), which is said once
 */
static bool drain(void)
{
	static struct sbuf sb;
	static char **f;
	static bool warned;
	char *text, *line;

	if (!f)
		f = xmalloc((nev + 2) * sizeof(*f));
	sb.len = 0;
	if (read_all(records_path, &sb) < 0) {
		if (!warned)
			warn("warning: cannot read the records: %s: %s", records_path,
			     strerror(errno));
		warned = true;
		return false;
	}
	text = sb.buf;
	while ((line = next_line(&text)))
		parse(line, f);
	return true;
}

/* settled: every online CPU recorded twice in the rows from FROM on */
static bool settled(size_t from, const int *cpus, int ncpus)
{
	int *seen = xmalloc(ncpus * sizeof(*seen)), i;
	bool ok = true;
	size_t k;

	memset(seen, 0, ncpus * sizeof(*seen));
	for (k = from; k < rows.n; k++)
		for (i = 0; i < ncpus; i++)
			if (row_at(k)->cpu == (u32)cpus[i])
				seen[i]++;
	for (i = 0; i < ncpus; i++)
		if (seen[i] < 2)
			ok = false;
	free(seen);
	return ok;
}

/* rows in time order; rows of the same time by CPU, then by content */
static int by_time(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return memcmp(x->v, y->v, rows.size - sizeof(*x));
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
		n = p->ncpus ? 2 * p->ncpus : 64;
		if (n <= cpu)
			n = cpu + 1;
		p->v = xrealloc(p->v, n * nev * sizeof(*p->v));
		memset(p->v + p->ncpus * nev, 0, (n - p->ncpus) * nev * sizeof(*p->v));
		p->ncpus = n;
	}
	return &p->v[cpu * nev + i];
}

/*
 * deltas: the rows' values made what each event counted since the
 * previous record of its CPU (with TASK, of the process, over all CPUs,
 * the records first put in time order), then the rows sorted by time and
 * CPU. Counts the CPUs.
 */
static void deltas(struct prevs *prev, bool task, int *ncpus)
{
	unsigned char *seen = NULL;
	size_t k, nseen = 0;
	struct row *r;
	u64 v, *p;
	s128 d;
	int i;

	if (task)
		qsort(rows.buf, rows.n, rows.size, by_time);
	*ncpus = 0;
	for (k = 0; k < rows.n; k++) {
		r = row_at(k);
		for (i = 0; i < nev; i++) {
			if (missing(r)[i / 64] & (1ULL << (i % 64)))
				continue;
			v = (u64)r->v[i];
			p = prev_of(prev, task ? 0 : r->cpu, i);
			d = (s128)v - (s128)*p;
			*p = v;
			ev[i].sum += d;
			r->v[i] = (s64)d;
		}
		if (r->cpu / 8 >= nseen) {
			size_t n = r->cpu / 8 + 1;

			seen = xrealloc(seen, n);
			memset(seen + nseen, 0, n - nseen);
			nseen = n;
		}
		if (!(seen[r->cpu / 8] & (1 << (r->cpu % 8)))) {
			seen[r->cpu / 8] |= 1 << (r->cpu % 8);
			(*ncpus)++;
		}
	}
	free(seen);
	qsort(rows.buf, rows.n, rows.size, by_time);
}

/* write_csv: the header and the rows to F */
static void write_csv(FILE *f)
{
	struct row *r;
	const char *p;
	size_t k;
	u64 t0;
	int i;

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
	t0 = rows.n ? row_at(0)->time : 0;
	for (k = 0; k < rows.n; k++) {
		r = row_at(k);
		/* seconds since the first record, as printf's %.6f rounds them */
		fprintf(f, "%.6f,%u", (double)(r->time - t0) / 1e9, r->cpu);
		for (i = 0; i < nev; i++) {
			if (missing(r)[i / 64] & (1ULL << (i % 64)))
				fputs(",", f);
			else
				fprintf(f, ",%lld", (long long)r->v[i]);
		}
		fputc('\n', f);
	}
}

/* base: a NAMEd counter's values per CPU now, where its deltas start */
static bool base(struct prevs *prev, int i)
{
	char *path = dbg_path("counters/%s/percpu", ev[i].name), *s, *line;
	char *save = NULL, *f[2];
	u64 cpu, v;

	s = read_text(path);
	free(path);
	if (!s)
		return false;
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (fields(line, f, 2) < 2)
			continue;
		if (parse_u64(f[0], &cpu) && cpu < CPU_LIMIT && count(f[1], &v))
			*prev_of(prev, cpu, i) = v;
	}
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
	struct sbuf sb = { 0 };
	/* the previous values per CPU, from the NAMEd ones' bases; of -p's process */
	struct prevs prev = { 0 }, task = { 0 };
	u64 ns, records = 0, tns = 0, deadline, next_drain, t0;
	int i, n = 0, rc = 0, ncpus, nrcpus, status, *cpus;
	bool named_only = true;
	size_t from;
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
	/* milliseconds, as perf's and stat's -I, without a unit */
	if (all_digits(ival))
		ival = xasprintf("%sms", ival);
	if (!nev)
		die("no counters: name one, or an event with -e");
	rows_init();
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
		/* (kill(0, 0) would find perfkstat's own process group) */
		if (!parse_u64(pidarg, &v) || !v || v > INT32_MAX || kill((pid_t)v, 0) < 0)
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
	if (!duration_ns(ival, &ns))
		ns = 0;
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
	if (ctl(sb.buf, false)) {
		temp_drop(series);
		exit(1);
	}
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
			drain();
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
				drain();
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
	drain();
	/*
	 * 10 s and 10 intervals at most, in steps of 50 ms: a timer comes
	 * late on a loaded or emulated machine, and waiting for it costs only
	 * then. A process records only when it runs, and its last record
	 * holds what it counted until it last left a CPU: no waiting for
	 * every CPU, one more drain.
	 */
	cpus = cpu_list("/sys/devices/system/cpu/online", &ncpus);
	t0 = mono_ns();
	deadline = ns > (UINT64_MAX - t0 - 10 * NSEC) / 10 ? UINT64_MAX :
		t0 + 10 * NSEC + 10 * ns;
	from = rows.n;
	if (pid) {
		sleep_ns(50000000);
		drain();
	} else {
		while (!settled(from, cpus, ncpus)) {
			if (mono_ns() > deadline) {
				warn("warning: a CPU did not record after the counters stopped");
				break;
			}
			sleep_ns(50000000);
			/* no series, no waiting for its records */
			if (!drain())
				break;
		}
	}
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
	deltas(pid ? &task : &prev, pid != 0, &nrcpus);
	if (out) {
		f = fopen(out, "w");
		if (!f)
			die("could not write %s: %s", out, strerror(errno));
		write_csv(f);
		if (fclose(f) == EOF)
			die("could not write %s: %s", out, strerror(errno));
	} else {
		write_csv(stdout);
		flush_stdout();
	}

	/* the summary; a temporary counter's total is its value */
	warn("%zu records, %d CPUs, %s dropped, %s intervals skipped", rows.n, nrcpus,
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

// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat stat [options] [command [args]]: perf stat over perfkmod.
 *
 * What is counted, as perf stat counts it:
 *  - a command (without -a, -p or -t): task counters on it with inherit,
 *    made before it execs and enabled by its exec, so that it and its
 *    children are counted and nothing else;
 *  - -a: all-CPUs counters, while the command runs or until SIGINT;
 *  - -p PID / -t TID: a task counter per thread of PID (or on TID);
 *  - none of these: the named counters (-k NAME, or all of them), now,
 *    or with -I in each interval.
 * The -e events (perf's default set if none is named) are temporary
 * counters, deleted however perfkstat ends. A row sums a counter's
 * deltas over the CPUs (or threads) of its place, each scaled to its
 * enabled time first, as perf does (a row of all CPUs scales the sum the
 * kernel gives in one read of list); stat-display.c prints them.
 */
#include <dirent.h>
#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "stat.h"
#include "workload.h"

/* a perfkmod counter that a row sums */
struct counter {
	char *name;
	int event;
	int place;		/* a task counter's place (0 but per thread) */
	int cpu;		/* a CPU counter's CPU, else -1 */
	bool percpu;		/* all CPUs: read per CPU */
};

/* one read of a counter on a CPU (or of a counter that is not per CPU) */
struct sample {
	u64 val, ena, run;
	bool present;
};

static struct stat_event *events;
static int nevents;
static struct counter *counters;
static int ncounters;
static struct aggr_id *places;
static int nplaces;
static char **comms;
static int *tids, nthreads;
static int *place_of_cpu;	/* per-CPU modes: a CPU's place, or -1 */
static int ncpu_slots;		/* CPUs 0..ncpu_slots-1 */

/* perf's default events; the first, the clock, is the target's */
static char *default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};

enum target { T_NAMED, T_SYSTEM, T_TASKS, T_COMMAND };

static struct {
	enum target target;
	enum aggr_mode mode;
	char **specs, **labels, **names;	/* labels: the specs as typed */
	int nspecs, nnames;
	const char *pids, *tids, *output;
	bool append, json, big_num;
	const char *sep;
	u64 interval_ns, interval_count;
} opt = { .big_num = true };

static int add_event(const char *label, const char *spec)
{
	struct stat_event *ev;
	const char *colon, *end = spec + strcspn(spec, ",");
	char *name;

	events = xrealloc(events, (nevents + 1) * sizeof(*events));
	ev = &events[nevents];
	colon = memchr(spec, ':', end - spec);
	name = xasprintf("%.*s", (int)((colon ? colon : end) - spec), spec);
	ev->label = xstrdup(label);
	ev->modifiers = colon ? xasprintf("%.*s", (int)(end - colon - 1),
					  colon + 1) : xstrdup("");
	ev->type = stat_type_of(name);
	ev->msec = ev->type == ST_NSECS;
	ev->supported = true;
	free(name);
	return nevents++;
}

static void add_counter(char *name, int event, int place, int cpu, bool percpu)
{
	struct counter *c;

	/* a row of all CPUs (or a thread) sums in the kernel */
	if (opt.mode == AGGR_GLOBAL || opt.mode == AGGR_THREAD)
		percpu = false;

	counters = xrealloc(counters, (ncounters + 1) * sizeof(*counters));
	c = &counters[ncounters++];
	c->name = name;
	c->event = event;
	c->place = place;
	c->cpu = cpu;
	c->percpu = percpu;
}

/* a ,-separated list of numbers; false if it is not one */
static bool id_list(const char *s, int **ids, int *n)
{
	char *copy = xstrdup(s), *tok, *save = NULL;
	u64 v;

	*n = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!parse_u64(tok, &v) || !v || v > 0x7fffffff) {
			free(copy);
			return false;
		}
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = (int)v;
	}
	free(copy);
	return *n > 0;
}

static char *comm_of(int pid, int tid)
{
	char *path = xasprintf("/proc/%d/task/%d/comm", pid, tid);
	char *text = read_text(path);

	free(path);
	if (!text)
		return xstrdup("?");
	text[strcspn(text, "\n")] = '\0';
	return text;
}

static void add_thread(int pid, int tid)
{
	comms = xrealloc(comms, (nthreads + 1) * sizeof(*comms));
	tids = xrealloc(tids, (nthreads + 1) * sizeof(*tids));
	comms[nthreads] = comm_of(pid, tid);
	tids[nthreads++] = tid;
}

/* the threads -p or -t names, each a place */
static void find_threads(void)
{
	int *ids = NULL, n, i;
	struct dirent *d;
	char *path;
	DIR *dp;

	if (!id_list(opt.pids ? opt.pids : opt.tids, &ids, &n))
		die("%s takes process ids: %s", opt.pids ? "-p" : "-t",
		    opt.pids ? opt.pids : opt.tids);
	for (i = 0; i < n; i++) {
		if (opt.tids) {
			if (kill(ids[i], 0) && errno == ESRCH)
				die("thread %d not found", ids[i]);
			add_thread(ids[i], ids[i]);
			continue;
		}
		path = xasprintf("/proc/%d/task", ids[i]);
		dp = opendir(path);
		free(path);
		if (!dp)
			die("process %d not found", ids[i]);
		while ((d = readdir(dp)))
			if (d->d_name[0] != '.')
				add_thread(ids[i], atoi(d->d_name));
		closedir(dp);
	}
	free(ids);
}

static int by_place(const void *a, const void *b)
{
	return aggr_id_cmp(a, b);
}

/* the places of a per-CPU mode: the online CPUs' distinct ids, in order */
static void find_places(void)
{
	struct aggr_id *ids;
	int *cpus, n, i, j;

	cpus = online_cpu_list(&n);
	ids = xmalloc(n * sizeof(*ids));
	place_of_cpu = xmalloc(ncpu_slots * sizeof(*place_of_cpu));
	for (i = 0; i < ncpu_slots; i++)
		place_of_cpu[i] = -1;
	/* each CPU's id read once from sysfs (a cache's takes a dozen files) */
	for (i = 0; i < n; i++) {
		aggr_id_of_cpu(cpus[i], opt.mode, &ids[i]);
		for (j = 0; j < nplaces; j++)
			if (!aggr_id_cmp(&ids[i], &places[j]))
				break;
		if (j == nplaces) {
			places = xrealloc(places, (nplaces + 1) * sizeof(*places));
			places[nplaces++] = ids[i];
		}
	}
	qsort(places, nplaces, sizeof(*places), by_place);
	for (i = 0; i < n; i++)
		for (j = 0; j < nplaces; j++)
			if (!aggr_id_cmp(&ids[i], &places[j]) && cpus[i] < ncpu_slots)
				place_of_cpu[cpus[i]] = j;
	free(ids);
	free(cpus);
}

/* a named counter: its event from its spec, its CPUs from its target */
static void add_named(const struct list_entry *l)
{
	bool percpu = !strcmp(l->target, "all");
	bool cpu = !strncmp(l->target, "cpu=", 4);
	int e;

	if (opt.mode != AGGR_GLOBAL && !percpu && !cpu)
		die("counter %s counts a task (%s): no CPUs to show per CPU",
		    l->name, l->target);
	e = add_event(l->name, l->spec);
	add_counter(xstrdup(l->name), e, 0, cpu ? atoi(l->target + 4) : -1,
		    percpu);
}

/* the counters -k names, or all of them, from one read of list */
static void add_all_named(void)
{
	struct list_entry *l;
	int n = read_list(&l), i, k;

	for (k = 0; k < (opt.nnames ? opt.nnames : 1); k++) {
		for (i = 0; i < n; i++)
			if (!opt.nnames || !strcmp(l[i].name, opt.names[k]))
				add_named(&l[i]);
		if (opt.nnames && ncounters == k)
			die("no counter named %s", opt.names[k]);
	}
	free_list(l, n);
}

/* gone: WHY says the task is no more (a thread that ended meanwhile) */
static bool gone(const char *why)
{
	return !strncmp(why, "-ESRCH:", 7) || !strncmp(why, "-3:", 3);
}

/*
 * make_temporary: a temporary counter of SPEC (with TARGET's options) in
 * PLACE for event E; false if the machine lacks the event. Any other
 * refusal ends perfkstat with the kernel's reason.
 */
static bool make_temporary(int e, const char *spec, const char *target, int place)
{
	static int seq;
	char *name = xasprintf(ME "-%d-%d", (int)getpid(), ++seq);
	char *cmd = xasprintf("add %s %s%s", name, spec, target);
	char *why;

	/* registered first: a signal during the add leaks nothing */
	temp_add(name, false);
	if (!ctl(cmd, true)) {
		add_counter(name, e, place, -1, opt.target == T_SYSTEM);
		free(cmd);
		return true;
	}
	temp_drop_last();
	why = last_error();
	if (!lacks(why) && !(opt.target == T_TASKS && gone(why))) {
		ctl_complain_as(cmd, events[e].label);
		exit(1);
	}
	free(why);
	free(name);
	free(cmd);
	return false;
}

static void make_temporaries(pid_t child)
{
	char *target;
	int i, e, p, made;

	for (i = 0; i < opt.nspecs; i++) {
		e = add_event(opt.labels[i], opt.specs[i]);
		made = 0;
		if (opt.target == T_SYSTEM) {
			made = make_temporary(e, opt.specs[i], "", 0);
		} else if (opt.target == T_COMMAND) {
			target = xasprintf(",pid=%d,inherit,enable_on_exec", (int)child);
			made = make_temporary(e, opt.specs[i], target, 0);
			free(target);
		} else {
			for (p = 0; p < nthreads; p++) {
				/* as perf's -p and -t: threads made later count too */
				target = xasprintf(",pid=%d,inherit", tids[p]);
				made += make_temporary(e, opt.specs[i], target,
						       opt.mode == AGGR_THREAD ? p : 0);
				free(target);
			}
		}
		events[e].supported = made > 0;
	}
}

/* read_counter: C's samples into S (by CPU, or S[0]) */
static void read_counter(const struct counter *c, struct sample *s)
{
	char *path, *text, *p, *line;
	u64 f[4];
	int k;

	path = dbg_path("counters/%s/%s", c->name, c->percpu ? "percpu" : "stat");
	text = read_text(path);
	free(path);
	if (!text)
		die("counter %s is gone", c->name);
	p = text;
	while ((line = next_line(&p))) {
		for (k = 0; k < 4; k++) {
			line += strspn(line, " \t");
			f[k] = leading_u64(line);
			line += strcspn(line, " \t");
		}
		if (!c->percpu) {
			s[0] = (struct sample){ f[0], f[1], f[2], true };
			break;
		}
		if (f[0] < (u64)ncpu_slots)
			s[f[0]] = (struct sample){ f[1], f[2], f[3], true };
	}
	free(text);
}

/* the slots of a read: a sample per counter and possible CPU */
static size_t nslots(void)
{
	return (size_t)ncounters * ncpu_slots;
}

/*
 * snapshot: every counter now. A row of every CPU (or a thread) comes
 * from one read of list, every counter at one time; per-CPU rows from
 * each counter's percpu file.
 */
static void snapshot(struct sample *s)
{
	struct list_entry *l;
	int i, j, n;

	memset(s, 0, nslots() * sizeof(*s));
	if (opt.mode != AGGR_GLOBAL && opt.mode != AGGR_THREAD) {
		for (i = 0; i < ncounters; i++)
			read_counter(&counters[i], s + (size_t)i * ncpu_slots);
		return;
	}
	n = read_list(&l);
	for (i = 0; i < ncounters; i++) {
		for (j = 0; j < n && strcmp(l[j].name, counters[i].name); j++)
			;
		if (j == n)
			die("counter %s is gone", counters[i].name);
		s[(size_t)i * ncpu_slots] = (struct sample){ l[j].value,
			l[j].enabled, l[j].running, true };
	}
	free_list(l, n);
}

/*
 * add: one delta, scaled to its enabled time as perf scales it, to SUM.
 * A counter reset meanwhile whose value went back counted its value
 * since (what it counted before the reset in the interval is lost; a
 * reset after which it passed its previous value goes unseen).
 */
static void add(struct stat_sum *sum, const struct sample *cur,
		const struct sample *prev)
{
	static const struct sample zero;
	u64 val, ena, run;

	/* a reset sets the value back, not the times */
	val = cur->val - (cur->val < prev->val ? 0 : prev->val);
	if (cur->ena < prev->ena || cur->run < prev->run)
		prev = &zero;	/* a counter made anew under the name */
	ena = cur->ena - prev->ena;
	run = cur->run - prev->run;

	sum->nr++;
	sum->ena += ena;
	sum->run += run;
	if (run && run < ena)
		sum->val += (u128)val * ena / run;
	else if (run)
		sum->val += val;
}

/* the place of C's counts on CPU (-1: none, or not per CPU) */
static int place_of(const struct counter *c, int cpu)
{
	if (opt.mode == AGGR_GLOBAL)
		return 0;
	if (opt.mode == AGGR_THREAD)
		return c->place;
	return cpu >= 0 && cpu < ncpu_slots ? place_of_cpu[cpu] : -1;
}

/* sums: the rows of CUR - PREV (PREV NULL: of CUR) */
static void sums(struct stat_sum *out, const struct sample *cur,
		 const struct sample *prev)
{
	static const struct sample zero;
	const struct sample *s, *p;
	const struct counter *c;
	int i, cpu, place;

	memset(out, 0, (size_t)nevents * nplaces * sizeof(*out));
	for (i = 0; i < ncounters; i++) {
		c = &counters[i];
		for (cpu = 0; cpu < (c->percpu ? ncpu_slots : 1); cpu++) {
			s = cur + (size_t)i * ncpu_slots + cpu;
			p = prev && prev[s - cur].present ? prev + (s - cur) : &zero;
			if (!s->present)
				continue;	/* no event on this CPU now */
			place = place_of(c, c->percpu ? cpu : c->cpu);
			if (place >= 0)
				add(&out[c->event * nplaces + place], s, p);
		}
	}
}

static struct stat_out out;

static void print_block(const struct sample *cur, const struct sample *prev,
			struct stat_sum *sum)
{
	sums(sum, cur, prev);
	out.sums = sum;
	print_rows(&out);
}

enum waited { W_DEADLINE, W_CHILD, W_END };

/*
 * wait_for: until DEADLINE (0: none), the command's end (CHILD, reaped
 * into STATUS and RU), the end of every -p task, or SIGINT. SIGCHLD is
 * held, taken by sigtimedwait; SIGINT, caught, interrupts it.
 */
static enum waited wait_for(u64 deadline, pid_t child, int *status,
			    struct rusage *ru)
{
	sigset_t chld;
	u64 now, step;
	struct timespec ts;
	int i, alive;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	for (;;) {
		if (child > 0 && wait4(child, status, WNOHANG, ru) == child)
			return W_CHILD;
		if (stop_requested())
			return W_END;
		if (opt.target == T_TASKS && child <= 0) {
			for (i = alive = 0; i < nthreads && !alive; i++)
				alive = !kill(tids[i], 0) || errno != ESRCH;
			if (!alive)
				return W_END;
		}
		now = mono_ns();
		if (deadline && now >= deadline)
			return W_DEADLINE;
		step = deadline ? deadline - now : 1000000000;
		if (opt.target == T_TASKS && child <= 0 && step > 100000000)
			step = 100000000;	/* as perf looks for its tasks */
		ts.tv_sec = step / 1000000000;
		ts.tv_nsec = step % 1000000000;
		sigtimedwait(&chld, NULL, &ts);
	}
}

/* what the table's "Performance counter stats for" is for */
static char *what_is_counted(char **argv, int argc)
{
	char *all, *what;

	switch (opt.target) {
	case T_SYSTEM:
		return xstrdup("'system wide'");
	case T_TASKS:
		return opt.pids ? xasprintf("process id '%s'", opt.pids) :
			xasprintf("thread id '%s'", opt.tids);
	case T_COMMAND:
		all = join_args(argv, argc);
		what = xasprintf("'%s'", all);
		free(all);
		return what;
	default:
		return xstrdup("perfkmod counters");
	}
}

static FILE *open_output(void)
{
	time_t now;
	FILE *f;

	if (!opt.output)
		return stderr;
	f = fopen(opt.output, opt.append ? "a" : "w");
	if (!f)
		die("%s: %s", opt.output, strerror(errno));
	if (!opt.json) {
		now = time(NULL);
		fprintf(f, "# started on %s\n", ctime(&now));
	}
	return f;
}

/* reap: wait for PID's end, into STATUS and RU */
static void reap(pid_t pid, int *status, struct rusage *ru)
{
	while (wait4(pid, status, 0, ru) < 0)
		if (errno != EINTR)
			die("wait4: %s", strerror(errno));
}

/*
 * start: let the command go; its exec's failure ends perfkstat, with 127
 * (not found) or 126, as a shell's
 */
static void start(struct workload *w, char **argv)
{
	int e = workload_start(w), status;
	struct rusage ru;

	if (!e)
		return;
	reap(w->pid, &status, &ru);
	warn("%s: %s", argv[0], strerror(e));
	exit(e == ENOENT ? 127 : 126);
}

static int measure(char **argv, int argc)
{
	struct sample *prev, *cur, *tmp;
	struct workload w = { .pid = -1 };
	struct rusage ru = { 0 };
	enum waited how = W_DEADLINE;
	struct stat_sum *sum;
	sigset_t chld, old;
	u64 t0, t1, next, n = 0;
	int status = 0;
	char *what;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	if (argc)
		workload_prepare(&w, argv);
	if (opt.target == T_NAMED) {
		add_all_named();
		if (!ncounters)
			die("no counters: add one, or count a command or -a");
	}
	make_temporaries(w.pid);
	sum = xmalloc((size_t)nevents * nplaces * sizeof(*sum) + 1);
	cur = xmalloc(nslots() * sizeof(*cur) + 1);
	prev = xmalloc(nslots() * sizeof(*prev) + 1);
	out.f = open_output();
	out.nevents = nevents;
	out.events = events;
	out.naggr = nplaces;
	out.aggr = places;
	out.comms = comms;
	out.tids = tids;
	out.interval = opt.interval_ns;

	if (opt.target == T_NAMED && !opt.interval_ns) {
		/*
		 * The named counters' values now: each since it began, so
		 * no metric pairs one with another.
		 */
		out.no_metrics = true;
		snapshot(cur);
		what = what_is_counted(argv, argc);
		print_header(&out, what);
		free(what);
		print_block(cur, NULL, sum);
		if (out.fmt == FMT_STD)
			fputc('\n', out.f);
		goto done;
	}

	/*
	 * A snapshot reads the counters one after the other: the time is
	 * taken at its middle, the mean of their times.
	 */
	t0 = mono_ns();
	snapshot(prev);
	t0 += (mono_ns() - t0) / 2;
	/*
	 * SIGINT ends the counting, but that of a command without -I (as
	 * perf's): the command gets it too, and its end ends the counting.
	 */
	int_stops(!argc || opt.interval_ns);
	/* a signal but SIGINT waits for the command, as a shell's trap */
	defer_signals(argc);
	if (argc) {
		/* the command's counters count from its exec */
		if (opt.target == T_COMMAND)
			t0 = mono_ns();
		start(&w, argv);
	}
	if (opt.interval_ns) {
		out.wall_ns = opt.interval_ns;
		for (next = t0 + opt.interval_ns; how == W_DEADLINE;
		     next += opt.interval_ns) {
			how = wait_for(next, w.pid, &status, &ru);
			t1 = mono_ns();
			snapshot(cur);
			out.ts_ns = t1 + (mono_ns() - t1) / 2 - t0;
			print_header(&out, NULL);
			print_block(cur, prev, sum);
			fflush(out.f);
			tmp = prev;
			prev = cur;
			cur = tmp;
			if (opt.interval_count && ++n >= opt.interval_count)
				break;
		}
	} else {
		how = wait_for(0, w.pid, &status, &ru);
		t1 = mono_ns();
		snapshot(cur);
		if (opt.target != T_COMMAND)
			t1 += (mono_ns() - t1) / 2;
		out.wall_ns = t1 - t0;
		what = what_is_counted(argv, argc);
		print_header(&out, what);
		free(what);
		print_block(cur, prev, sum);
		print_footer(&out, out.wall_ns,
			     opt.target == T_COMMAND ? &ru.ru_utime : NULL,
			     &ru.ru_stime);
	}
	/* stopped by SIGINT or -I's count: the command goes on to its end */
	if (argc && how != W_CHILD)
		reap(w.pid, &status, &ru);
done:
	if (fflush(out.f) || (out.f != stderr && fclose(out.f)))
		die("%s: %s", opt.output ? opt.output : "stderr", strerror(errno));
	/* a signal that waited for the command ends perfkstat now */
	defer_signals(false);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(prev);
	free(cur);
	free(sum);
	if (!argc)
		return 0;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static const struct {
	const char *name;
	enum aggr_mode mode;
} modes[] = {
	{ "--per-core", AGGR_CORE }, { "--per-cache", AGGR_CACHE },
	{ "--per-cluster", AGGR_CLUSTER }, { "--per-die", AGGR_DIE },
	{ "--per-socket", AGGR_SOCKET }, { "--per-node", AGGR_NODE },
	{ "--per-thread", AGGR_THREAD }, { "-A", AGGR_NONE },
	{ "--no-aggr", AGGR_NONE },
};

/*
 * value_of: the value of the option at ARGV[*I] (is_opt() matched it):
 * after its name and "=", a short one's after its letter (-xSEP, -eSPEC),
 * or the next argument
 */
static const char *value_of(int argc, char **argv, int *i)
{
	const char *a = argv[*i], *eq = strchr(a, '=');

	if (eq && (a[1] == '-' || eq == a + 2))	/* --event=SPEC, -e=SPEC */
		return eq + 1;
	if (a[1] != '-' && a[2])
		return a + 2;
	if (*i + 1 >= argc)
		die("%s needs a value", a);
	return argv[++*i];
}

/*
 * add_specs: the events of -e's ARG, each as if given with an -e of its
 * own, as perf reads them (events.c), perfkmod's spec of each
 */
static void add_specs(const char *arg)
{
	struct event_spec *e;
	int n, k;

	e = event_specs(arg, &n);
	opt.specs = xrealloc(opt.specs, (opt.nspecs + n) * sizeof(char *));
	opt.labels = xrealloc(opt.labels, (opt.nspecs + n) * sizeof(char *));
	for (k = 0; k < n; k++) {
		opt.labels[opt.nspecs] = e[k].label;
		opt.specs[opt.nspecs++] = e[k].spec;
	}
	free(e);
}

static bool is_opt(const char *a, const char *name)
{
	size_t n = strlen(name);

	if (name[1] != '-')
		return !strncmp(a, name, 2);
	return !strncmp(a, name, n) && (a[n] == '\0' || a[n] == '=');
}

/*
 * thousands_sep: the locale's thousands' separator, as perf's "%'" prints
 * it (none in the C locale); NULL if none. Only that is taken of the
 * locale: the decimal point stays ".".
 */
static const char *thousands_sep(void)
{
	const char *sep = NULL;

	if (setlocale(LC_NUMERIC, "")) {
		sep = localeconv()->thousands_sep;
		sep = sep && *sep && strlen(sep) <= 8 ? xstrdup(sep) : NULL;
	}
	setlocale(LC_NUMERIC, "C");
	return sep;
}

/* stat_interval: -I's MS, or a number and ns, us, ms or s, in ns */
static u64 stat_interval(const char *s)
{
	u64 ns;

	if (!duration_ns(s, &ns))
		die("-I takes milliseconds, or a number and ns, us, ms or s: %s", s);
	if (ns < 100000)
		die("-I: the interval must be at least 100us");
	return ns;
}

int cmd_stat(int argc, char **argv)
{
	bool all = false;
	const char *v;
	size_t k;
	int i;

	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		for (k = 0; k < ARRAY_SIZE(modes); k++)
			if (!strcmp(a, modes[k].name))
				break;
		if (k < ARRAY_SIZE(modes)) {
			opt.mode = modes[k].mode;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--all-cpus")) {
			all = true;
		} else if (!strcmp(a, "--no-merge")) {
			;	/* one perfkmod counter is one row already */
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json-output")) {
			opt.json = true;
		} else if (!strcmp(a, "--append")) {
			opt.append = true;
		} else if (!strcmp(a, "-B") || !strcmp(a, "--big-num")) {
			opt.big_num = true;
		} else if (!strcmp(a, "--no-big-num")) {
			opt.big_num = false;
		} else if (is_opt(a, "-e") || is_opt(a, "--event")) {
			add_specs(value_of(argc, argv, &i));
		} else if (is_opt(a, "-k") || is_opt(a, "--counter")) {
			v = value_of(argc, argv, &i);
			opt.names = xrealloc(opt.names, (opt.nnames + 1) * sizeof(char *));
			opt.names[opt.nnames++] = (char *)v;
		} else if (is_opt(a, "-x") || is_opt(a, "--field-separator")) {
			opt.sep = value_of(argc, argv, &i);
		} else if (is_opt(a, "-o") || is_opt(a, "--output")) {
			opt.output = value_of(argc, argv, &i);
		} else if (is_opt(a, "-p") || is_opt(a, "--pid")) {
			opt.pids = value_of(argc, argv, &i);
		} else if (is_opt(a, "-t") || is_opt(a, "--tid")) {
			opt.tids = value_of(argc, argv, &i);
		} else if (is_opt(a, "-I") || is_opt(a, "--interval-print")) {
			v = value_of(argc, argv, &i);
			opt.interval_ns = stat_interval(v);
		} else if (is_opt(a, "--interval-count")) {
			v = value_of(argc, argv, &i);
			if (!parse_u64(v, &opt.interval_count) || !opt.interval_count)
				die("--interval-count takes a number of intervals: %s", v);
		} else {
			bad_option(a);
		}
	}
	argv += i;
	argc -= i;

	if (opt.json && opt.sep)
		die("-x and -j cannot go together");
	if (opt.sep && !strcmp(opt.sep, "\\t"))
		opt.sep = "\t";
	out.fmt = opt.json ? FMT_JSON : opt.sep ? FMT_CSV : FMT_STD;
	out.sep = opt.sep;
	out.thousands = opt.big_num ? thousands_sep() : NULL;
	out.mode = opt.mode;
	if (opt.interval_count && !opt.interval_ns)
		die("--interval-count needs -I");
	if ((opt.pids || opt.tids) && all)
		die("-p or -t, or -a: not both");
	if (opt.pids && opt.tids)
		die("-p or -t: not both");
	opt.target = all ? T_SYSTEM : opt.pids || opt.tids ? T_TASKS :
		argc ? T_COMMAND : T_NAMED;
	if (opt.target == T_NAMED && opt.nspecs)
		die("-e counts a command, -a (all CPUs) or -p/-t (tasks)");
	if (opt.target != T_NAMED && opt.nnames)
		die("-k shows named counters: not with a command, -a, -p or -t");
	if (opt.mode == AGGR_THREAD && opt.target != T_TASKS)
		die("--per-thread counts the threads of -p or -t");
	if (opt.mode != AGGR_GLOBAL && opt.mode != AGGR_THREAD &&
	    (opt.target == T_TASKS || opt.target == T_COMMAND))
		die("-A and --per-* are per CPU: with -a, or of named counters");
	if (opt.target != T_NAMED && !opt.nspecs) {
		/* perf's: task-clock for tasks, cpu-clock for CPUs */
		if (opt.target == T_SYSTEM)
			default_events[0] = "cpu-clock";
		opt.specs = default_events;
		opt.labels = default_events;
		opt.nspecs = ARRAY_SIZE(default_events);
	}

	need_dir();
	catch_signals(true, true);
	ncpu_slots = possible_cpus();
	if (opt.target == T_TASKS)
		find_threads();
	if (opt.mode == AGGR_GLOBAL || opt.mode == AGGR_THREAD) {
		nplaces = opt.mode == AGGR_THREAD ? nthreads : 1;
		places = xmalloc(nplaces * sizeof(*places));
		for (i = 0; i < nplaces; i++) {
			aggr_id_of_cpu(-1, AGGR_GLOBAL, &places[i]);
			places[i].thread = i;
		}
	} else {
		find_places();
	}
	return measure(argv, argc);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat stat [options] [command [args]]: perf stat over perfkmod.
 *
 * What is counted, as perf stat counts it:
 *  - a command (without -a, -p or -t): task counters on it with inherit,
 *    made before it execs and enabled by its exec, so that it and its
 *    children are counted and nothing else;
 *  - -a: all-CPUs counters, while the command runs or until SIGINT
 *    (or --timeout); -C LIST: a counter on each CPU of LIST, the same;
 *    events (-e, -d, -n) but no command or target: -a, as perf's;
 *  - -p PID / -t TID: a task counter per thread of PID (or on TID);
 *  - none of these: the named counters (-k NAME, or all of them), now,
 *    or with -I in each interval.
 * The -e events (perf's default set if none is named, and -d's) are
 * temporary counters, deleted however perfkstat ends; -r makes them anew
 * for each run, and shows each row's mean and its deviation, as perf. A row sums a counter's
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
#include "regions.h"
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
	bool append, json, big_num, all;
	const char *sep;
	u64 interval_ns, interval_count;
	const char *cpus;		/* -C, as typed */
	u64 repeat, delay_ms, timeout_ms;
	int detailed;
	bool summary, no_csv_summary, null_run, no_scale, all_user, all_kernel;
	bool metric_only;
	const char *func;		/* --func's kernel function */
} opt = { .big_num = true, .repeat = 1 };

static int *cpu_ids, ncpu_ids;	/* -C's CPUs */

/* perf's -d, -dd and -ddd: the events each adds to the others */
static char *detailed_events[] = {
	"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses",
	"L1-icache-loads", "L1-icache-load-misses", "dTLB-loads",
	"dTLB-load-misses", "iTLB-loads", "iTLB-load-misses",
	"L1-dcache-prefetches", "L1-dcache-prefetch-misses",
};

static const int detailed_count[] = { 0, 4, 10, 12 };

/*
 * top_comma: SPEC's first comma outside a pmu/.../ term and a {...}
 * group, or NULL: where perfkmod's options follow the event
 */
static const char *top_comma(const char *spec)
{
	int depth = 0;
	bool term = false;

	for (; *spec; spec++) {
		if (*spec == '/' && strncmp(spec, "mem:", 4))
			term = !term;
		else if (*spec == '{')
			depth++;
		else if (*spec == '}')
			depth--;
		else if (*spec == ',' && !term && !depth)
			return spec;
	}
	return NULL;
}

/*
 * label_of: the name perf gives the event SPEC, as its rows show it: an
 * event of perfkmod's grammar with options (cycles:u,period=1000) as
 * perf writes those, its terms (cycles/period=1000/u); else as typed
 */
static char *label_of(const char *spec)
{
	const char *comma = top_comma(spec), *colon;
	size_t n;

	if (!comma || memchr(spec, '/', comma - spec) || memchr(spec, '{', comma - spec))
		return xstrdup(spec);
	n = comma - spec;
	colon = memchr(spec, ':', n);
	if (!colon)
		return xasprintf("%.*s/%s/", (int)n, spec, comma + 1);
	return xasprintf("%.*s/%s/%.*s", (int)(colon - spec), spec, comma + 1,
			 (int)(comma - colon - 1), colon + 1);
}

/*
 * privilege_spec: SPEC with --all-user's or --all-kernel's privilege
 * levels: perf's exclude_kernel and exclude_user set for every event
 * (its evsel config code), its exclude_hv as the event's own modifiers give it:
 * the event's u, k and h replaced by u (or k) and, unless it excluded
 * the hypervisor, h
 */
static char *privilege_spec(const char *spec)
{
	static const char mod_letters[] = "ukhHGIpPSDWeb";
	const char *comma = top_comma(spec), *end, *slash, *colon, *mods, *m;
	char keep[32], *p = keep;
	bool hv = true;

	if (!opt.all_user && !opt.all_kernel)
		return xstrdup(spec);
	if (*spec == '{')
		die("--all-user, --all-kernel: give the events of %s :u or :k instead",
		    spec);
	end = comma ? comma : spec + strlen(spec);
	/* pmu=TYPE, tracepoint=ID: the grammar has no exclude bits for them */
	if (!strncmp(spec, "pmu=", 4) || !strncmp(spec, "tracepoint=", 11))
		die("--all-user, --all-kernel: perfkmod's grammar has no privilege levels for %s",
		    spec);
	/* the modifiers: after a term's closing / or the last :, all letters */
	slash = memrchr(spec, '/', end - spec);
	colon = memrchr(spec, ':', end - spec);
	mods = slash && (!colon || colon < slash) ? slash : colon;
	if (mods && mods == slash && mods + 1 < end && mods[1] == ':')
		mods++;
	if (!mods || strspn(mods + 1, mod_letters) != (size_t)(end - mods - 1)) {
		mods = end;
	} else {
		for (m = mods + 1; m < end; m++) {
			if (*m == 'u' || *m == 'k')
				hv = false;
			else if (*m != 'h' && p < keep + sizeof(keep) - 1)
				*p++ = *m;
		}
		if (memchr(mods + 1, 'h', end - mods - 1))
			hv = true;
	}
	*p = '\0';
	return xasprintf("%.*s%s%s%s%s%s", (int)(mods - spec), spec,
			 *mods == '/' ? "/" : ":", opt.all_user ? "u" : "k",
			 hv ? "h" : "", keep, end);
}

static int add_event(const char *label, const char *spec)
{
	struct stat_event *ev;
	const char *colon, *end = top_comma(spec);
	char *name;

	if (!end)
		end = spec + strlen(spec);
	events = xrealloc(events, (nevents + 1) * sizeof(*events));
	ev = &events[nevents];
	*ev = (struct stat_event){ 0 };
	colon = memchr(spec, ':', end - spec);
	name = xasprintf("%.*s", (int)((colon ? colon : end) - spec), spec);
	ev->label = label_of(label);
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
 * PLACE for event E, on CPU (or -1); false if the machine lacks the
 * event. Any other refusal ends perfkstat with the kernel's reason.
 */
static bool make_temporary(int e, const char *spec, const char *target,
			   int place, int cpu)
{
	static int seq;
	char *name = xasprintf(ME "-%d-%d", (int)getpid(), ++seq);
	char *kspec = privilege_spec(spec);
	char *cmd = xasprintf("add %s %s%s", name, kspec, target);
	char *why;

	free(kspec);
	/* registered first: a signal during the add leaks nothing */
	temp_add(name, false);
	if (!ctl(cmd, true)) {
		add_counter(name, e, place, cpu,
			    opt.target == T_SYSTEM && cpu < 0);
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

/*
 * make_temporaries: the counters of every event for a run (FIRST: the
 * first, which makes the events' rows too), of CHILD for a command's
 */
static void make_temporaries(pid_t child, bool first)
{
	char *target;
	int i, e, p, made;

	for (i = 0; i < opt.nspecs; i++) {
		e = first ? add_event(opt.labels[i], opt.specs[i]) : i;
		made = 0;
		if (opt.target == T_SYSTEM && ncpu_ids) {
			for (p = 0; p < ncpu_ids; p++) {
				target = xasprintf(",cpu=%d", cpu_ids[p]);
				made += make_temporary(e, opt.specs[i], target, 0,
						       cpu_ids[p]);
				free(target);
			}
		} else if (opt.target == T_SYSTEM) {
			made = make_temporary(e, opt.specs[i], "", 0, -1);
		} else if (opt.target == T_COMMAND) {
			target = xasprintf(",pid=%d,inherit,enable_on_exec",
					   (int)child);
			made = make_temporary(e, opt.specs[i], target, 0, -1);
			free(target);
		} else {
			for (p = 0; p < nthreads; p++) {
				/* as perf's -p and -t: threads made later count too */
				target = xasprintf(",pid=%d,inherit", tids[p]);
				made += make_temporary(e, opt.specs[i], target,
						       opt.mode == AGGR_THREAD ? p : 0, -1);
				free(target);
			}
		}
		if (first)
			events[e].supported = made > 0;
	}
}

/* --func's region, temporary: perfkstat-PID-f */
static char *region_name;

/*
 * make_region: a temporary region over the events' counters, counting
 * the calls of --func's function; a refusal ends perfkstat with the
 * kernel's reason (last_error's, without the command it names)
 */
static void make_region(void)
{
	struct sbuf cmd = { 0 };
	char *why;
	int i;

	if (!ncounters)
		die("--func: this machine counts none of the events");
	region_name = xasprintf(ME "-%d-f", (int)getpid());
	sb_printf(&cmd, "region %s func=%s", region_name, opt.func);
	for (i = 0; i < ncounters; i++)
		sb_printf(&cmd, " %s", counters[i].name);
	/* first: it is deleted before the counters it reads */
	temp_add(region_name, true);
	if (!ctl(cmd.buf, true)) {
		sb_free(&cmd);
		return;
	}
	temp_drop(region_name);
	why = last_error();
	if (!region_reason(why, cmd.buf))
		ctl_complain(cmd.buf);
	else
		warn("cannot probe %s: %s", opt.func, why);
	exit(1);
}

/* drop_temporaries: a run's counters deleted, for the next run's */
static void drop_temporaries(void)
{
	char *cmd;

	while (ncounters) {
		cmd = xasprintf("del %s", counters[--ncounters].name);
		if (ctl(cmd, false))
			exit(1);
		temp_drop(counters[ncounters].name);
		free(counters[ncounters].name);
		free(cmd);
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
	/* --func's figures are its region's: the counters' own go unread */
	if (opt.func)
		return;
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
	if (opt.no_scale)
		sum->val += val;	/* perf's --no-scale: counts as read */
	else if (run && run < ena)
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

/* show_region: --func's region, as perfkstat regions shows one */
static void show_region(void)
{
	struct region_view v = {
		.f = out.f, .fmt = out.fmt, .sep = out.sep,
		.thousands = out.thousands, .per_cpu = opt.mode == AGGR_NONE,
	};
	int *map = xmalloc(nevents * sizeof(*map) + 1), i;
	struct region r;
	char *off = xasprintf("disable %s", region_name);

	/*
	 * Off first, as perf stops counting when the command ends: else
	 * perfkstat's own reads of the figures, calls of a function such as
	 * vfs_read, would count between the reads of stat and hist.
	 */
	if (ctl(off, false))
		exit(1);
	free(off);
	if (region_read(region_name, &r))
		exit(1);
	for (i = 0; i < nevents; i++)
		map[i] = -1;
	for (i = 0; i < ncounters; i++)
		map[counters[i].event] = i;
	region_print(&v, &r, events, map, nevents);
	region_free(&r);
	free(map);
}

/*
 * print_block: the rows of CUR - PREV (PREV NULL: of CUR) into SUM, and
 * printed after the header of WHAT (the metrics' of --metric-only are
 * of the rows)
 */
static void print_block(const struct sample *cur, const struct sample *prev,
			struct stat_sum *sum, const char *what)
{
	sums(sum, cur, prev);
	out.sums = sum;
	print_header(&out, what);
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

/* what_of: what the table's "Performance counter stats for" is for */
static char *what_of(char **argv, int argc)
{
	char *all, *what;

	switch (opt.target) {
	case T_SYSTEM:
		return opt.cpus ? xasprintf("'CPU(s) %s'", opt.cpus) :
			xstrdup("'system wide'");
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

/* what_is_counted: what_of(), and -r's runs: perf's " (N runs)" */
static char *what_is_counted(char **argv, int argc)
{
	char *what = what_of(argv, argc), *runs;

	if (opt.repeat <= 1)
		return what;
	runs = xasprintf("%s (%d runs)", what, (int)opt.repeat);
	free(what);
	return runs;
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

/* the named counters' values now: each since it began, so no metric */
static void show_named(char **argv, int argc, struct stat_sum *sum)
{
	struct sample *cur = xmalloc(nslots() * sizeof(*cur) + 1);
	char *what;

	out.no_metrics = true;
	snapshot(cur);
	what = what_is_counted(argv, argc);
	print_block(cur, NULL, sum, what);
	free(what);
	if (out.fmt == FMT_STD)
		fputc('\n', out.f);
	free(cur);
}

/*
 * end_run: the command of a run stopped by --timeout gets SIGTERM, as
 * perf's, and is waited for before the counts are read
 */
static void end_run(struct workload *w, enum waited how, int *status,
		    struct rusage *ru)
{
	if (how != W_DEADLINE || !opt.timeout_ms || w->pid <= 0)
		return;
	kill(w->pid, SIGTERM);
	reap(w->pid, status, ru);
	w->pid = -1;
}

/*
 * summary: --summary's rows after the intervals, perf's: the counts
 * since the first snapshot, FIRST, as a run's without -I
 */
static void summary(const struct sample *cur, const struct sample *first,
		    struct stat_sum *sum, u64 wall_ns, char **argv, int argc,
		    const struct rusage *ru)
{
	char *what = what_is_counted(argv, argc);

	out.interval = false;
	out.wall_ns = wall_ns;
	out.wall_avg_ns = wall_ns;
	print_block(cur, first, sum, what);
	free(what);
	print_footer(&out, wall_ns,
		     opt.target == T_COMMAND ? &ru->ru_utime : NULL, &ru->ru_stime);
}

/*
 * runs_stat: a run's rows SUM into -r's statistics, RS (perf keeps them
 * of a row of all CPUs alone: per CPU, the last run's counts show)
 */
static void runs_stat(struct run_stats *rs, const struct stat_sum *sum)
{
	int i;

	if (opt.mode != AGGR_GLOBAL)
		return;
	for (i = 0; i < nevents * nplaces; i++)
		update_stats(&rs[i], (u64)sum[i].val);
}

/* runs_mean: SUM's values -r's means (perf's, a u64), and their deviation */
static void runs_mean(struct stat_sum *sum, const struct run_stats *rs)
{
	int i;

	if (opt.mode != AGGR_GLOBAL)
		return;
	for (i = 0; i < nevents * nplaces; i++) {
		sum[i].val = (u64)rs[i].mean;
		sum[i].stddev = stddev_stats(&rs[i]);
	}
}

static int measure(char **argv, int argc)
{
	struct sample *prev = NULL, *cur = NULL, *first = NULL, *tmp;
	struct workload w = { .pid = -1 };
	struct rusage ru = { 0 };
	enum waited how = W_DEADLINE;
	struct run_stats wall = { 0 }, *rs = NULL;
	struct stat_sum *sum;
	sigset_t chld, old;
	u64 t0, t1, start0 = 0, next, n = 0, run;
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
	make_temporaries(w.pid, true);
	if (opt.func)
		make_region();
	sum = xmalloc((size_t)nevents * nplaces * sizeof(*sum) + 1);
	rs = calloc((size_t)nevents * nplaces + 1, sizeof(*rs));
	if (!rs)
		die("out of memory");
	out.f = open_output();
	out.nevents = nevents;
	out.events = events;
	out.naggr = nplaces;
	out.aggr = places;
	out.comms = comms;
	out.tids = tids;
	out.interval = opt.interval_ns;
	out.runs = 1;

	if (opt.target == T_NAMED && !opt.interval_ns) {
		show_named(argv, argc, sum);
		goto done;
	}

	/*
	 * SIGINT ends the counting, but that of a command without -I (as
	 * perf's): the command gets it too, and its end ends the counting.
	 */
	int_stops(!argc || opt.interval_ns);
	/* a signal but SIGINT waits for the command, as a shell's trap */
	defer_signals(argc);
	for (run = 0; run < opt.repeat; run++) {
		if (run) {
			/* each run counts anew, on counters of its own */
			drop_temporaries();
			workload_prepare(&w, argv);
			make_temporaries(w.pid, false);
		}
		free(prev);
		free(cur);
		prev = xmalloc(nslots() * sizeof(*prev) + 1);
		cur = xmalloc(nslots() * sizeof(*cur) + 1);
		if (opt.delay_ms)
			fputs("Events disabled\n", stderr);
		/*
		 * A snapshot reads the counters one after the other: the
		 * time is taken at its middle, the mean of their times.
		 */
		t0 = mono_ns();
		snapshot(prev);
		t0 += (mono_ns() - t0) / 2;
		if (argc) {
			/* the command's counters count from its exec */
			if (opt.target == T_COMMAND)
				t0 = mono_ns();
			start(&w, argv);
		}
		if (opt.delay_ms) {
			/*
			 * perf's -D: what counts, and the time elapsed, is
			 * after it. Its counters are disabled meanwhile; these
			 * count (a task counter that inherits cannot be
			 * enabled later for the children it has by then), and
			 * what they counted during it is left out.
			 */
			sleep_ns(opt.delay_ms * 1000000);
			t0 = mono_ns();
			snapshot(prev);
			t0 += (mono_ns() - t0) / 2;
			fputs("Events enabled\n", stderr);
		}
		start0 = t0;
		if (opt.interval_ns) {
			if (opt.summary) {
				first = xmalloc(nslots() * sizeof(*first) + 1);
				memcpy(first, prev, nslots() * sizeof(*first));
			}
			out.wall_ns = opt.interval_ns;
			for (next = t0 + opt.interval_ns; how == W_DEADLINE;
			     next += opt.interval_ns) {
				how = wait_for(next, w.pid, &status, &ru);
				t1 = mono_ns();
				snapshot(cur);
				out.ts_ns = t1 + (mono_ns() - t1) / 2 - t0;
				print_block(cur, prev, sum, NULL);
				fflush(out.f);
				tmp = prev;
				prev = cur;
				cur = tmp;
				if (opt.interval_count && ++n >= opt.interval_count)
					break;
			}
			if (first)
				summary(prev, first, sum, mono_ns() - start0, argv,
					argc, &ru);
			break;
		}
		how = wait_for(opt.timeout_ms ? t0 + opt.timeout_ms * 1000000 : 0,
			       w.pid, &status, &ru);
		end_run(&w, how, &status, &ru);
		t1 = mono_ns();
		snapshot(cur);
		if (opt.target != T_COMMAND)
			t1 += (mono_ns() - t1) / 2;
		update_stats(&wall, t1 - t0);
		out.wall_ns = t1 - t0;
		sums(sum, cur, prev);
		runs_stat(rs, sum);
		/* a run stopped by SIGINT (perfkstat's or COMMAND's) is the last */
		if (stop_requested() || run + 1 == opt.repeat ||
		    (how == W_CHILD && WIFSIGNALED(status) && WTERMSIG(status) == SIGINT))
			break;
		if (argc && w.pid > 0 && how != W_CHILD)
			reap(w.pid, &status, &ru);
	}
	if (!opt.interval_ns) {
		/* the runs done, in the title too */
		opt.repeat = run + 1;
		out.runs = opt.repeat;
		if (out.runs > 1) {
			runs_mean(sum, rs);
			out.wall_ns = (u64)wall.mean;
		}
		out.wall_avg_ns = wall.mean;
		out.wall_sd_ns = stddev_stats(&wall);
		what = what_is_counted(argv, argc);
		out.sums = sum;
		if (opt.func)
			show_region();
		else
			print_header(&out, what);
		free(what);
		if (!out.null_run && !opt.func)
			print_rows(&out);
		print_footer(&out, out.wall_ns,
			     opt.target == T_COMMAND && out.runs == 1 ?
			     &ru.ru_utime : NULL, &ru.ru_stime);
	}
	/* stopped by SIGINT or -I's count: the command goes on to its end */
	if (argc && w.pid > 0 && how != W_CHILD)
		reap(w.pid, &status, &ru);
done:
	if (fflush(out.f) || (out.f != stderr && fclose(out.f)))
		die("%s: %s", opt.output ? opt.output : "stderr", strerror(errno));
	/* a signal that waited for the command ends perfkstat now */
	defer_signals(false);
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(first);
	free(prev);
	free(cur);
	free(sum);
	free(rs);
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
const char *thousands_sep(void)
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

/* a number of an option: OPT's VALUE, at least MIN */
static u64 number_of(const char *name, const char *v, u64 min, const char *what)
{
	u64 n;

	if (!parse_u64(v, &n) || n < min)
		die("%s takes %s: %s", name, what, v);
	return n;
}

/* cpu_ids_of: -C's LIST ("0-3,5") into cpu_ids; false if it is not one */
static bool cpu_ids_of(const char *list)
{
	const char *p = list;
	u64 lo, hi, c;
	char *end;

	ncpu_ids = 0;
	while (*p) {
		if (*p < '0' || *p > '9')
			return false;
		lo = strtoull(p, &end, 10);
		hi = lo;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return false;
			hi = strtoull(end + 1, &end, 10);
		}
		if (hi < lo || hi >= 4096 || (*end && *end != ','))
			return false;
		for (c = lo; c <= hi; c++) {
			cpu_ids = xrealloc(cpu_ids, (ncpu_ids + 1) * sizeof(*cpu_ids));
			cpu_ids[ncpu_ids++] = (int)c;
		}
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return false;
	}
	return ncpu_ids > 0;
}

static const char no_cgroup[] =
	"in-kernel counters have no cgroup (perf_event_create_kernel_counter() takes none)";
static const char no_bpf[] =
	"it is perf's BPF path to its counters; perfkmod counts in the kernel without it";

/*
 * refused: perf stat's options that in-kernel counters cannot honour,
 * each with its reason; NULL if A is not one
 */
static const char *refused(const char *a)
{
	if (is_opt(a, "-G") || is_opt(a, "--cgroup") || is_opt(a, "--for-each-cgroup"))
		return no_cgroup;
	if (!strcmp(a, "--bpf-counters") || is_opt(a, "--bpf-attr-map"))
		return no_bpf;
	return NULL;
}

static const char delay_what[] =
	"the milliseconds to wait before counting (perf's -1, until enabled, needs its --control)";

/* stat_options: ARGV's options into opt; the index of the command */
static int stat_options(int argc, char **argv)
{
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
		if (refused(a)) {
			die("%s: %s", a, refused(a));
		} else if (k < ARRAY_SIZE(modes)) {
			opt.mode = modes[k].mode;
		} else if (!strcmp(a, "-a") || !strcmp(a, "--all-cpus")) {
			opt.all = true;
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
		} else if (a[1] == 'd' && strspn(a + 1, "d") == strlen(a + 1)) {
			opt.detailed += strlen(a + 1);	/* -d, -dd, -ddd */
		} else if (!strcmp(a, "--detailed")) {
			opt.detailed++;
		} else if (!strcmp(a, "-n") || !strcmp(a, "--null")) {
			opt.null_run = true;
		} else if (!strcmp(a, "--summary")) {
			opt.summary = true;
		} else if (!strcmp(a, "--no-csv-summary")) {
			opt.no_csv_summary = true;
		} else if (!strcmp(a, "--no-scale")) {
			opt.no_scale = true;
		} else if (!strcmp(a, "--all-user")) {
			opt.all_user = true;
		} else if (!strcmp(a, "--all-kernel")) {
			opt.all_kernel = true;
		} else if (!strcmp(a, "--metric-only")) {
			opt.metric_only = true;
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
		} else if (is_opt(a, "-C") || is_opt(a, "--cpu")) {
			opt.cpus = value_of(argc, argv, &i);
			if (!cpu_ids_of(opt.cpus))
				die("-C takes a list of CPUs, as 0-3,5: %s", opt.cpus);
		} else if (is_opt(a, "-r") || is_opt(a, "--repeat")) {
			v = value_of(argc, argv, &i);
			opt.repeat = number_of("-r", v, 1, "a number of runs, at least 1");
		} else if (is_opt(a, "-D") || is_opt(a, "--delay")) {
			v = value_of(argc, argv, &i);
			opt.delay_ms = number_of("-D", v, 0, delay_what);
		} else if (is_opt(a, "--timeout")) {
			v = value_of(argc, argv, &i);
			opt.timeout_ms = number_of("--timeout", v, 0, "milliseconds");
		} else if (is_opt(a, "-I") || is_opt(a, "--interval-print")) {
			v = value_of(argc, argv, &i);
			opt.interval_ns = stat_interval(v);
		} else if (is_opt(a, "--func")) {
			opt.func = value_of(argc, argv, &i);
		} else if (is_opt(a, "--interval-count")) {
			v = value_of(argc, argv, &i);
			if (!parse_u64(v, &opt.interval_count) || !opt.interval_count)
				die("--interval-count takes a number of intervals: %s", v);
		} else {
			bad_option(a);
		}
	}
	return i;
}

/*
 * func_target: what --func takes: a region counts a kernel function's
 * calls on all-CPUs counters (or one task's, which perfkstat does not
 * make), over the whole command
 */
static void func_target(void)
{
	const char *no = opt.cpus ? "-C" : opt.pids ? "-p" : opt.tids ? "-t" :
		opt.interval_ns ? "-I" : opt.repeat > 1 ? "-r" :
		opt.delay_ms ? "-D" : opt.null_run ? "-n" :
		opt.metric_only ? "--metric-only" :
		opt.mode != AGGR_GLOBAL && opt.mode != AGGR_NONE ? "--per-*" : NULL;

	if (no)
		die("--func: not with %s (a region sums a function's calls on all CPUs)", no);
	if (!opt.all)
		die("--func counts a function's calls on every CPU: give -a (%s)",
		    "a region reads all-CPUs counters");
	if (!*opt.func || strchr(opt.func, ' ') || strchr(opt.func, ','))
		die("--func takes a kernel function's symbol: %s", opt.func);
}

/*
 * stat_target: what is counted, from the options and whether a command
 * (ARGC words) follows; what cannot go together refused, in perf's words
 * where perf refuses it too
 */
static void stat_target(int argc)
{
	bool events = opt.nspecs || opt.detailed || opt.null_run;
	int n;

	if (opt.json && opt.sep)
		die("-x and -j cannot go together");
	if (opt.interval_count && !opt.interval_ns)
		die("--interval-count needs -I");
	if ((opt.pids || opt.tids) && (opt.all || opt.cpus))
		die("-p or -t, or -a (-C): not both");
	if (opt.pids && opt.tids)
		die("-p or -t: not both");
	if (opt.all && opt.cpus)
		warn("CPU switch overriding SYSTEM");
	if (opt.all_user && opt.all_kernel)
		die("--all-user or --all-kernel: not both");
	if (opt.timeout_ms && opt.timeout_ms < 10)
		die("timeout must be >= 10ms.");
	if (opt.timeout_ms && opt.interval_ns)
		die("timeout option is not supported with interval-print.");
	if (opt.timeout_ms && opt.timeout_ms < 100)
		warn("%s %s %s", "timeout < 100ms.",	/* perf's words */
		     "The overhead percentage could be high in some cases.",
		     "Please proceed with caution.");
	if (opt.metric_only && opt.mode == AGGR_THREAD)
		die("--metric-only is not supported with --per-thread");
	if (opt.metric_only && opt.repeat > 1)
		die("--metric-only is not supported with -r");
	/* perf's: events but no command or target count every CPU */
	opt.target = opt.all || opt.cpus ? T_SYSTEM :
		opt.pids || opt.tids ? T_TASKS : argc ? T_COMMAND :
		events ? T_SYSTEM : T_NAMED;
	if (opt.repeat > 1 && !argc)
		die("-r runs a command N times: give the command");
	if (opt.repeat > 1 && opt.interval_ns)
		die("-r and -I: not both (each run would print its own intervals)");
	if (opt.target != T_NAMED && opt.nnames)
		die("-k shows named counters: not with events, a command, -a, -C, -p or -t");
	if (opt.mode == AGGR_THREAD && opt.target != T_TASKS)
		die("--per-thread counts the threads of -p or -t");
	if (opt.mode != AGGR_GLOBAL && opt.mode != AGGR_THREAD &&
	    (opt.target == T_TASKS || opt.target == T_COMMAND))
		die("-A and --per-* are per CPU: with -a or -C, or of named counters");
	if (opt.delay_ms && opt.target == T_NAMED)
		die("-D delays the counting of events: the named counters count already");
	if (opt.func)
		func_target();
	if (opt.target == T_NAMED || opt.null_run)
		return;
	if (!opt.nspecs) {
		/* perf's: task-clock for tasks, cpu-clock for CPUs */
		if (opt.target == T_SYSTEM)
			default_events[0] = "cpu-clock";
		opt.specs = xmalloc(sizeof(default_events));
		memcpy(opt.specs, default_events, sizeof(default_events));
		opt.labels = xmalloc(sizeof(default_events));
		memcpy(opt.labels, default_events, sizeof(default_events));
		opt.nspecs = ARRAY_SIZE(default_events);
	}
	/* -d's events after the others, as perf adds them */
	n = detailed_count[opt.detailed < 3 ? opt.detailed : 3];
	opt.specs = xrealloc(opt.specs, (opt.nspecs + n) * sizeof(char *));
	memcpy(opt.specs + opt.nspecs, detailed_events, n * sizeof(char *));
	opt.labels = xrealloc(opt.labels, (opt.nspecs + n) * sizeof(char *));
	memcpy(opt.labels + opt.nspecs, detailed_events, n * sizeof(char *));
	opt.nspecs += n;
	if (opt.func && opt.nspecs > REGION_MAX_COUNTERS)
		die("--func: a region reads at most %d counters (%d events)",
		    REGION_MAX_COUNTERS, opt.nspecs);
}

int cmd_stat(int argc, char **argv)
{
	int i = stat_options(argc, argv);

	argv += i;
	argc -= i;
	stat_target(argc);
	if (opt.sep && !strcmp(opt.sep, "\\t"))
		opt.sep = "\t";
	out.fmt = opt.json ? FMT_JSON : opt.sep ? FMT_CSV : FMT_STD;
	out.sep = opt.sep;
	out.thousands = opt.big_num ? thousands_sep() : NULL;
	out.mode = opt.mode;
	out.summary = opt.summary && out.fmt == FMT_CSV && !opt.no_csv_summary;
	out.null_run = opt.null_run;
	out.metric_only = opt.metric_only;

	need_dir();
	catch_signals(true, true);
	ncpu_slots = possible_cpus();
	for (i = 0; i < ncpu_ids; i++)
		if (cpu_ids[i] >= ncpu_slots)
			die("-C %s: no CPU %d here (CPUs 0-%d)", opt.cpus,
			    cpu_ids[i], ncpu_slots - 1);
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

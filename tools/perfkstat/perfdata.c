// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data for record --every, laid out as perf record lays it out
 * (tools/perf/Documentation/perf.data-file-format.txt, util/header.c):
 *
 *	the file header, its attrs (one an event: the trigger sampling,
 *	the others counted in its group) and their ids;
 *	the data: PERF_RECORD_MMAP of the kernel ("[kernel.kallsyms]_text",
 *	its pgoff _text's address) and of each module ("[name]"), COMM and
 *	MMAP2 of the tasks the records name, then a PERF_RECORD_SAMPLE a
 *	record: IDENTIFIER, IP, TID, TIME, CPU, PERIOD and READ, a group
 *	read of every event's count, which perf report and perf script
 *	deliver as a sample of each event (its count since the previous);
 *	the feature sections perf report shows in its header: HOSTNAME,
 *	OSRELEASE, VERSION, ARCH, NRCPUS, CMDLINE, EVENT_DESC (the events'
 *	names), SAMPLE_TIME, CLOCKID and CLOCK_DATA.
 *
 * The records' times are CLOCK_MONOTONIC's (series.c reads it), so the
 * attrs say use_clockid and clockid CLOCK_MONOTONIC, and CLOCKID and
 * CLOCK_DATA say it, as perf record -k CLOCK_MONOTONIC's do: a perf
 * recording of the same machine with -k CLOCK_MONOTONIC lines up with it.
 *
 * Every record carries sample_id_all's fields. No HEADER_BUILD_ID: perf
 * reads the kernel's symbols from a kallsyms file (perf report
 * --kallsyms), as of a recording from another machine. The file is in
 * this machine's byte order, which perf reads in either.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "perfdata.h"

#define BIT_ULL(n) (1ULL << (n))
#define NSEC_PER_SEC 1000000000ULL

/* the type of an event of no PMU (fill_attr()) */
#define NO_PMU				(~0U)

/* the parts of perf's ABI (include/uapi/linux/perf_event.h) written here */
#define PERF_SAMPLE_IP			BIT_ULL(0)
#define PERF_SAMPLE_TID			BIT_ULL(1)
#define PERF_SAMPLE_TIME		BIT_ULL(2)
#define PERF_SAMPLE_READ		BIT_ULL(4)
#define PERF_SAMPLE_CPU			BIT_ULL(7)
#define PERF_SAMPLE_PERIOD		BIT_ULL(8)
#define PERF_SAMPLE_IDENTIFIER		BIT_ULL(16)

#define PERF_FORMAT_ID			BIT_ULL(2)
#define PERF_FORMAT_GROUP		BIT_ULL(3)

/* attr's flags: disabled, sample_id_all, use_clockid */
#define ATTR_DISABLED			BIT_ULL(0)
#define ATTR_SAMPLE_ID_ALL		BIT_ULL(18)
#define ATTR_USE_CLOCKID		BIT_ULL(25)

#define PERF_RECORD_MMAP		1
#define PERF_RECORD_COMM		3
#define PERF_RECORD_SAMPLE		9
#define PERF_RECORD_MMAP2		10

#define PERF_RECORD_MISC_KERNEL		1
#define PERF_RECORD_MISC_USER		2

/* the features, by their bit (util/header.h) */
enum {
	HEADER_HOSTNAME = 3,
	HEADER_OSRELEASE = 4,
	HEADER_VERSION = 5,
	HEADER_ARCH = 6,
	HEADER_NRCPUS = 7,
	HEADER_CMDLINE = 11,
	HEADER_EVENT_DESC = 12,
	HEADER_SAMPLE_TIME = 21,
	HEADER_CLOCKID = 23,
	HEADER_CLOCK_DATA = 29,
	HEADER_FEAT_BITS = 256,
};

/* a feature's string: its length with the NUL, to 64 bytes, then it */
#define NAME_ALIGN 64

/* perf_event_attr as of PERF_ATTR_SIZE_VER5, which perf 4.x on reads */
struct attr {
	u32 type, size;
	u64 config;
	u64 sample_period;
	u64 sample_type;
	u64 read_format;
	u64 flags;
	u32 wakeup_events, bp_type;
	u64 config1, config2;
	u64 branch_sample_type;
	u64 sample_regs_user;
	u32 sample_stack_user;
	int32_t clockid;
	u64 sample_regs_intr;
	u32 aux_watermark;
	uint16_t sample_max_stack, reserved;
};

struct section {
	u64 offset, size;
};

struct file_header {
	char magic[8];		/* "PERFILE2" */
	u64 size;		/* of this header */
	u64 attr_size;		/* of an attr and its ids' section */
	struct section attrs, data, event_types;
	u64 features[HEADER_FEAT_BITS / 64];
};

#define SAMPLE_TYPE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		     PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
		     PERF_SAMPLE_READ)

/* an event's id: the first is 1 */
#define ID(i) ((u64)(i) + 1)

struct perfdata {
	int nev;
	char **names;
	u64 period;
	struct sbuf kernel;	/* the kernel's and the modules' MMAPs */
	struct sbuf tasks;	/* the tasks' COMMs and MMAP2s */
	struct sbuf samples;
	u64 nsamples, first, last;
	/* the clock's resolution, and a time of day and its time, in ns */
	u64 clock_res, tod, clock_ref;
	char **cmdline;
	int ncmdline;
	/* the tasks and processes already written, by tid and by pid */
	u32 *tids, *pids;
	size_t ntids, npids;
};

struct perfdata *perfdata_new(int nev, const char *const *names, u64 period)
{
	struct perfdata *pd = xmalloc(sizeof(*pd));
	struct timespec ts;
	struct timeval tv;
	int i;

	memset(pd, 0, sizeof(*pd));
	pd->nev = nev;
	pd->period = period;
	pd->names = xmalloc(nev * sizeof(*pd->names));
	for (i = 0; i < nev; i++)
		pd->names[i] = xstrdup(names[i]);
	/* as perf record -k's (record__init_clock()), at the start */
	if (!clock_getres(CLOCK_MONOTONIC, &ts))
		pd->clock_res = ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	gettimeofday(&tv, NULL);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	pd->tod = tv.tv_sec * NSEC_PER_SEC + tv.tv_usec * 1000ULL;
	pd->clock_ref = ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
	return pd;
}

void perfdata_cmdline(struct perfdata *pd, int argc, const char *const *argv)
{
	int i;

	pd->cmdline = xmalloc((argc + 1) * sizeof(*pd->cmdline));
	for (i = 0; i < argc; i++)
		pd->cmdline[i] = xstrdup(argv[i]);
	pd->ncmdline = argc;
}

static void put32(struct sbuf *sb, u32 v)
{
	sb_add(sb, &v, sizeof(v));
}

static void put64(struct sbuf *sb, u64 v)
{
	sb_add(sb, &v, sizeof(v));
}

/* put_name: S, NUL-terminated, padded with NULs to 8 bytes */
static void put_name(struct sbuf *sb, const char *s)
{
	static const char zeros[8];
	size_t n = strlen(s) + 1;

	sb_add(sb, s, n - 1);
	sb_add(sb, zeros, 8 - (n - 1) % 8);
}

/* record_start: a record's header, its size filled in by record_end() */
static size_t record_start(struct sbuf *sb, u32 type, u32 misc)
{
	size_t at = sb->len;
	uint16_t m = misc, size = 0;

	put32(sb, type);
	sb_add(sb, &m, sizeof(m));
	sb_add(sb, &size, sizeof(size));
	return at;
}

/* record_end: sample_id_all's fields (TID, TIME, CPU, IDENTIFIER), size */
static void record_end(struct sbuf *sb, size_t at, u32 pid, u32 tid)
{
	uint16_t size;

	put32(sb, pid);
	put32(sb, tid);
	put64(sb, 0);		/* time: before any sample */
	put64(sb, 0);		/* cpu, res */
	put64(sb, ID(0));
	size = sb->len - at;
	memcpy(sb->buf + at + 6, &size, sizeof(size));
}

void perfdata_comm(struct perfdata *pd, u32 pid, u32 tid, const char *comm)
{
	size_t at = record_start(&pd->tasks, PERF_RECORD_COMM, 0);

	put32(&pd->tasks, pid);
	put32(&pd->tasks, tid);
	put_name(&pd->tasks, comm);
	record_end(&pd->tasks, at, pid, tid);
}

void perfdata_mmap(struct perfdata *pd, bool kernel, u32 pid, u64 start, u64 len,
		   u64 pgoff, u32 prot, const char *file)
{
	struct sbuf *sb = kernel ? &pd->kernel : &pd->tasks;
	size_t at;

	if (kernel) {
		/* perf's kernel and modules: pid -1 (HOST_KERNEL_ID) */
		at = record_start(sb, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
		put32(sb, (u32)-1);
		put32(sb, 0);
		put64(sb, start);
		put64(sb, len);
		put64(sb, pgoff);
		put_name(sb, file);
		record_end(sb, at, (u32)-1, 0);
		return;
	}
	at = record_start(sb, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32(sb, pid);
	put32(sb, pid);
	put64(sb, start);
	put64(sb, len);
	put64(sb, pgoff);
	put32(sb, 0);		/* maj, min, ino, ino_generation: unknown */
	put32(sb, 0);
	put64(sb, 0);
	put64(sb, 0);
	put32(sb, prot);
	put32(sb, 2);		/* MAP_PRIVATE */
	put_name(sb, file);
	record_end(sb, at, pid, pid);
}

void perfdata_sample(struct perfdata *pd, const struct perfdata_sample *s)
{
	struct sbuf *sb = &pd->samples;
	uint16_t size;
	size_t at;
	int i;

	at = record_start(sb, PERF_RECORD_SAMPLE,
			  s->user ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL);
	put64(sb, ID(0));
	put64(sb, s->ip);
	put32(sb, s->pid);
	put32(sb, s->tid);
	put64(sb, s->time);
	put32(sb, s->cpu);
	put32(sb, 0);
	put64(sb, pd->period);
	put64(sb, pd->nev);
	for (i = 0; i < pd->nev; i++) {
		put64(sb, s->read[i]);
		put64(sb, ID(i));
	}
	size = sb->len - at;
	memcpy(sb->buf + at + 6, &size, sizeof(size));
	if (!pd->nsamples)
		pd->first = s->time;
	pd->last = s->time;
	pd->nsamples++;
}

/* put_string: a feature's string */
static void put_string(struct sbuf *sb, const char *s)
{
	static const char zeros[NAME_ALIGN];
	size_t n = strlen(s) + 1, len = (n + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN;

	put32(sb, len);
	sb_add(sb, s, n - 1);
	sb_add(sb, zeros, len - (n - 1));
}

/*
 * fill_attr: event I's attr: the type and config perf gives its name
 * (events.c reads it as perf does). A name perfkstat cannot tell them of
 * (a counter made by hand, a tool event) gets type ~0, config 0: no PMU
 * of the kernel has that type (it numbers its PMUs up from
 * PERF_TYPE_MAX, to INT_MAX at the most; perf's util/pmu.h has it as
 * PERF_PMU_TYPE_FAKE, the PMU of an event no PMU is known for), so no
 * tool takes the event for another: perf report and perf script show its
 * samples under its name, from EVENT_DESC, and perf evlist -v its type.
 */
static void fill_attr(struct perfdata *pd, int i, struct attr *a)
{
	memset(a, 0, sizeof(*a));
	if (!event_attr(pd->names[i], &a->type, &a->config)) {
		a->type = NO_PMU;
		a->config = 0;
	}
	a->size = sizeof(*a);
	a->sample_period = i ? 0 : pd->period;
	a->sample_type = SAMPLE_TYPE;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a->flags = ATTR_SAMPLE_ID_ALL | (i ? 0 : ATTR_DISABLED) | ATTR_USE_CLOCKID;
	/* the records' time: the series' clock (perfkmod_series.h) */
	a->clockid = CLOCK_MONOTONIC;
}

/* nrcpus: the CPUs possible (the highest's number + 1) and online */
static void put_nrcpus(struct sbuf *sb)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);

	put32(sb, conf > 0 ? conf : 1);
	put32(sb, onln > 0 ? onln : 1);
}

/* features: feature BIT's contents, or false for one not written */
static bool feature(struct perfdata *pd, int bit, struct sbuf *sb)
{
	struct utsname u;
	char *exe;
	struct attr a;
	int i;

	if (uname(&u) < 0)
		memset(&u, 0, sizeof(u));
	switch (bit) {
	case HEADER_HOSTNAME:
		put_string(sb, u.nodename);
		return true;
	case HEADER_OSRELEASE:
		put_string(sb, u.release);
		return true;
	case HEADER_VERSION:
		put_string(sb, ME);
		return true;
	case HEADER_ARCH:
		put_string(sb, u.machine);
		return true;
	case HEADER_NRCPUS:
		put_nrcpus(sb);
		return true;
	case HEADER_CMDLINE:
		/* as perf's: its own path, then its arguments */
		exe = realpath("/proc/self/exe", NULL);
		put32(sb, pd->ncmdline + 1);
		put_string(sb, exe ? exe : ME);
		free(exe);
		for (i = 0; i < pd->ncmdline; i++)
			put_string(sb, pd->cmdline[i]);
		return true;
	case HEADER_EVENT_DESC:
		put32(sb, pd->nev);
		put32(sb, sizeof(a));
		for (i = 0; i < pd->nev; i++) {
			fill_attr(pd, i, &a);
			sb_add(sb, &a, sizeof(a));
			put32(sb, 1);
			put_string(sb, pd->names[i]);
			put64(sb, ID(i));
		}
		return true;
	case HEADER_SAMPLE_TIME:
		put64(sb, pd->first);
		put64(sb, pd->last);
		return true;
	case HEADER_CLOCKID:
		/* as perf record does, none where clock_getres() failed */
		if (!pd->clock_res)
			return false;
		put64(sb, pd->clock_res);
		return true;
	case HEADER_CLOCK_DATA:
		/* version 1: the clock, a time of day and the clock's then */
		put32(sb, 1);
		put32(sb, CLOCK_MONOTONIC);
		put64(sb, pd->tod);
		put64(sb, pd->clock_ref);
		return true;
	}
	return false;
}

int perfdata_write(struct perfdata *pd, const char *path)
{
	static const int bits[] = {
		HEADER_HOSTNAME, HEADER_OSRELEASE, HEADER_VERSION, HEADER_ARCH,
		HEADER_NRCPUS, HEADER_CMDLINE, HEADER_EVENT_DESC, HEADER_SAMPLE_TIME,
		HEADER_CLOCKID, HEADER_CLOCK_DATA,
	};
	struct sbuf out = { 0 }, feat = { 0 };
	struct file_header h;
	struct section *secs;
	size_t k, nfeat = 0;
	struct attr a;
	u64 ids, pos;
	int i, fd, err = 0;
	char *dir, *tmp;
	sigset_t old;
	ssize_t n;

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, "PERFILE2", 8);
	h.size = sizeof(h);
	h.attr_size = sizeof(struct attr) + sizeof(struct section);
	h.attrs.offset = sizeof(h);
	h.attrs.size = pd->nev * h.attr_size;
	ids = h.attrs.offset + h.attrs.size;
	h.data.offset = ids + pd->nev * sizeof(u64);
	h.data.size = pd->kernel.len + pd->tasks.len + pd->samples.len;
	secs = xmalloc(ARRAY_SIZE(bits) * sizeof(*secs));
	/* the features' table, then their contents, after the data */
	pos = h.data.offset + h.data.size + ARRAY_SIZE(bits) * sizeof(*secs);
	for (k = 0; k < ARRAY_SIZE(bits); k++) {
		size_t before = feat.len;

		if (!feature(pd, bits[k], &feat))
			continue;
		h.features[bits[k] / 64] |= 1ULL << (bits[k] % 64);
		secs[nfeat].offset = pos + before;
		secs[nfeat++].size = feat.len - before;
	}
	/* (a table entry fewer moves every content back by one entry) */
	for (k = 0; k < nfeat; k++)
		secs[k].offset -= (ARRAY_SIZE(bits) - nfeat) * sizeof(*secs);

	sb_add(&out, &h, sizeof(h));
	for (i = 0; i < pd->nev; i++) {
		struct section idsec = { ids + i * sizeof(u64), sizeof(u64) };

		fill_attr(pd, i, &a);
		sb_add(&out, &a, sizeof(a));
		sb_add(&out, &idsec, sizeof(idsec));
	}
	for (i = 0; i < pd->nev; i++)
		put64(&out, ID(i));
	sb_add(&out, pd->kernel.buf, pd->kernel.len);
	sb_add(&out, pd->tasks.buf, pd->tasks.len);
	sb_add(&out, pd->samples.buf, pd->samples.len);
	sb_add(&out, secs, nfeat * sizeof(*secs));
	sb_add(&out, feat.buf, feat.len);
	free(secs);
	sb_free(&feat);

	/*
	 * a temporary in PATH's directory, renamed over PATH once whole: a
	 * failure, or a signal (remove_at_exit()), leaves no part of a file
	 */
	dir = dir_of(path);
	tmp = xasprintf("%s/.perfkstat.XXXXXX", dir);
	free(dir);
	block_signals(&old);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		err = -errno;
	else
		remove_at_exit(tmp);
	unblock_signals(&old);
	if (err)
		goto out;
	for (pos = 0; pos < out.len; pos += n) {
		n = write(fd, out.buf + pos, out.len - pos);
		if (n < 0 && errno == EINTR) {
			n = 0;
			continue;
		}
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
	}
	if (close(fd) < 0 && !err)
		err = -errno;
	block_signals(&old);
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	keep_at_exit(tmp);
	unblock_signals(&old);
out:
	free(tmp);
	sb_free(&out);
	return err;
}

void perfdata_free(struct perfdata *pd)
{
	int i;

	if (!pd)
		return;
	for (i = 0; i < pd->nev; i++)
		free(pd->names[i]);
	for (i = 0; i < pd->ncmdline; i++)
		free(pd->cmdline[i]);
	free(pd->names);
	free(pd->cmdline);
	sb_free(&pd->kernel);
	sb_free(&pd->tasks);
	sb_free(&pd->samples);
	free(pd->tids);
	free(pd->pids);
	free(pd);
}

/* seen: whether V is in the set (*SET, *N), which it then is */
static bool seen(u32 **set, size_t *n, u32 v)
{
	size_t k;

	for (k = *n; k > 0; k--)
		if ((*set)[k - 1] == v)
			return true;
	/* full at 0, 1, 2, 4...: twice as large */
	if (!(*n & (*n - 1)))
		*set = xrealloc(*set, (*n ? 2 * *n : 1) * sizeof(**set));
	(*set)[(*n)++] = v;
	return false;
}

/* task_comm: the name of task TID of PID, or NULL (it is gone) */
static char *task_comm(u32 pid, u32 tid)
{
	char *path = xasprintf("/proc/%u/task/%u/comm", pid, tid), *s;

	s = read_text(path);
	free(path);
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

/* task_maps: PID's executable mappings, from /proc/PID/maps */
static void task_maps(struct perfdata *pd, u32 pid)
{
	char *path = xasprintf("/proc/%u/maps", pid), *text, *line, *p;
	struct sbuf sb = { 0 };
	unsigned long long start, end, pgoff;
	char perms[8];
	int name;
	u32 prot;

	if (read_all(path, &sb) < 0) {
		free(path);
		return;
	}
	free(path);
	text = sb.buf;
	while ((line = next_line(&text))) {
		name = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms,
			   &pgoff, &name) < 4 || !strchr(perms, 'x') || end <= start)
			continue;
		p = name ? line + name : "";
		prot = (perms[0] == 'r') | (perms[1] == 'w') << 1 | (perms[2] == 'x') << 2;
		/* as perf names anonymous code */
		perfdata_mmap(pd, false, pid, start, end - start, pgoff, prot,
			      *p ? p : "//anon");
	}
	sb_free(&sb);
}

void perfdata_task(struct perfdata *pd, u32 pid, u32 tid)
{
	char *comm;

	/* the idle task is perf's own "swapper" */
	if (!pid || seen(&pd->tids, &pd->ntids, tid))
		return;
	if (pid != tid && !seen(&pd->tids, &pd->ntids, pid)) {
		comm = task_comm(pid, pid);
		if (comm)
			perfdata_comm(pd, pid, pid, comm);
		free(comm);
	}
	comm = task_comm(pid, tid);
	if (comm)
		perfdata_comm(pd, pid, tid, comm);
	free(comm);
	if (!seen(&pd->pids, &pd->npids, pid))
		task_maps(pd, pid);
}

/*
 * kernel_text: from KALLSYMS, the kernel's _text (or else _stext: *REF
 * says which) into TEXT, and _etext into END; 0 each where it has none
 */
static void kernel_text(char *kallsyms, const char **ref, u64 *text, u64 *end)
{
	unsigned long long addr, stext = 0;
	char *p = kallsyms, *line, type, name[16];

	*text = 0;
	*end = 0;
	while ((line = next_line(&p))) {
		if (sscanf(line, "%llx %c %15s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			*text = addr;
		else if (!strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			*end = addr;
	}
	*ref = *text ? "_text" : "_stext";
	if (!*text)
		*text = stext;
}

/*
 * module_text: where module NAME's code starts: BASE, its address in
 * /proc/modules (where its text begins), or where that shows none, its
 * .text section's
 */
static u64 module_text(const char *name, u64 base)
{
	char *path, *s;
	u64 text = 0;

	if (base)
		return base;
	path = xasprintf("/sys/module/%s/sections/.text", name);
	s = read_text(path);
	free(path);
	if (s && !strncmp(s, "0x", 2))
		text = strtoull(s + 2, NULL, 16);
	free(s);
	return text;
}

void perfdata_kernel(struct perfdata *pd)
{
	struct sbuf ks = { 0 }, mods = { 0 };
	struct { char name[64]; u64 start, size; } *mod = NULL;
	unsigned long long addr, size;
	size_t n = 0, k;
	const char *ref;
	char *p, *line;
	u64 text, end;

	if (read_all("/proc/modules", &mods) == 0) {
		for (p = mods.buf; (line = next_line(&p));) {
			mod = xrealloc(mod, (n + 1) * sizeof(*mod));
			if (sscanf(line, "%63s %llu %*s %*s %*s %llx", mod[n].name, &size,
				   &addr) != 3)
				continue;
			mod[n].start = module_text(mod[n].name, addr);
			mod[n].size = size;
			if (mod[n].start && mod[n].size)
				n++;
		}
	}
	sb_free(&mods);
	if (read_all("/proc/kallsyms", &ks) < 0) {
		free(mod);
		return;
	}
	kernel_text(ks.buf, &ref, &text, &end);
	sb_free(&ks);
	if (text) {
		/* the kernel's text: up to _etext, or the next module, or all */
		if (end <= text) {
			end = ~0ULL;
			for (k = 0; k < n; k++)
				if (mod[k].start > text && mod[k].start < end)
					end = mod[k].start;
		}
		p = xasprintf("[kernel.kallsyms]%s", ref);
		perfdata_mmap(pd, true, 0, text, end - text, text, 5, p);
		free(p);
	}
	for (k = 0; k < n; k++) {
		p = xasprintf("[%s]", mod[k].name);
		perfdata_mmap(pd, true, 0, mod[k].start, mod[k].size, 0, 5, p);
		free(p);
	}
	free(mod);
}

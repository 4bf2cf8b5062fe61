// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat record -I INTERVAL | --every EVENT:N [--symbols] [-r RECORDS]
 *                  [-o FILE.csv] [-t SECONDS] [-p PID] [-e SPEC]... [NAME...]
 *                  [-- COMMAND...]
 *
 * A series of the counters in the kernel, drained as its records come
 * (poll() on its records.bin, which wakes at each record) while COMMAND
 * runs, for SECONDS, until PID exits or until SIGINT; then the
 * counters stop, a time series settles (every online CPU records twice
 * more, for at most 10 s and 10 intervals), and the records become CSV:
 * what each event counted on each CPU (or, with -p, by the process) since
 * the previous record, in time order. With --every the series records at
 * each Nth EVENT instead of by time, and a row also says where the CPU
 * was: the interrupted IP, pid, tid and mode (--symbols: the kernel's IPs
 * as symbol+offset, from /proc/kallsyms). A summary goes to standard error.
 *
 * PERFKSTAT_RECORD_TEXT set in the environment reads the text records
 * file every 0.2 s, as from a perfkmod without records.bin: make bench
 * compares the two ways of reading.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "perfdata.h"
#include "perfkstat.h"

#define NSEC 1000000000ULL
#define DRAIN_NS (200 * 1000000ULL)

struct event {
	char *name;		/* the counter */
	const char *label;	/* the CSV's column: the SPEC, or the NAME */
	char *spec;		/* a temporary's, when not the label: the trigger's */
	bool mine;		/* a temporary, made from a -e SPEC */
	s128 sum;		/* what its rows add up to */
	char *final;		/* a temporary's value once stopped */
};

static struct event *ev;
static int nev;
static char *records_path;
/* records.bin, open while recording (-1: a perfkmod without it) */
static int rec_fd = -1;
/* its header was read and checked */
static bool rec_header;
/* poll() said the series is gone: no more waiting on it */
static bool rec_gone;
/* --symbols: a column naming each kernel IP */
static bool symbols;
/* an event-driven series: ev[0] is its trigger, a record has 4 fields more */
static bool every;
/* --perf-data FILE: the records as perf.data too; the trigger's period */
static struct perfdata *perfdata;
static u64 every_period;

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
 * time and CPU (and of a triggered record, where the CPU was), a value per
 * event, and a bit per event set when the kernel could not read it ("-" in
 * the records file). The values are what the
 * counters read until deltas() makes them what each counted since the
 * previous record: differences of counts below 2^63 (a perf count is an
 * s64 in the kernel; a record with a higher one is malformed), so an s64
 * each.
 */
struct row {
	u64 time;
	u64 ip;		/* a triggered record's: the interrupted instruction */
	u32 cpu;
	u32 pid, tid;	/* the interrupted task's (0: idle) */
	u32 user;	/* it was in user mode */
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

/* where: a triggered record's "IP PID TID MODE" into R */
static bool where(char **f, struct row *r)
{
	u64 pid, tid;
	char *end;

	if (strncmp(f[0], "0x", 2) || !f[0][2] ||
	    strspn(f[0] + 2, "0123456789abcdef") != strlen(f[0] + 2) ||
	    strlen(f[0] + 2) > 16 || !parse_u64(f[1], &pid) || pid > INT32_MAX ||
	    !parse_u64(f[2], &tid) || tid > INT32_MAX ||
	    (strcmp(f[3], "user") && strcmp(f[3], "kernel")))
		return false;
	r->ip = strtoull(f[0] + 2, &end, 16);
	r->pid = pid;
	r->tid = tid;
	r->user = !strcmp(f[3], "user");
	return true;
}

/*
 * parse: a record, "TIME CPU VALUE..." ("-" for a value not read), and of
 * an event-driven series " IP PID TID MODE", as a new row; a malformed one
 * is said and left out
 */
static void parse(const char *line, char **f)
{
	int i, nf = nev + (every ? 6 : 2);
	char *copy = xstrdup(line);
	struct row *r = NULL;
	u64 t, cpu, v;

	if (fields(copy, f, nf) != nf || !parse_u64(f[0], &t) ||
	    !parse_u64(f[1], &cpu) || cpu >= CPU_LIMIT)
		goto bad;
	r = row_new();
	r->time = t;
	r->cpu = cpu;
	if (every && !where(f + nev + 2, r))
		goto bad;
	for (i = 0; i < nev; i++) {
		if (!strcmp(f[i + 2], "-"))
			missing(r)[i / 64] |= 1ULL << (i % 64);
		else if (count(f[i + 2], &v))
			r->v[i] = (s64)v;
		else
			goto bad;
	}
	/* the task, while it is there to be named */
	if (perfdata)
		perfdata_task(perfdata, r->pid, r->tid);
	free(copy);
	return;
bad:
	if (r)
		rows.n--;
	warn("warning: a malformed record: %s", line);
	free(copy);
}

/*
 * records.bin: perfkmod_series.h's struct perfkmod_series_file_header,
 * then records as its struct perfkmod_series_record, version 1, in the
 * kernel's byte order (this machine's)
 */
#define BIN_MAGIC	0x706b7372U
#define BIN_VERSION	1
#define BIN_TRIGGERED	1	/* the header's: an event-driven series */
#define BIN_COUNTERS	8
#define REC_TRIGGERED	1	/* a record's flags */
#define REC_USER	2

struct bin_header {
	u32 magic;
	u16 version;
	u16 header_size;
	u32 record_size;
	u16 nr_counters;
	u16 flags;
};

struct bin_record {
	u64 time;
	u32 cpu;
	u16 nr_values;
	u16 errors;
	u64 values[BIN_COUNTERS];
	u64 ip;
	u32 pid;
	u32 tid;
	u32 flags;
	u32 reserved;
};

/* records a read of records.bin takes at most; the largest sizes taken */
#define BIN_BATCH 512
#define BIN_MAX_SIZE 4096

/* the size of a record, from the header: a later version's may be larger */
static size_t rec_size;

/*
 * bin_header_ok: H is a header of this format and version, of a series
 * of nev counters, event-driven as --every's; else WHY says what differs.
 * A header or record larger than this one's holds fields added at its end,
 * which are skipped.
 */
static bool bin_header_ok(const struct bin_header *h, const char **why)
{
	if (h->magic != BIN_MAGIC)
		*why = "not a records.bin header";
	else if (h->version != BIN_VERSION || h->header_size < sizeof(*h) ||
		 h->record_size < sizeof(struct bin_record) ||
		 h->header_size > BIN_MAX_SIZE || h->record_size > BIN_MAX_SIZE)
		*why = "a version of records.bin perfkstat does not know";
	else if (h->nr_counters != nev || !(h->flags & BIN_TRIGGERED) != !every)
		*why = "not the series perfkstat made";
	else
		return true;
	return false;
}

/* bin_row: a binary record as a new row; a malformed one is said and left out */
static void bin_row(const struct bin_record *b)
{
	struct row *r;
	int i;

	if (b->nr_values != nev || b->cpu >= CPU_LIMIT ||
	    !(b->flags & REC_TRIGGERED) != !every ||
	    b->pid > INT32_MAX || b->tid > INT32_MAX)
		goto bad;
	for (i = 0; i < nev; i++)
		if (!(b->errors & (1U << i)) && b->values[i] > INT64_MAX)
			goto bad;
	r = row_new();
	r->time = b->time;
	r->cpu = b->cpu;
	if (every) {
		r->ip = b->ip;
		r->pid = b->pid;
		r->tid = b->tid;
		r->user = !!(b->flags & REC_USER);
	}
	for (i = 0; i < nev; i++) {
		if (b->errors & (1U << i))
			missing(r)[i / 64] |= 1ULL << (i % 64);
		else
			r->v[i] = (s64)b->values[i];
	}
	return;
bad:
	warn("warning: a malformed record: time %llu, CPU %u, %u values",
	     (unsigned long long)b->time, b->cpu, b->nr_values);
}

/*
 * drain_bin: what records.bin holds now, as rows: its header first, then
 * whole records, until a read gives none; false when it cannot be read
 */
static bool drain_bin(void)
{
	static char buf[BIN_MAX_SIZE + BIN_BATCH * sizeof(struct bin_record)];
	struct bin_record rec;
	struct bin_header h;
	const char *why;
	size_t off;
	ssize_t n;

	for (;;) {
		n = read(rec_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n == 0;
		off = 0;
		if (!rec_header) {
			if ((size_t)n < sizeof(h))
				die("%s.bin: a short header", records_path);
			memcpy(&h, buf, sizeof(h));
			if (!bin_header_ok(&h, &why))
				die("%s.bin: %s", records_path, why);
			if ((size_t)n < h.header_size)
				die("%s.bin: a short header", records_path);
			rec_header = true;
			rec_size = h.record_size;
			off = h.header_size;
		}
		for (; off + rec_size <= (size_t)n; off += rec_size) {
			memcpy(&rec, buf + off, sizeof(rec));
			bin_row(&rec);
		}
	}
}

/*
 * drain: the records the series holds now, as rows; false when they
 * cannot be read (the series is gone: deleted by hand, or perfkmod
 * unloaded), which is said once. From records.bin, or from the text of
 * records where the module has no records.bin.
 */
static bool drain(void)
{
	static struct sbuf sb;
	static char **f;
	static bool warned;
	char *text, *line;

	if (rec_fd >= 0) {
		if (drain_bin())
			return true;
		if (!warned)
			warn("warning: cannot read the records: %s.bin: %s", records_path,
			     strerror(errno));
		warned = true;
		return false;
	}
	if (!f)
		f = xmalloc((nev + 6) * sizeof(*f));
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

/*
 * wait_records: sleep until records wait in records.bin (poll(): the
 * series wakes it at each record), SFD (a signalfd of SIGCHLD, or -1)
 * is readable, a caught signal comes, or NS pass (UINT64_MAX: no limit).
 * Without records.bin, or once poll() said the series is gone, NS is
 * DRAIN_NS at most: the records are read on a clock. STOPPABLE: a SIGINT
 * that asked to stop before the sleep ends it, never missed between the
 * look at the flag and the sleep (every signal is held in between).
 */
static void wait_records(int sfd, u64 ns, bool stoppable)
{
	struct pollfd p[2] = {
		{ .fd = rec_fd >= 0 && !rec_gone ? rec_fd : -1, .events = POLLIN },
		{ .fd = sfd, .events = POLLIN },
	};
	struct signalfd_siginfo si;
	struct timespec ts;
	sigset_t old;

	if (p[0].fd < 0 && ns > DRAIN_NS)
		ns = DRAIN_NS;
	ts.tv_sec = ns / NSEC;
	ts.tv_nsec = ns % NSEC;
	block_signals(&old);
	if (!stoppable || !stop_requested())
		ppoll(p, 2, ns == UINT64_MAX ? NULL : &ts, &old);
	unblock_signals(&old);
	if (p[0].revents & (POLLHUP | POLLERR))
		rec_gone = true;
	if (p[1].revents & POLLIN)
		while (read(sfd, &si, sizeof(si)) > 0)
			;
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

/*
 * The kernel's text symbols, from /proc/kallsyms, by address: --symbols
 * names a kernel IP "symbol+0xOFFSET" (and " [module]" in a module's).
 * A symbol stands for the IPs from its address up to the next symbol's,
 * and no further than its text: the kernel's (up to _etext) or its
 * module's (/proc/modules: the module's base and size). An IP past that
 * (a module unloaded, code without symbols) is named by none. Code that
 * /proc/modules does not list (bpf programs, ftrace's and kprobes'
 * trampolines) has no such bound: its symbols stand up to the next.
 */
struct ksym {
	u64 addr;
	u64 limit;	/* the end of its kernel's or module's text */
	char *name;	/* "symbol" or "symbol [module]" */
};

static struct ksym *ksyms;
static size_t nksyms;

static int by_addr(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* module_end: where module "[NAME]"'s memory ends, by /proc/modules; or 0 */
static u64 module_end(const char *modules, const char *name)
{
	size_t len = strlen(name) - 2;
	const char *line = modules;
	char *f[6], *copy;
	u64 end = 0, size;
	int n;

	for (; *line && !end; line += strcspn(line, "\n"), line += !!*line) {
		if (strncmp(line, name + 1, len) || line[len] != ' ')
			continue;
		copy = xasprintf("%.*s", (int)strcspn(line, "\n"), line);
		n = fields(copy, f, 6);
		/* (a seventh field, the taints, is there for some) */
		if (n >= 6 && parse_u64(f[1], &size) && !strncmp(f[5], "0x", 2))
			end = strtoull(f[5] + 2, NULL, 16) + size;
		free(copy);
	}
	return end;
}

/*
 * ksyms_shown: /proc/kallsyms gives the text symbols' addresses (to root,
 * kptr_restrict < 2), as its first one says (the per-CPU symbols before
 * it are at 0 either way)
 */
static bool ksyms_shown(void)
{
	char line[1024], type;
	unsigned long long addr;
	bool shown = false;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f)
		die("--symbols: /proc/kallsyms: %s", strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c", &addr, &type) == 2 && strchr("tT", type)) {
			shown = addr != 0;
			break;
		}
	}
	fclose(f);
	return shown;
}

/*
 * load_ksyms: the text symbols, sorted, with their limits. A module's
 * symbols stand together in /proc/kallsyms: its end is looked up once.
 */
static void load_ksyms(void)
{
	struct sbuf sb = { 0 }, mods = { 0 };
	char *text, *line, *f[4], *mod = NULL;
	u64 etext = UINT64_MAX, end = 0;
	size_t cap = 0, k;
	int n;

	if (read_all("/proc/kallsyms", &sb) < 0)
		die("--symbols: /proc/kallsyms: %s", strerror(errno));
	/* without /proc/modules, a module's symbols have no limit */
	if (read_all("/proc/modules", &mods) < 0)
		sb_add(&mods, "", 0);
	text = sb.buf;
	while ((line = next_line(&text))) {
		n = fields(line, f, 4);
		if (n < 3 || strlen(f[1]) != 1 || !strchr("tT", f[1][0]))
			continue;
		if (nksyms == cap) {
			cap = cap ? 2 * cap : 65536;
			ksyms = xrealloc(ksyms, cap * sizeof(*ksyms));
		}
		ksyms[nksyms].addr = strtoull(f[0], NULL, 16);
		if (n == 3 && !strcmp(f[2], "_etext"))
			etext = ksyms[nksyms].addr;
		if (n > 3 && (!mod || strcmp(mod, f[3]))) {
			free(mod);
			mod = xstrdup(f[3]);
			end = module_end(mods.buf, mod);
		}
		/* the kernel's own: _etext, once it is known */
		ksyms[nksyms].limit = n == 3 ? 0 : end ? end : UINT64_MAX;
		ksyms[nksyms++].name = n > 3 ? xasprintf("%s %s", f[2], f[3]) :
			xstrdup(f[2]);
	}
	free(mod);
	sb_free(&sb);
	sb_free(&mods);
	for (k = 0; k < nksyms; k++)
		if (!ksyms[k].limit)
			ksyms[k].limit = etext;
	qsort(ksyms, nksyms, sizeof(*ksyms), by_addr);
}

/* ksym: the symbol of IP (at the greatest address at or below it), or NULL */
static const struct ksym *ksym(u64 ip)
{
	size_t lo = 0, hi = nksyms, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ksyms[mid].addr <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && ip < ksyms[lo - 1].limit ? &ksyms[lo - 1] : NULL;
}

/* csv_field: ",S", in quotes (a quote in it doubled) when S needs them */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, "\",\n")) {
		fprintf(f, ",%s", s);
		return;
	}
	fputs(",\"", f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* symbol: a kernel IP's "symbol+0xOFFSET [module]" field, empty if unknown */
static void symbol(FILE *f, u64 ip)
{
	const struct ksym *k = ksym(ip);
	const char *mod;
	char *s;

	if (!k) {
		fputc(',', f);
		return;
	}
	mod = strchr(k->name, ' ');
	if (mod)
		s = xasprintf("%.*s+0x%llx%s", (int)(mod - k->name), k->name,
			      (unsigned long long)(ip - k->addr), mod);
	else
		s = xasprintf("%s+0x%llx", k->name, (unsigned long long)(ip - k->addr));
	csv_field(f, s);
	free(s);
}

/* write_csv: the header and the rows to F */
static void write_csv(FILE *f)
{
	struct row *r;
	size_t k;
	u64 t0;
	int i;

	fputs("time,cpu", f);
	for (i = 0; i < nev; i++)
		csv_field(f, ev[i].label);
	if (every)
		fputs(symbols ? ",ip,pid,tid,mode,symbol" : ",ip,pid,tid,mode", f);
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
		if (every)
			fprintf(f, ",0x%llx,%u,%u,%s", (unsigned long long)r->ip, r->pid,
				r->tid, r->user ? "user" : "kernel");
		if (every && symbols) {
			if (r->user)
				fputc(',', f);
			else
				symbol(f, r->ip);
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

/*
 * trigger: --every EVENT:N as the trigger, ev[0]: a temporary counter of
 * EVENT sampling every N events (of a clock, N may be a duration: the
 * clocks count nanoseconds)
 */
static void trigger(const char *arg)
{
	const char *colon = strrchr(arg, ':'), *n = colon ? colon + 1 : "";
	char *spec = xasprintf("%.*s", colon ? (int)(colon - arg) : 0, arg);
	char *wrap = xasprintf(",%s,", spec), *why, *label;
	size_t len = strcspn(spec, ":,/");
	/* perf's clocks, which count nanoseconds */
	bool clock = (len == 9 && !strncmp(spec, "cpu-clock", 9)) ||
		     (len == 10 && !strncmp(spec, "task-clock", 10));
	u64 period;

	if (!*spec || !*n)
		die("--every takes EVENT:N (instructions:1000000, page-faults:100, cpu-clock:1ms)");
	if (strstr(wrap, ",period=") || strstr(wrap, ",freq="))
		die("--every %s: N is the period (no period=, no freq=)", arg);
	if (all_digits(n)) {
		if (!parse_u64(n, &period) || !period || period > INT64_MAX)
			die("--every %s: N is a count from 1 to 2^63-1", arg);
	} else if (!duration_ns(n, &period) || !period || period > INT64_MAX) {
		die("--every %s: N is a count, or for cpu-clock and task-clock a duration (1ms)",
		    arg);
	} else if (!clock) {
		die("--every %s: a duration is for cpu-clock and task-clock; give a count", arg);
	}
	/* what perf's clocks take: an hrtimer of 10 us at the least */
	if (clock && period < 10000)
		die("--every %s: perf's clocks take a period of 10us at least", arg);
	free(wrap);
	ev = xrealloc(ev, (nev + 1) * sizeof(*ev));
	memmove(&ev[1], &ev[0], nev * sizeof(*ev));
	memset(&ev[0], 0, sizeof(*ev));
	ev[0].name = xasprintf(ME "-%d-every", (int)getpid());
	/* EVENT as perf reads it (events.c), named as typed */
	wrap = event_spec(spec, &label, &why);
	if (!wrap)
		die("--every %s: %s (perfkstat events lists the events)", arg, why);
	ev[0].label = label;
	ev[0].spec = xasprintf("%s,period=%llu", wrap, (unsigned long long)period);
	ev[0].mine = true;
	nev++;
	every = true;
	every_period = period;
	free(wrap);
	free(spec);
}

/*
 * add_events: the events of -e's ARG, each as if given with an -e of its
 * own, a temporary each; the number of temporaries, N before them
 */
static int add_events(const char *arg, int n)
{
	struct event_spec *e;
	int k, count;

	e = event_specs(arg, &count);
	for (k = 0; k < count; k++) {
		ev = xrealloc(ev, (nev + 1) * sizeof(*ev));
		memset(&ev[nev], 0, sizeof(*ev));
		ev[nev].name = xasprintf(ME "-%d-%d", (int)getpid(), ++n);
		ev[nev].label = e[k].label;
		ev[nev].spec = e[k].spec;
		ev[nev].mine = true;
		nev++;
	}
	free(e);
	return n;
}

/*
 * trigger_stats: the trigger's overflows and throttlings, from list, into
 * OVERFLOWS and THROTTLED; "?" each when the trigger is not there (deleted
 * by hand, or perfkmod unloaded)
 */
static void trigger_stats(char *overflows, char *throttled, size_t size)
{
	char *path = dbg_path("list");
	struct list_entry *e;
	int i, n;

	snprintf(overflows, size, "?");
	snprintf(throttled, size, "?");
	if (access(path, R_OK)) {
		free(path);
		return;
	}
	free(path);
	n = read_list(&e);
	for (i = 0; i < n; i++) {
		if (strcmp(e[i].name, ev[0].name))
			continue;
		snprintf(overflows, size, "%llu", (unsigned long long)e[i].overflows);
		snprintf(throttled, size, "%llu", (unsigned long long)e[i].throttled);
	}
	free_list(e, n);
}

/*
 * write_perfdata: the rows as perf.data samples at PATH, each with every
 * event's count over all CPUs up to it (the sum of its deltas so far: perf
 * takes their differences), and the kernel's and modules' code as now
 */
static void write_perfdata(const char *path)
{
	u64 *sum = xmalloc(nev * sizeof(*sum));
	struct perfdata_sample s;
	struct row *r;
	size_t k;
	int i, err;

	memset(sum, 0, nev * sizeof(*sum));
	perfdata_kernel(perfdata);
	for (k = 0; k < rows.n; k++) {
		r = row_at(k);
		for (i = 0; i < nev; i++)
			if (!(missing(r)[i / 64] & (1ULL << (i % 64))))
				sum[i] += (u64)r->v[i];
		s = (struct perfdata_sample){ .time = r->time, .ip = r->ip, .cpu = r->cpu,
					      .pid = r->pid, .tid = r->tid, .user = r->user,
					      .read = sum };
		perfdata_sample(perfdata, &s);
	}
	free(sum);
	err = perfdata_write(perfdata, path);
	if (err)
		die("could not write %s: %s", path, strerror(-err));
	perfdata_free(perfdata);
	perfdata = NULL;
}

/* why a process's rows may sum to less than its counter */
static const char after_last[] = " (counted after the last record of the process: ";
static const char why_after[] = "it exited, or ran on until the counter stopped)";

int cmd_record(int argc, char **argv)
{
	const char *ival = "", *nrec = "", *out = NULL, *secs = NULL, *pidarg = NULL;
	const char *every_arg = NULL, *data = NULL;
	int argc0 = argc;
	char **argv0 = argv;
	char *series, *cmd, *why, *spec, *dir, *wrap, *dropped, *skipped, *p;
	struct sbuf sb = { 0 };
	/* the previous values per CPU, from the NAMEd ones' bases; of -p's process */
	struct prevs prev = { 0 }, task = { 0 };
	u64 ns, records = 0, tns = 0, deadline, t0;
	char overflows[24], throttled[24];
	int i, n = 0, rc = 0, ncpus, nrcpus, status, *cpus;
	bool no_csv = false;	/* -o FILE.data: the perf.data alone */
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
				n = add_events(argv[++i], n);
			}
		} else if (!strcmp(a, "--every")) {
			if (i + 1 >= argc || every_arg)
				usage();
			every_arg = argv[++i];
		} else if (!strcmp(a, "--symbols")) {
			symbols = true;
		} else if (!strcmp(a, "--perf-data")) {
			if (i + 1 >= argc || !*argv[i + 1])
				usage();
			data = argv[++i];
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (a[0] == '-') {
			bad_option(a);
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
	/* perf record's -o FILE.data: the perf.data, not the CSV */
	if (out && !data && strlen(out) > 5 &&
	    !strcmp(out + strlen(out) - 5, ".data")) {
		data = out;
		out = NULL;
		no_csv = true;
	}
	if (secs && !*secs)
		secs = NULL;
	if (pidarg && !*pidarg)
		pidarg = NULL;
	if (*ival && every_arg)
		die("-I or --every: a series records by time or by an event's count");
	if (!*ival && !every_arg)
		die("record needs -I INTERVAL (e.g. -I 10ms) or --every EVENT:N");
	if (symbols && !every_arg)
		die("--symbols names the IPs of --every's records");
	if (data && !every_arg)
		die("--perf-data writes --every's records as samples");
	/* milliseconds, as perf's and stat's -I, without a unit */
	if (*ival && all_digits(ival))
		ival = xasprintf("%sms", ival);
	if (every_arg) {
		trigger(every_arg);
		/* an -e of the trigger's event is its column */
		for (i = 1; i < nev; i++) {
			if (!ev[i].mine || strcmp(ev[i].label, ev[0].label))
				continue;
			free(ev[i].name);
			memmove(&ev[i], &ev[i + 1], (nev - i - 1) * sizeof(*ev));
			nev--;
			i--;
		}
	}
	if (!nev)
		die("no counters: name one, or an event with -e");
	rows_init();
	if (data) {
		const char **names = xmalloc(nev * sizeof(*names));

		for (i = 0; i < nev; i++)
			names[i] = ev[i].label;
		perfdata = perfdata_new(nev, names, every_period);
		free(names);
		/* the command line perf report shows: "record" and its arguments */
		names = xmalloc((argc0 + 1) * sizeof(*names));
		names[0] = "record";
		memcpy(names + 1, argv0, argc0 * sizeof(*names));
		perfdata_cmdline(perfdata, argc0 + 1, (const char *const *)names);
		free(names);
	}
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
		for (i = 0; i < nev && ev[i].mine; i++)
			;
		if (i < nev)
			die("-p: NAMEd counters are not the process's: name events with -e");
	}
	for (i = 0; i < 2; i++) {
		const char *path = i ? data : out;
		struct stat st;

		if (!path)
			continue;
		dir = dir_of(path);
		if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
			die("%s: no such directory", path);
		free(dir);
	}
	need_dir();
	/* without addresses, no recording for nothing */
	if (symbols && !ksyms_shown())
		die("--symbols: /proc/kallsyms shows no addresses (root, kptr_restrict < 2)");
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
		wrap = xasprintf(",%s,", ev[i].spec ? ev[i].spec : ev[i].label);
		if (strstr(wrap, ",cpu=") || strstr(wrap, ",pid="))
			die("%s: record takes events of all CPUs or of -p PID (no cpu=, no pid=)",
			    ev[i].label);
		spec = xasprintf("%s%s", ev[i].spec ? ev[i].spec : ev[i].label,
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
			ctl_complain_as(cmd, ev[i].label);
			exit(1);
		}
		free(cmd);
		free(spec);
	}
	temp_add(series, true);
	if (every)
		sb_printf(&sb, "series %s every=%s", series, ev[0].name);
	else
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
	if (!ns && !every)
		die("-I %s: not understood", ival);
	records_path = dbg_path("series/%s/records", series);
	p = xasprintf("%s.bin", records_path);
	if (!getenv("PERFKSTAT_RECORD_TEXT")) {
		rec_fd = open(p, O_RDONLY | O_CLOEXEC);
		if (rec_fd < 0 && errno != ENOENT)
			die("%s: %s", p, strerror(errno));
	}
	free(p);
	/* a trigger's records read counters that run: it starts last, stops first */
	for (i = nev - 1; i >= 0; i--) {
		if (!ev[i].mine)
			continue;
		cmd = xasprintf("enable %s", ev[i].name);
		if (ctl(cmd, false))
			exit(1);
		free(cmd);
	}

	/*
	 * Recording: a drain as records come (poll() on records.bin; on a
	 * clock every 0.2 s from a perfkmod without it). A COMMAND's end is
	 * waited for as SIGCHLD (held, read from a signalfd beside the
	 * records), -p's process looked for every 0.1 s, as perfkstat's own
	 * wakeups count on a CPU too.
	 */
	deadline = mono_ns() + tns;
	if (argc) {
		sigset_t chld, old;
		int sfd;

		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		sigprocmask(SIG_BLOCK, &chld, &old);
		sfd = signalfd(-1, &chld, SFD_NONBLOCK | SFD_CLOEXEC);
		if (sfd < 0)
			die("signalfd: %s", strerror(errno));
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
			wait_records(sfd, UINT64_MAX, false);
		}
		close(sfd);
		sigprocmask(SIG_SETMASK, &old, NULL);
		defer_signals(false);
	} else {
		while (!stop_requested()) {
			u64 now = mono_ns(), step = pid ? DRAIN_NS / 2 : UINT64_MAX;

			if (pid && kill(pid, 0) < 0)
				break;
			if (secs && now >= deadline)
				break;
			drain();
			if (secs && deadline - now < step)
				step = deadline - now;
			/* SIGINT cuts it short */
			wait_records(-1, step, true);
		}
	}
	int_stops(false);

	for (i = 0; i < nev; i++) {
		if (!ev[i].mine)
			continue;
		/* one deleted by hand is said; what was recorded is written */
		cmd = xasprintf("disable %s", ev[i].name);
		ctl(cmd, false);
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
	if (every) {
		/* records come from overflows: none once the trigger stops */
	} else if (pid) {
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
	if (every)
		trigger_stats(overflows, throttled, sizeof(overflows));
	if (rec_fd >= 0)
		close(rec_fd);
	release();
	/* once the recording is done: the modules COMMAND loaded are in */
	if (symbols)
		load_ksyms();

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
	} else if (!no_csv) {
		write_csv(stdout);
		flush_stdout();
	}
	if (data)
		write_perfdata(data);

	/*
	 * The summary; a temporary counter's total is its value, or with
	 * --every what it was at each CPU's last record (an overflow that is
	 * not a record, or a count after the last, is the counter's alone).
	 */
	if (every)
		warn("%zu records, %d CPUs, %s dropped, %s: %s overflows, %s throttled",
		     rows.n, nrcpus, dropped ? dropped : "", ev[0].label, overflows,
		     throttled);
	else
		warn("%zu records, %d CPUs, %s dropped, %s intervals skipped", rows.n,
		     nrcpus, dropped ? dropped : "", skipped ? skipped : "");
	for (i = 0; i < nev; i++) {
		fmt_s128(num, ev[i].sum);
		if (!ev[i].mine) {
			warn("%s total %s", ev[i].label, num);
			continue;
		}
		warn("%s total %s, counter %s", ev[i].label, num, ev[i].final ? ev[i].final : "");
		if (every && ev[i].final && ev[i].sum <= (s128)leading_u64(ev[i].final))
			continue;
		if (!ev[i].final || strcmp(num, ev[i].final))
			warn("warning: %s: the records sum to %s, the counter read %s%s%s",
			     ev[i].label, num, ev[i].final ? ev[i].final : "",
			     pid ? after_last : "", pid ? why_after : "");
	}
	return rc;
}

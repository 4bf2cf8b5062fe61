// SPDX-License-Identifier: GPL-2.0
/*
 * perfdata.c's perf.data: a file written from fixed records, its layout
 * checked here, then read back by the host's perf (/usr/bin/perf, when
 * installed: Debian's linux-perf), whose perf script must show the same
 * samples (event, pid/tid, cpu, time, period, ip) and whose perf report
 * must name their kernel code from a kallsyms file as given.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../perfdata.h"
#include "tap.h"

#define PERF "/usr/bin/perf"

static const char kallsyms[] =
	"ffffffff81000000 T _text\n"
	"ffffffff81000a00 T do_thing\n"
	"ffffffff81000b00 T other_thing\n"
	"ffffffff81200000 T _etext\n"
	"ffffffffc0000000 t mod_fn\t[mod]\n"
	"ffffffffc0000100 t mod_other\t[mod]\n";

/*
 * what perf script -F event,pid,tid,cpu,time,period,ip prints of the
 * file, blanks squeezed: a line a sample of each event whose count
 * changed since the previous sample (page-faults did not at the third)
 */
static const char script[] =
	"100/100 [000] 1.000000: 1000000 cpu-clock: 400123\n"
	"100/100 [000] 1.000000: 3 page-faults: 400123\n"
	"100/101 [001] 1.000500: 1000000 cpu-clock: ffffffff81000abc\n"
	"100/101 [001] 1.000500: 2 page-faults: ffffffff81000abc\n"
	"0/0 [001] 1.001000: 1000000 cpu-clock: ffffffffc0000010\n";

static void write_file(const char *path)
{
	static const char *const names[] = { "cpu-clock", "page-faults" };
	static const char *const argv[] = { "record", "--every", "cpu-clock:1ms" };
	static const u64 r1[] = { 1000000, 3 }, r2[] = { 2000000, 5 },
		r3[] = { 3000000, 5 };
	struct perfdata *pd = perfdata_new(2, names, 1000000);
	struct perfdata_sample s = {
		.time = 1000000000, .ip = 0x400123, .cpu = 0, .pid = 100, .tid = 100,
		.user = true, .read = r1,
	};

	perfdata_cmdline(pd, 3, argv);
	perfdata_mmap(pd, true, 0, 0xffffffff81000000ULL, 0x200000,
		      0xffffffff81000000ULL, 5, "[kernel.kallsyms]_text");
	perfdata_mmap(pd, true, 0, 0xffffffffc0000000ULL, 0x2000, 0, 5, "[mod]");
	perfdata_comm(pd, 100, 100, "work");
	perfdata_comm(pd, 100, 101, "work-2");
	perfdata_mmap(pd, false, 100, 0x400000, 0x1000, 0, 5, "/bin/prog");
	perfdata_sample(pd, &s);
	s.time += 500000;
	s.ip = 0xffffffff81000abcULL;
	s.user = false;
	s.cpu = 1;
	s.tid = 101;
	s.read = r2;
	perfdata_sample(pd, &s);
	s.time += 500000;
	s.ip = 0xffffffffc0000010ULL;
	s.pid = 0;
	s.tid = 0;
	s.read = r3;
	perfdata_sample(pd, &s);
	ok(perfdata_write(pd, path) == 0, "perf.data: written");
	perfdata_free(pd);
}

/* squeezed: TEXT's lines with their blanks squeezed to one, trimmed */
static char *squeezed(const char *text)
{
	char *out = xmalloc(strlen(text) + 1), *o = out;
	bool blank = false, start = true;

	for (; *text; text++) {
		if (*text == ' ' || *text == '\t') {
			blank = true;
			continue;
		}
		if (blank && !start && *text != '\n')
			*o++ = ' ';
		blank = false;
		*o++ = *text;
		start = *text == '\n';
	}
	*o = '\0';
	return out;
}

/* run: what shell command CMD prints on standard output, or NULL */
static char *run(const char *cmd)
{
	struct sbuf sb = { 0 };
	char buf[4096];
	size_t n;
	FILE *f = popen(cmd, "r");

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		sb_add(&sb, buf, n);
	if (pclose(f) != 0) {
		sb_free(&sb);
		return NULL;
	}
	if (!sb.buf)
		sb_add(&sb, "", 0);
	return sb.buf;
}

/* layout: the header's fields, read back */
static void layout(const char *path)
{
	struct sbuf sb = { 0 };
	u64 v[13];
	struct stat st;

	if (!ok(read_all(path, &sb) == 0 && sb.len >= sizeof(v), "perf.data: read back"))
		return;
	memcpy(v, sb.buf, sizeof(v));
	ok(!memcmp(sb.buf, "PERFILE2", 8), "perf.data: magic PERFILE2");
	is_u64(v[1], 104, "perf.data: header size");
	is_u64(v[2], 112 + 16, "perf.data: attr size (PERF_ATTR_SIZE_VER5, ids)");
	is_u64(v[3], 104, "perf.data: attrs after the header");
	is_u64(v[4], 2 * 128, "perf.data: an attr an event");
	/*
	 * the records, each with its header (8 bytes), sample_id_all's 32
	 * bytes but a sample's, a name NUL-padded to 8: the kernel's MMAP
	 * (8 + 8 + 24 + 24 + 32) and the module's (8 + 8 + 24 + 8 + 32), two
	 * COMMs (8 + 8 + 8 + 32 each), an MMAP2 (8 + 8 + 24 + 24 +
	 * 8 + 16 + 32), three samples (8 + 7 * 8 + 2 * 16)
	 */
	is_u64(v[6], 96 + 80 + 2 * 56 + 120 + 3 * 96, "perf.data: data size");
	ok(stat(path, &st) == 0 && (u64)st.st_size > v[5] + v[6],
	   "perf.data: features after the data");
	sb_free(&sb);
}

/*
 * the events of attrs(), by perf's names and aliases, and what perf
 * evlist -v says of their attrs: perf stat -vv -e EVENT's type and config
 * (perf 6.1); a name perf does not know has type ~0 (perfdata.c's NO_PMU)
 */
static const char *const attr_names[] = {
	"cs", "faults", "migrations", "ref-cycles", "cycles:u",
	"L1-dcache-load-misses", "dTLB-prefetch-misses", "r1a8", "not-an-event",
};

static const char evlist[] =
	"cs: 1 0x3\n"
	"faults: 1 0x2\n"
	"migrations: 1 0x4\n"
	"ref-cycles: 0 0x9\n"
	"cycles:u: 0 0\n"
	"L1-dcache-load-misses: 3 0x10000\n"
	"dTLB-prefetch-misses: 3 0x10203\n"
	"r1a8: 4 0x1a8\n"
	"not-an-event: 4294967295 0\n";

/*
 * NAME: TYPE CONFIG of each line of perf evlist -v, which leaves out a
 * field that is 0
 */
static const char evlist_fields[] =
	"awk '{ t = 0; c = 0; "
	"if (match($0, / type: [0-9]+/)) t = substr($0, RSTART + 7, RLENGTH - 7); "
	"if (match($0, / config: 0x[0-9a-f]+/)) c = substr($0, RSTART + 9, RLENGTH - 9); "
	"print $1, t, c }'";

/* attrs: perf's type and config for each event, as perf evlist reads them */
static void attrs(const char *dir)
{
	static const u64 counts[ARRAY_SIZE(attr_names)] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	struct perfdata_sample s = { .time = 1, .cpu = 0, .read = counts };
	struct perfdata *pd = perfdata_new(ARRAY_SIZE(attr_names), attr_names, 1000);
	char *path = xasprintf("%s/aliases.data", dir), *cmd, *got;

	perfdata_sample(pd, &s);
	ok(perfdata_write(pd, path) == 0, "perf.data of perf's aliases: written");
	perfdata_free(pd);
	if (access(PERF, X_OK)) {
		ok(true, "perf evlist: perf's type and config # SKIP no " PERF);
		goto out;
	}
	cmd = xasprintf(PERF " evlist -v -i %s 2>/dev/null | %s", path, evlist_fields);
	got = run(cmd);
	free(cmd);
	is_str(got, evlist, "perf evlist: perf's type and config of each alias");
	free(got);
out:
	unlink(path);
	free(path);
}

/* temporaries: the number of perfdata_write()'s temporaries in DIR */
static int temporaries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, ".perfkstat.", 11);
	closedir(d);
	return n;
}

/*
 * unwritable: a file that cannot be written whole (RLIMIT_FSIZE stops
 * it, write() then fails with EFBIG) leaves the file it was to replace
 * as it was, and no temporary
 */
static void unwritable(const char *dir)
{
	static const char *const names[] = { "cpu-clock" };
	struct perfdata *pd = perfdata_new(1, names, 1000);
	char *path = xasprintf("%s/old.data", dir), *got;
	struct rlimit was, small;
	sighandler_t xfsz;
	FILE *f = fopen(path, "w");

	fputs("old\n", f);
	fclose(f);
	getrlimit(RLIMIT_FSIZE, &was);
	small = was;
	small.rlim_cur = 64;
	xfsz = signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &small);
	is_u64(-perfdata_write(pd, path), EFBIG, "perf.data past RLIMIT_FSIZE: EFBIG");
	setrlimit(RLIMIT_FSIZE, &was);
	signal(SIGXFSZ, xfsz);
	got = read_text(path);
	is_str(got, "old", "perf.data not written: the file it replaces as it was");
	is_u64(temporaries(dir), 0, "perf.data not written: no temporary left");
	free(got);
	unlink(path);
	free(path);
	perfdata_free(pd);
}

/* the clock's lines of perf report --header-only, each number as N */
static const char clock_lines[] =
	"grep -E '^# (clockid|reference time)' | sed -E '/^# reference/s/[0-9]+/N/g'";

/*
 * clock_header: the file's clock, as perf report --header-only shows it:
 * perf record -k CLOCK_MONOTONIC's lines ("clockid frequency" is perf's
 * figure of clock_getres(): its ns times 1000), and use_clockid and
 * clockid 1 in each attr, as perf evlist -v shows them
 */
static void clock_header(const char *data)
{
	struct timespec res;
	char *cmd, *got, *want;

	cmd = xasprintf(PERF " report --header-only -i %s 2>/dev/null | %s", data,
			clock_lines);
	got = run(cmd);
	free(cmd);
	clock_getres(CLOCK_MONOTONIC, &res);
	want = xasprintf("# clockid frequency: %llu MHz\n"
			 "# clockid: monotonic (1)\n"
			 "# reference time: N-N-N N:N:N.N = N.N (TOD) = N.N (monotonic)\n",
			 (res.tv_sec * 1000000000ULL + res.tv_nsec) * 1000);
	is_str(got, want, "perf report --header-only: CLOCK_MONOTONIC, a reference time");
	free(got);
	free(want);
	cmd = xasprintf(PERF " evlist -v -i %s 2>/dev/null | grep -c '%s'", data,
			"use_clockid: 1, clockid: 1$");
	got = run(cmd);
	is_str(got, "2\n", "perf evlist: each attr has use_clockid, clockid CLOCK_MONOTONIC");
	free(got);
	free(cmd);
}

void perfdata_tests(void)
{
	char dir[] = "/tmp/perfkstat-test-XXXXXX", *data, *ks, *cmd, *got, *want;
	FILE *f;

	if (!ok(mkdtemp(dir), "perf.data: a temporary directory"))
		return;
	data = xasprintf("%s/perf.data", dir);
	ks = xasprintf("%s/kallsyms", dir);
	write_file(data);
	is_u64(temporaries(dir), 0, "perf.data: its temporary renamed");
	layout(data);
	unwritable(dir);
	attrs(dir);
	f = fopen(ks, "w");
	fputs(kallsyms, f);
	fclose(f);

	if (access(PERF, X_OK)) {
		ok(true, "perf script reads perf.data # SKIP no " PERF " (Debian's linux-perf)");
		ok(true, "perf report names its symbols # SKIP no " PERF " (Debian's linux-perf)");
		goto out;
	}
	cmd = xasprintf(PERF " script -i %s -F event,pid,tid,cpu,time,period,ip 2>/dev/null",
			data);
	got = run(cmd);
	free(cmd);
	want = got ? squeezed(got) : NULL;
	is_str(want, script, "perf script reads perf.data: the samples");
	free(got);
	free(want);
	cmd = xasprintf(PERF " report -i %s --kallsyms %s %s 2>/dev/null | %s", data, ks,
			"--stdio -n --sort comm,dso,sym -F sample,comm,dso,sym",
			"grep -v '^#' | grep . | sort");
	got = run(cmd);
	free(cmd);
	want = got ? squeezed(got) : NULL;
	/* cpu-clock's three samples and page-faults' two, sorted */
	is_str(want,
	       "1 swapper [mod] [k] mod_fn\n"
	       "1 work prog [.] 0x0000000000000123\n"
	       "1 work prog [.] 0x0000000000000123\n"
	       "1 work-2 [kernel.kallsyms] [k] do_thing\n"
	       "1 work-2 [kernel.kallsyms] [k] do_thing\n",
	       "perf report names its symbols from --kallsyms");
	free(got);
	free(want);
	clock_header(data);
out:
	unlink(data);
	unlink(ks);
	rmdir(dir);
	free(data);
	free(ks);
}

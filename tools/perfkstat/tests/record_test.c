// SPDX-License-Identifier: GPL-2.0
/*
 * record.c's parsing and arithmetic, white-box: record.c is included here.
 * The records file's lines ("TIME CPU VALUE...", and of --every " IP PID
 * TID MODE"), records.bin's header and records, --every EVENT:N, -t
 * SECONDS, the deltas per CPU and their sums, the CSV written, and
 * --symbols' lookup of a kernel IP.
 */
#include "../record.c"

#include "tap.h"

/* no events, no rows, no symbols: as record starts */
static void reset(int n, bool by_event)
{
	int i;

	for (i = 0; i < nev; i++)
		free(ev[i].name);
	free(ev);
	ev = xmalloc(n * sizeof(*ev));
	memset(ev, 0, n * sizeof(*ev));
	for (i = 0; i < n; i++) {
		ev[i].name = xasprintf("e%d", i);
		ev[i].label = i ? "instructions" : "cycles";
	}
	nev = n;
	every = by_event;
	symbols = false;
	free(rows.buf);
	memset(&rows, 0, sizeof(rows));
	rows_init();
}

static void seconds(const char *s, bool ok_expected, u64 expected)
{
	char name[64];
	u64 ns = 0;
	bool got = seconds_ns(s, &ns);

	snprintf(name, sizeof(name), "-t %s", s);
	if (!ok_expected)
		ok(!got, name);
	else if (ok(got, name))
		is_u64(ns, expected, name);
}

static void every_of(const void *arg)
{
	trigger(arg);
}

/* --every ARG: the trigger's spec, or NULL when it is refused (exit 1) */
static void trigger_spec(const char *arg, const char *spec, const char *label)
{
	char name[96];

	snprintf(name, sizeof(name), "--every %s", arg);
	if (!spec) {
		is_u64(exit_status(every_of, arg), 1, name);
		return;
	}
	reset(0, false);
	trigger(arg);
	if (is_str(ev[0].spec, spec, name))
		ok(nev == 1 && every && ev[0].mine && !strcmp(ev[0].label, label),
		   "the trigger is the first column, a temporary counter");
}

static void csv(FILE *f, const void *arg)
{
	(void)arg;
	write_csv(f);
}

static void symbol_of(FILE *f, const void *arg)
{
	symbol(f, *(const u64 *)arg);
}

static void sym(u64 ip, const char *expected, const char *name)
{
	char *s = capture(symbol_of, &ip);

	is_str(s, expected, name);
	free(s);
}

static void field(FILE *f, const void *arg)
{
	csv_field(f, arg);
}

void record_tests(void)
{
	static const char mods[] = "perfkmod 16384 0 - Live 0xffffffffc0001000 (O)\n"
		"perf 100 0 - Live 0xffffffffc0009000\n"
		"perfkmod_bench 100 0 - Live 0xffffffffc000a000 (O)\n";
	struct prevs prev = { 0 };
	char *f[12], *s, words[] = "  a\tbb  c ", more[] = "a b c d";
	int ncpus, i;
	struct ksym k[] = {
		{ 0xffffffff81000000, 0, "_stext" },
		{ 0xffffffff81000100, 0, "do_idle" },
		{ 0xffffffff81200000, 0, "_etext" },
		{ 0xffffffffc0001000, 0xffffffffc0003000, "perfkmod_read [perfkmod]" },
	};

	seconds("1", true, 1000000000);
	seconds("1.5", true, 1500000000);
	seconds(".25", true, 250000000);
	seconds("2.", true, 2000000000);
	seconds("0.000000001", true, 1);
	seconds("0.0000000019", true, 1);
	seconds("", false, 0);
	seconds(".", false, 0);
	seconds("1.2.3", false, 0);
	seconds("-1", false, 0);
	seconds("1e3", false, 0);
	seconds("99999999999", false, 0);

	ok(fields(words, f, 12) == 3 && !strcmp(f[0], "a") && !strcmp(f[1], "bb") &&
	   !strcmp(f[2], "c"), "fields: blank-separated words");
	is_u64(fields(more, f, 2), 4, "fields: counts the words past MAX");

	/* --every EVENT:N */
	trigger_spec("instructions:1000000", "instructions,period=1000000", "instructions");
	trigger_spec("cycles:u:100", "cycles:u,period=100", "cycles:u");
	trigger_spec("cpu-clock:1ms", "cpu-clock,period=1000000", "cpu-clock");
	trigger_spec("task-clock:10us", "task-clock,period=10000", "task-clock");
	trigger_spec("cpu-clock:10000", "cpu-clock,period=10000", "cpu-clock");
	trigger_spec("cycles:9223372036854775807", "cycles,period=9223372036854775807",
		     "cycles");
	trigger_spec("cpu-clock:9us", NULL, NULL);
	trigger_spec("cycles:1ms", NULL, NULL);
	trigger_spec("cycles:0", NULL, NULL);
	trigger_spec("cycles:9223372036854775808", NULL, NULL);
	trigger_spec("cycles", NULL, NULL);
	trigger_spec(":100", NULL, NULL);
	trigger_spec("cycles,period=5:100", NULL, NULL);
	trigger_spec("cycles,freq=5:100", NULL, NULL);

	/* the records file: "TIME CPU VALUE..." */
	reset(2, false);
	parse("1000 3 5 -", f);
	ok(rows.n == 1 && row_at(0)->time == 1000 && row_at(0)->cpu == 3 &&
	   row_at(0)->v[0] == 5 && *missing(row_at(0)) == 2,
	   "a record: time, CPU, a value, one not read (-)");
	quiet(true);
	parse("1000 3 5", f);
	parse("1000 3 5 6 7", f);
	parse("1000 1048576 5 6", f);
	parse("1000 3 5 9223372036854775808", f);
	parse("1000 3 x 6", f);
	quiet(false);
	is_u64(rows.n, 1, "malformed records are left out");
	parse("2000 3 9223372036854775807 0", f);
	is_u64(rows.n, 2, "a count below 2^63 is one");
	reset(1, true);
	parse("1000 2 7 0xffffffff81000010 12 13 kernel", f);
	ok(rows.n == 1 && row_at(0)->ip == 0xffffffff81000010 && row_at(0)->pid == 12 &&
	   row_at(0)->tid == 13 && !row_at(0)->user,
	   "an --every record: the IP, pid, tid and mode");
	quiet(true);
	parse("1000 2 7 ffffffff81000010 12 13 kernel", f);
	parse("1000 2 7 0x 12 13 kernel", f);
	parse("1000 2 7 0x1 12 13 idle", f);
	parse("1000 2 7 0x1 2147483648 13 user", f);
	parse("1000 2 7 0x1 12 13", f);
	quiet(false);
	is_u64(rows.n, 1, "malformed --every records are left out");

	/* records.bin: its header, then records as the text's fields */
	{
		struct bin_header h = {
			.magic = BIN_MAGIC, .version = BIN_VERSION,
			.header_size = sizeof(h), .record_size = sizeof(struct bin_record),
			.nr_counters = 1, .flags = BIN_TRIGGERED,
		};
		struct bin_record b = {
			.time = 1000, .cpu = 2, .nr_values = 1, .values = { 7 },
			.ip = 0xffffffff81000010, .pid = 12, .tid = 13,
			.flags = REC_TRIGGERED,
		};
		const char *why = NULL;

		reset(1, true);
		is_u64(sizeof(h), 16, "records.bin: a header of 16 bytes");
		is_u64(sizeof(b), 104, "records.bin: a record of 104 bytes, the kernel's");
		ok(bin_header_ok(&h, &why), "records.bin: the header of --every's series");
		h.version = 2;
		ok(!bin_header_ok(&h, &why) && strstr(why, "version"),
		   "records.bin: another version refused");
		h.version = BIN_VERSION;
		h.header_size = sizeof(h) + 8;
		h.record_size = sizeof(b) + 16;
		ok(bin_header_ok(&h, &why),
		   "records.bin: a header and records grown at their end taken");
		h.record_size = sizeof(b) - 8;
		ok(!bin_header_ok(&h, &why) && strstr(why, "version"),
		   "records.bin: a record smaller than this version's refused");
		h.header_size = sizeof(h);
		h.record_size = sizeof(b);
		h.magic = 0x72736b70;
		ok(!bin_header_ok(&h, &why) && strstr(why, "not a records.bin"),
		   "records.bin: another byte order refused");
		h.magic = BIN_MAGIC;
		h.nr_counters = 2;
		ok(!bin_header_ok(&h, &why), "records.bin: another series refused");
		bin_row(&b);
		ok(rows.n == 1 && row_at(0)->time == 1000 && row_at(0)->cpu == 2 &&
		   row_at(0)->v[0] == 7 && row_at(0)->ip == 0xffffffff81000010 &&
		   row_at(0)->pid == 12 && row_at(0)->tid == 13 && !row_at(0)->user,
		   "records.bin: a record as the text's \"1000 2 7 0xffffffff81000010 12 13 kernel\"");
		parse("1000 2 7 0xffffffff81000010 12 13 kernel", f);
		ok(rows.n == 2 && !memcmp(row_at(0), row_at(1), rows.size),
		   "records.bin: the same row as that text");
		b.errors = 1;
		b.flags |= REC_USER;
		bin_row(&b);
		ok(rows.n == 3 && *missing(row_at(2)) == 1 && row_at(2)->user,
		   "records.bin: an error bit is a value not read (-), user mode");
		quiet(true);
		b.errors = 0;
		b.values[0] = 9223372036854775808ULL;
		bin_row(&b);
		b.values[0] = 7;
		b.flags = 0;
		bin_row(&b);
		b.flags = REC_TRIGGERED;
		b.nr_values = 2;
		bin_row(&b);
		b.nr_values = 1;
		b.cpu = CPU_LIMIT;
		bin_row(&b);
		quiet(false);
		is_u64(rows.n, 3, "records.bin: malformed records are left out");
	}

	/* deltas per CPU, then in time and CPU order */
	reset(2, false);
	parse("1250000000 1 7 40", f);
	parse("1000000000 0 10 -", f);
	parse("1500000000 1 25 100", f);
	parse("2000000000 0 25 9", f);
	parse("1750001000 1 30 100", f);
	*prev_of(&prev, 1, 1) = 30;
	deltas(&prev, false, &ncpus);
	is_u64(ncpus, 2, "deltas: the CPUs counted");
	is_s128(ev[0].sum, 55, "deltas: an event's sum is its CPUs' last values");
	is_s128(ev[1].sum, 79, "deltas: a NAMEd counter's from its base (30), not 0");
	s = capture(csv, NULL);
	is_str(s, "time,cpu,cycles,instructions\n"
	       "0.000000,0,10,\n"
	       "0.250000,1,7,10\n"
	       "0.500000,1,18,60\n"
	       "0.750001,1,5,0\n"
	       "1.000000,0,15,9\n",
	       "the CSV: seconds since the first record, deltas, empty if not read");
	free(s);
	free(prev.v);

	/* -p: one process over its CPUs, its records in time order first */
	reset(1, false);
	parse("3000 2 40", f);
	parse("1000 0 10", f);
	parse("2000 1 25", f);
	memset(&prev, 0, sizeof(prev));
	deltas(&prev, true, &ncpus);
	ok(ncpus == 3 && row_at(0)->v[0] == 10 && row_at(1)->v[0] == 15 &&
	   row_at(2)->v[0] == 15, "-p: deltas in time order, whatever the CPU");
	free(prev.v);

	/* --every's columns, and --symbols' */
	reset(1, true);
	ev[0].label = "cpu-clock";
	symbols = true;
	for (i = 0; i < (int)ARRAY_SIZE(k); i++)
		if (!k[i].limit)
			k[i].limit = k[2].addr;
	ksyms = k;
	nksyms = ARRAY_SIZE(k);
	parse("1000000000 0 1000000 0xffffffff81000180 0 0 kernel", f);
	parse("1001000000 0 1000000 0x55d0c0de 4242 4243 user", f);
	parse("1002000000 1 2000000 0xffffffffc0001010 7 8 kernel", f);
	memset(&prev, 0, sizeof(prev));
	deltas(&prev, false, &ncpus);
	s = capture(csv, NULL);
	is_str(s, "time,cpu,cpu-clock,ip,pid,tid,mode,symbol\n"
	       "0.000000,0,1000000,0xffffffff81000180,0,0,kernel,do_idle+0x80\n"
	       "0.001000,0,0,0x55d0c0de,4242,4243,user,\n"
	       "0.002000,1,2000000,0xffffffffc0001010,7,8,kernel,perfkmod_read+0x10 [perfkmod]\n",
	       "--every --symbols: the CSV");
	free(s);
	free(prev.v);
	sym(0xffffffff81000010, ",_stext+0x10", "--symbols: a kernel IP");
	sym(0xffffffff81200000, ",", "--symbols: none from _etext on");
	sym(0xffffffffc0002fff, ",perfkmod_read+0x1fff [perfkmod]",
	    "--symbols: a module's IP, to its end");
	sym(0xffffffffc0003000, ",", "--symbols: none past a module's end");
	sym(0xffffffff80000000, ",", "--symbols: none below the first symbol");
	ksyms = NULL;
	nksyms = 0;

	is_u64(module_end(mods, "[perfkmod]"), 0xffffffffc0005000,
	       "/proc/modules: a module's end is its base and size");
	is_u64(module_end(mods, "[perf]"), 0xffffffffc0009064,
	       "/proc/modules: a name that begins another's is not it");
	is_u64(module_end(mods, "[nope]"), 0, "/proc/modules: not there is 0");

	s = capture(field, "a,b");
	is_str(s, ",\"a,b\"", "csv_field: a comma is quoted");
	free(s);
	s = capture(field, "say \"hi\"");
	is_str(s, ",\"say \"\"hi\"\"\"", "csv_field: a quote in quotes is doubled");
	free(s);
	s = capture(field, "cycles:u");
	is_str(s, ",cycles:u", "csv_field: as it is otherwise");
	free(s);
	reset(0, false);
}

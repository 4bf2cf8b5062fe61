// SPDX-License-Identifier: GPL-2.0
/*
 * events.c: an -e argument split as perf splits its event lists, with
 * perfkmod's options kept with their event, and each event made
 * perfkmod's spec as perf's parser reads it, against a made-up sysfs and
 * tracefs (pmus.c's sysfs_root) whose format files are perf's own forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "../events.h"

/*
 * split: ARG's pieces, joined by " | ", are EXPECTED; EXPECTED NULL: ARG
 * is refused, with a reason that has REFUSED in it
 */
static void split(const char *arg, const char *expected, const char *refused)
{
	struct sbuf sb = { 0 };
	const char *why = NULL;
	char name[128], **p;
	int n = -1, i;

	snprintf(name, sizeof(name), "split_events(\"%s\")", arg);
	p = split_events(arg, &n, &why);
	if (!expected) {
		if (ok(!p && !n && why, name))
			ok(strstr(why, refused), why);
		return;
	}
	if (!ok(p, name)) {
		printf("# refused: %s\n", why);
		return;
	}
	for (i = 0; i < n; i++) {
		sb_printf(&sb, "%s%s", i ? " | " : "", p[i]);
		free(p[i]);
	}
	free(p);
	is_str(sb.buf, expected, name);
	sb_free(&sb);
}

/* put: a file of ROOT's made-up tree, its directories made */
static void put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel), *s;
	FILE *f;

	for (s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0755);
		*s = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	free(path);
}

/*
 * spec: perfkmod's spec of the event PIECE is SPEC and its row LABEL; SPEC
 * NULL: PIECE is refused, with a reason that has REFUSED in it
 */
static void spec(const char *piece, const char *expected, const char *label,
		 const char *refused)
{
	char *why = NULL, *lab = NULL, *got, name[160];

	snprintf(name, sizeof(name), "event_spec(\"%s\")", piece);
	quiet(true);
	got = event_spec(piece, &lab, &why);
	quiet(false);
	if (!expected) {
		if (ok(!got && why, name))
			ok(strstr(why, refused), why);
		else
			printf("# made: %s\n", got);
	} else if (ok(got, name)) {
		is_str(got, expected, name);
		is_str(lab, label, name);
	} else {
		printf("# refused: %s\n", why);
	}
	free(got);
	free(lab);
	free(why);
}

/* specs: event_specs(ARG)'s events, "LABEL=SPEC" joined by " | ", are EXPECTED */
static void specs(const char *arg, const char *expected)
{
	struct sbuf sb = { 0 };
	struct event_spec *e;
	char name[160];
	int n, i;

	snprintf(name, sizeof(name), "event_specs(\"%s\")", arg);
	quiet(true);
	e = event_specs(arg, &n);
	quiet(false);
	for (i = 0; i < n; i++)
		sb_printf(&sb, "%s%s=%s", i ? " | " : "", e[i].label, e[i].spec);
	is_str(sb.buf, expected, name);
	free_event_specs(e, n);
	sb_free(&sb);
}

static void specs_die(const void *arg)
{
	int n;

	event_specs(arg, &n);
}

/* the made-up machine: an x86 cpu PMU, an arm64 PMU, msr, a tracepoint */
static void make_tree(const char *root)
{
	static const char * const files[][2] = {
		{ "cpu/type", "4\n" },
		{ "cpu/format/event", "config:0-7\n" },
		{ "cpu/format/umask", "config:8-15\n" },
		{ "cpu/format/edge", "config:18\n" },
		{ "cpu/format/cmask", "config:24-31\n" },
		{ "cpu/format/ldlat", "config1:0-15\n" },
		{ "cpu/format/frontend", "config2:0-23\n" },
		{ "cpu/format/split", "config:0-3,32-35\n" },
		{ "cpu/format/wide", "config3:0-7\n" },
		{ "cpu/events/cycles-ct", "event=0x3c,in_tx=1\n" },
		{ "cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
		{ "cpu/events/mem-loads.unit", "ns\n" },
		{ "armv8_pmuv3_0/type", "8\n" },
		{ "armv8_pmuv3_0/format/event", "config:0-15\n" },
		{ "armv8_pmuv3_0/format/long", "config1:0\n" },
		{ "armv8_pmuv3_0/events/inst_retired", "event=0x0008\n" },
		{ "armv8_pmuv3_0/events/br_mis_pred", "event=0x0010\n" },
		{ "msr/type", "10\n" },
		{ "msr/format/event", "config:0-63\n" },
		{ "msr/events/tsc", "event=0x00\n" },
		{ "msr/events/aperf", "event=0x01\n" },
		{ "other/type", "11\n" },
		{ "other/events/aperf", "event=0x01\n" },
		{ "other/format/event", "config:0-7\n" },
	};
	char *rel;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		rel = xasprintf("sys/bus/event_source/devices/%s", files[i][0]);
		put(root, rel, files[i][1]);
		free(rel);
	}
	put(root, "sys/kernel/tracing/events/sched/sched_switch/id", "372\n");
	put(root, "sys/kernel/tracing/events/sched/enable", "0\n");
	put(root, "sys/kernel/tracing/events/irq/irq_handler_entry/id", "57\n");
}

static void translation_tests(void)
{
	char root[] = "/tmp/perfkstat-events-XXXXXX", *cmd;

	if (!ok(mkdtemp(root), "a made-up sysfs"))
		return;
	make_tree(root);
	sysfs_root = root;

	/* perf's symbols go through, their modifiers letters */
	spec("page-faults", "page-faults", "page-faults", NULL);
	spec("cs:u", "cs:u", "cs:u", NULL);
	spec("cycles:kpp", "cycles:kpp", "cycles:kpp", NULL);
	spec("L1-dcache-load-misses:uD", "L1-dcache-load-misses:uD",
	     "L1-dcache-load-misses:uD", NULL);
	spec("cycles:uI", "cycles:uI", "cycles:uI", NULL);
	spec("cycles:uW", NULL, NULL, "Weak modifier");
	spec("cycles:uu", NULL, NULL, "twice");
	spec("cycles:pppp", NULL, NULL, "Maximum precise");
	spec("cycles:G", NULL, NULL, "guest alone");
	spec("cycles:P", NULL, NULL, ":P");
	spec("cycles:S", NULL, NULL, "group");
	spec("cycles:b", NULL, NULL, "BPF");
	spec("cycles:kH", "cycles:k", "cycles:kH", NULL);
	spec("cycles/period=1000,name=cyc/", "cycles,period=1000", "cyc", NULL);
	spec("cycles/event=1/", NULL, NULL, "period, freq and name");

	/* raw: perf's rNNN and r0xNNN */
	spec("r1c2", "r1c2", "r1c2", NULL);
	spec("r0x1c2:uk", "r1c2:uk", "r0x1c2:uk", NULL);

	/* TYPE:CONFIG */
	spec("1:2", "pmu=1,config=0x2", "1:2", NULL);
	spec("1:0x10:D", "pmu=1,config=0x10,pinned", "1:0x10:D", NULL);

	/* tracepoints by name, labelled so */
	spec("sched:sched_switch", "tracepoint=372", "sched:sched_switch", NULL);
	spec("irq:irq_handler_entry:Dp", "tracepoint=57,pinned,precise=1",
	     "irq:irq_handler_entry:Dp", NULL);
	spec("sched:sched_switch:u", NULL, NULL, "named and raw events only");
	spec("sched:nope", NULL, NULL, "no tracepoint sched:nope");
	spec("sched:*", NULL, NULL, "not a pattern");
	spec("sched:sched_switch,period=1", "tracepoint=372,period=1",
	     "sched:sched_switch,period=1", NULL);

	/* the CPU's PMU (PERF_TYPE_RAW): raw, so that modifiers stay letters */
	spec("cpu/event=0x3c,umask=0/", "r3c", "cpu/event=0x3c,umask=0/", NULL);
	spec("cpu/event=0xc0,umask=0x1,edge,cmask=2/u", "r20401c0:u",
	     "cpu/event=0xc0,umask=0x1,edge,cmask=2/u", NULL);
	spec("cpu/event=0xc0/:k", "rc0:k", "cpu/event=0xc0/:k", NULL);
	spec("cpu/mem-loads/pp", "r1cd:pp,config1=0x3", "cpu/mem-loads/pp", NULL);
	spec("cpu/mem-loads,ldlat=9/", "r1cd,config1=0x9", "cpu/mem-loads,ldlat=9/",
	     NULL);
	spec("cpu/frontend=0x11,event=0xc6/", "rc6,config2=0x11",
	     "cpu/frontend=0x11,event=0xc6/", NULL);
	spec("cpu/split=0x55/", "r500000005", "cpu/split=0x55/", NULL);
	spec("cpu/config=0x1234,config1=5,config2=6/", "r1234,config1=0x5,config2=0x6",
	     "cpu/config=0x1234,config1=5,config2=6/", NULL);
	spec("cpu/event=0x3c,name=my_cycles/", "r3c", "my_cycles", NULL);
	spec("cpu/event=0x3c,period=1000/", "r3c,period=1000",
	     "cpu/event=0x3c,period=1000/", NULL);
	spec("cpu/event=0x3c/,cpu=0", "r3c,cpu=0", "cpu/event=0x3c/,cpu=0", NULL);
	spec("cpu/event=0x100/", NULL, NULL, "too big");
	spec("cpu/wide=1/", NULL, NULL, "config3");
	spec("cpu/nope=1/", NULL, NULL, "no term or event nope");
	spec("cpu/event=zz/", NULL, NULL, "not a number");
	spec("cpu/cycles-ct/", NULL, NULL, "no term or event in_tx");
	spec("cpu/event=0x3c", NULL, NULL, "closing /");
	spec("nope/event=1/", NULL, NULL, "no PMU nope");

	/* another PMU: pmu=TYPE; its modifiers options, or refused */
	spec("armv8_pmuv3_0/event=0x11/", "pmu=8,config=0x11",
	     "armv8_pmuv3_0/event=0x11/", NULL);
	spec("armv8_pmuv3_0/inst_retired/", "pmu=8,config=0x8",
	     "armv8_pmuv3_0/inst_retired/", NULL);
	spec("armv8_pmuv3_0/event=0x11,long/D", "pmu=8,config=0x11,config1=0x1,pinned",
	     "armv8_pmuv3_0/event=0x11,long/D", NULL);
	spec("armv8_pmuv3_0/event=0x11/u", NULL, NULL, "named and raw events only");
	spec("msr/tsc/", "pmu=10,config=0x0", "msr/tsc/", NULL);
	spec("msr/event=0xffffffffffffffff/", "pmu=10,config=0xffffffffffffffff",
	     "msr/event=0xffffffffffffffff/", NULL);

	/* a PMU's alias alone: the PMU that has it, when one alone has it */
	spec("br_mis_pred", "pmu=8,config=0x10", "br_mis_pred", NULL);
	spec("tsc:D", "pmu=10,config=0x0,pinned", "tsc:D", NULL);
	spec("aperf", "aperf", "aperf", NULL);

	/* breakpoints: perf's mem: is perfkmod's; its modifiers options */
	spec("mem:0x1000", "mem:0x1000", "mem:0x1000", NULL);
	spec("mem:0x1000/8:w", "mem:0x1000/8:w", "mem:0x1000/8:w", NULL);
	spec("mem:0x1000:x:D", "mem:0x1000:x,pinned", "mem:0x1000:x:D", NULL);
	spec("mem:0x1000:rw:u", NULL, NULL, "named and raw events only");

	/* perfkmod's own grammar, where perf would refuse the line */
	spec("cycles:u,period=100000", "cycles:u,period=100000",
	     "cycles:u,period=100000", NULL);
	spec("mem:0x1000:w8", "mem:0x1000:w8", "mem:0x1000:w8", NULL);
	spec("tracepoint=12", "tracepoint=12", "tracepoint=12", NULL);
	spec("pmu=9,config=0x1", "pmu=9,config=0x1", "pmu=9,config=0x1", NULL);

	/* lists and groups: a group's members count each, its modifiers theirs */
	specs("page-faults,context-switches",
	      "page-faults=page-faults | context-switches=context-switches");
	specs("{page-faults,cs:k}:u,sched:sched_switch",
	      "page-faults:u=page-faults:u | cs:ku=cs:ku | sched:sched_switch=tracepoint=372");
	specs("{cycles,cpu/event=0xc0/}:W",
	      "cycles:W=cycles | cpu/event=0xc0/W=rc0");
	specs("{sched:sched_switch,msr/tsc/}:D",
	      "sched:sched_switch:D=tracepoint=372,pinned | msr/tsc/D=pmu=10,config=0x0,pinned");
	/* a tracepoint pattern: each tracepoint it matches, as perf's */
	specs("sched:*", "sched:sched_switch=tracepoint=372");
	specs("*:*_entry:D,period=2",
	      "irq:irq_handler_entry:D,period=2=tracepoint=57,pinned,period=2");
	specs("{cs,s*:sched_?witch}:D", "cs:D=cs:D | sched:sched_switch:D=tracepoint=372,pinned");
	ok(exit_status(specs_die, "sched:nope*") == 1, "a pattern that matches none refused");
	ok(exit_status(specs_die, "{a,b},period=1") == 1, "a group's options refused");
	ok(exit_status(specs_die, "{cs,{a,b}}") == 1, "a group in a group refused");
	ok(exit_status(specs_die, "cs:G") == 1, "a refused modifier ends perfkstat");

	sysfs_root = "";
	cmd = xasprintf("rm -rf '%s'", root);
	ok(!system(cmd), "the made-up sysfs removed");
	free(cmd);
}

void events_tests(void)
{
	translation_tests();

	/* perf's lists: an event a comma */
	split("page-faults", "page-faults", NULL);
	split("a,b", "a | b", NULL);
	split("a,b,c", "a | b | c", NULL);
	split("sched:sched_switch,cs", "sched:sched_switch | cs", NULL);

	/* perfkmod's options go with the event before them */
	split("cycles,period=1000", "cycles,period=1000", NULL);
	split("cycles:u,period=100000,page-faults",
	      "cycles:u,period=100000 | page-faults", NULL);
	split("dummy,disabled,inherit,cs,pinned", "dummy,disabled,inherit | cs,pinned",
	      NULL);
	split("r1a8,config1=3,freq=10,cpu=0,pid=1,precise=1,config2=2,exclusive,enable_on_exec",
	      "r1a8,config1=3,freq=10,cpu=0,pid=1,precise=1,config2=2,exclusive,enable_on_exec",
	      NULL);
	split("cycles,periods=1", "cycles | periods=1", NULL);
	split("cycles,inherits", "cycles | inherits", NULL);

	/* pmu terms, breakpoints and groups: a piece each */
	split("cpu/event=0x3c,umask=0/", "cpu/event=0x3c,umask=0/", NULL);
	split("cpu/event=0x3c,umask=0/u,cs", "cpu/event=0x3c,umask=0/u | cs", NULL);
	split("{a,b}", "{a,b}", NULL);
	split("a,{b,c},d", "a | {b,c} | d", NULL);
	split("{a,cpu/x=1,y=2/}:u,b", "{a,cpu/x=1,y=2/}:u | b", NULL);
	split("mem:0x1000/8:rw,cs", "mem:0x1000/8:rw | cs", NULL);
	split("{mem:0x10/8,a},b", "{mem:0x10/8,a} | b", NULL);

	/* refused, as perf refuses them */
	split("a,,b", NULL, "empty event");
	split("a,", NULL, "empty event");
	split(",a", NULL, "empty event");
	split("", NULL, "empty event");
	split("period=1000,cycles", NULL, "before any event");
	split("cpu/event=0x3c,cs", NULL, "closing /");
	split("{a,b", NULL, "without its }");
	split("a},b", NULL, "without its {");
}

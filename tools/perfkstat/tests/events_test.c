// SPDX-License-Identifier: GPL-2.0
/*
 * events.c: an -e argument split as perf splits its event lists, with
 * perfkmod's options kept with their event.
 */
#include <stdlib.h>
#include <string.h>

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

void events_tests(void)
{
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

// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat events (and perfkstat list CLASS...): what perf list shows
 * that this machine can count, in perf list's form. perfkmod's named
 * events with whether this machine counts them (its debugfs events
 * file), the raw and breakpoint syntax, each PMU of sysfs with its terms'
 * bit fields and its event aliases, and the tracepoints of tracefs.
 *
 * perfkstat events -e EVENTS prints each event of EVENTS as perf reads it
 * and perfkmod's spec of it, a line each: "LABEL<tab>SPEC".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfkstat.h"
#include "events.h"

enum { SHOW_NAMED = 1, SHOW_RAW = 2, SHOW_BP = 4, SHOW_PMU = 8, SHOW_TP = 16 };

/* the classes perf list takes, and what each shows here */
static const struct {
	const char *name;
	int show;
} classes[] = {
	{ "hw", SHOW_NAMED }, { "sw", SHOW_NAMED }, { "cache", SHOW_NAMED },
	{ "hwcache", SHOW_NAMED }, { "raw", SHOW_RAW }, { "breakpoint", SHOW_BP },
	{ "bp", SHOW_BP }, { "pmu", SHOW_PMU }, { "tracepoint", SHOW_TP },
};

static void line(const char *what, const char *kind)
{
	printf("  %-50s [%s]\n", what, kind);
}

/* the named events, as perfkmod's events file says (with the module) */
static void show_named(void)
{
	char *path = dbg_path("events"), *text;

	text = access(path, R_OK) ? NULL : read_text(path);
	if (text)
		printf("%s\n", text);
	else
		printf("# perfkmod's named events, perf's names: with the module loaded\n");
	free(text);
	free(path);
}

static void show_pmu(const char *pmu)
{
	char **names, *text, *alias;
	struct sbuf sb = { 0 };
	u32 type;
	int n, i;

	if (!pmu_type(pmu, &type))
		return;
	names = pmu_dir_names(pmu, "format", &n);
	for (i = 0; i < n; i++) {
		text = pmu_format(pmu, names[i]);
		sb_printf(&sb, " %s=%s", names[i], text ? text : "?");
		free(text);
	}
	free_names(names, n);
	alias = xasprintf("%s/term=value,.../", pmu);
	line(alias, "Kernel PMU");
	free(alias);
	printf("      type %u, terms:%s\n", type, sb.len ? sb.buf : " none");
	sb_free(&sb);
	names = pmu_dir_names(pmu, "events", &n);
	for (i = 0; i < n; i++) {
		if (strchr(names[i], '.'))	/* .scale, .unit, ... */
			continue;
		alias = xasprintf("%s/%s/", pmu, names[i]);
		line(alias, "Kernel PMU event");
		free(alias);
	}
	free_names(names, n);
}

static void show_tracepoints(void)
{
	char *dir = tracefs_events(), **sys, **ev, *path, *name;
	int ns, ne, i, k;

	if (!dir) {
		printf("# tracepoints: no tracefs (/sys/kernel/tracing)\n");
		return;
	}
	sys = dir_names(dir, &ns);
	for (i = 0; i < ns; i++) {
		path = xasprintf("%s/%s", dir, sys[i]);
		ev = dir_names(path, &ne);
		free(path);
		for (k = 0; k < ne; k++) {
			path = xasprintf("%s/%s/%s/id", dir, sys[i], ev[k]);
			if (!access(path, R_OK)) {
				name = xasprintf("%s:%s", sys[i], ev[k]);
				line(name, "Tracepoint event");
				free(name);
			}
			free(path);
		}
		free_names(ev, ne);
	}
	free_names(sys, ns);
	free(dir);
}

/* translate: each event of each -e in ARGV, perfkmod's spec of it */
static int translate(int argc, char **argv)
{
	struct event_spec *e;
	int i, k, n;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "-e") || i + 1 == argc)
			die("events -e takes events: -e EVENTS...");
		e = event_specs(argv[++i], &n);
		for (k = 0; k < n; k++)
			printf("%s\t%s\n", e[k].label, e[k].spec);
		free_event_specs(e, n);
	}
	flush_stdout();
	return 0;
}

int cmd_events(int argc, char **argv)
{
	int show = 0, i, n;
	size_t c;
	char **pmus;

	if (argc && !strcmp(argv[0], "-e"))
		return translate(argc, argv);
	for (i = 0; i < argc; i++) {
		for (c = 0; c < ARRAY_SIZE(classes); c++)
			if (!strcmp(argv[i], classes[c].name))
				break;
		if (c == ARRAY_SIZE(classes))
			die("events: %s: perf list's hw, sw, cache, raw, bp, pmu or tracepoint?",
			    argv[i]);
		show |= classes[c].show;
	}
	if (!show)
		show = ~0;
	if (show & SHOW_NAMED)
		show_named();
	if (show & SHOW_RAW) {
		line("rNNN", "Raw hardware event descriptor");
		line("cpu/t1=v1[,t2=v2,t3 ...]/modifier", "Raw hardware event descriptor");
	}
	if (show & SHOW_BP)
		line("mem:<addr>[/len][:access]", "Hardware breakpoint");
	if (show & SHOW_PMU) {
		pmus = pmu_names(&n);
		for (i = 0; i < n; i++)
			show_pmu(pmus[i]);
		free_names(pmus, n);
	}
	if (show & SHOW_TP)
		show_tracepoints();
	flush_stdout();
	return 0;
}

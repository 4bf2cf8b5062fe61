// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat stat [-I MS [-n COUNT]] [-x SEP] [-j] [-e SPEC]... [NAME...]
 *                [-- COMMAND...]
 *
 * The named counters (all of them when none is named) and a temporary
 * counter per -e SPEC: with a COMMAND, what they counted while it ran;
 * with -I, what they counted in each interval; otherwise their values now.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfkstat.h"

/* a row's event: its label and its counter (NULL: a -e event the machine lacks) */
struct pair {
	const char *label;
	char *name;
};

/* a counter's stat file: value, enabled and running ns */
struct sample {
	u64 v, e, r;
};

static struct pair *pairs;
static int npairs;

static void add_pair(const char *label, char *name)
{
	pairs = xrealloc(pairs, (npairs + 1) * sizeof(*pairs));
	pairs[npairs].label = label;
	pairs[npairs].name = name;
	npairs++;
}

/* snapshot: every counter's stat now, into S */
static void snapshot(struct sample *s)
{
	char *path, *text, *p;
	u64 f[3];
	int i, k;

	for (i = 0; i < npairs; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		if (!pairs[i].name)
			continue;
		path = dbg_path("counters/%s/stat", pairs[i].name);
		text = read_text(path);
		free(path);
		if (!text || !text[strspn(text, " \t\n")])
			die("counter %s is gone", pairs[i].name);
		p = text;
		for (k = 0; k < 3; k++) {
			p += strspn(p, " \t");
			f[k] = leading_u64(p);
			p += strcspn(p, " \t\n");
		}
		s[i].v = f[0];
		s[i].e = f[1];
		s[i].r = f[2];
		free(text);
	}
}

/* report: a row per counter, of CUR or (PREV given) of CUR - PREV */
static void report(enum stat_mode mode, const char *sep, const char *t,
		   const struct sample *prev, const struct sample *cur)
{
	struct stat_row row;
	int i;

	for (i = 0; i < npairs; i++) {
		memset(&row, 0, sizeof(row));
		row.label = pairs[i].label;
		row.not_supported = !pairs[i].name;
		if (pairs[i].name) {
			row.val = (s128)cur[i].v - (prev ? (s128)prev[i].v : 0);
			row.ena = (s128)cur[i].e - (prev ? (s128)prev[i].e : 0);
			row.run = (s128)cur[i].r - (prev ? (s128)prev[i].r : 0);
		}
		print_row(mode, sep, t, &row);
	}
	flush_stdout();
}

/* the names of the counters listing() shows, for a stat of them all */
static void all_names(char ***names, int *n)
{
	struct sbuf sb = { 0 };
	char *line, *save = NULL, *sp;

	listing(&sb);
	for (line = strtok_r(sb.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "add ", 4))
			continue;
		sp = strchr(line + 4, ' ');
		if (!sp || sp == line + 4)
			continue;
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		(*names)[(*n)++] = xasprintf("%.*s", (int)(sp - line - 4), line + 4);
	}
	sb_free(&sb);
}

/* interval: stat -I: a block of rows every MS, COUNT times or until COMMAND ends */
static int interval(enum stat_mode mode, const char *sep, u64 ms, const char *count,
		    char **cmd)
{
	struct sample *prev, *cur, *tmp;
	u64 n = 0, max = 0, start, d;
	pid_t pid = 0;
	char t[32];
	int status;

	if (*count)
		parse_u64(count, &max);
	if (mode == MODE_TABLE)
		printf("#%15s %20s      %s\n", "time", "counts", "events");
	if (cmd[0])
		pid = run_command(cmd);
	prev = xmalloc(npairs * sizeof(*prev));
	cur = xmalloc(npairs * sizeof(*cur));
	start = uptime_cs();
	snapshot(prev);
	for (;;) {
		sleep_ns(ms * 1000000);
		snapshot(cur);
		d = uptime_cs() - start;
		snprintf(t, sizeof(t), "%llu.%02llu0", (unsigned long long)(d / 100),
			 (unsigned long long)(d % 100));
		report(mode, sep, t, prev, cur);
		tmp = prev;
		prev = cur;
		cur = tmp;
		n++;
		if (*count && n >= max)
			break;
		if (pid && waitpid(pid, &status, WNOHANG) == pid) {
			pid = 0;
			break;
		}
	}
	if (pid)
		wait_command(pid);
	free(prev);
	free(cur);
	return 0;
}

/* command: stat -- COMMAND: what the counters counted while it ran */
static int command(enum stat_mode mode, const char *sep, char **cmd, int ncmd)
{
	struct sample *prev, *cur;
	u64 start, d;
	char *all;
	pid_t pid;
	int rc;

	prev = xmalloc(npairs * sizeof(*prev));
	cur = xmalloc(npairs * sizeof(*cur));
	start = uptime_cs();
	snapshot(prev);
	defer_signals(true);
	pid = run_command(cmd);
	rc = wait_command(pid);
	defer_signals(false);
	snapshot(cur);
	d = uptime_cs() - start;
	if (mode == MODE_TABLE) {
		all = join_args(cmd, ncmd);
		printf("\n Performance counter stats for '%s':\n\n", all);
		free(all);
	}
	report(mode, sep, NULL, prev, cur);
	if (mode == MODE_TABLE) {
		char t[32];

		snprintf(t, sizeof(t), "%llu.%02llu", (unsigned long long)(d / 100),
			 (unsigned long long)(d % 100));
		printf("\n %16s seconds time elapsed\n\n", t);
	}
	flush_stdout();
	free(prev);
	free(cur);
	return rc;
}

int cmd_stat(int argc, char **argv)
{
	const char *ival = "", *count = "", *sep = ",";
	enum stat_mode mode = MODE_TABLE;
	char **names = NULL, **specs = NULL, *tmp, *why;
	int nnames = 0, nspecs = 0, i;
	struct sample *cur;
	u64 ms = 0;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-I") || !strcmp(a, "-n") || !strcmp(a, "--interval-count") ||
		    !strcmp(a, "-x") || !strcmp(a, "-e")) {
			if (i + 1 >= argc)
				usage();
			if (a[1] == 'I')
				ival = argv[++i];
			else if (a[1] == 'x')
				mode = MODE_CSV, sep = argv[++i];
			else if (a[1] == 'e')
				specs = xrealloc(specs, (nspecs + 1) * sizeof(*specs)),
				specs[nspecs++] = argv[++i];
			else
				count = argv[++i];
		} else if (!strncmp(a, "-x", 2)) {
			mode = MODE_CSV;
			sep = a + 2;
		} else if (!strcmp(a, "-j")) {
			mode = MODE_JSON;
		} else if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (a[0] == '-') {
			usage();
		} else {
			names = xrealloc(names, (nnames + 1) * sizeof(*names));
			names[nnames++] = argv[i];
		}
	}
	argv += i;
	argc -= i;
	if (!all_digits(ival))
		die("-I takes milliseconds");
	if (!all_digits(count))
		die("-n takes a number");
	if (*ival && !parse_u64(ival, &ms))
		die("-I takes milliseconds");
	need_dir();
	if (!nnames && !nspecs)
		all_names(&names, &nnames);
	/* -e events are temporary counters, deleted however we leave */
	catch_signals(true, false);
	for (i = 0; i < nnames; i++) {
		tmp = dbg_path("counters/%s/stat", names[i]);
		if (access(tmp, R_OK))
			die("no counter named %s", names[i]);
		free(tmp);
		add_pair(names[i], names[i]);
	}
	for (i = 0; i < nspecs; i++) {
		char *name = xasprintf(ME "-%d-%d", (int)getpid(), i + 1);
		char *cmd = xasprintf("add %s %s", name, specs[i]);

		/* registered first: a signal during the add leaks nothing */
		temp_add(name, false);
		if (!ctl(cmd, true)) {
			add_pair(specs[i], name);
		} else {
			temp_drop_last();
			why = last_error();
			if (!lacks(why)) {
				ctl_complain(cmd);
				exit(1);
			}
			free(why);
			free(name);
			add_pair(specs[i], NULL);
		}
		free(cmd);
	}
	if (!npairs)
		die("no counters: add one, or name an event with -e");

	if (*ival)
		return interval(mode, sep, ms, count, argv);
	if (argc)
		return command(mode, sep, argv, argc);
	cur = xmalloc(npairs * sizeof(*cur));
	snapshot(cur);
	if (mode == MODE_TABLE)
		printf("\n Performance counter stats for perfkmod counters:\n\n");
	report(mode, sep, NULL, NULL, cur);
	if (mode == MODE_TABLE)
		putchar('\n');
	flush_stdout();
	free(cur);
	return 0;
}

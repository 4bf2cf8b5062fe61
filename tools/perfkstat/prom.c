// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat prom FILE: perfkmod's counters as Prometheus metrics, from
 * one read of the list file, written to FILE atomically for
 * node_exporter's textfile collector: a temporary file in FILE's
 * directory, mode 0644, renamed over FILE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfkstat.h"

/* the families of metrics, in order; sampling: of sampling counters only */
enum family { FAM_EVENTS, FAM_ENABLED, FAM_RUNNING, FAM_ACTIVE,
	FAM_OVERFLOWS, FAM_THROTTLED, FAM_DROPPED, FAM_REQUEUED, FAM_COUNT };

static const struct {
	const char *name, *type, *help;
	bool sampling;
} families[] = {
	[FAM_EVENTS] = { "perfkmod_events_total", "counter",
		"Events counted while the counter was on a PMU (unscaled: it never goes down)." },
	[FAM_ENABLED] = { "perfkmod_enabled_seconds_total", "counter",
		"Time the counter was enabled." },
	[FAM_RUNNING] = { "perfkmod_running_seconds_total", "counter",
		"Time the counter was on a PMU (less than enabled when multiplexed)." },
	[FAM_ACTIVE] = { "perfkmod_active", "gauge",
		"1 while the counter counts; 0 when off, in error or its task exited." },
	[FAM_OVERFLOWS] = { "perfkmod_overflows_total", "counter",
		"Overflows of a sampling counter.", true },
	[FAM_THROTTLED] = { "perfkmod_throttled_total", "counter",
		"Times perf throttled a sampling counter for overflowing too often.", true },
	[FAM_DROPPED] = { "perfkmod_dropped_total", "counter",
		"Deferred overflow samples dropped because a ring was full.", true },
	[FAM_REQUEUED] = { "perfkmod_requeued_total", "counter",
		"Deferred overflow samples a delivery batch left for a later one.", true },
};

/* a label's value: \, " and newline escaped */
static void label(struct sbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			sb_printf(sb, "\\%c", *s);
		else if (*s == '\n')
			sb_add(sb, "\\n", 2);
		else
			sb_add(sb, s, 1);
	}
}

static void seconds(struct sbuf *sb, u64 ns)
{
	sb_printf(sb, "%llu.%09llu", (unsigned long long)(ns / 1000000000),
		  (unsigned long long)(ns % 1000000000));
}

static void sample(struct sbuf *sb, enum family f, const struct list_entry *e)
{
	const u64 stats[] = { e->overflows, e->throttled, e->dropped, e->requeued };

	sb_printf(sb, "%s{name=\"", families[f].name);
	label(sb, e->name);
	sb_add(sb, "\",event=\"", 9);
	label(sb, e->spec);
	sb_printf(sb, "\",cpu=\"%s\"} ",
		  strncmp(e->target, "cpu=", 4) ? "all" : e->target + 4);
	switch (f) {
	case FAM_EVENTS:
		sb_printf(sb, "%llu", (unsigned long long)e->value);
		break;
	case FAM_ENABLED:
		seconds(sb, e->enabled);
		break;
	case FAM_RUNNING:
		seconds(sb, e->running);
		break;
	case FAM_ACTIVE:
		sb_add(sb, strcmp(e->state, "active") ? "0" : "1", 1);
		break;
	default:
		sb_printf(sb, "%llu", (unsigned long long)stats[f - FAM_OVERFLOWS]);
		break;
	}
	sb_add(sb, "\n", 1);
}

/*
 * metrics: the counters of one list read in the Prometheus text format
 * (0.0.4), node_exporter's textfile collector's: a family's HELP and TYPE,
 * then its samples, a counter each, labelled with its name, spec and CPU
 * (or "all").
 */
static void metrics(struct sbuf *sb)
{
	struct list_entry *e;
	int n = read_list(&e), i;
	enum family f;

	for (f = 0; f < FAM_COUNT; f++) {
		sb_printf(sb, "# HELP %s %s\n# TYPE %s %s\n", families[f].name,
			  families[f].help, families[f].name, families[f].type);
		for (i = 0; i < n; i++)
			if (!families[f].sampling || e[i].sampling)
				sample(sb, f, &e[i]);
	}
	free_list(e, n);
}

int cmd_prom(int argc, char **argv)
{
	struct sbuf sb = { 0 };
	const char *why = NULL;
	char *dir, *tmp;
	size_t off = 0;
	ssize_t n;
	int fd;

	if (argc != 1)
		usage();
	need_dir();
	metrics(&sb);
	dir = dir_of(argv[0]);
	tmp = xasprintf("%s/.perfkstat.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0)
		die("cannot create a file in %s: %s", dir, strerror(errno));
	while (!why && off < sb.len) {
		n = write(fd, sb.buf + off, sb.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			why = strerror(errno);
		else
			off += n;
	}
	if (!why && fchmod(fd, 0644) < 0)
		why = strerror(errno);
	if (close(fd) < 0 && !why)
		why = strerror(errno);
	if (!why && rename(tmp, argv[0]) < 0)
		why = strerror(errno);
	if (why) {
		unlink(tmp);
		die("could not write %s: %s", argv[0], why);
	}
	sb_free(&sb);
	free(tmp);
	free(dir);
	return 0;
}

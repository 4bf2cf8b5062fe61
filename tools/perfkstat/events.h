/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.c: an -e argument as perf reads it, a list of events, each made
 * a spec of perfkmod's grammar. pmus.c: what that looks up in sysfs and
 * tracefs. evlist.c: perfkstat events, what this machine can count.
 */
#ifndef PERFKSTAT_EVENTS_H
#define PERFKSTAT_EVENTS_H

#include "perfkstat.h"

char **split_events(const char *arg, int *n, const char **why);

/* an event of -e: as typed (its row's name), and perfkmod's spec of it */
struct event_spec {
	char *label;
	char *spec;
};

char *event_spec(const char *piece, char **label, char **why);
struct event_spec *event_specs(const char *arg, int *n);
void free_event_specs(struct event_spec *e, int n);
/*
 * event_attr: the type and config perf's attr has for EV (an event as
 * perf reads it); false when perfkstat cannot tell them
 */
bool event_attr(const char *ev, u32 *type, u64 *config);

/* pmus.c */
extern const char *sysfs_root;
bool pmu_type(const char *pmu, u32 *type);
char *pmu_alias(const char *pmu, const char *name);
char *pmu_format(const char *pmu, const char *term);
const char *pmu_put(const char *format, u64 value, u64 config[3]);
char *tracefs_events(void);
bool tracepoint_id(const char *sys, const char *event, u64 *id);
char **dir_names(const char *path, int *n);
void free_names(char **names, int n);
char **pmu_names(int *n);
char **pmu_dir_names(const char *pmu, const char *sub, int *n);

/* evlist.c */
int cmd_events(int argc, char **argv);

#endif

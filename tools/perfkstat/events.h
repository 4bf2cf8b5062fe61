/* SPDX-License-Identifier: GPL-2.0 */
/*
 * events.c: an -e argument as perf reads it, a list of events.
 */
#ifndef PERFKSTAT_EVENTS_H
#define PERFKSTAT_EVENTS_H

char **split_events(const char *arg, int *n, const char **why);

#endif

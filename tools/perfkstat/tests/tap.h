/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host tests' TAP output: a line a check, "ok N - NAME" or "not ok N -
 * NAME" with "# got" and "# expected" lines, and the plan "1..N" at the
 * end; tap_done()'s status is 1 when a check failed.
 */
#ifndef PERFKSTAT_TAP_H
#define PERFKSTAT_TAP_H

#include <stdbool.h>
#include <stdio.h>

#include "../perfkstat.h"

bool ok(bool cond, const char *name);
bool is_str(const char *got, const char *expected, const char *name);
bool is_u64(u64 got, u64 expected, const char *name);
bool is_s128(s128 got, s128 expected, const char *name);
int tap_done(void);

/* quiet: standard error thrown away from ON until off (a warning tested) */
void quiet(bool on);

/*
 * exit_status: FN(ARG) run in a child, its standard error thrown away:
 * the status it exits with (die() is 1, usage() 2), or -1 if it returns
 */
int exit_status(void (*fn)(const void *arg), const void *arg);

/* capture: what FN(F, ARG) writes to F, in a string to free */
char *capture(void (*fn)(FILE *f, const void *arg), const void *arg);

/* the groups of checks, a file each */
void util_tests(void);
void events_tests(void);
void stat_display_tests(void);
void stat_display_runs_tests(void);
void stat_display_metric_only_tests(void);
void stat_tests(void);
void stat_options_tests(void);
void record_tests(void);
void plot_tests(void);
void usage_tests(void);
void perfdata_tests(void);
void regions_tests(void);

#endif

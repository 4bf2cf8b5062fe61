/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time series (series.c): what module init and exit, and the module
 * notifier, ask of them, and what the KUnit suites read.
 */
#ifndef _PERFKMOD_SERIES_H
#define _PERFKMOD_SERIES_H

struct module;
struct perfkmod_series;
struct perfkmod_user;

/* a user of counters (perfkmod_user_register()) */
extern struct perfkmod_user perfkmod_series_user;

int perfkmod_series_release_owner(struct module *mod);

/* one CPU's share of a series' counts, for the KUnit suites */
u64 perfkmod_series_dropped_on(struct perfkmod_series *s, int cpu);
u64 perfkmod_series_skipped_on(struct perfkmod_series *s, int cpu);

#endif /* _PERFKMOD_SERIES_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time series (series.c): what module init and exit, and the module
 * notifier, ask of them.
 */
#ifndef _PERFKMOD_SERIES_H
#define _PERFKMOD_SERIES_H

struct module;
struct perfkmod_user;

/* a user of counters (perfkmod_user_register()) */
extern struct perfkmod_user perfkmod_series_user;

int perfkmod_series_release_owner(struct module *mod);

#endif /* _PERFKMOD_SERIES_H */

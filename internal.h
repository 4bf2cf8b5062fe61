/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What perfkmod's own files share with each other; other modules use
 * perfkmod.h only.
 */
#ifndef _PERFKMOD_INTERNAL_H
#define _PERFKMOD_INTERNAL_H

#include "perfkmod.h"

/* Hard ceiling of the max_counters module parameter. */
#define PERFKMOD_MAX_COUNTERS_LIMIT	65536

void perfkmod_debugfs_init(void);
void perfkmod_debugfs_exit(void);

#endif /* _PERFKMOD_INTERNAL_H */

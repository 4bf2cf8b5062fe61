/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host shim of <linux/jump_label.h>: a static key is a plain flag
 * (perfkmod_region.h's markers, which parse.c never uses).
 */
#ifndef _SHIM_JUMP_LABEL_H
#define _SHIM_JUMP_LABEL_H

struct static_key_false {
	int enabled;
};

#define STATIC_KEY_FALSE_INIT	{ .enabled = 0 }
#define static_branch_unlikely(key)	((key)->enabled)

#endif

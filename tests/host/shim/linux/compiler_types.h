/* SPDX-License-Identifier: GPL-2.0 */
/* The host shim of <linux/compiler_types.h>: the shim's kernel.h, and __rcu. */
#include <linux/kernel.h>

#ifndef __rcu
#define __rcu
#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* The host shim of <linux/bits.h>: all of it is in the shim's kernel.h. */
#include <linux/kernel.h>

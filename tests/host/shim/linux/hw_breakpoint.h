/* SPDX-License-Identifier: GPL-2.0 */
/* The host shim of <linux/hw_breakpoint.h>: the uapi header. */
#include_next <linux/hw_breakpoint.h>
#include <linux/kernel.h>

/* SPDX-License-Identifier: GPL-2.0 */
/* The host shim of <linux/types.h>: the uapi types, and the kernel's. */
#include_next <linux/types.h>
#include <linux/kernel.h>

/* SPDX-License-Identifier: GPL-2.0 */
/* The host shim of <linux/perf_event.h>: perf's ABI, the uapi header. */
#include_next <linux/perf_event.h>
#include <linux/kernel.h>

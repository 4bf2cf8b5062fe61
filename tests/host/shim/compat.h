/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host shim of perfkmod's compat.h: the host's uapi headers name
 * every event the grammar takes, and no kernel is probed.
 */
#include <linux/kernel.h>

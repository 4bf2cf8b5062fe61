/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host shim of perfkmod's internal.h: of the module's own headers,
 * the host build of its pure code takes the public one alone.
 */
#include <linux/kernel.h>
#include "perfkmod.h"

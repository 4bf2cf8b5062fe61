// SPDX-License-Identifier: GPL-2.0
/*
 * The overflow trampoline: the one handler perf calls on counter overflow,
 * and the registry of callbacks it dispatches to.
 */
#include "internal.h"

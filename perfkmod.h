/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfkmod: in-kernel performance counters for other kernel code.
 *
 * This is the public interface other modules include.
 */
#ifndef _PERFKMOD_H
#define _PERFKMOD_H

#endif /* _PERFKMOD_H */

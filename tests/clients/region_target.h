/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What region_target exports, in the PERFKMOD_TEST symbol namespace: the
 * function root's function regions measure in tests/guest/test-regions.sh.
 * Exported so that it keeps a global symbol of its own, never inlined nor
 * cloned, for kprobes to find; nothing imports it.
 */
#ifndef _REGION_TARGET_H
#define _REGION_TARGET_H

void perfkmod_test_region_target(void);

#endif /* _REGION_TARGET_H */

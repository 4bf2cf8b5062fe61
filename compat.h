/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between the kernels perfkmod builds against (Debian's 6.1,
 * 6.12), in one place. Features are probed by Kbuild (PERFKMOD_HAVE_*),
 * not inferred from version numbers.
 */
#ifndef _PERFKMOD_COMPAT_H
#define _PERFKMOD_COMPAT_H

/*
 * Internal symbols the KUnit suites use are exported to them only, in the
 * EXPORTED_FOR_KUNIT_TESTING namespace, where the kernel has the helper
 * (6.2 and later); elsewhere, not at all (the macro only names them, as __ADDRESSABLE).
 */
#ifdef PERFKMOD_HAVE_KUNIT_VISIBILITY
#include <kunit/visibility.h>
#else
#define EXPORT_SYMBOL_IF_KUNIT(sym)	__ADDRESSABLE(sym)
#endif

#endif /* _PERFKMOD_COMPAT_H */

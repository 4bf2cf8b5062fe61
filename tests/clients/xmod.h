/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What xmod_owner exports to xmod_reader, in the PERFKMOD_TEST symbol
 * namespace. The reader takes it with symbol_get() and puts it back once
 * set up, so that it holds no reference on the owner, which can unload
 * first.
 */
#ifndef _XMOD_H
#define _XMOD_H

struct perfkmod_counter;

struct perfkmod_counter *xmod_owner_counter(void);

#endif /* _XMOD_H */

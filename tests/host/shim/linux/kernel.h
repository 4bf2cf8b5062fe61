/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The little of the kernel's headers that perfkmod's pure code (parse.c)
 * uses, for building it on the host (tests/host/run.sh passes this file
 * with -include, and this directory first with -I, so that every
 * <linux/...> header of the shim gives all of it). Each definition
 * behaves as the kernel's does where the code depends on it: kstrtou64()'s
 * bases, signs, trailing newline and overflow; isgraph() over the kernel's
 * Latin-1 table; match_string(); str_has_prefix(); strscpy().
 */
#ifndef _PERFKMOD_SHIM_KERNEL_H
#define _PERFKMOD_SHIM_KERNEL_H

#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)
#define S64_MAX		((s64)(U64_MAX >> 1))

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define BITS_PER_LONG		(sizeof(long) * 8)
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

/* no exports on the host: an assertion that names the symbol */
#define SHIM_EXPORT(sym)	static_assert(sizeof(sym))
#define EXPORT_SYMBOL		SHIM_EXPORT
#define EXPORT_SYMBOL_GPL	SHIM_EXPORT
#define EXPORT_SYMBOL_IF_KUNIT	SHIM_EXPORT
/* one thread here: a relaxed access is all READ_ONCE() promises */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define fallthrough		__attribute__((__fallthrough__))
#define __must_check		__attribute__((__warn_unused_result__))

/* The most pids a kernel of 64-bit longs takes (include/linux/threads.h). */
#define PID_MAX_LIMIT		(4 * 1024 * 1024)

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return addr[nr / BITS_PER_LONG] & BIT(nr % BITS_PER_LONG);
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	bool old = test_bit(nr, addr);

	addr[nr / BITS_PER_LONG] |= BIT(nr % BITS_PER_LONG);
	return old;
}

/* The kernel's ctype table: 161 to 255 are letters or punctuation. */
static inline bool shim_isgraph(int c)
{
	c = (unsigned char)c;
	return (c > ' ' && c < 127) || c > 160;
}

static inline bool shim_isdigit(int c)
{
	return (unsigned char)c - '0' < 10U;
}

static inline bool shim_isxdigit(int c)
{
	return shim_isdigit(c) || ((unsigned char)c | 0x20) - 'a' < 6U;
}

#define isgraph(c)	shim_isgraph(c)
#define isdigit(c)	shim_isdigit(c)
#define isxdigit(c)	shim_isxdigit(c)

static inline size_t str_has_prefix(const char *str, const char *prefix)
{
	size_t len = strlen(prefix);

	return strncmp(str, prefix, len) == 0 ? len : 0;
}

static inline int match_string(const char * const *array, size_t n,
			       const char *string)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!array[i])
			break;
		if (!strcmp(array[i], string))
			return i;
	}
	return -EINVAL;
}

/* lib/string.c: the string, cut to fit with its NUL, or -E2BIG. */
static inline ssize_t strscpy(char *dest, const char *src, size_t count)
{
	size_t len = strnlen(src, count);

	if (!count)
		return -E2BIG;
	if (len == count) {
		memcpy(dest, src, count - 1);
		dest[count - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dest, src, len + 1);
	return len;
}

/* lib/kstrtox.c: base 0 takes 0x hex and 0 octal, base 16 a 0x. */
static inline int kstrtoull(const char *s, unsigned int base, u64 *res)
{
	u64 val = 0;
	size_t n = 0;
	bool over = false;
	unsigned int d;

	if (s[0] == '+')
		s++;
	if (base == 0) {
		if (s[0] == '0' && (s[1] | 0x20) == 'x' && isxdigit(s[2]))
			base = 16;
		else
			base = s[0] == '0' ? 8 : 10;
	}
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (;; n++) {
		if (isdigit(s[n]))
			d = s[n] - '0';
		else if (isxdigit(s[n]))
			d = (s[n] | 0x20) - 'a' + 10;
		else
			break;
		if (d >= base)
			break;
		if (val > (U64_MAX - d) / base)
			over = true;
		val = val * base + d;
	}
	if (over)
		return -ERANGE;
	if (!n)
		return -EINVAL;
	s += n;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = val;
	return 0;
}

static inline int kstrtou64(const char *s, unsigned int base, u64 *res)
{
	return kstrtoull(s, base, res);
}

#endif

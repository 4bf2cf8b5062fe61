// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers the subcommands share: messages and exits, memory, files,
 * numbers, clocks.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfkstat.h"

static void vmsg(const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs(ME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
	exit(1);
}

void warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* vxasprintf: vasprintf() that dies when out of memory; *N the length */
char *vxasprintf(const char *fmt, va_list ap, int *n)
{
	char *s;

	*n = vasprintf(&s, fmt, ap);
	if (*n < 0)
		die("out of memory");
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	s = vxasprintf(fmt, ap, &n);
	va_end(ap);
	return s;
}

static void sb_grow(struct sbuf *sb, size_t n)
{
	if (sb->len + n + 1 <= sb->cap)
		return;
	while (sb->len + n + 1 > sb->cap)
		sb->cap = sb->cap ? 2 * sb->cap : 4096;
	sb->buf = xrealloc(sb->buf, sb->cap);
}

void sb_add(struct sbuf *sb, const void *data, size_t n)
{
	sb_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	s = vxasprintf(fmt, ap, &n);
	va_end(ap);
	sb_add(sb, s, n);
	free(s);
}

void sb_free(struct sbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

/*
 * read_all: append PATH's bytes to SB, reading until end of file in large
 * reads (a series' records file hands out whole lines per read, and loses
 * a part line left when it is closed). Returns 0, or -1 with errno set.
 */
int read_all(const char *path, struct sbuf *sb)
{
	char buf[131072];
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sb_add(sb, buf, n);
	}
	err = errno;
	close(fd);
	if (n < 0) {
		errno = err;
		return -1;
	}
	/* what SB held before, if nothing was read, is not taken as read */
	sb_add(sb, "", 0);
	return 0;
}

/* read_text: PATH's text without its trailing newlines, or NULL (errno) */
char *read_text(const char *path)
{
	struct sbuf sb = { 0 };

	if (read_all(path, &sb) < 0) {
		sb_free(&sb);
		return NULL;
	}
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	return sb.buf;
}

/*
 * next_line: the line at *P, its newline cut, *P moved past it; NULL at
 * the end (a last line without a newline is one, no line after a last
 * newline), as awk reads records.
 */
char *next_line(char **p)
{
	char *line = *p, *nl;

	if (!line || !*line)
		return NULL;
	nl = strchr(line, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = line + strlen(line);
	}
	return line;
}

/* all_digits: S is made of 0-9 only (true for ""), as sh's *[!0-9]* */
bool all_digits(const char *s)
{
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

/* parse_u64: S is a decimal number that fits in 64 bits */
bool parse_u64(const char *s, u64 *v)
{
	u64 n = 0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		if (n > (UINT64_MAX - (*s - '0')) / 10)
			return false;
		n = 10 * n + (*s - '0');
	}
	*v = n;
	return true;
}

/*
 * leading_u64: the number S starts with, as awk reads one (0 if none),
 * UINT64_MAX if it is larger
 */
u64 leading_u64(const char *s)
{
	u64 n = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (n > (UINT64_MAX - (*s - '0')) / 10)
			return UINT64_MAX;
		n = 10 * n + (*s - '0');
	}
	return n;
}

/* fmt_s128: V in decimal into BUF (at least 42 bytes); returns BUF */
char *fmt_s128(char *buf, s128 v)
{
	char tmp[42];
	u128 u = v < 0 ? -(u128)v : (u128)v;
	int i = 0, j = 0;

	do {
		tmp[i++] = '0' + (int)(u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		buf[j++] = '-';
	while (i)
		buf[j++] = tmp[--i];
	buf[j] = '\0';
	return buf;
}

/*
 * div_round_even: NUM / DEN to the nearest integer, a half to the even one
 * (what printf's %.0f does with an exact quotient); DEN > 0.
 */
s128 div_round_even(s128 num, s128 den)
{
	u128 n = num < 0 ? -(u128)num : (u128)num;
	u128 q = n / (u128)den, r = n % (u128)den;

	if (2 * r > (u128)den || (2 * r == (u128)den && (q & 1)))
		q++;
	return num < 0 ? -(s128)q : (s128)q;
}

u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* sleep_ns: sleep NS, or less when a caught signal comes */
void sleep_ns(u64 ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000,
		.tv_nsec = ns % 1000000000,
	};

	nanosleep(&ts, NULL);
}

/* in_path: PROG is an executable file in a directory of PATH */
bool in_path(const char *prog)
{
	const char *path = getenv("PATH"), *p, *end;
	char *f;
	bool ok;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	if (!path)
		path = "/bin:/usr/bin";
	for (p = path; ; p = end + 1) {
		end = strchrnul(p, ':');
		if (end == p)
			f = xasprintf("./%s", prog);
		else
			f = xasprintf("%.*s/%s", (int)(end - p), p, prog);
		ok = access(f, X_OK) == 0;
		free(f);
		if (ok)
			return true;
		if (!*end)
			return false;
	}
}

/* dir_of: PATH's directory, as dirname(1) says it */
char *dir_of(const char *path)
{
	char *d = xstrdup(path);
	size_t n = strlen(d);

	while (n > 1 && d[n - 1] == '/')
		d[--n] = '\0';
	while (n && d[n - 1] != '/')
		n--;
	if (!n)
		return memcpy(d, ".", 2);
	while (n > 1 && d[n - 1] == '/')
		n--;
	d[n] = '\0';
	return d;
}

/* join_args: ARGV's words joined by blanks, as sh's "$*" */
char *join_args(char **argv, int argc)
{
	struct sbuf sb = { 0 };
	int i;

	sb_add(&sb, "", 0);
	for (i = 0; i < argc; i++)
		sb_printf(&sb, "%s%s", i ? " " : "", argv[i]);
	return sb.buf;
}

/* flush_stdout: what is written so far out now; a failure is an error */
void flush_stdout(void)
{
	if (fflush(stdout) == EOF || ferror(stdout))
		die("standard output: %s", strerror(errno));
}

/* cpu_list: the CPUs of a sysfs list at PATH, "0-3,5"; none (NULL) if unread */
int *cpu_list(const char *path, int *n)
{
	char *text = read_text(path), *p;
	int *cpus = NULL, lo, hi, c, k;

	*n = 0;
	if (!text)
		return NULL;
	for (p = text; *p && *p != '\n'; ) {
		if (sscanf(p, "%d%n", &lo, &k) != 1)
			break;
		p += k;
		hi = lo;
		if (*p == '-' && sscanf(p + 1, "%d%n", &hi, &k) == 1)
			p += 1 + k;
		for (c = lo; c <= hi; c++) {
			cpus = xrealloc(cpus, (*n + 1) * sizeof(*cpus));
			cpus[(*n)++] = c;
		}
		if (*p == ',')
			p++;
	}
	free(text);
	return cpus;
}

/*
 * duration_ns: S, a number and ns, us, ms or s, or a number alone of
 * milliseconds (perf's -I), into *NS; false if it is not that
 */
bool duration_ns(const char *s, u64 *ns)
{
	const char *u = s + strspn(s, "0123456789");
	char *num = xasprintf("%.*s", (int)(u - s), s);
	u64 n, m;
	bool ok;

	m = !*u || !strcmp(u, "ms") ? 1000000 : !strcmp(u, "ns") ? 1 :
		!strcmp(u, "us") ? 1000 : !strcmp(u, "s") ? 1000000000 : 0;
	ok = parse_u64(num, &n) && m && n <= UINT64_MAX / m;
	free(num);
	if (ok)
		*ns = n * m;
	return ok;
}

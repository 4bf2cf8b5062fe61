// SPDX-License-Identifier: GPL-2.0
/*
 * kwrite [-f NTH] FILE TEXT: write TEXT to FILE in one write(2) and say
 * what came back: "ok N" (bytes written) or the errno's name (EINVAL,
 * EPERM...), with "open " before it when open(2) failed. Exits 0 on a
 * full write. The guest tests use it to check the exact errno of a
 * debugfs write.
 *
 * With -f, the NTH fault-injectable call (a slab allocation, with
 * failslab set up) of the write(2) fails, through
 * /proc/thread-self/fail-nth; a second line says "injected" or, when the
 * write made fewer calls than NTH, "not-injected".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct {
	int err;
	const char *name;
} names[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
	{ EIO, "EIO" }, { E2BIG, "E2BIG" }, { ENOMEM, "ENOMEM" },
	{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
	{ EEXIST, "EEXIST" }, { ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
	{ ENOSPC, "ENOSPC" }, { ERANGE, "ERANGE" },
	{ ENAMETOOLONG, "ENAMETOOLONG" }, { EOPNOTSUPP, "EOPNOTSUPP" },
};

static const char *errname(int err)
{
	static char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}

/*
 * Arm fail-nth on @fd (nth > 0), or read and disarm it (nth == 0): how
 * many calls were left before the failure, 0 if it happened; -1 on error.
 * The file is opened beforehand: opening allocates, which would count.
 */
static int fail_nth(int fd, int nth)
{
	char buf[32];
	ssize_t len;
	int left = -1;

	if (nth) {
		len = snprintf(buf, sizeof(buf), "%d", nth);
		return write(fd, buf, len) == len ? 0 : -1;
	}
	len = pread(fd, buf, sizeof(buf) - 1, 0);
	if (len > 0) {
		buf[len] = '\0';
		left = atoi(buf);
	}
	if (pwrite(fd, "0", 1, 0) != 1)
		left = -1;
	return left;
}

int main(int argc, char **argv)
{
	int fd, nth = 0, err = 0, left = 0, nth_fd = -1;
	size_t len;
	ssize_t n;

	if (argc == 5 && !strcmp(argv[1], "-f")) {
		nth = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 3 || nth < 0) {
		fprintf(stderr, "usage: kwrite [-f NTH] FILE TEXT\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("open %s\n", errname(errno));
		return 1;
	}
	len = strlen(argv[2]);
	if (nth) {
		nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
		if (nth_fd < 0 || fail_nth(nth_fd, nth)) {
			perror("/proc/thread-self/fail-nth");
			return 2;
		}
	}
	n = write(fd, argv[2], len);
	if (n < 0)
		err = errno;
	if (nth) {
		left = fail_nth(nth_fd, 0);
		if (left < 0) {
			perror("/proc/thread-self/fail-nth");
			return 2;
		}
	}
	if (n < 0)
		printf("%s\n", errname(err));
	else
		printf("ok %zd\n", n);
	if (nth)
		printf("%s\n", left ? "not-injected" : "injected");
	close(fd);
	return n >= 0 && (size_t)n == len ? 0 : 1;
}

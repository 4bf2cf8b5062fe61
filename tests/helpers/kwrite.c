// SPDX-License-Identifier: GPL-2.0
/*
 * kwrite FILE TEXT: write TEXT to FILE in one write(2) and say what came
 * back: "ok N" (bytes written) or the errno's name (EINVAL, EPERM...),
 * with "open " before it when open(2) failed. Exits 0 on a full write.
 * The guest tests use it to check the exact errno of a debugfs write.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
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

int main(int argc, char **argv)
{
	size_t len;
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: kwrite FILE TEXT\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("open %s\n", errname(errno));
		return 1;
	}
	len = strlen(argv[2]);
	n = write(fd, argv[2], len);
	if (n < 0) {
		printf("%s\n", errname(errno));
		return 1;
	}
	printf("ok %zd\n", n);
	close(fd);
	return (size_t)n == len ? 0 : 1;
}

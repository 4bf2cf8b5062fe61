// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat prom FILE: perfkmod's metrics (Prometheus text format) written
 * to FILE atomically, for node_exporter's textfile collector: a temporary
 * file in FILE's directory, mode 0644, renamed over FILE.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfkstat.h"

int cmd_prom(int argc, char **argv)
{
	struct sbuf sb = { 0 };
	const char *why = NULL;
	char *dir, *tmp, *metrics;
	size_t off = 0;
	ssize_t n;
	int fd;

	if (argc != 1)
		usage();
	need_dir();
	dir = dir_of(argv[0]);
	tmp = xasprintf("%s/.perfkstat.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0)
		die("cannot create a file in %s: %s", dir, strerror(errno));
	metrics = dbg_path("metrics");
	if (read_all(metrics, &sb) < 0)
		why = strerror(errno);
	while (!why && off < sb.len) {
		n = write(fd, sb.buf + off, sb.len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			why = strerror(errno);
		else
			off += n;
	}
	if (!why && fchmod(fd, 0644) < 0)
		why = strerror(errno);
	if (close(fd) < 0 && !why)
		why = strerror(errno);
	if (!why && rename(tmp, argv[0]) < 0)
		why = strerror(errno);
	if (why) {
		unlink(tmp);
		die("could not write %s: %s", argv[0], why);
	}
	sb_free(&sb);
	free(metrics);
	free(tmp);
	free(dir);
	return 0;
}

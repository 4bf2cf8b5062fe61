// SPDX-License-Identifier: GPL-2.0
/*
 * ctlstress write ID SECONDS: for SECONDS, and at least WRITE_ROUNDS
 * rounds however slow the machine is, add, enable, reset, re-period,
 * disable and delete counters wK-0..wK-3 of its own and "shared" (which
 * every writer adds and deletes too) through perfkmod's control file, and
 * read a counter's files in between. Every command it starts it finishes,
 * ending on deletes, so that none of its counters is left.
 *
 * ctlstress read SECONDS: read list, control and every
 * counter's files, over and over, for SECONDS and at least READ_ROUNDS
 * rounds.
 *
 * Prints "OPS UNEXPECTED"; an answer other than success, EEXIST, ENOENT or
 * EINVAL (period of a counter that does not sample) is unexpected and is
 * described on stderr. Exits 1 when there was one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DBG	"/sys/kernel/debug/perfkmod"

/*
 * The least work each process does, so that the test's load is the same
 * on a slow day: 13 rounds of 9 operations from each of 4 writers is over
 * 400 commands and reads; 10 rounds of at least 5 reads from each of 2
 * readers over 100 reads.
 */
#define WRITE_ROUNDS	13
#define READ_ROUNDS	10

static long ops, unexpected;

static void slurp(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return;		/* a counter deleted meanwhile */
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	ops++;
}

static void command(int fd, const char *cmd)
{
	ssize_t n = write(fd, cmd, strlen(cmd));

	ops++;
	if (n == (ssize_t)strlen(cmd))
		return;
	if (n < 0 && (errno == EEXIST || errno == ENOENT || errno == EINVAL))
		return;
	unexpected++;
	fprintf(stderr, "ctlstress: %s: %s\n", cmd,
		n < 0 ? strerror(errno) : "short write");
}

static void writer(int id, time_t end)
{
	static const char * const fmt[] = {
		"add %s context-switches", "enable %s", "reset %s",
		"period %s 1000", "disable %s", "add shared page-faults,cpu=0",
		"del %s", "del shared",
	};
	char name[32], cmd[128], path[256];
	int fd = open(DBG "/control", O_WRONLY);
	unsigned int i, k;

	if (fd < 0) {
		perror(DBG "/control");
		exit(2);
	}
	for (i = 0; time(NULL) < end || i < WRITE_ROUNDS; i++) {
		snprintf(name, sizeof(name), "w%d-%u", id, i % 4);
		for (k = 0; k < sizeof(fmt) / sizeof(*fmt); k++) {
			snprintf(cmd, sizeof(cmd), fmt[k], name);
			command(fd, cmd);
			if (k == 1) {
				snprintf(path, sizeof(path), DBG "/counters/%s/stat",
					 name);
				slurp(path);
			}
		}
	}
	close(fd);
}

static void reader(time_t end)
{
	char path[512];
	struct dirent *d;
	DIR *dir;
	int i;

	for (i = 0; time(NULL) < end || i < READ_ROUNDS; i++) {
		slurp(DBG "/list");
		slurp(DBG "/control");
		dir = opendir(DBG "/counters");
		if (!dir)
			continue;
		while ((d = readdir(dir))) {
			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), DBG "/counters/%s/value", d->d_name);
			slurp(path);
			snprintf(path, sizeof(path), DBG "/counters/%s/stat", d->d_name);
			slurp(path);
		}
		closedir(dir);
	}
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "write"))
		writer(atoi(argv[2]), time(NULL) + atoi(argv[3]));
	else if (argc == 3 && !strcmp(argv[1], "read"))
		reader(time(NULL) + atoi(argv[2]));
	else {
		fprintf(stderr, "usage: ctlstress write ID SECONDS | read SECONDS\n");
		return 2;
	}
	printf("%ld %ld\n", ops, unexpected);
	return unexpected != 0;
}

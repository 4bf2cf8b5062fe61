// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID GID COMMAND [ARG...]: run COMMAND as an unprivileged user, for
 * the guest's permission tests (busybox has no su without /etc/passwd).
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: runas UID GID COMMAND [ARG...]\n");
		return 2;
	}
	uid = (uid_t)atol(argv[1]);
	gid = (gid_t)atol(argv[2]);
	if (setgroups(0, NULL) || setgid(gid) || setuid(uid)) {
		perror("runas");
		return 2;
	}
	if (getuid() != uid || geteuid() != uid || !uid) {
		fprintf(stderr, "runas: still privileged\n");
		return 2;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}

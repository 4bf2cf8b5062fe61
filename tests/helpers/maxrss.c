// SPDX-License-Identifier: GPL-2.0
/*
 * maxrss FILE COMMAND [ARG...]: run COMMAND, write the most memory it held
 * at once (its peak resident set, the kernel's ru_maxrss, in kB) to FILE,
 * and exit with its status (128 + the signal that ended it). The guest
 * tests bound what a command costs in memory with it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	FILE *f;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: maxrss FILE COMMAND [ARG...]\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (!pid) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "maxrss: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("wait4");
			return 1;
		}
	}
	f = fopen(argv[1], "w");
	if (!f || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * touchpages N DIR: a process with a known number of page faults.
 *
 * Creates DIR/ready and waits for SIGUSR1; then writes one byte to each of
 * N fresh anonymous small pages (N page faults at least), creates DIR/done, and
 * waits to be killed, so that a counter bound to it can still be read.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void touch(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), n = 0, i;
	sigset_t mask;
	char *mem;
	int sig;

	if (argc == 3)
		n = atol(argv[1]);
	if (n <= 0) {
		fprintf(stderr, "usage: touchpages N DIR\n");
		return 2;
	}
	mem = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* a transparent huge page would take 512 pages in one fault */
	if (madvise(mem, n * page, MADV_NOHUGEPAGE))
		perror("madvise");
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	touch(argv[2], "ready");
	if (sigwait(&mask, &sig))
		return 1;

	for (i = 0; i < n; i++)
		mem[i * page] = 1;
	touch(argv[2], "done");
	for (;;)
		pause();
}

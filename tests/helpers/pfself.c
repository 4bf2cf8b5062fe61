// SPDX-License-Identifier: GPL-2.0
/*
 * pfself N DIR: count one's own page faults with perf_event_open(2), to
 * compare with a perfkmod counter bound to this process.
 *
 * Opens a disabled page-faults counter on itself (all CPUs, user and
 * kernel), creates DIR/ready and waits for SIGUSR1; then enables the
 * counter, writes one byte to each of N fresh anonymous pages, disables
 * it, writes the count to DIR/count and creates DIR/done; then waits to
 * be killed, so that the perfkmod counter can still be read.
 */
#include <linux/perf_event.h>
#include <linux/types.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE), n = 0, i;
	struct perf_event_attr attr;
	char text[32];
	__u64 count;
	sigset_t mask;
	char *mem;
	int fd, sig;

	if (argc == 3)
		n = atol(argv[1]);
	if (n <= 0) {
		fprintf(stderr, "usage: pfself N DIR\n");
		return 2;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.disabled = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	mem = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* a transparent huge page would take 512 pages in one fault */
	madvise(mem, n * page, MADV_NOHUGEPAGE);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	put(argv[2], "ready", "");
	if (sigwait(&mask, &sig))
		return 1;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < n; i++)
		mem[i * page] = 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &count, sizeof(count)) != sizeof(count)) {
		perror("read");
		return 1;
	}
	snprintf(text, sizeof(text), "%llu\n", (unsigned long long)count);
	put(argv[2], "count", text);
	put(argv[2], "done", "");
	for (;;)
		pause();
}

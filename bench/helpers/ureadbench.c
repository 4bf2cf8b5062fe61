// SPDX-License-Identifier: GPL-2.0
/*
 * ureadbench N: what reading a counter costs from user space, in the
 * benchmark guest (scripts/bench.sh).
 *
 * - read() of a perf_event_open() fd of cpu-clock on CPU 0, N times;
 * - when perfkmod's debugfs counters exist (control, counters/NAME/value,
 *   list): pread() of the value file of the same event, held open, N
 *   times; then with 64 counters, one read of list against 64 single
 *   value reads.
 *
 * Runs on CPU 0, times with CLOCK_MONOTONIC (under QEMU's -icount shift=0,
 * guest instructions). Prints "PERFKMOD-BENCH KEY VALUE" lines: VALUE in
 * thousandths of a nanosecond per operation, as the benchmark module does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define DBG "/sys/kernel/debug/perfkmod"
#define NCOUNTERS 64
/* rounds of the 64-counter reads; their median is reported */
#define ROUNDS 9

static char buf[1 << 20];

static __u64 now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void report(const char *key, __u64 ns, __u64 ops)
{
	printf("PERFKMOD-BENCH %s %llu\n", key,
	       (unsigned long long)(ops ? ns * 1000 / ops : 0));
}

static int ctl(const char *cmd)
{
	int fd = open(DBG "/control", O_WRONLY);
	ssize_t n = -1;

	if (fd >= 0) {
		n = write(fd, cmd, strlen(cmd));
		close(fd);
	}
	if (n < 0)
		fprintf(stderr, "ureadbench: \"%s\" to control: %s\n", cmd,
			strerror(errno));
	return n < 0 ? -1 : 0;
}

/* Read a whole file from offset 0; returns the bytes read or -1. */
static ssize_t read_all(int fd)
{
	ssize_t n, total = 0;

	while ((n = pread(fd, buf, sizeof(buf), total)) > 0)
		total += n;
	return n < 0 ? -1 : total;
}

static int bench_perf_fd(long n)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	__u64 v, t0;
	long i;
	int fd;

	fd = syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	t0 = now();
	for (i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v)) {
			perror("read");
			return 1;
		}
	report("uread.perf.ns", now() - t0, n);
	close(fd);
	return 0;
}

static int bench_debugfs(long n)
{
	int fds[NCOUNTERS], lst, i, added = 0, err = 1;
	char cmd[128], path[128];
	__u64 t0, t1;
	ssize_t size;
	long k;

	for (i = 0; i < NCOUNTERS; i++)
		fds[i] = -1;
	for (i = 0; i < NCOUNTERS; i++) {
		snprintf(cmd, sizeof(cmd), "add ureadbench%d cpu-clock,cpu=0", i);
		snprintf(path, sizeof(path), DBG "/counters/ureadbench%d/value", i);
		if (ctl(cmd))
			goto out;
		added++;
		fds[i] = open(path, O_RDONLY);
		if (fds[i] < 0) {
			perror(path);
			goto out;
		}
	}
	t0 = now();
	for (k = 0; k < n; k++)
		if (pread(fds[0], buf, 64, 0) <= 0) {
			perror("pread value");
			goto out;
		}
	report("uread.debugfs.ns", now() - t0, n);

	lst = open(DBG "/list", O_RDONLY);
	if (lst < 0) {
		perror("list");
		goto out;
	}
	/*
	 * per round: 64 single reads, one list.
	 * Each is timed alone, between two now(): a report is a write to the
	 * pipe of the guest script, whose shell (on this one CPU) logs the
	 * line to the console before the write returns, about 170,000
	 * instructions that would otherwise count in the next read timed.
	 */
	for (k = 0; k < ROUNDS; k++) {
		t0 = now();
		for (i = 0; i < NCOUNTERS; i++)
			if (pread(fds[i], buf, 64, 0) <= 0)
				goto out;
		t1 = now();
		report("uread.single64.ns", t1 - t0, 1);
		t0 = now();
		size = read_all(lst);
		t1 = now();
		if (size <= 0)
			goto out;
		report("uread.list64.ns", t1 - t0, 1);
		if (!k)
			printf("PERFKMOD-BENCH uread.list64.bytes %zd\n", size);
	}
	close(lst);
	err = 0;
out:
	for (i = 0; i < NCOUNTERS; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	for (i = 0; i < added; i++) {
		snprintf(cmd, sizeof(cmd), "del ureadbench%d", i);
		ctl(cmd);
	}
	return err;
}

int main(int argc, char **argv)
{
	long n = argc == 2 ? atol(argv[1]) : 0;
	cpu_set_t cpus;
	int err;

	if (n <= 0) {
		fprintf(stderr, "usage: ureadbench N\n");
		return 2;
	}
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		perror("sched_setaffinity");
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = bench_perf_fd(n);
	if (access(DBG "/control", W_OK)) {
		printf("PERFKMOD-BENCH uread.debugfs.na 1\n");
		return err;
	}
	return bench_debugfs(n) || err;
}

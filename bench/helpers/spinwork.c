// SPDX-License-Identifier: GPL-2.0
/*
 * spinwork N: a CPU-bound workload in user space, on CPU 0: N turns of a
 * linear congruential generator, as the benchmark module's workload. Prints
 * the nanoseconds it took (CLOCK_MONOTONIC; under QEMU's -icount shift=0,
 * guest instructions), for the time series rows of the benchmark guest.
 */
#define _GNU_SOURCE
#include <linux/types.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static __u64 now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long n, i;
	cpu_set_t cpu0;
	__u64 x = 1, t0;

	if (argc != 2) {
		fprintf(stderr, "usage: spinwork TURNS\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 0);
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		perror("sched_setaffinity");
		return 1;
	}
	t0 = now();
	for (i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		/* the compiler may not fold the loop away */
		__asm__ __volatile__("" : "+r" (x));
	}
	printf("%llu\n", (unsigned long long)(now() - t0));
	return 0;
}

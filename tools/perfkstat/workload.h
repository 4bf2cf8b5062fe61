/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PERFKSTAT_WORKLOAD_H
#define PERFKSTAT_WORKLOAD_H

#include <sys/types.h>

struct workload {
	pid_t pid;
	int go, err;	/* the pipes that let it go and say its exec failed */
};

/* workload_prepare: fork ARGV, waiting for workload_start(); its pid */
pid_t workload_prepare(struct workload *w, char **argv);

/* workload_start: let it exec; 0, or the errno of its failed exec */
int workload_start(struct workload *w);

#endif

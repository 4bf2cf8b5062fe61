/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data, the file perf record writes (tools/perf/Documentation/
 * perf.data-file-format.txt in the kernel's sources), for record --every's
 * recordings: perf report and perf script read it. The trigger's records
 * are its samples; the series' counters are each sample's group read.
 */
#ifndef PERFKSTAT_PERFDATA_H
#define PERFKSTAT_PERFDATA_H

#include "perfkstat.h"

struct perfdata;

/* a record, as a sample */
struct perfdata_sample {
	u64 time;		/* the series' clock, CLOCK_MONOTONIC, in ns */
	u64 ip;
	u32 cpu, pid, tid;
	bool user;		/* the IP is in user mode */
	const u64 *read;	/* each event's count, over all CPUs, up to it */
};

/*
 * perfdata_new: a file of NEV events named NAMES, the first of them the
 * trigger, sampling every PERIOD events; the others are counted only
 */
struct perfdata *perfdata_new(int nev, const char *const *names, u64 period);
/*
 * perfdata_cmdline: the command line the file says recorded it, after
 * the program's own path
 */
void perfdata_cmdline(struct perfdata *pd, int argc, const char *const *argv);
/* perfdata_comm: task PID/TID's name */
void perfdata_comm(struct perfdata *pd, u32 pid, u32 tid, const char *comm);
/*
 * perfdata_mmap: code mapped at START, LEN bytes, from PGOFF of FILE; of
 * process PID, or with KERNEL the kernel's (PROT: PROT_READ... bits)
 */
void perfdata_mmap(struct perfdata *pd, bool kernel, u32 pid, u64 start, u64 len,
		   u64 pgoff, u32 prot, const char *file);
void perfdata_sample(struct perfdata *pd, const struct perfdata_sample *s);
/*
 * perfdata_write: the file at PATH, whole or not at all (a temporary in
 * its directory, renamed over it); -errno when it cannot be written
 */
int perfdata_write(struct perfdata *pd, const char *path);
void perfdata_free(struct perfdata *pd);

/*
 * From /proc: perfdata_task, the name of TID of PID and the code PID maps
 * (once a task, once a process); perfdata_kernel, the kernel's text and
 * the modules'.
 */
void perfdata_task(struct perfdata *pd, u32 pid, u32 tid);
void perfdata_kernel(struct perfdata *pd);

#endif

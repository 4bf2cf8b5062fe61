/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of perfkmod_parse(), shared by its KUnit suite (parse_test.c)
 * and its host test (tests/host/parse_test.c): every valid spec with
 * exactly the fields it gives, every invalid one with exactly its errno.
 */
#ifndef _PERFKMOD_PARSE_CASES_H
#define _PERFKMOD_PARSE_CASES_H

#include <linux/hw_breakpoint.h>

#include "perfkmod.h"

/* Told of each field that differs: its name, what a parse gave, what it should */
typedef void (*parse_differs_t)(void *ctx, const char *field, u64 got, u64 want);

static inline bool parse_field_same(const char *field, u64 got, u64 want,
				    parse_differs_t differs, void *ctx)
{
	if (got != want)
		differs(ctx, field, got, want);
	return got == want;
}

/*
 * Whether a parse gave @got where @want was due, comparing every field of
 * struct perfkmod_config that a parse sets (both suites call this: a field
 * the grammar learns is added here, once), and no task: @differs is told
 * of each field that differs.
 */
static inline bool parse_same_config(const struct perfkmod_config *got,
				     const struct perfkmod_config *want,
				     parse_differs_t differs, void *ctx)
{
	bool same = !got->task;

	if (got->task)
		differs(ctx, "task", 1, 0);
	same &= parse_field_same("type", got->type, want->type, differs, ctx);
	same &= parse_field_same("config", got->config, want->config,
				 differs, ctx);
	same &= parse_field_same("config1", got->config1, want->config1,
				 differs, ctx);
	same &= parse_field_same("config2", got->config2, want->config2,
				 differs, ctx);
	same &= parse_field_same("bp_addr", got->bp_addr, want->bp_addr,
				 differs, ctx);
	same &= parse_field_same("bp_len", got->bp_len, want->bp_len,
				 differs, ctx);
	same &= parse_field_same("bp_type", got->bp_type, want->bp_type,
				 differs, ctx);
	same &= parse_field_same("sample_period", got->sample_period, want->sample_period,
				 differs, ctx);
	same &= parse_field_same("sample_freq", got->sample_freq, want->sample_freq,
				 differs, ctx);
	same &= parse_field_same("precise_ip", got->precise_ip, want->precise_ip,
				 differs, ctx);
	same &= parse_field_same("target", got->target, want->target,
				 differs, ctx);
	same &= parse_field_same("cpu", got->cpu, want->cpu, differs, ctx);
	same &= parse_field_same("pid", got->pid, want->pid, differs, ctx);
	same &= parse_field_same("disabled", got->disabled, want->disabled,
				 differs, ctx);
	same &= parse_field_same("inherit", got->inherit, want->inherit,
				 differs, ctx);
	same &= parse_field_same("enable_on_exec", got->enable_on_exec, want->enable_on_exec,
				 differs, ctx);
	same &= parse_field_same("pinned", got->pinned, want->pinned,
				 differs, ctx);
	same &= parse_field_same("exclusive", got->exclusive, want->exclusive,
				 differs, ctx);
	same &= parse_field_same("exclude_user", got->exclude_user, want->exclude_user,
				 differs, ctx);
	same &= parse_field_same("exclude_kernel", got->exclude_kernel, want->exclude_kernel,
				 differs, ctx);
	same &= parse_field_same("exclude_hv", got->exclude_hv, want->exclude_hv,
				 differs, ctx);
	same &= parse_field_same("exclude_idle", got->exclude_idle, want->exclude_idle,
				 differs, ctx);
	return same;
}

#define HW(id)		.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_##id
#define SW(id)		.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_##id
#define CACHE(c, o, r)	.type = PERF_TYPE_HW_CACHE, \
			.config = PERFKMOD_HW_CACHE(PERF_COUNT_HW_CACHE_##c, \
				PERF_COUNT_HW_CACHE_OP_##o, \
				PERF_COUNT_HW_CACHE_RESULT_##r)
#define BP(addr, t, len) .type = PERF_TYPE_BREAKPOINT, .bp_addr = (addr), \
			.bp_type = HW_BREAKPOINT_##t, .bp_len = (len)
#define USER_ONLY	.exclude_kernel = true, .exclude_hv = true
#define KERNEL_ONLY	.exclude_user = true, .exclude_hv = true

struct valid_case {
	const char *spec;
	struct perfkmod_config want;
};

static const struct valid_case valid_cases[] = {
	{ "cycles", { HW(CPU_CYCLES) } },
	{ "cpu-cycles", { HW(CPU_CYCLES) } },
	{ "instructions:u", { HW(INSTRUCTIONS), USER_ONLY } },
	{ "instructions:k", { HW(INSTRUCTIONS), KERNEL_ONLY } },
	{ "cycles:uk", { HW(CPU_CYCLES), .exclude_hv = true } },
	{ "cycles:h", { HW(CPU_CYCLES), .exclude_user = true,
			.exclude_kernel = true } },
	{ "cache-references", { HW(CACHE_REFERENCES) } },
	{ "cache-misses:I", { HW(CACHE_MISSES), .exclude_idle = true } },
	{ "branch-instructions", { HW(BRANCH_INSTRUCTIONS) } },
	{ "branches", { HW(BRANCH_INSTRUCTIONS) } },
	{ "branch-misses", { HW(BRANCH_MISSES) } },
	{ "bus-cycles", { HW(BUS_CYCLES) } },
	{ "stalled-cycles-frontend", { HW(STALLED_CYCLES_FRONTEND) } },
	{ "idle-cycles-backend", { HW(STALLED_CYCLES_BACKEND) } },
	{ "ref-cycles,period=100000", { HW(REF_CPU_CYCLES),
					.sample_period = 100000 } },
	{ "cpu-clock", { SW(CPU_CLOCK) } },
	{ "task-clock,freq=1000", { SW(TASK_CLOCK), .sample_freq = 1000 } },
	{ "page-faults:k", { SW(PAGE_FAULTS), KERNEL_ONLY } },
	{ "faults,pid=42", { SW(PAGE_FAULTS), .target = PERFKMOD_TARGET_TASK,
			     .pid = 42 } },
	{ "context-switches,cpu=1", { SW(CONTEXT_SWITCHES),
				      .target = PERFKMOD_TARGET_CPU, .cpu = 1 } },
	{ "cs", { SW(CONTEXT_SWITCHES) } },
	{ "cpu-migrations", { SW(CPU_MIGRATIONS) } },
	{ "minor-faults", { SW(PAGE_FAULTS_MIN) } },
	{ "major-faults", { SW(PAGE_FAULTS_MAJ) } },
	{ "alignment-faults", { SW(ALIGNMENT_FAULTS) } },
	{ "emulation-faults", { SW(EMULATION_FAULTS) } },
	{ "dummy", { SW(DUMMY) } },
	{ "cgroup-switches", { SW(CGROUP_SWITCHES) } },
	{ "L1-dcache-load-misses", { CACHE(L1D, READ, MISS) } },
	{ "L1-dcache-loads", { CACHE(L1D, READ, ACCESS) } },
	{ "L1-icache-load-misses", { CACHE(L1I, READ, MISS) } },
	{ "LLC-store-misses", { CACHE(LL, WRITE, MISS) } },
	{ "dTLB-prefetches", { CACHE(DTLB, PREFETCH, ACCESS) } },
	{ "iTLB-load-misses", { CACHE(ITLB, READ, MISS) } },
	{ "branch-loads", { CACHE(BPU, READ, ACCESS) } },
	{ "node-store-misses:u", { CACHE(NODE, WRITE, MISS), USER_ONLY } },
	{ "r1c2", { .type = PERF_TYPE_RAW, .config = 0x1c2 } },
	{ "rC0:u", { .type = PERF_TYPE_RAW, .config = 0xc0, USER_ONLY } },
	{ "r1c2,config1=0x3,config2=7", { .type = PERF_TYPE_RAW, .config = 0x1c2,
					  .config1 = 3, .config2 = 7 } },
	{ "mem:0x1000", { BP(0x1000, RW, 4) } },
	{ "mem:0x1000:w8", { BP(0x1000, W, 8) } },
	{ "mem:0x1000/2:r", { BP(0x1000, R, 2) } },
	{ "mem:4096:x", { BP(4096, X, sizeof(long)) } },
	{ "mem:0xffffffff81000000:wr", { BP(0xffffffff81000000ULL, RW, 4) } },
	{ "mem:0x10/1,period=1", { BP(0x10, RW, 1), .sample_period = 1 } },
	{ "tracepoint=123", { .type = PERF_TYPE_TRACEPOINT, .config = 123 } },
	{ "pmu=8,config=0x10,config1=1", { .type = 8, .config = 0x10,
					   .config1 = 1 } },
	{ "pmu=4294967295", { .type = 4294967295U } },
	{ "cycles:ppp", { HW(CPU_CYCLES), .precise_ip = 3 } },
	{ "instructions,precise=2", { HW(INSTRUCTIONS), .precise_ip = 2 } },
	{ "cycles,pinned,exclusive,inherit,disabled",
	  { HW(CPU_CYCLES), .pinned = true, .exclusive = true,
	    .inherit = true, .disabled = true } },
	{ "cycles:De", { HW(CPU_CYCLES), .pinned = true, .exclusive = true } },
	{ "cpu-clock,period=10000,cpu=0", { SW(CPU_CLOCK), .sample_period = 10000,
					    .target = PERFKMOD_TARGET_CPU } },
	{ "page-faults,pid=4194304", { SW(PAGE_FAULTS), .pid = 4194304,
				       .target = PERFKMOD_TARGET_TASK } },
	{ "page-faults,pid=7,inherit,enable_on_exec",
	  { SW(PAGE_FAULTS), .pid = 7, .target = PERFKMOD_TARGET_TASK,
	    .inherit = true, .enable_on_exec = true } },
	{ "cycles,enable_on_exec,period=1000",
	  { HW(CPU_CYCLES), .sample_period = 1000, .enable_on_exec = true } },
	{ "cycles,period=0x7fffffffffffffff", { HW(CPU_CYCLES),
		.sample_period = 0x7fffffffffffffffULL } },
	{ "cycles,cpu=2147483647", { HW(CPU_CYCLES), .cpu = 2147483647,
				     .target = PERFKMOD_TARGET_CPU } },
	{ "cycles,period=010", { HW(CPU_CYCLES), .sample_period = 8 } },
};

struct invalid_case {
	const char *spec;
	int err;
};

static const struct invalid_case invalid_cases[] = {
	{ "", -EINVAL },
	{ "bogus", -EINVAL },
	{ "CYCLES", -EINVAL },
	{ "cycles:", -EINVAL },
	{ "cycles:z", -EINVAL },
	{ "cycles:u:k", -EINVAL },
	{ "cycles:pppp", -ERANGE },
	{ "cycles,period=10,freq=10", -EINVAL },
	{ "page-faults,pid=7,enable_on_exec,disabled", -EINVAL },
	{ "page-faults,disabled,enable_on_exec", -EINVAL },
	{ "page-faults,enable_on_exec=1", -EINVAL },
	{ "page-faults,enable_on_exec,enable_on_exec", -EINVAL },
	{ "page-faults,enable-on-exec", -EINVAL },
	{ "cycles,period=0", -EINVAL },
	{ "cycles,period=", -EINVAL },
	{ "cycles,period=abc", -EINVAL },
	{ "cycles,period=18446744073709551616", -ERANGE },
	{ "cycles,period=0x8000000000000000", -ERANGE },
	{ "cycles,freq=0", -EINVAL },
	{ "cycles,cpu=2147483648", -ERANGE },
	{ "cycles,cpu=-1", -EINVAL },
	{ "cycles,pid=0", -EINVAL },
	{ "cycles,pid=4194305", -ERANGE },
	{ "cycles,cpu=0,pid=1", -EINVAL },
	{ "cycles,precise=4", -ERANGE },
	{ "cycles:p,precise=1", -EINVAL },
	{ "cycles,period=1,period=2", -EINVAL },
	{ "cycles,pinned,pinned", -EINVAL },
	{ "cycles,pinned=1", -EINVAL },
	{ "cycles,period", -EINVAL },
	{ "cycles,", -EINVAL },
	{ ",cycles", -EINVAL },
	{ "cycles,,pinned", -EINVAL },
	{ "cycles,unknown", -EINVAL },
	{ "cycles period=1", -EINVAL },
	{ " cycles", -EINVAL },
	{ "cycles\n", -EINVAL },
	{ "cycles\tx", -EINVAL },
	{ "cycles,config=1", -EINVAL },
	{ "cycles,config1=1", -EINVAL },
	{ "r1c2,config=1", -EINVAL },
	{ "r", -EINVAL },
	{ "r12g", -EINVAL },
	{ "r10000000000000000", -ERANGE },
	{ "mem:", -EINVAL },
	{ "mem:0x1000:q", -EINVAL },
	{ "mem:0x1000:rx", -EINVAL },
	{ "mem:0x1000:rwr", -EINVAL },
	{ "mem:0x1000/3:w8", -EINVAL },
	{ "mem:0x1000/9", -ERANGE },
	{ "mem:0x1000/0", -EINVAL },
	{ "mem:0x1000:w0", -EINVAL },
	{ "mem:0x1000:w/8", -EINVAL },
	{ "mem:zz", -EINVAL },
	{ "tracepoint=", -EINVAL },
	{ "tracepoint=x", -EINVAL },
	{ "tracepoint=1:u", -EINVAL },
	{ "pmu=4294967296", -ERANGE },
	{ "pmu=", -EINVAL },
	{ "pmu=8:u", -EINVAL },
	{ "L1-dcache", -EINVAL },
	{ "L1-dcache-", -EINVAL },
	{ "L1-dcache-flushes", -EINVAL },
	{ "L1-dcache-load-hits", -EINVAL },
	{ "L2-dcache-loads", -EINVAL },
};

#endif

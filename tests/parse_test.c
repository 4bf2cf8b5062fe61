// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for perfkmod_parse(): every valid spec gives exactly the
 * fields listed, every invalid one exactly the errno listed, and a failed
 * parse leaves the config untouched; and for perfkmod_event_name(), the
 * grammar's event names in turn.
 */
#include <kunit/test.h>
#include <linux/hw_breakpoint.h>
#include <linux/string.h>

#include "perfkmod.h"

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

static void invalid_desc(const struct invalid_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->spec);
}

KUNIT_ARRAY_PARAM_DESC(valid, valid_cases, spec);
KUNIT_ARRAY_PARAM(invalid, invalid_cases, invalid_desc);

static void expect_config(struct kunit *test, const struct perfkmod_config *got,
			  const struct perfkmod_config *want)
{
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->type, (u64)want->type, "type");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->config, (u64)want->config, "config");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->config1, (u64)want->config1, "config1");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->config2, (u64)want->config2, "config2");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->bp_addr, (u64)want->bp_addr, "bp_addr");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->bp_len, (u64)want->bp_len, "bp_len");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->bp_type, (u64)want->bp_type, "bp_type");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->sample_period, (u64)want->sample_period,
			    "sample_period");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->sample_freq, (u64)want->sample_freq, "sample_freq");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->precise_ip, (u64)want->precise_ip, "precise_ip");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->target, (u64)want->target, "target");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->cpu, (u64)want->cpu, "cpu");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->pid, (u64)want->pid, "pid");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->disabled, (u64)want->disabled, "disabled");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->inherit, (u64)want->inherit, "inherit");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->enable_on_exec, (u64)want->enable_on_exec,
			    "enable_on_exec");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->pinned, (u64)want->pinned, "pinned");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->exclusive, (u64)want->exclusive, "exclusive");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->exclude_user, (u64)want->exclude_user,
			    "exclude_user");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->exclude_kernel, (u64)want->exclude_kernel,
			    "exclude_kernel");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->exclude_hv, (u64)want->exclude_hv, "exclude_hv");
	KUNIT_EXPECT_EQ_MSG(test, (u64)got->exclude_idle, (u64)want->exclude_idle,
			    "exclude_idle");
	KUNIT_EXPECT_NULL(test, got->task);
}

static void parse_valid(struct kunit *test)
{
	const struct valid_case *c = test->param_value;
	struct perfkmod_config got;

	memset(&got, 0xa5, sizeof(got));
	KUNIT_ASSERT_EQ(test, perfkmod_parse(c->spec, &got), 0);
	expect_config(test, &got, &c->want);
}

/* A failed parse gives the exact errno and leaves the config untouched. */
static void parse_invalid(struct kunit *test)
{
	const struct invalid_case *c = test->param_value;
	struct perfkmod_config got, before;

	memset(&got, 0xa5, sizeof(got));
	before = got;
	KUNIT_EXPECT_EQ(test, perfkmod_parse(c->spec, &got), c->err);
	KUNIT_EXPECT_MEMEQ(test, &got, &before, sizeof(got));
}

/* PERFKMOD_SPEC_MAX characters parse; one more is -E2BIG. */
static void parse_length_limit(struct kunit *test)
{
	static const char prefix[] = "cycles,period=";
	char *spec = kunit_kzalloc(test, PERFKMOD_SPEC_MAX + 2, GFP_KERNEL);
	struct perfkmod_config got;

	KUNIT_ASSERT_NOT_NULL(test, spec);
	/* "cycles,period=000...01": leading zeros, so the period is 1 */
	memset(spec, '0', PERFKMOD_SPEC_MAX);
	memcpy(spec, prefix, sizeof(prefix) - 1);
	spec[PERFKMOD_SPEC_MAX - 1] = '1';
	KUNIT_EXPECT_EQ(test, perfkmod_parse(spec, &got), 0);
	KUNIT_EXPECT_EQ(test, got.sample_period, 1);

	spec[PERFKMOD_SPEC_MAX - 1] = '0';
	spec[PERFKMOD_SPEC_MAX] = '1';
	KUNIT_EXPECT_EQ(test, perfkmod_parse(spec, &got), -E2BIG);
}

/*
 * perfkmod_event_name() gives perf's names, each a spec that parses, no two
 * the same event, in the grammar's order, then -ENOENT; a short buffer is
 * -E2BIG.
 */
static void event_names(struct kunit *test)
{
	struct perfkmod_config *cfgs;
	char name[PERFKMOD_SPEC_MAX + 1];
	unsigned int j, n = 0;
	int err;

	cfgs = kunit_kcalloc(test, 256, sizeof(*cfgs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cfgs);
	while (!(err = perfkmod_event_name(n, name, sizeof(name)))) {
		KUNIT_ASSERT_LT(test, n, 256);
		KUNIT_ASSERT_EQ_MSG(test, perfkmod_parse(name, &cfgs[n]), 0,
				    "%s", name);
		for (j = 0; j < n; j++)
			KUNIT_EXPECT_FALSE_MSG(test,
					       cfgs[j].type == cfgs[n].type &&
					       cfgs[j].config == cfgs[n].config,
					       "%u and %s", j, name);
		n++;
	}
	KUNIT_EXPECT_EQ(test, err, -ENOENT);
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(n + 1, name, sizeof(name)),
			-ENOENT);
	/* 10 hardware, 12 software, 7 caches * 3 operations * 2 results */
	KUNIT_EXPECT_EQ(test, n, 10 + 12 + 7 * 3 * 2);

	KUNIT_EXPECT_EQ(test, perfkmod_event_name(0, name, sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "cycles");
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(10, name, sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "cpu-clock");
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(22, name, sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "L1-dcache-load-misses");
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(23, name, sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "L1-dcache-load-accesses");
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(n - 1, name, sizeof(name)),
			0);
	KUNIT_EXPECT_STREQ(test, name, "node-prefetch-accesses");

	/* "cycles" takes 7 bytes, "L1-dcache-load-misses" 22 */
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(0, name, 7), 0);
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(0, name, 6), -E2BIG);
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(22, name, 22), 0);
	KUNIT_EXPECT_EQ(test, perfkmod_event_name(22, name, 21), -E2BIG);
}

static struct kunit_case perfkmod_parse_cases[] = {
	KUNIT_CASE_PARAM(parse_valid, valid_gen_params),
	KUNIT_CASE_PARAM(parse_invalid, invalid_gen_params),
	KUNIT_CASE(parse_length_limit),
	KUNIT_CASE(event_names),
	{}
};

static struct kunit_suite perfkmod_parse_suite = {
	.name = "perfkmod_parse",
	.test_cases = perfkmod_parse_cases,
};

kunit_test_suites(&perfkmod_parse_suite);

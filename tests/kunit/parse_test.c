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
#include "parse_cases.h"

static void invalid_desc(const struct invalid_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "\"%s\"", c->spec);
}

KUNIT_ARRAY_PARAM_DESC(valid, valid_cases, spec);
KUNIT_ARRAY_PARAM(invalid, invalid_cases, invalid_desc);

static void report_field(void *ctx, const char *field, u64 got, u64 want)
{
	struct kunit *test = ctx;

	KUNIT_FAIL(test, "%s: %llu, not %llu", field, got, want);
}

static void expect_config(struct kunit *test, const struct perfkmod_config *got,
			  const struct perfkmod_config *want)
{
	parse_same_config(got, want, report_field, test);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod_parse() on the host: parse.c built against the shim of the
 * kernel's headers (tests/host/shim/), run against the cases of its KUnit
 * suite (tests/kunit/parse_cases.h). Prints one TAP line a case, each
 * field that differs after a "not ok", and exits 1 when a case failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_cases.h"

static int n, failed;

/* One TAP line: the spec in C's escapes, so that it stays on the line. */
static void result(bool ok, const char *what, const char *spec)
{
	printf("%sok %d - %s \"", ok ? "" : "not ", ++n, what);
	for (; *spec; spec++) {
		if (*spec == '\n')
			printf("\\n");
		else if (*spec == '\t')
			printf("\\t");
		else
			putchar(*spec);
	}
	printf("\"\n");
	if (!ok)
		failed++;
}

/* One field of the config that is not as wanted: say how. */
static void report_field(void *ctx, const char *field, u64 got, u64 want)
{
	printf("# %s: %llu, not %llu\n", field, (unsigned long long)got,
	       (unsigned long long)want);
}

static bool same_config(const struct perfkmod_config *got,
			const struct perfkmod_config *want)
{
	return parse_same_config(got, want, report_field, NULL);
}

/* PERFKMOD_SPEC_MAX characters parse; one more is -E2BIG. */
static void length_limit(void)
{
	static const char prefix[] = "cycles,period=";
	char spec[PERFKMOD_SPEC_MAX + 2] = {};
	struct perfkmod_config got;
	int err1, err2;

	memset(spec, '0', PERFKMOD_SPEC_MAX);
	memcpy(spec, prefix, sizeof(prefix) - 1);
	spec[PERFKMOD_SPEC_MAX - 1] = '1';
	err1 = perfkmod_parse(spec, &got);
	if (err1 || got.sample_period != 1)
		printf("# %d chars: %d, period %llu\n", PERFKMOD_SPEC_MAX, err1,
		       (unsigned long long)got.sample_period);
	spec[PERFKMOD_SPEC_MAX - 1] = '0';
	spec[PERFKMOD_SPEC_MAX] = '1';
	err2 = perfkmod_parse(spec, &got);
	if (err2 != -E2BIG)
		printf("# %d chars: %d, not -E2BIG\n", PERFKMOD_SPEC_MAX + 1, err2);
	result(!err1 && got.sample_period == 1 && err2 == -E2BIG,
	       "parse_length_limit", "cycles,period=0...01");
}

int main(void)
{
	struct perfkmod_config got, before;
	size_t i;
	int err;

	printf("1..%zu\n", ARRAY_SIZE(valid_cases) + ARRAY_SIZE(invalid_cases) + 1);
	for (i = 0; i < ARRAY_SIZE(valid_cases); i++) {
		memset(&got, 0xa5, sizeof(got));
		err = perfkmod_parse(valid_cases[i].spec, &got);
		if (err)
			printf("# returns %d\n", err);
		result(!err && same_config(&got, &valid_cases[i].want),
		       "parse_valid", valid_cases[i].spec);
	}
	/* a failed parse gives the exact errno and leaves the config as it is */
	for (i = 0; i < ARRAY_SIZE(invalid_cases); i++) {
		memset(&got, 0xa5, sizeof(got));
		before = got;
		err = perfkmod_parse(invalid_cases[i].spec, &got);
		if (err != invalid_cases[i].err)
			printf("# returns %d, not %d\n", err, invalid_cases[i].err);
		if (memcmp(&got, &before, sizeof(got)))
			printf("# the config changed\n");
		result(err == invalid_cases[i].err &&
		       !memcmp(&got, &before, sizeof(got)),
		       "parse_invalid", invalid_cases[i].spec);
	}
	length_limit();
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

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

/* One field of the config: whether it is as wanted, saying how not. */
static bool field(const char *name, u64 got, u64 want)
{
	if (got != want)
		printf("# %s: %llu, not %llu\n", name, (unsigned long long)got,
		       (unsigned long long)want);
	return got == want;
}

static bool same_config(const struct perfkmod_config *got,
			const struct perfkmod_config *want)
{
	bool same = true;

	same &= field("type", got->type, want->type);
	same &= field("config", got->config, want->config);
	same &= field("config1", got->config1, want->config1);
	same &= field("config2", got->config2, want->config2);
	same &= field("bp_addr", got->bp_addr, want->bp_addr);
	same &= field("bp_len", got->bp_len, want->bp_len);
	same &= field("bp_type", got->bp_type, want->bp_type);
	same &= field("sample_period", got->sample_period, want->sample_period);
	same &= field("sample_freq", got->sample_freq, want->sample_freq);
	same &= field("precise_ip", got->precise_ip, want->precise_ip);
	same &= field("target", got->target, want->target);
	same &= field("cpu", got->cpu, want->cpu);
	same &= field("pid", got->pid, want->pid);
	same &= field("disabled", got->disabled, want->disabled);
	same &= field("inherit", got->inherit, want->inherit);
	same &= field("enable_on_exec", got->enable_on_exec, want->enable_on_exec);
	same &= field("pinned", got->pinned, want->pinned);
	same &= field("exclusive", got->exclusive, want->exclusive);
	same &= field("exclude_user", got->exclude_user, want->exclude_user);
	same &= field("exclude_kernel", got->exclude_kernel, want->exclude_kernel);
	same &= field("exclude_hv", got->exclude_hv, want->exclude_hv);
	same &= field("exclude_idle", got->exclude_idle, want->exclude_idle);
	if (got->task) {
		printf("# task: not NULL\n");
		same = false;
	}
	return same;
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

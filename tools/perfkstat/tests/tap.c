// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat's host tests: its formatting and arithmetic, with no perfkmod
 * and no VM (make check in tools/perfkstat). The checks print TAP; the
 * exit status is 1 when one fails.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

static int checks, failed;

bool ok(bool cond, const char *name)
{
	checks++;
	if (!cond)
		failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", checks, name);
	fflush(stdout);
	return cond;
}

/* a string in C's notation, one line whatever it holds */
static void quoted(const char *s)
{
	if (!s) {
		fputs("(null)", stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\t')
			fputs("\\t", stdout);
		else if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

bool is_str(const char *got, const char *expected, const char *name)
{
	bool same = got && expected ? !strcmp(got, expected) : got == expected;

	if (ok(same, name))
		return true;
	fputs("# got:      ", stdout);
	quoted(got);
	fputs("\n# expected: ", stdout);
	quoted(expected);
	putchar('\n');
	return false;
}

bool is_u64(u64 got, u64 expected, const char *name)
{
	if (ok(got == expected, name))
		return true;
	printf("# got:      %llu\n# expected: %llu\n", (unsigned long long)got,
	       (unsigned long long)expected);
	return false;
}

bool is_s128(s128 got, s128 expected, const char *name)
{
	char g[48], e[48];

	if (ok(got == expected, name))
		return true;
	printf("# got:      %s\n# expected: %s\n", fmt_s128(g, got),
	       fmt_s128(e, expected));
	return false;
}

void quiet(bool on)
{
	static int saved = -1;
	int null;

	fflush(stderr);
	if (on && saved < 0) {
		saved = dup(2);
		null = open("/dev/null", O_WRONLY);
		dup2(null, 2);
		close(null);
	} else if (!on && saved >= 0) {
		dup2(saved, 2);
		close(saved);
		saved = -1;
	}
}

int exit_status(void (*fn)(const void *arg), const void *arg)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (!pid) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(99);
		fn(arg);
		_exit(255);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -2;
	return WEXITSTATUS(status) == 255 ? -1 : WEXITSTATUS(status);
}

char *capture(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		die("open_memstream failed");
	fn(f, arg);
	fclose(f);
	return buf;
}

int tap_done(void)
{
	printf("1..%d\n", checks);
	if (failed)
		printf("# %d of %d failed\n", failed, checks);
	return failed ? 1 : 0;
}

int main(void)
{
	util_tests();
	events_tests();
	stat_display_tests();
	stat_display_runs_tests();
	stat_display_metric_only_tests();
	stat_tests();
	stat_options_tests();
	record_tests();
	plot_tests();
	usage_tests();
	perfdata_tests();
	regions_tests();
	return tap_done();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The attr fields perfkmod_parse() (parse.c, built for the host against
 * tests/host/shim/) makes of each spec given, in the names and number
 * forms of perf stat -vv's perf_event_attr dump, a field a line, those
 * that are not 0 alone; a breakpoint's address and length as config1 and
 * config2, the fields they share with them in perf_event_attr. A spec
 * perfkmod refuses prints "error N". The blocks are separated by "--".
 */
#include <stdio.h>

#include "perfkmod.h"

static void flag(const char *name, bool on)
{
	if (on)
		printf("%s 1\n", name);
}

static void dump(const struct perfkmod_config *c)
{
	bool bp = c->type == PERF_TYPE_BREAKPOINT;

	if (c->type)
		printf("type %u\n", c->type);
	if (c->config)
		printf("config 0x%llx\n", (unsigned long long)c->config);
	if (bp ? c->bp_addr : c->config1)
		printf("config1 0x%llx\n",
		       (unsigned long long)(bp ? c->bp_addr : c->config1));
	if (bp ? c->bp_len : c->config2)
		printf("config2 0x%llx\n",
		       (unsigned long long)(bp ? c->bp_len : c->config2));
	if (bp)
		printf("bp_type %u\n", c->bp_type);
	flag("exclude_user", c->exclude_user);
	flag("exclude_kernel", c->exclude_kernel);
	flag("exclude_hv", c->exclude_hv);
	flag("exclude_idle", c->exclude_idle);
	flag("pinned", c->pinned);
	flag("exclusive", c->exclusive);
	if (c->precise_ip)
		printf("precise_ip %u\n", c->precise_ip);
}

int main(int argc, char **argv)
{
	struct perfkmod_config c;
	int i, err;

	for (i = 1; i < argc; i++) {
		if (i > 1)
			printf("--\n");
		err = perfkmod_parse(argv[i], &c);
		if (err)
			printf("error %d\n", err);
		else
			dump(&c);
	}
	return 0;
}

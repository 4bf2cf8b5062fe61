// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat: perfkmod's counters from the command line, the way perf stat
 * shows them, over perfkmod's debugfs files. Run as root.
 *
 * This file: the dispatch to the subcommands, after -h, --help and
 * --version; add, del, enable, disable, reset, period, list and events,
 * which are a control command or a file each, are here too. The usage and
 * the manual are in usage.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkstat.h"
#include "events.h"

/*
 * plain_args: the ARGC words of ARGV, of a subcommand that takes no
 * options: -h or --help is its help, another word that starts with "-" an
 * unknown option
 */
static void plain_args(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (argv[i][0] == '-')
			bad_option(argv[i]);
}

/* events_args: events' ARGC words of ARGV, its classes or -e EVENTS... */
static void events_args(int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-e") && i + 1 < argc)
			i++;
		else if (argv[i][0] == '-')
			bad_option(argv[i]);
	}
}

/* one control command of the words of ARGV, "CMD ARGS..." */
static int control(const char *cmd, int argc, char **argv, int want)
{
	char *words, *line;
	int rc;

	plain_args(argc, argv);
	if (argc != want)
		usage();
	words = join_args(argv, argc);
	line = xasprintf("%s %s", cmd, words);
	rc = ctl(line, false) ? 1 : 0;
	free(words);
	free(line);
	return rc;
}

int main(int argc, char **argv)
{
	struct sbuf sb = { 0 };
	const char *cmd;

	if (argc < 2)
		usage();
	cmd = argv[1];
	argc -= 2;
	argv += 2;
	if (is_help(cmd))
		help();
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v"))
		print_version();
	if (!set_subcmd(cmd)) {
		fprintf(stderr, ME ": '%s' is not a perfkstat command\n", cmd);
		usage();
	}
	if (!strcmp(cmd, "help")) {
		if (argc > 1)
			usage();
		if (argc)
			help_of(argv[0]);
		help();
	}
	if (!strcmp(cmd, "version")) {
		plain_args(argc, argv);
		if (argc)
			usage();
		print_version();
	}
	if (!strcmp(cmd, "prom")) {
		plain_args(argc, argv);
		if (argc != 1)
			usage();
	}
	/* perf list's classes; events -e EVENTS... */
	if (!strcmp(cmd, "list"))
		plain_args(argc, argv);
	if (!strcmp(cmd, "events"))
		events_args(argc, argv);
	set_debugfs();
	/* the temporaries go however perfkstat ends */
	atexit(cleanup);
	on_signal_exit(cleanup);

	if (!strcmp(cmd, "add") || !strcmp(cmd, "period"))
		return control(cmd, argc, argv, 2);
	if (!strcmp(cmd, "del") || !strcmp(cmd, "enable") ||
	    !strcmp(cmd, "disable") || !strcmp(cmd, "reset"))
		return control(cmd, argc, argv, 1);
	if (!strcmp(cmd, "events") || (!strcmp(cmd, "list") && argc))
		return cmd_events(argc, argv);
	if (!strcmp(cmd, "list")) {
		need_dir();
		listing(&sb);
		fwrite(sb.buf, 1, sb.len, stdout);
		flush_stdout();
		return 0;
	}
	if (!strcmp(cmd, "stat"))
		return cmd_stat(argc, argv);
	if (!strcmp(cmd, "prom"))
		return cmd_prom(argc, argv);
	if (!strcmp(cmd, "record"))
		return cmd_record(argc, argv);
	if (!strcmp(cmd, "regions"))
		return cmd_regions(argc, argv);
	return cmd_plot(argc, argv);
}

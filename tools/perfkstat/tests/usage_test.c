// SPDX-License-Identifier: GPL-2.0
/*
 * perfkstat's command line, white-box: perfkstat.c and usage.c are
 * included here, perfkstat.c's main() renamed, and run in a child with
 * its standard output and error caught. "perfkstat SUBCOMMAND -h" is
 * that subcommand's usage and text alone (status 0); an option a
 * subcommand does not know is perf's "Error: unknown option `NAME'" (or
 * "unknown switch `L'") and that subcommand's usage alone, on standard
 * error (status 2); --version is perfkmod.h's MAJOR.MINOR, read here from
 * the file itself.
 */
#define main perfkstat_main
#include "../perfkstat.c"
#undef main
#include "../usage.c"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

/* what a run of perfkstat_main printed, and its status */
struct run {
	char *out, *err;
	int status;		/* the exit status; -1: killed or not exited */
};

static char *slurp(FILE *f)
{
	struct sbuf sb = { 0 };
	char buf[4096];
	size_t n;

	sb_add(&sb, "", 0);
	rewind(f);
	while ((n = fread(buf, 1, sizeof(buf), f)))
		sb_add(&sb, buf, n);
	fclose(f);
	return sb.buf;
}

/* run: perfkstat_main on "perfkstat ARGS..." (NULL-terminated) in a child */
static struct run run(const char *arg, ...)
{
	FILE *out = tmpfile(), *err = tmpfile();
	char *argv[16] = { "perfkstat" };
	struct run r = { 0 };
	int argc = 1, status;
	va_list ap;
	pid_t pid;

	if (!out || !err)
		die("tmpfile failed");
	va_start(ap, arg);
	for (; arg && argc < 15; arg = va_arg(ap, const char *))
		argv[argc++] = (char *)arg;
	va_end(ap);
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		die("fork failed");
	if (!pid) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		/* (no debugfs is touched before the command line is understood) */
		setenv("PERFKMOD_DEBUGFS", "/nonexistent/perfkmod", 1);
		exit(perfkstat_main(argc, argv));
	}
	r.status = waitpid(pid, &status, 0) == pid && WIFEXITED(status) ?
		WEXITSTATUS(status) : -1;
	r.out = slurp(out);
	r.err = slurp(err);
	return r;
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/*
 * usage_words: the subcommands named by TEXT's "usage: perfkstat W" lines,
 * each word followed by a space ("enable|disable|reset" split)
 */
static char *usage_words(const char *text)
{
	static const char u[] = "usage: perfkstat ";
	struct sbuf sb = { 0 };
	const char *p;
	size_t n;

	sb_add(&sb, "", 0);
	for (p = text; (p = strstr(p, u)); p += n) {
		if (p != text && p[-1] != '\n') {
			n = 1;
			continue;
		}
		p += strlen(u);
		n = strcspn(p, "\n ");
		sb_printf(&sb, "%.*s ", (int)n, p);
	}
	for (n = 0; n < sb.len; n++)
		if (sb.buf[n] == '|')
			sb.buf[n] = ' ';
	return sb.buf;
}

/* only_words: every word of WORDS is one of NAMES' (space-separated) */
static bool only_words(const char *words, const char *names)
{
	char *list = xasprintf(" %s ", names), *w;
	bool all = *words;
	size_t n;

	for (; *words; words += n + 1) {
		n = strcspn(words, " ");
		w = xasprintf(" %.*s ", (int)n, words);
		all = all && strstr(list, w);
		free(w);
	}
	free(list);
	return all;
}

/* the version perfkmod.h says, MAJOR.MINOR, as its #defines give it */
static char *header_version(void)
{
	char *text = read_text(PERFKMOD_H), *p, *line;
	long major = -1, minor = -1, v;

	if (!text)
		return NULL;
	for (p = text; (line = next_line(&p));) {
		if (sscanf(line, "#define PERFKMOD_VERSION_MAJOR %ld", &v) == 1)
			major = v;
		if (sscanf(line, "#define PERFKMOD_VERSION_MINOR %ld", &v) == 1)
			minor = v;
	}
	free(text);
	if (major < 0 || minor < 0)
		return NULL;
	return xasprintf("%ld.%ld", major, minor);
}

static void help_of_each(void)
{
	static const char * const words[] = { "add", "del", "enable", "disable",
		"reset", "period", "list", "events", "stat", "prom", "record", "plot",
		"version" };
	const struct doc *d;
	char *name, *w, *expect;
	struct run r;
	size_t k, n;

	for (k = 0; k < ARRAY_SIZE(words); k++) {
		d = find_doc(words[k]);
		if (!ok(d, words[k]))
			continue;
		/* its usage, a blank line, its text (without its blank last line) */
		n = strlen(d->text);
		expect = xasprintf("%s\n%.*s", d->usage, (int)n - 1, d->text);
		r = run(words[k], "-h", NULL);
		name = xasprintf("%s -h: its usage and its text on stdout", words[k]);
		is_str(r.out, expect, name);
		free(name);
		w = usage_words(r.out);
		name = xasprintf("%s -h: status 0, no other command's usage", words[k]);
		ok(r.status == 0 && !*r.err && only_words(w, d->names) &&
		   strstr(w, words[k]) && n > 2 && !strcmp(d->text + n - 2, "\n\n"), name);
		free(name);
		free(w);
		free(expect);
		run_free(&r);
	}
}

void usage_tests(void)
{
	char *all = usage_words(control_usage), *w, *v, *expect;
	const struct doc *stat = find_doc("stat");
	struct run r;
	size_t k;

	ok(stat && !strcmp(stat->usage, stat_usage) && !find_doc("sta") &&
	   find_doc("reset") == find_doc("add") && !find_doc(""),
	   "find_doc: a whole word of a doc's names");

	help_of_each();

	r = run("stat", "--help", NULL);
	w = usage_words(r.out);
	v = usage_words(stat_usage);
	ok(r.status == 0 && !strcmp(w, v) && only_words(w, "stat") &&
	   strstr(r.out, "       stat [OPTIONS] [COMMAND [ARGS]]\n") &&
	   !strstr(r.out, "SIGNALS"), "stat --help: stat's usage and text alone");
	free(w);
	free(v);
	run_free(&r);

	r = run("help", "record", NULL);
	w = usage_words(r.out);
	ok(r.status == 0 && !strcmp(w, "record record ") &&
	   strstr(r.out, "       record --every EVENT:N"),
	   "help record: record's usage and text");
	free(w);
	run_free(&r);

	/* perf's: "  Error: unknown option `bogus'", then the usage */
	r = run("stat", "--bogus", NULL);
	expect = xasprintf("  Error: unknown option `bogus'\n\n%s", stat_usage);
	is_str(r.err, expect, "stat --bogus: perf's error, stat's usage alone");
	ok(r.status == 2 && !*r.out, "stat --bogus: status 2, nothing on stdout");
	free(expect);
	run_free(&r);

	r = run("stat", "-e", "cycles", "--bogus=1", "true", NULL);
	expect = xasprintf("  Error: unknown option `bogus'\n\n%s", stat_usage);
	ok(r.status == 2 && !strcmp(r.err, expect),
	   "stat -e cycles --bogus=1: the option's name, without its value");
	free(expect);
	run_free(&r);

	r = run("record", "-Z", NULL);
	expect = xasprintf("  Error: unknown switch `Z'\n\n%s", record_usage);
	is_str(r.err, expect, "record -Z: perf's \"unknown switch\", record's usage");
	ok(r.status == 2, "record -Z: status 2");
	free(expect);
	run_free(&r);

	r = run("plot", "x.csv", "--bogus", NULL);
	ok(r.status == 2 && !strcmp(r.err, "  Error: unknown option `bogus'\n\n"
				   "usage: perfkstat plot FILE.csv [-x EVENT] [-o FILE.svg]\n"),
	   "plot x.csv --bogus: plot's usage alone");
	run_free(&r);

	r = run("record", "-e", NULL);
	w = usage_words(r.err);
	ok(r.status == 2 && !strcmp(w, "record record "),
	   "record -e without its value: record's usage alone");
	free(w);
	run_free(&r);

	/* the command's own options are the command's */
	r = run("stat", "-e", "cycles", "/nonexistent/cmd", "-h", NULL);
	ok(r.status != 0 && r.status != 2 && !strstr(r.err, "usage:"),
	   "stat CMD -h: -h is CMD's, not stat's");
	run_free(&r);

	r = run("del", "-x", NULL);
	w = usage_words(r.err);
	ok(r.status == 2 && strstr(r.err, "unknown switch `x'") && only_words(w, all),
	   "del -x: the control commands' usage alone");
	free(w);
	run_free(&r);

	r = run("prom", "-h", NULL);
	ok(r.status == 0 && !strncmp(r.out, prom_usage, strlen(prom_usage)),
	   "prom -h: its help, not a file named -h");
	run_free(&r);

	r = run("bogus", NULL);
	w = usage_words(r.err);
	ok(r.status == 2 && strstr(r.err, "'bogus' is not a perfkstat command") &&
	   strstr(w, "add ") && strstr(w, "stat ") && strstr(w, "record ") &&
	   strstr(w, "plot "), "an unknown command: every usage, status 2");
	free(w);
	run_free(&r);

	r = run(NULL);
	ok(r.status == 2 && !*r.out && strstr(r.err, "usage: perfkstat stat "),
	   "no command: every usage, status 2");
	run_free(&r);

	for (k = 0; k < 3; k++) {
		r = run(k == 0 ? "-h" : k == 1 ? "--help" : "help", NULL);
		w = xasprintf("%s: the usage and the whole manual, status 0",
			      k == 0 ? "-h" : k == 1 ? "--help" : "help");
		ok(r.status == 0 && strstr(r.out, "usage: perfkstat stat ") &&
		   strstr(r.out, "\nCOMMANDS\n") && strstr(r.out, "\nSIGNALS\n") &&
		   strstr(r.out, stat_text) && strstr(r.out, plot_text), w);
		free(w);
		run_free(&r);
	}

	v = header_version();
	ok(v, "perfkmod.h names its version");
	expect = xasprintf("perfkstat version %s\n", v ? v : "?");
	for (k = 0; k < 3; k++) {
		r = run(k == 0 ? "--version" : k == 1 ? "version" : "-v", NULL);
		w = xasprintf("%s: perfkmod.h's version, as perf's \"perf version\"",
			      k == 0 ? "--version" : k == 1 ? "version" : "-v");
		ok(r.status == 0 && !strcmp(r.out, expect), w);
		free(w);
		run_free(&r);
	}
	free(expect);
	free(v);
	free(all);
}

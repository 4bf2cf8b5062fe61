// SPDX-License-Identifier: GPL-2.0
/*
 * The named counters and series of root users, and the commands of the
 * debugfs control file that make and drive them (params.c makes those of
 * counters= and series= with the same functions; named.c bounds both).
 *
 * Everything here goes through the exported API, as a client module would:
 * text is parsed by perfkmod_parse(), counters are made by
 * perfkmod_counter_create() and driven by perfkmod_counter_*().
 *
 * Commands, one a line (Documentation/perfkmod.rst has the details):
 *
 *	add NAME SPEC		create a counter from SPEC (the event grammar)
 *	del NAME		release it
 *	enable NAME, disable NAME, reset NAME
 *	period NAME VALUE	new sample period (or frequency, for freq=)
 *	series NAME INTERVAL[,records=N][,wakeup=N] COUNTER...
 *				sample named counters every INTERVAL
 *	series NAME every=TRIGGER[,records=N][,wakeup=N] COUNTER...
 *				the same at each overflow of the named
 *				sampling counter TRIGGER (event-driven)
 *	region NAME func=SYMBOL[,maxactive=N][,off] COUNTER...
 *				a kernel function's calls, over named
 *				counters (named_regions.c)
 *	temporary		what this open file adds from now on is its
 *				own: released when the file is closed
 *
 * Counters, series and regions share one namespace; del releases any of
 * them, from any open file; enable, disable and reset also reach any
 * region, a module's too, by a name no counter has. A temporary (a
 * counter, series or region made on an open file after its temporary
 * command) goes with its file's last close, however the process that
 * holds it ends (exit, kill -9, the OOM killer), as perf's events go with
 * their file descriptors: its series and regions first, as they read its
 * counters. So that nothing stops that, a series or region reads a
 * temporary counter only when it is a temporary of the same open file.
 *
 * A command either does all it says or nothing. Its errno is what write(2)
 * returns; the reason in words goes to the last_error file (one for the
 * module: the last failure of any writer) and to dynamic debug
 * (pr_debug), never to the kernel log: a refusal is the user's to read,
 * not the system's.
 */
#include <linux/build_bug.h>
#include <linux/ctype.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "control.h"

/*
 * The named series and the counts of the named counters and series, this
 * file's, under perfkmod_named_mutex (named.c has the named counters'
 * list, which the other files walk).
 */
static unsigned int named_count;
static LIST_HEAD(perfkmod_named_series_list);
static unsigned int series_count;
static char last_error[512];

/**
 * struct perfkmod_control_file - an open control file
 * @temporary: its temporary command ran: the counters and series it makes
 *	are its own (their @owner), released by perfkmod_control_release().
 *	Set under perfkmod_named_mutex; read there, or at the release, when
 *	no write of the file runs.
 */
struct perfkmod_control_file {
	bool temporary;
};

/* The texts that refuse a series name this limit. */
static_assert(PERFKMOD_SERIES_MAX_COUNTERS == 8);

/* Called with perfkmod_named_mutex held. */
static struct perfkmod_named *find_named(const char *name)
{
	struct perfkmod_named *n;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node)
		if (!strcmp(n->name, name))
			return n;
	return NULL;
}

/* Called with perfkmod_named_mutex held. */
static struct perfkmod_named_series *find_series(const char *name)
{
	struct perfkmod_named_series *ns;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry(ns, &perfkmod_named_series_list, node)
		if (!strcmp(ns->name, name))
			return ns;
	return NULL;
}

/*
 * A counter, series or named region has @name; called with
 * perfkmod_named_mutex held.
 */
static bool name_taken(const char *name)
{
	return find_named(name) || find_series(name) ||
	       perfkmod_named_region_find(name);
}

/* 1 to max_name_len printable characters, no '/', not "." or "..". */
static int check_name(const char *name, const char **why)
{
	size_t len = strlen(name), i;

	if (len > READ_ONCE(perfkmod_max_name_len)) {
		*why = "the name is longer than max_name_len";
		return -ENAMETOOLONG;
	}
	for (i = 0; i < len; i++)
		if (!isgraph(name[i]) || name[i] == '/')
			break;
	if (!len || i < len || !strcmp(name, ".") || !strcmp(name, "..")) {
		*why = "a name is printable characters without '/', not . or ..";
		return -EINVAL;
	}
	return 0;
}

/**
 * perfkmod_name_free() - whether a new counter, series or region may take
 *	a name
 * @name: the name.
 * @why: set to the reason in words for some of the errors.
 *
 * Context: process context; perfkmod_named_mutex held.
 * Return: 0; -%EINVAL or -%ENAMETOOLONG for a name out of bounds,
 * -%EEXIST for one a named counter, series or region has.
 */
int perfkmod_name_free(const char *name, const char **why)
{
	int err;

	lockdep_assert_held(&perfkmod_named_mutex);
	err = check_name(name, why);
	if (err)
		return err;
	return name_taken(name) ? -EEXIST : 0;
}

/*
 * perfkmod_named_add() for an open file: a temporary of @owner, or, with
 * @owner NULL, a counter of no file's.
 */
static int named_add(const char *name, const char *spec, bool files,
		     const struct perfkmod_control_file *owner,
		     const char **why)
{
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	struct perfkmod_named *n;
	size_t len;
	int err;

	lockdep_assert_held(&perfkmod_named_mutex);
	err = check_name(name, why);
	if (err)
		return err;
	err = perfkmod_parse(spec, &cfg);
	if (err == -EINVAL)
		*why = "not in the event grammar (unknown name or option, repeat, conflict)";
	if (err)
		return err;
	if (name_taken(name))
		return -EEXIST;
	if (named_count >= perfkmod_max_counters) {
		*why = "max_counters counters exist already";
		return -ENOSPC;
	}
	len = strlen(name) + 1;
	n = kzalloc(struct_size(n, name, len), GFP_KERNEL);
	if (!n)
		return -ENOMEM;
	strscpy(n->name, name, len);
	strscpy(n->spec, spec, sizeof(n->spec));
	mutex_init(&n->lock);
	c = perfkmod_counter_create(&cfg);
	if (IS_ERR(c)) {
		err = PTR_ERR(c);
		goto err_free;
	}
	n->counter = c;
	n->owner = owner;
	list_add_tail(&n->node, &perfkmod_named_list);
	named_count++;
	if (files)
		perfkmod_debugfs_counter_add(n);
	return 0;

err_free:
	mutex_destroy(&n->lock);
	kfree(n);
	return err;
}

/**
 * perfkmod_named_add() - create a named counter
 * @name: its name.
 * @spec: what it counts, in the event grammar.
 * @files: whether to make its directory counters/@name/ too: for a command;
 *	those of counters= wait until every one is made.
 * @why: set to the reason in words for some of the errors.
 *
 * The counter is no open file's: it stays until a del or the module's
 * unload.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 * Return: 0 or a negative errno.
 */
int perfkmod_named_add(const char *name, const char *spec, bool files,
		       const char **why)
{
	return named_add(name, spec, files, NULL, why);
}

/*
 * Unlink @n and remove its files; called with perfkmod_named_mutex held.
 * debugfs_remove() waits for the reads of @n under way (not for their
 * copies to user space, see named_files.c).
 */
static void unlink_named(struct perfkmod_named *n)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	list_del(&n->node);
	named_count--;
	perfkmod_debugfs_counter_remove(n);
}

/* Release an unlinked named counter; may wait for RCU and perf. */
static void free_named(struct perfkmod_named *n)
{
	perfkmod_counter_release(n->counter);
	mutex_destroy(&n->lock);
	kfree(n);
}

/*
 * perfkmod_named_series_add() for an open file, as named_add(): a series
 * of @owner's (or of none) reads no temporary of another file, nor one of
 * @owner's when @owner is NULL.
 */
static int named_series_add(const char *name, char **words, int nwords,
			    bool files,
			    const struct perfkmod_control_file *owner,
			    const char **why)
{
	struct perfkmod_counter *counters[PERFKMOD_SERIES_MAX_COUNTERS];
	struct perfkmod_series_config cfg = { .counters = counters };
	struct perfkmod_named *uses[PERFKMOD_SERIES_MAX_COUNTERS + 1];
	struct perfkmod_named_series *ns;
	struct perfkmod_named *n;
	const char *trigger;
	size_t size, i;
	char opts[PERFKMOD_NAME_LIMIT + 48];
	int err;

	lockdep_assert_held(&perfkmod_named_mutex);
	err = check_name(name, why);
	if (err)
		return err;
	if (nwords < 2 || nwords > PERFKMOD_SERIES_MAX_COUNTERS + 1) {
		*why = "a series reads 1 to 8 counters";
		return -EINVAL;
	}
	if (strscpy(opts, words[0], sizeof(opts)) < 0) {
		*why = "a series' options: INTERVAL or every=COUNTER, then ,records=N, ,wakeup=N";
		return -EINVAL;
	}
	err = perfkmod_parse_series_opts(opts, &cfg, &trigger, why);
	if (err)
		return err;
	if (trigger) {
		n = find_named(trigger);
		if (!n) {
			*why = find_series(trigger) ?
			       "every= names a series, not a counter" :
			       "the trigger of the series does not exist";
			return -ENOENT;
		}
		cfg.trigger = n->counter;
		uses[nwords - 1] = n;	/* after the counters read */
	}
	for (i = 1; i < nwords; i++) {
		n = find_named(words[i]);
		if (!n) {
			*why = "a counter the series reads does not exist";
			return -ENOENT;
		}
		uses[cfg.nr_counters] = n;
		counters[cfg.nr_counters++] = n->counter;
	}
	for (i = 0; i < cfg.nr_counters + !!trigger; i++) {
		if (uses[i]->owner && uses[i]->owner != owner) {
			*why = "a temporary counter is read only by series of the same open file";
			return -EPERM;
		}
	}
	if (name_taken(name))
		return -EEXIST;
	if (series_count >= perfkmod_max_counters) {
		*why = "max_counters series exist already";
		return -ENOSPC;
	}
	size = perfkmod_name_args_size(name, words, nwords);
	ns = kzalloc(struct_size(ns, name, size), GFP_KERNEL);
	if (!ns)
		return -ENOMEM;
	ns->args = perfkmod_name_args(ns->name, name, words, nwords);
	ns->series = perfkmod_series_create(&cfg);
	if (IS_ERR(ns->series)) {
		err = PTR_ERR(ns->series);
		/* the other reasons for -EINVAL are checked above */
		if (err == -EINVAL)
			*why = trigger ?
			       "a trigger samples, and counts all CPUs or the counters' task" :
			       "a series reads counters of all CPUs, or of one task (no inherit)";
		kfree(ns);
		return err;
	}
	ns->nr_uses = cfg.nr_counters + !!trigger;
	for (i = 0; i < ns->nr_uses; i++) {
		ns->uses[i] = uses[i];
		uses[i]->series_users++;
	}
	ns->owner = owner;
	list_add_tail(&ns->node, &perfkmod_named_series_list);
	series_count++;
	if (files)
		perfkmod_debugfs_series_add(ns);
	return 0;
}

/**
 * perfkmod_named_series_add() - create a named series
 * @name: its name.
 * @words: its options ("INTERVAL[,records=N][,wakeup=N]" or
 *	"every=TRIGGER[,records=N][,wakeup=N]"), then the names of the
 *	counters it reads.
 * @nwords: how many @words there are.
 * @files: whether to make its directory series/@name/ too, as for
 *	perfkmod_named_add().
 * @why: set to the reason in words for some of the errors.
 *
 * The series is no open file's, as perfkmod_named_add()'s counters.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 * Return: 0 or a negative errno.
 */
int perfkmod_named_series_add(const char *name, char **words, int nwords,
			      bool files, const char **why)
{
	return named_series_add(name, words, nwords, files, NULL, why);
}

/*
 * Unlink and release a named series; called with perfkmod_named_mutex
 * held. debugfs_remove() waits for the reads of it under way first.
 */
static void del_series(struct perfkmod_named_series *ns)
{
	unsigned int i;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_del(&ns->node);
	series_count--;
	perfkmod_debugfs_series_remove(ns);
	perfkmod_series_release(ns->series);
	for (i = 0; i < ns->nr_uses; i++)
		ns->uses[i]->series_users--;
	kfree(ns);
}

/*
 * @n's spec with its period= or freq= option set to @value; called with
 * perfkmod_named_mutex and @n->lock held.
 */
static int respec_period(struct perfkmod_named *n, u64 value)
{
	char old[PERFKMOD_SPEC_MAX + 1], spec[PERFKMOD_SPEC_MAX + 1];
	char *s = old, *tok;
	size_t len;

	strscpy(old, n->spec, sizeof(old));
	tok = strsep(&s, ",");
	len = strscpy(spec, tok, sizeof(spec));
	while (s) {
		tok = strsep(&s, ",");
		if (str_has_prefix(tok, "period=") || str_has_prefix(tok, "freq="))
			continue;
		len += scnprintf(spec + len, sizeof(spec) - len, ",%s", tok);
	}
	len += snprintf(spec + len, sizeof(spec) - len, ",%s=%llu",
			perfkmod_counter_config(n->counter)->sample_freq ?
			"freq" : "period", value);
	if (len >= sizeof(spec))
		return -E2BIG;
	strscpy(n->spec, spec, sizeof(n->spec));
	return 0;
}

static int set_period(struct perfkmod_named *n, const char *arg,
		      const char **why)
{
	char spec[PERFKMOD_SPEC_MAX + 1];
	u64 value;
	int err;

	err = kstrtou64(arg, 0, &value);
	if (err) {
		*why = "the value is not a number, or out of range";
		return err;
	}
	mutex_lock(&n->lock);
	strscpy(spec, n->spec, sizeof(spec));
	/* the new spec must fit before the counter changes */
	err = respec_period(n, value);
	if (err) {
		*why = "the spec with this value would be too long";
		goto out;
	}
	err = perfkmod_counter_set_period(n->counter, value);
	if (err) {
		strscpy(n->spec, spec, sizeof(n->spec));
		if (!perfkmod_config_samples(perfkmod_counter_config(n->counter)))
			*why = "the counter does not sample (no period= or freq=)";
	}
out:
	mutex_unlock(&n->lock);
	return err;
}

static const char * const commands[] = {
	"add", "del", "enable", "disable", "reset", "period", "series",
	"region", "temporary",
};

#define UNKNOWN_COMMAND \
	"unknown command: add, del, enable, disable, reset, period, series, region, temporary"

enum { CMD_ADD, CMD_DEL, CMD_ENABLE, CMD_DISABLE, CMD_RESET, CMD_PERIOD,
	CMD_SERIES, CMD_REGION, CMD_TEMPORARY };

static_assert(ARRAY_SIZE(commands) == CMD_TEMPORARY + 1);

/**
 * perfkmod_split_words() - split a command on blanks
 * @s: the command; its blanks become NULs.
 * @words: the words, at most %PERFKMOD_MAX_WORDS.
 * @why: set to the reason in words when there are too many.
 *
 * Context: any context.
 * Return: how many words, or -%EINVAL for too many.
 */
int perfkmod_split_words(char *s, char **words, const char **why)
{
	int nwords = 0;
	char *w;

	while ((w = strsep(&s, " \t"))) {
		if (!*w)
			continue;
		if (nwords == PERFKMOD_MAX_WORDS) {
			*why = "too many words";
			return -EINVAL;
		}
		words[nwords++] = w;
	}
	return nwords;
}

/*
 * Run one command line written on @f; called with perfkmod_named_mutex
 * held.
 */
static int exec_locked(struct perfkmod_control_file *f, char *line,
		       const char **why)
{
	const struct perfkmod_control_file *owner = f->temporary ? f : NULL;
	struct perfkmod_named_region *nr;
	struct perfkmod_named_series *ns;
	struct perfkmod_named *n;
	char *words[PERFKMOD_MAX_WORDS];
	int nwords, cmd, err;

	lockdep_assert_held(&perfkmod_named_mutex);
	nwords = perfkmod_split_words(line, words, why);
	if (nwords < 0)
		return nwords;
	if (!nwords || words[0][0] == '#')
		return 0;	/* a blank line, or a comment */
	cmd = match_string(commands, ARRAY_SIZE(commands), words[0]);
	if (cmd < 0) {
		*why = UNKNOWN_COMMAND;
		return -EINVAL;
	}
	if (cmd == CMD_TEMPORARY) {
		if (nwords != 1) {
			*why = "usage: temporary";
			return -EINVAL;
		}
		f->temporary = true;
		return 0;
	}
	if (cmd == CMD_SERIES && nwords < 4) {
		*why = "usage: series NAME INTERVAL|every=TRIGGER[,records=N,wakeup=N] COUNTER...";
		return -EINVAL;
	}
	if (cmd == CMD_REGION && nwords < 4) {
		*why = "usage: region NAME func=SYMBOL[,maxactive=N][,off] COUNTER...";
		return -EINVAL;
	}
	if (cmd != CMD_SERIES && cmd != CMD_REGION &&
	    nwords != ((cmd == CMD_ADD || cmd == CMD_PERIOD) ? 3 : 2)) {
		*why = "usage: add NAME SPEC | del|enable|disable|reset NAME | period NAME VALUE";
		return -EINVAL;
	}
	if (cmd == CMD_ADD)
		return named_add(words[1], words[2], true, owner, why);
	if (cmd == CMD_SERIES)
		return named_series_add(words[1], words + 2, nwords - 2, true,
					owner, why);
	if (cmd == CMD_REGION) {
		err = perfkmod_name_free(words[1], why);
		if (err)
			return err;
		return perfkmod_named_region_add(words[1], words + 2,
						 nwords - 2, owner, why);
	}

	n = find_named(words[1]);
	if (!n && cmd == CMD_DEL) {
		ns = find_series(words[1]);
		if (ns) {
			del_series(ns);
			return 0;
		}
		nr = perfkmod_named_region_find(words[1]);
		if (nr) {
			perfkmod_named_region_del(nr);
			return 0;
		}
	}
	if (!n && cmd != CMD_DEL && cmd != CMD_PERIOD)
		return perfkmod_region_by_name(words[1], cmd == CMD_ENABLE ?
					       PERFKMOD_REGION_OP_ENABLE :
					       cmd == CMD_DISABLE ?
					       PERFKMOD_REGION_OP_DISABLE :
					       PERFKMOD_REGION_OP_RESET, why);
	if (!n) {
		*why = "no counter has this name";
		return -ENOENT;
	}
	switch (cmd) {
	case CMD_DEL:
		if (n->series_users) {
			*why = "a series reads this counter: del the series first";
			return -EBUSY;
		}
		if (n->region_users) {
			*why = "a region reads this counter: del the region first";
			return -EBUSY;
		}
		unlink_named(n);
		free_named(n);
		break;
	case CMD_ENABLE:
		perfkmod_counter_enable(n->counter);
		break;
	case CMD_DISABLE:
		perfkmod_counter_disable(n->counter);
		break;
	case CMD_RESET:
		perfkmod_counter_reset(n->counter);
		break;
	case CMD_PERIOD:
		return set_period(n, words[2], why);
	}
	return 0;
}

/*
 * Keep the reason of a failed command for last_error, and tell dynamic
 * debug; called with the mutex held. A refused command is the writer's
 * error, which write(2) returns: it stays out of the kernel log.
 */
static void record_error(const char *cmd, int err, const char *why)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	if (!why)
		why = perfkmod_strerror(err);
	scnprintf(last_error, sizeof(last_error), "%pe: %s: %s\n",
		  ERR_PTR(err), why, cmd);
	pr_debug("control: %pe: %s: %s\n", ERR_PTR(err), why, cmd);
}

/* Run one line written on @f; blank lines and # comments do nothing. */
static int exec_line(struct perfkmod_control_file *f, char *line)
{
	/* the command as written, for the error message */
	char *cmd = kstrdup(line, GFP_KERNEL);
	const char *why = NULL;
	int err;

	mutex_lock(&perfkmod_named_mutex);
	err = exec_locked(f, line, &why);
	if (err)
		record_error(cmd ?: "", err, why);
	mutex_unlock(&perfkmod_named_mutex);
	kfree(cmd);
	return err;
}

/**
 * perfkmod_control_write() - run the commands written to the control file
 * @f: the open file written to, from perfkmod_control_open().
 * @ubuf: what user space wrote.
 * @count: its length.
 *
 * At most max_cmd_len bytes are taken from one write. Each complete line
 * (or the whole write, when it has no newline and fits) is one command,
 * run in order. On the first that fails, the bytes of the commands before
 * it are returned (write(2) then calls again with the rest, and gets the
 * error), or its errno when it is the first. A line longer than
 * max_cmd_len is -%E2BIG.
 *
 * Context: process context, may sleep; takes perfkmod_named_mutex.
 * Return: bytes consumed, or a negative errno.
 */
ssize_t perfkmod_control_write(struct perfkmod_control_file *f,
			       const char __user *ubuf, size_t count)
{
	size_t max = READ_ONCE(perfkmod_max_cmd_len), n = min(count, max);
	size_t done = 0, len;
	char *buf, *nl;
	int err = 0;

	if (!count)
		return 0;
	buf = memdup_user_nul(ubuf, n);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	while (done < n) {
		nl = memchr(buf + done, '\n', n - done);
		if (!nl && n < count) {
			/* the line goes on past what one write may hold */
			if (!done) {
				mutex_lock(&perfkmod_named_mutex);
				err = -E2BIG;
				record_error("(too long to show)", err,
					     "the command is longer than max_cmd_len");
				mutex_unlock(&perfkmod_named_mutex);
			}
			break;
		}
		len = nl ? nl - (buf + done) : n - done;
		buf[done + len] = '\0';
		if (strlen(buf + done) != len) {
			err = -EINVAL;	/* a NUL byte in the command */
			mutex_lock(&perfkmod_named_mutex);
			record_error("(binary)", err, "a NUL byte in the command");
			mutex_unlock(&perfkmod_named_mutex);
			break;
		}
		err = exec_line(f, buf + done);
		if (err)
			break;
		done += len + !!nl;
	}
	kfree(buf);
	return done ? done : err;
}

/**
 * perfkmod_control_open() - the state of a new open control file
 *
 * Context: process context, may sleep.
 * Return: it, to pass to perfkmod_control_write() and
 *	perfkmod_control_release(), or NULL when out of memory.
 */
struct perfkmod_control_file *perfkmod_control_open(void)
{
	return kzalloc(sizeof(struct perfkmod_control_file), GFP_KERNEL);
}

/**
 * perfkmod_control_release() - release an open control file's temporaries
 * @f: the file, from perfkmod_control_open(); freed.
 *
 * Its series and regions first, then its counters, which only its series
 * and regions read (one of another file's cannot: named_series_add(),
 * perfkmod_named_region_add()). Runs at the file's
 * last close, however its process ended; the module cannot be unloaded
 * before (debugfs holds a reference on it for each open file).
 *
 * Context: process context, may sleep; takes perfkmod_named_mutex when
 * @f is temporary.
 */
void perfkmod_control_release(struct perfkmod_control_file *f)
{
	struct perfkmod_named_series *ns, *ns_tmp;
	struct perfkmod_named *n, *tmp;

	if (!f->temporary)
		goto out;
	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry_safe(ns, ns_tmp, &perfkmod_named_series_list, node)
		if (ns->owner == f)
			del_series(ns);
	perfkmod_named_regions_release(f, false);
	list_for_each_entry_safe(n, tmp, &perfkmod_named_list, node) {
		if (n->owner != f)
			continue;
		if (WARN_ON_ONCE(n->series_users || n->region_users)) {
			n->owner = NULL;	/* kept, no one's */
			continue;
		}
		unlink_named(n);
		free_named(n);
	}
	mutex_unlock(&perfkmod_named_mutex);
out:
	kfree(f);
}

/**
 * perfkmod_control_show() - list the named counters, series and regions as
 *	commands
 * @m: the seq_file of the control file.
 *
 * The add commands first, then the series and region ones, which name
 * counters: the listing, written back, makes the same counters, series
 * and regions.
 *
 * Context: process context, may sleep; takes perfkmod_named_mutex.
 */
void perfkmod_control_show(struct seq_file *m)
{
	struct perfkmod_named_series *ns;
	struct perfkmod_named *n;

	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node) {
		mutex_lock(&n->lock);
		seq_printf(m, "add %s %s\n", n->name, n->spec);
		mutex_unlock(&n->lock);
	}
	list_for_each_entry(ns, &perfkmod_named_series_list, node)
		seq_printf(m, "series %s %s\n", ns->name, ns->args);
	perfkmod_named_regions_show(m);
	mutex_unlock(&perfkmod_named_mutex);
}

/**
 * perfkmod_control_last_error() - show why the last command failed
 * @m: the seq_file of the last_error file.
 *
 * Prints "-EERRNO: reason: command", or nothing if no command failed yet.
 *
 * Context: process context, may sleep; takes perfkmod_named_mutex.
 */
void perfkmod_control_last_error(struct seq_file *m)
{
	mutex_lock(&perfkmod_named_mutex);
	seq_puts(m, last_error);
	mutex_unlock(&perfkmod_named_mutex);
}

/**
 * perfkmod_named_release_all() - release every named series, region and
 *	counter
 *
 * The series and regions first: they read the counters.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_named_release_all(void)
{
	struct perfkmod_named_series *ns, *ns_tmp;
	struct perfkmod_named *n, *tmp;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry_safe(ns, ns_tmp, &perfkmod_named_series_list, node)
		del_series(ns);
	perfkmod_named_regions_release(NULL, true);
	list_for_each_entry_safe(n, tmp, &perfkmod_named_list, node) {
		list_del(&n->node);
		free_named(n);
	}
	named_count = 0;
}

/**
 * perfkmod_named_add_files() - make the directory of every named counter
 *	and series
 *
 * For those made without theirs (those of counters= and series=).
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_named_add_files(void)
{
	struct perfkmod_named_series *ns;
	struct perfkmod_named *n;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node)
		perfkmod_debugfs_counter_add(n);
	list_for_each_entry(ns, &perfkmod_named_series_list, node)
		perfkmod_debugfs_series_add(ns);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The named counters of root users: the commands of the debugfs control
 * file, the counters= module parameter, and the limits that bound both.
 *
 * Everything here goes through the exported API, as a client module would:
 * text is parsed by perfkmod_parse(), counters are made by
 * perfkmod_counter_create() and driven by perfkmod_counter_*().
 *
 * Commands, one a line (the README has the details):
 *
 *	add NAME SPEC		create a counter from SPEC (the event grammar)
 *	del NAME		release it
 *	enable NAME, disable NAME, reset NAME
 *	period NAME VALUE	new sample period (or frequency, for freq=)
 *
 * A command either does all it says or nothing. Its errno is what write(2)
 * returns; the reason in words goes to the last_error file and, rate
 * limited, to the kernel log.
 */
#include <linux/ctype.h>
#include <linux/moduleparam.h>
#include <linux/ratelimit.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "internal.h"

/* counters="NAME=SPEC;NAME=SPEC": created at load time, or the load fails */
static char *counters;
module_param(counters, charp, 0400);
MODULE_PARM_DESC(counters, "counters to create at load time: \"NAME=SPEC;NAME=SPEC...\"; a bad one fails the load");

static int uint_range_set(const char *val, const struct kernel_param *kp,
			  unsigned int min, unsigned int max)
{
	return param_set_uint_minmax(val, kp, min, max);
}

/* The longest counter name; a name is a debugfs directory name too. */
static unsigned int max_name_len = 64;

static int max_name_len_set(const char *val, const struct kernel_param *kp)
{
	return uint_range_set(val, kp, 1, PERFKMOD_NAME_LIMIT);
}

static const struct kernel_param_ops max_name_len_ops = {
	.set = max_name_len_set,
	.get = param_get_uint,
};

module_param_cb(max_name_len, &max_name_len_ops, &max_name_len, 0400);
MODULE_PARM_DESC(max_name_len, "longest counter name (1-255, default 64)");

/* The longest command one write(2) to control may hold. */
static unsigned int max_cmd_len = 512;

static int max_cmd_len_set(const char *val, const struct kernel_param *kp)
{
	return uint_range_set(val, kp, 16, PERFKMOD_CMD_LIMIT);
}

static const struct kernel_param_ops max_cmd_len_ops = {
	.set = max_cmd_len_set,
	.get = param_get_uint,
};

module_param_cb(max_cmd_len, &max_cmd_len_ops, &max_cmd_len, 0400);
MODULE_PARM_DESC(max_cmd_len, "longest control command in bytes (16-4096, default 512)");

/*
 * perfkmod_named_mutex protects perfkmod_named_list, named_count,
 * last_error and each named counter's debugfs directory. Lock order:
 * perfkmod_named_mutex, then a named counter's lock, then the counter's
 * own locks (see struct perfkmod_counter). It is never held by the files
 * of one counter (counters/NAME/...), so del may wait for their readers
 * under it.
 */
DEFINE_MUTEX(perfkmod_named_mutex);
LIST_HEAD(perfkmod_named_list);
static unsigned int named_count;
static char last_error[512];

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

/* 1 to max_name_len printable characters, no '/', not "." or "..". */
static int check_name(const char *name, const char **why)
{
	size_t len = strlen(name), i;

	if (len > READ_ONCE(max_name_len)) {
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

/* Create counter @name from @spec; called with perfkmod_named_mutex held. */
static int add_named(const char *name, const char *spec, const char **why)
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
	if (find_named(name))
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
	list_add_tail(&n->node, &perfkmod_named_list);
	named_count++;
	perfkmod_debugfs_counter_add(n);
	return 0;

err_free:
	mutex_destroy(&n->lock);
	kfree(n);
	return err;
}

/*
 * Unlink @n and remove its files; called with perfkmod_named_mutex held.
 * debugfs_remove() waits for readers of its files that are running.
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
	"add", "del", "enable", "disable", "reset", "period",
};

enum { CMD_ADD, CMD_DEL, CMD_ENABLE, CMD_DISABLE, CMD_RESET, CMD_PERIOD };

static_assert(ARRAY_SIZE(commands) == CMD_PERIOD + 1);

/* Words of a command, split on blanks. */
#define MAX_WORDS	4

/* Run one command line; called with perfkmod_named_mutex held. */
static int exec_locked(char *line, const char **why)
{
	struct perfkmod_named *n;
	char *words[MAX_WORDS], *s = line, *w;
	int nwords = 0, cmd;

	lockdep_assert_held(&perfkmod_named_mutex);
	while ((w = strsep(&s, " \t"))) {
		if (!*w)
			continue;
		if (nwords == MAX_WORDS) {
			*why = "too many words";
			return -EINVAL;
		}
		words[nwords++] = w;
	}
	if (!nwords || words[0][0] == '#')
		return 0;	/* a blank line, or a comment */
	cmd = match_string(commands, ARRAY_SIZE(commands), words[0]);
	if (cmd < 0) {
		*why = "unknown command: add, del, enable, disable, reset, period";
		return -EINVAL;
	}
	if (nwords != ((cmd == CMD_ADD || cmd == CMD_PERIOD) ? 3 : 2)) {
		*why = "usage: add NAME SPEC | del|enable|disable|reset NAME | period NAME VALUE";
		return -EINVAL;
	}
	if (cmd == CMD_ADD)
		return add_named(words[1], words[2], why);

	n = find_named(words[1]);
	if (!n) {
		*why = "no counter has this name";
		return -ENOENT;
	}
	switch (cmd) {
	case CMD_DEL:
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

/* Keep the reason of a failed command; called with the mutex held. */
static void record_error(const char *cmd, int err, const char *why)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	if (!why)
		why = perfkmod_strerror(err);
	scnprintf(last_error, sizeof(last_error), "%pe: %s: %s\n",
		  ERR_PTR(err), why, cmd);
	pr_info_ratelimited("control: %pe: %s: %s\n", ERR_PTR(err), why, cmd);
}

/* Run one line; blank lines and # comments do nothing. */
static int exec_line(char *line)
{
	/* the command as written, for the error message */
	char *cmd = kstrdup(line, GFP_KERNEL);
	const char *why = NULL;
	int err;

	mutex_lock(&perfkmod_named_mutex);
	err = exec_locked(line, &why);
	if (err)
		record_error(cmd ?: "", err, why);
	mutex_unlock(&perfkmod_named_mutex);
	kfree(cmd);
	return err;
}

/**
 * perfkmod_control_write() - run the commands written to the control file
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
ssize_t perfkmod_control_write(const char __user *ubuf, size_t count)
{
	size_t max = READ_ONCE(max_cmd_len), n = min(count, max);
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
		err = exec_line(buf + done);
		if (err)
			break;
		done += len + !!nl;
	}
	kfree(buf);
	return done ? done : err;
}

/**
 * perfkmod_control_show() - list the named counters as add commands
 * @m: the seq_file of the control file.
 *
 * Context: process context, may sleep; takes perfkmod_named_mutex.
 */
void perfkmod_control_show(struct seq_file *m)
{
	struct perfkmod_named *n;

	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node) {
		mutex_lock(&n->lock);
		seq_printf(m, "add %s %s\n", n->name, n->spec);
		mutex_unlock(&n->lock);
	}
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

/* Release every named counter; their files must be gone already. */
static void release_all(void)
{
	struct perfkmod_named *n, *tmp;

	list_for_each_entry_safe(n, tmp, &perfkmod_named_list, node) {
		list_del(&n->node);
		free_named(n);
	}
	named_count = 0;
}

/**
 * perfkmod_control_init() - create the counters of the counters= parameter
 *
 * Each entry of "NAME=SPEC;NAME=SPEC..." must be created, or none is and
 * the load fails with the errno of the first that could not be, logged
 * with the reason.
 *
 * Context: process context, may sleep; called once from module init,
 * before the debugfs files exist.
 * Return: 0 or a negative errno.
 */
int perfkmod_control_init(void)
{
	char *list, *s, *entry, *spec;
	const char *why = NULL;
	int err = 0;

	if (!counters || !*counters)
		return 0;
	list = kstrdup(counters, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	s = list;
	mutex_lock(&perfkmod_named_mutex);
	while ((entry = strsep(&s, ";"))) {
		entry = strim(entry);
		if (!*entry)
			continue;
		spec = strchr(entry, '=');
		if (!spec) {
			err = -EINVAL;
			why = "an entry is NAME=SPEC";
			break;
		}
		*spec++ = '\0';
		err = add_named(entry, spec, &why);
		if (err) {
			spec[-1] = '=';
			break;
		}
	}
	if (err) {
		pr_err("counters=: \"%s\": %pe: %s; not loading\n", entry,
		       ERR_PTR(err), why ?: perfkmod_strerror(err));
		release_all();
	}
	mutex_unlock(&perfkmod_named_mutex);
	kfree(list);
	return err;
}

/**
 * perfkmod_control_exit() - release every named counter
 *
 * Context: process context, may sleep; called once from module exit, after
 * the debugfs files are gone (so no command can run).
 */
void perfkmod_control_exit(void)
{
	mutex_lock(&perfkmod_named_mutex);
	release_all();
	mutex_unlock(&perfkmod_named_mutex);
}

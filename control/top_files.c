// SPDX-License-Identifier: GPL-2.0
/*
 * The root users' interface: the directory /sys/kernel/debug/perfkmod/,
 * the files at its top, and the interface's init and exit, which module
 * init and exit call. Documentation/perfkmod.rst documents every file:
 *
 *	control			0600 commands (commands.c); lists the counters;
 *				an open one owns its temporaries
 *	last_error		0400 why the last command failed
 *	list			0400 every counter, raw numbers for programs
 *	events			0400 which named events this machine can create
 *	counters/NAME/...	the files of a named counter (named_files.c)
 *	series/NAME/...		the files of a named series (named_files.c)
 *	regions/NAME/...	the files of every region (region_files.c)
 *
 * Everything in control/ goes through the exported API, as a client
 * module would.
 */
#include <linux/debugfs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include "control.h"
#include "dec_u64.h"

static int control_show(struct seq_file *m, void *v)
{
	perfkmod_control_show(m);
	return 0;
}

/*
 * The seq_file's private data is the open file's own state (its
 * temporaries), released at its last close: after kill -9 too, when the
 * kernel closes the files of the dead process. debugfs holds a reference
 * on the module while the file is open, so the release runs before the
 * module's exit, also when the file outlives the removal of its dentry.
 */
static int control_open(struct inode *inode, struct file *file)
{
	struct perfkmod_control_file *f = perfkmod_control_open();
	int err;

	if (!f)
		return -ENOMEM;
	err = single_open(file, control_show, f);
	if (err)
		perfkmod_control_release(f);
	return err;
}

static ssize_t control_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;

	return perfkmod_control_write(m->private, buf, count);
}

static int control_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	perfkmod_control_release(m->private);
	return single_release(inode, file);
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.open = control_open,
	.read = seq_read,
	.write = control_write,
	.llseek = seq_lseek,
	.release = control_release,
};

static int last_error_show(struct seq_file *m, void *v)
{
	perfkmod_control_last_error(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(last_error);

/* @s at @p, without its NUL; returns the end. */
static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/*
 * list: every named counter in one read, raw numbers for programs, a line
 * each (Documentation/perfkmod.rst has the format):
 *
 *	NAME TARGET STATE VALUE SCALED ENABLED_NS RUNNING_NS OVERFLOWS
 *	THROTTLED DROPPED REQUEUED SPEC
 *
 * after a header line that names the fields: perfkstat's table and its
 * Prometheus text are made of it. One show under perfkmod_named_mutex:
 * one consistent listing. Each line is written straight into the
 * seq_file's buffer (seq_get_buf()), sized at open for the show to run
 * once, with nothing through seq_printf() and no padding: a line costs its
 * counter's read and state, its copies and its digits, and the digits
 * cost most (docs/BENCHMARKS.md).
 */
#define LIST_HEADER	"# NAME TARGET STATE VALUE SCALED ENABLED_NS RUNNING_NS OVERFLOWS THROTTLED DROPPED REQUEUED SPEC\n"

/*
 * A line's most but its name and spec: the target ("cpu=" and an int's 10
 * digits), the state (6), eight u64s of 20 digits, 11 blanks and the
 * newline; and a byte that must stay free, or seq_file takes the buffer
 * for overflowed.
 */
#define LIST_LINE_FIXED	(4 + 10 + 6 + 8 * 20 + 11 + 1 + 1)

/* How many digits @v has in decimal. */
static __always_inline unsigned int dec_len(u64 v)
{
	static const u64 pow10[] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	/* log10(2) is about 1233 / 4096: @v has @t or @t + 1 digits */
	unsigned int t = (fls64(v) * 1233) >> 12;

	/* v | 1: 0 has a digit, and no other number changes its count */
	return t + ((v | 1) >= pow10[t]);
}

/* @v and a blank at @p; returns the end. */
static __always_inline char *put_field(char *p, u64 v)
{
	char *end = p + dec_len(v);

	perfkmod_dec_u64(end, v);
	*end = ' ';
	return end + 1;
}

/*
 * @n's line at the end of @m's buffer. Returns false, with @m marked as
 * overflowed, when the buffer lacks room for it (a counter added since the
 * open): seq_file runs the show again in a buffer twice as large.
 */
static bool list_line(struct seq_file *m, struct perfkmod_named *n)
{
	const struct perfkmod_config *cfg = perfkmod_counter_config(n->counter);
	size_t name_len = strlen(n->name), spec_len = strlen(n->spec);
	struct perfkmod_value val;
	struct perfkmod_stats st;
	const char *state;
	char *buf, *p;

	if (seq_get_buf(m, &buf) <= LIST_LINE_FIXED + name_len + spec_len) {
		seq_commit(m, -1);
		return false;
	}
	perfkmod_counter_read(n->counter, &val);
	state = perfkmod_state_name(perfkmod_counter_state(n->counter));
	memcpy(buf, n->name, name_len);
	p = buf + name_len;
	*p++ = ' ';
	switch (cfg->target) {
	case PERFKMOD_TARGET_CPU:
		memcpy(p, "cpu=", 4);
		p = put_field(p + 4, cfg->cpu);
		break;
	case PERFKMOD_TARGET_TASK:
		memcpy(p, "pid=", 4);
		p = put_field(p + 4, cfg->pid);
		break;
	default:
		memcpy(p, "all ", 4);
		p += 4;
		break;
	}
	p = put_str(p, state);
	*p++ = ' ';
	p = put_field(p, val.value);
	p = put_field(p, val.scaled);
	p = put_field(p, val.enabled);
	p = put_field(p, val.running);
	if (perfkmod_is_sampling(n->counter)) {
		perfkmod_counter_stats(n->counter, &st);
		p = put_field(p, st.overflows);
		p = put_field(p, st.throttled);
		p = put_field(p, st.dropped);
		p = put_field(p, st.requeued);
	} else {
		memcpy(p, "- - - - ", 8);
		p += 8;
	}
	memcpy(p, n->spec, spec_len);
	p += spec_len;
	*p++ = '\n';
	seq_commit(m, p - buf);
	return true;
}

static int list_show(struct seq_file *m, void *v)
{
	struct perfkmod_named *n;

	seq_puts(m, LIST_HEADER);
	/* the spec of a counter changes under both locks: the mutex is enough */
	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node)
		if (!list_line(m, n))
			break;
	mutex_unlock(&perfkmod_named_mutex);
	return 0;
}

/*
 * Sized at open for the counters there are then, so that the show runs
 * once: seq_file runs a show into one page, and each time the output
 * outgrows its buffer, again into one twice as large, reading every
 * counter each time (for counters added since, it still does).
 */
static int list_open(struct inode *inode, struct file *file)
{
	struct perfkmod_named *n;
	size_t size = sizeof(LIST_HEADER);

	/* the spec of a counter changes under both locks: the mutex is enough */
	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node)
		size += LIST_LINE_FIXED + strlen(n->name) + strlen(n->spec);
	mutex_unlock(&perfkmod_named_mutex);
	return single_open_size(file, list_show, NULL, size);
}

static const struct file_operations list_fops = {
	.owner = THIS_MODULE,
	.open = list_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * Try event @name: create it (disabled, on the reading task) and release
 * it, and give its line of events, "ok" or why not.
 */
static void try_event(struct seq_file *m, const char *name)
{
	struct perfkmod_config cfg;
	struct perfkmod_counter *c;
	int err;

	err = perfkmod_parse(name, &cfg);
	if (!err) {
		cfg.target = PERFKMOD_TARGET_TASK;
		cfg.task = current;
		cfg.disabled = true;
		c = perfkmod_counter_create(&cfg);
		err = PTR_ERR_OR_ZERO(c);
		perfkmod_counter_release(c);
	}
	if (err)
		seq_printf(m, "%-32s %pe %s\n", name, ERR_PTR(err),
			   perfkmod_strerror(err));
	else
		seq_printf(m, "%-32s ok\n", name);
}

/* A line for each named event of the grammar (perfkmod_event_name()). */
static int events_show(struct seq_file *m, void *v)
{
	char name[PERFKMOD_SPEC_MAX + 1];
	unsigned int i;

	for (i = 0; !perfkmod_event_name(i, name, sizeof(name)); i++)
		try_event(m, name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(events);

static struct dentry *perfkmod_dir;

/**
 * perfkmod_control_init() - create the directory, the counters= and
 *	series= ones, and the files at the top
 *
 * The files at the top come last, once nothing can fail: when the
 * counters= or series= ones cannot all be made, the directory is removed
 * and no command could run meanwhile. Like every debugfs user, perfkmod
 * does not check what debugfs returns: the module works without its files.
 *
 * Context: process context, may sleep; called once from module init, last.
 * Return: 0 or a negative errno, from perfkmod_region_files_init() or
 * perfkmod_params_load().
 */
int perfkmod_control_init(void)
{
	int err;

	perfkmod_dir = debugfs_create_dir("perfkmod", NULL);
	/* the directories first: the counters= ones add theirs to them */
	perfkmod_named_files_init(perfkmod_dir);
	err = perfkmod_region_files_init(perfkmod_dir);
	if (err)
		goto err_named_files;
	err = perfkmod_params_load();
	if (err)
		goto err_region_files;
	debugfs_create_file("control", 0600, perfkmod_dir, NULL, &control_fops);
	debugfs_create_file("last_error", 0400, perfkmod_dir, NULL,
			    &last_error_fops);
	debugfs_create_file("list", 0400, perfkmod_dir, NULL, &list_fops);
	debugfs_create_file("events", 0400, perfkmod_dir, NULL, &events_fops);
	return 0;

err_region_files:
	perfkmod_region_files_exit();
err_named_files:
	debugfs_remove(perfkmod_dir);
	perfkmod_named_files_exit();
	return err;
}

/**
 * perfkmod_control_exit() - remove the directory, release every named
 *	series and counter
 *
 * Removing the directory waits for its running readers and writers: no
 * command runs after it. regions/ goes first, with the region notifier,
 * so that releasing the named regions finds no directory to remove.
 *
 * Context: process context, may sleep; called once from module exit, first.
 */
void perfkmod_control_exit(void)
{
	perfkmod_region_files_exit();
	debugfs_remove(perfkmod_dir);
	/* the directories of the counters and series went with it */
	perfkmod_named_files_exit();
	mutex_lock(&perfkmod_named_mutex);
	perfkmod_named_release_all();
	mutex_unlock(&perfkmod_named_mutex);
}

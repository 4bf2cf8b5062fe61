// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs interface under /sys/kernel/debug/perfkmod/:
 *
 *	control			0600 commands (control.c); lists the counters
 *	last_error		0400 why the last command failed
 *	summary			0400 every counter, a table for people
 *	metrics			0400 every counter, Prometheus text format
 *	events			0400 which named events this machine can create
 *	counters/NAME/value	0400 the count
 *	counters/NAME/stat	0400 value, enabled ns, running ns, scaled, state
 *	counters/NAME/spec	0400 the spec it was made from
 *	counters/NAME/percpu	0400 all-CPUs counters: one stat line per CPU
 *	counters/NAME/overflow	0400 sampling counters: overflow statistics
 *	series/NAME/records	0400 the records of a series, drained as read
 *	series/NAME/dropped	0400 records lost to a full ring
 *	series/NAME/skipped	0400 intervals a late or slow timer let pass
 *	series/NAME/spec	0400 "INTERVAL[,records=N] COUNTER...", as taken
 *
 * Read-only files have no write bit, so they still open under kernel
 * lockdown, which refuses every debugfs file that has one. Everything goes
 * through the exported API, as a client module would.
 */
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "internal.h"

static struct dentry *perfkmod_dir;
static struct dentry *counters_dir;
static struct dentry *series_dir;

static const char * const state_names[] = {
	[PERFKMOD_STATE_ACTIVE] = "active",
	[PERFKMOD_STATE_OFF] = "off",
	[PERFKMOD_STATE_ERROR] = "error",
	[PERFKMOD_STATE_EXIT] = "exit",
};

static const char *state_name(enum perfkmod_state state)
{
	return state < ARRAY_SIZE(state_names) ? state_names[state] : "?";
}

static bool is_sampling(const struct perfkmod_counter *c)
{
	return perfkmod_config_samples(perfkmod_counter_config(c));
}

static bool is_all_cpus(const struct perfkmod_counter *c)
{
	return perfkmod_counter_config(c)->target == PERFKMOD_TARGET_ALL_CPUS;
}

/*
 * @v in decimal, ending just before @end: returns where it begins. What
 * "%llu" gives, without vsnprintf()'s cost (its format parsing costs more
 * than the digits), which the files read most often would pay for each
 * number.
 */
static char *dec_u64(char *end, u64 v)
{
	do {
		*--end = '0' + do_div(v, 10);
	} while (v);
	return end;
}

/*
 * The files of counters/NAME/ and series/NAME/. Their private data is the
 * struct perfkmod_named or perfkmod_named_series, valid while a reference
 * to the file (debugfs_file_get()) is held: del removes the directory,
 * which waits for those references, under perfkmod_named_mutex, before it
 * releases the counter or series. Once it is removed, no reference is
 * given: a read fails with -EIO, never reaching the freed object.
 *
 * So the reference covers the reading of the counter or series, never the
 * copy to user space: a reader whose buffer faults and stalls (a FUSE or
 * userfaultfd mapping) must not hold del, and with it every command. The
 * files are made with debugfs_create_file_unsafe(), without the debugfs
 * proxy, which would hold the reference over the whole read; each read
 * takes it itself, renders into a kernel buffer, drops it and copies out.
 * All but value and records (below) are seq_files whose show runs under
 * the reference (DEFINE_REFERENCED_SHOW_ATTRIBUTE): seq_read() copies out
 * after the show returned. What a read rendered before the del, such as
 * the rest of a line that a short read began, is still given.
 */

/*
 * Run @show, a show of a file of counters/NAME/ or series/NAME/, under the
 * file's debugfs reference; -EIO once the file is removed.
 */
static int referenced_show(struct seq_file *m, void *v,
			   int (*show)(struct seq_file *m, void *v))
{
	struct dentry *dentry = m->file->f_path.dentry;
	int err;

	err = debugfs_file_get(dentry);
	if (err)
		return err;
	err = show(m, v);
	debugfs_file_put(dentry);
	return err;
}

/* DEFINE_SHOW_ATTRIBUTE(), but NAME_show runs under the file's reference. */
#define DEFINE_REFERENCED_SHOW_ATTRIBUTE(__name)			\
static int __name ## _referenced_show(struct seq_file *m, void *v)	\
{									\
	return referenced_show(m, v, __name ## _show);			\
}									\
									\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name ## _referenced_show,		\
			   inode->i_private);				\
}									\
									\
static const struct file_operations __name ## _fops = {		\
	.owner = THIS_MODULE,						\
	.open = __name ## _open,					\
	.read = seq_read,						\
	.llseek = seq_lseek,						\
	.release = single_release,					\
}

/*
 * value, the file read most often, is cheap to read: no seq_file (whose
 * buffer, show and vsnprintf() cost more than the counter read).
 * A read at offset 0 reads the counter and keeps the value in the open
 * file; a read further on gives the rest of the line of the value kept,
 * as seq_file would, so that a short read (a shell's read builtin reads a
 * byte at a time) never mixes two values.
 */
#define VALUE_LEN	(20 + 1)	/* U64_MAX's digits and a newline */

struct value_kept {
	atomic64_t value;
	bool valid;	/* @value is set: smp_store_release() after it */
};

static int value_open(struct inode *inode, struct file *file)
{
	struct value_kept *kept = kzalloc(sizeof(*kept), GFP_KERNEL);

	if (!kept)
		return -ENOMEM;
	file->private_data = kept;
	return 0;
}

static int value_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static ssize_t value_read(struct file *file, char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct dentry *dentry = file->f_path.dentry;
	struct perfkmod_named *n = file_inode(file)->i_private;
	struct value_kept *kept = file->private_data;
	struct perfkmod_value val;
	char buf[VALUE_LEN], *p;
	int err;

	err = debugfs_file_get(dentry);
	if (unlikely(err))
		return err;
	/* pairs with the smp_store_release() below: @value is set */
	if (*ppos && smp_load_acquire(&kept->valid)) {
		val.value = atomic64_read(&kept->value);
	} else {
		perfkmod_counter_read(n->counter, &val);
		atomic64_set(&kept->value, val.value);
		/* after @value, for the smp_load_acquire() above */
		smp_store_release(&kept->valid, true);
	}
	debugfs_file_put(dentry);
	buf[VALUE_LEN - 1] = '\n';
	p = dec_u64(buf + VALUE_LEN - 1, val.value);
	return simple_read_from_buffer(ubuf, count, ppos, p,
				       buf + VALUE_LEN - p);
}

static const struct file_operations value_fops = {
	.owner = THIS_MODULE,
	.open = value_open,
	.read = value_read,
	.llseek = default_llseek,
	.release = value_release,
};

static int stat_show(struct seq_file *m, void *v)
{
	struct perfkmod_named *n = m->private;
	struct perfkmod_value val;

	perfkmod_counter_read(n->counter, &val);
	seq_printf(m, "%llu %llu %llu %llu %s\n", val.value, val.enabled,
		   val.running, val.scaled,
		   state_name(perfkmod_counter_state(n->counter)));
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(stat);

static int spec_show(struct seq_file *m, void *v)
{
	struct perfkmod_named *n = m->private;

	mutex_lock(&n->lock);
	seq_printf(m, "%s\n", n->spec);
	mutex_unlock(&n->lock);
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(spec);

static int percpu_show(struct seq_file *m, void *v)
{
	struct perfkmod_named *n = m->private;
	struct perfkmod_value val;
	int cpu;

	for_each_possible_cpu(cpu) {
		if (perfkmod_counter_read_cpu(n->counter, cpu, &val))
			continue;
		seq_printf(m, "%d %llu %llu %llu %llu\n", cpu, val.value,
			   val.enabled, val.running, val.scaled);
	}
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(percpu);

static int overflow_show(struct seq_file *m, void *v)
{
	struct perfkmod_named *n = m->private;
	struct perfkmod_stats st;

	perfkmod_counter_stats(n->counter, &st);
	seq_printf(m, "overflows %llu\nthrottled %llu\nruns %llu\ndeferred %llu\ndropped %llu\nrequeued %llu\n",
		   st.overflows, st.throttled, st.runs, st.deferred, st.dropped,
		   st.requeued);
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(overflow);

/**
 * perfkmod_debugfs_counter_add() - create counters/NAME/ for a new counter
 * @n: the named counter, in perfkmod_named_list.
 *
 * Does nothing before perfkmod_debugfs_init(), which creates the
 * directories of the counters that exist then.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_debugfs_counter_add(struct perfkmod_named *n)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	if (!counters_dir)
		return;
	n->dir = debugfs_create_dir(n->name, counters_dir);
	debugfs_create_file_unsafe("value", 0400, n->dir, n,
				   &value_fops);
	debugfs_create_file_unsafe("stat", 0400, n->dir, n, &stat_fops);
	debugfs_create_file_unsafe("spec", 0400, n->dir, n, &spec_fops);
	if (is_all_cpus(n->counter))
		debugfs_create_file_unsafe("percpu", 0400, n->dir, n,
					   &percpu_fops);
	if (is_sampling(n->counter))
		debugfs_create_file_unsafe("overflow", 0400, n->dir, n,
					   &overflow_fops);
}

/**
 * perfkmod_debugfs_counter_remove() - remove counters/NAME/
 * @n: the named counter, unlinked from perfkmod_named_list.
 *
 * Waits for the reads of the counter that its files' readers are making,
 * never for their copy to user space; later reads of files still open
 * fail with -EIO and never reach @n.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_debugfs_counter_remove(struct perfkmod_named *n)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	debugfs_remove(n->dir);
	n->dir = NULL;
}

/*
 * The files of series/NAME/, referenced as those of counters/NAME/ are.
 *
 * records: each read(2) takes records from the rings, visiting each CPU at
 * most once and taking at most SERIES_BATCH records there, so that it ends
 * however fast the timers write; it gives them as lines "TIME CPU VALUE..."
 * (a value that could not be read is "-"), or 0 (end of file) when none is
 * waiting. It takes no more records than the buffer it is given can hold,
 * but for a buffer shorter than a line: then the rest of the line waits in
 * the open file for the next read (lost if the file is closed first, as
 * are the records of a read that fails with -EFAULT). Each batch is taken
 * and rendered into the open file's buffer under the file's reference and
 * copied out without it; a series deleted meanwhile ends the read with
 * what it gave, or -EIO.
 */
#define SERIES_LINE_MAX	(20 + 1 + 10 + PERFKMOD_SERIES_MAX_COUNTERS * 21 + 1)
#define SERIES_BATCH	32

struct series_reader {
	struct mutex lock;	/* one read(2) of this open file at a time */
	int cpu;		/* the CPU whose ring is read next */
	size_t off, len;	/* the part of @buf still to be read */
	struct perfkmod_series_record recs[SERIES_BATCH];
	char buf[SERIES_BATCH * SERIES_LINE_MAX + 1];	/* and scnprintf's NUL */
};

static int records_open(struct inode *inode, struct file *file)
{
	struct series_reader *r = kvzalloc(sizeof(*r), GFP_KERNEL);

	if (!r)
		return -ENOMEM;
	mutex_init(&r->lock);
	r->cpu = cpumask_first(cpu_possible_mask);
	file->private_data = r;
	return nonseekable_open(inode, file);
}

static int records_release(struct inode *inode, struct file *file)
{
	struct series_reader *r = file->private_data;

	mutex_destroy(&r->lock);
	kvfree(r);
	return 0;
}

/*
 * Up to @max records of the next CPU that has any, as text in @r->buf,
 * round robin so that no CPU's ring waits for another's; @visits counts
 * the CPUs visited, up to the possible CPUs.
 */
static int records_fill(struct perfkmod_series *s, struct series_reader *r,
			unsigned int max, unsigned int *visits)
{
	const struct perfkmod_series_record *rec;
	unsigned int i, j;
	int n = 0;

	for (; *visits < num_possible_cpus() && n <= 0; (*visits)++) {
		n = perfkmod_series_read(s, r->cpu, r->recs, max);
		r->cpu = cpumask_next(r->cpu, cpu_possible_mask);
		if (r->cpu >= nr_cpu_ids)
			r->cpu = cpumask_first(cpu_possible_mask);
	}
	r->off = 0;
	r->len = 0;
	for (i = 0; i < max_t(int, n, 0); i++) {
		rec = &r->recs[i];
		r->len += scnprintf(r->buf + r->len, sizeof(r->buf) - r->len,
				    "%llu %u", rec->time, rec->cpu);
		for (j = 0; j < rec->nr_values; j++) {
			if (rec->errors & BIT(j))
				r->len += scnprintf(r->buf + r->len,
						    sizeof(r->buf) - r->len, " -");
			else
				r->len += scnprintf(r->buf + r->len,
						    sizeof(r->buf) - r->len,
						    " %llu", rec->values[j]);
		}
		r->len += scnprintf(r->buf + r->len, sizeof(r->buf) - r->len,
				    "\n");
	}
	return n;
}

static ssize_t records_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct perfkmod_named_series *ns = file_inode(file)->i_private;
	struct dentry *dentry = file->f_path.dentry;
	struct series_reader *r = file->private_data;
	unsigned int max, visits = 0;
	size_t done = 0, chunk;
	ssize_t err = 0;
	int n;

	mutex_lock(&r->lock);
	while (done < count) {
		if (r->off == r->len) {
			/* whole lines only, once something was given */
			max = min_t(size_t, (count - done) / SERIES_LINE_MAX,
				    SERIES_BATCH);
			if (!max && done)
				break;
			err = debugfs_file_get(dentry);
			if (err)
				break;
			n = records_fill(ns->series, r, max ?: 1, &visits);
			debugfs_file_put(dentry);
			if (n <= 0)
				break;
		}
		chunk = min(count - done, r->len - r->off);
		if (copy_to_user(ubuf + done, r->buf + r->off, chunk)) {
			r->off = r->len;	/* those lines are lost */
			err = -EFAULT;
			break;
		}
		r->off += chunk;
		done += chunk;
	}
	mutex_unlock(&r->lock);
	return done ?: err;
}

static const struct file_operations records_fops = {
	.owner = THIS_MODULE,
	.open = records_open,
	.read = records_read,
	.release = records_release,
};

static int dropped_show(struct seq_file *m, void *v)
{
	struct perfkmod_named_series *ns = m->private;

	seq_printf(m, "%llu\n", perfkmod_series_dropped(ns->series));
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(dropped);

static int skipped_show(struct seq_file *m, void *v)
{
	struct perfkmod_named_series *ns = m->private;

	seq_printf(m, "%llu\n", perfkmod_series_skipped(ns->series));
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(skipped);

static int series_spec_show(struct seq_file *m, void *v)
{
	struct perfkmod_named_series *ns = m->private;

	seq_printf(m, "%s\n", ns->args);
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(series_spec);

/**
 * perfkmod_debugfs_series_add() - create series/NAME/ for a new series
 * @ns: the named series, in perfkmod_named_series_list.
 *
 * Does nothing before perfkmod_debugfs_init(), which creates the
 * directories of the series that exist then.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_debugfs_series_add(struct perfkmod_named_series *ns)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	if (!series_dir)
		return;
	ns->dir = debugfs_create_dir(ns->name, series_dir);
	debugfs_create_file_unsafe("records", 0400, ns->dir, ns,
				   &records_fops);
	debugfs_create_file_unsafe("dropped", 0400, ns->dir, ns, &dropped_fops);
	debugfs_create_file_unsafe("skipped", 0400, ns->dir, ns, &skipped_fops);
	debugfs_create_file_unsafe("spec", 0400, ns->dir, ns,
				   &series_spec_fops);
}

/**
 * perfkmod_debugfs_series_remove() - remove series/NAME/
 * @ns: the named series, unlinked from perfkmod_named_series_list.
 *
 * Waits for the reads of the series that its files' readers are making,
 * never for their copy to user space; later reads of files still open
 * fail with -EIO and never reach @ns.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_debugfs_series_remove(struct perfkmod_named_series *ns)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	debugfs_remove(ns->dir);
	ns->dir = NULL;
}

static int control_show(struct seq_file *m, void *v)
{
	perfkmod_control_show(m);
	return 0;
}

static int control_open(struct inode *inode, struct file *file)
{
	return single_open(file, control_show, NULL);
}

static ssize_t control_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	return perfkmod_control_write(buf, count);
}

static const struct file_operations control_fops = {
	.owner = THIS_MODULE,
	.open = control_open,
	.read = seq_read,
	.write = control_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int last_error_show(struct seq_file *m, void *v)
{
	perfkmod_control_last_error(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(last_error);

/* Running time as a percentage of enabled time, in hundredths. */
static unsigned int running_pct100(const struct perfkmod_value *val)
{
	if (!val->enabled)
		return 0;
	if (val->running >= val->enabled)
		return 10000;
	return mul_u64_u64_div_u64(val->running, 10000, val->enabled);
}

/*
 * @v in decimal at @p, right-aligned in @width characters, padded on the
 * left with @pad ("%*llu" or "%0*llu"); @width must hold @v's digits.
 * Returns the end.
 */
static char *put_dec(char *p, u64 v, unsigned int width, char pad)
{
	char *end = p + width, *d = dec_u64(end, v);

	while (d > p)
		*--d = pad;
	return end;
}

/*
 * A line of summary: "%-16s %20llu %20llu %14llu %4u.%02u%% %-6s %s\n" of
 * the name, value, scaled value, enabled ms, running %, state and spec.
 * seq_printf() cost four times as much: the numbers and the state go into
 * @buf, each in a width that holds its largest value (a u64 has 20
 * digits, U64_MAX ns 14 in ms, the percentage 3), then the line goes out
 * in four pieces.
 */
static void summary_line(struct seq_file *m, struct perfkmod_named *n)
{
	/* "%20llu %20llu %14llu %4u.%02u%% %-6s " */
	char buf[20 + 1 + 20 + 1 + 14 + 1 + 4 + 1 + 2 + 2 + 6 + 1], *p = buf;
	struct perfkmod_value val;
	unsigned int pct, i;
	const char *s;

	perfkmod_counter_read(n->counter, &val);
	pct = running_pct100(&val);
	p = put_dec(p, val.value, 20, ' ');
	*p++ = ' ';
	p = put_dec(p, val.scaled, 20, ' ');
	*p++ = ' ';
	p = put_dec(p, div_u64(val.enabled, NSEC_PER_MSEC), 14, ' ');
	*p++ = ' ';
	p = put_dec(p, pct / 100, 4, ' ');
	*p++ = '.';
	p = put_dec(p, pct % 100, 2, '0');
	*p++ = '%';
	*p++ = ' ';
	s = state_name(perfkmod_counter_state(n->counter));
	for (i = 0; i < 6; i++)	/* the longest name, "active" */
		*p++ = *s ? *s++ : ' ';
	*p++ = ' ';
	seq_setwidth(m, 16);
	seq_puts(m, n->name);
	seq_pad(m, ' ');
	seq_write(m, buf, p - buf);
	seq_puts(m, n->spec);
	seq_putc(m, '\n');
}

static int summary_show(struct seq_file *m, void *v)
{
	struct perfkmod_named *n;

	seq_printf(m, "%-16s %20s %20s %14s %8s %-6s %s\n", "NAME", "VALUE",
		   "SCALED", "ENABLED-MS", "RUNNING", "STATE", "SPEC");
	/* the spec of a counter changes under both locks: the mutex is enough */
	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node)
		summary_line(m, n);
	mutex_unlock(&perfkmod_named_mutex);
	return 0;
}

/*
 * summary and metrics show every counter in one show, under
 * perfkmod_named_mutex, so that a read is one consistent table. seq_file
 * runs a show into one page, and each time the output outgrows its buffer,
 * again into one twice as large: with 64 counters, summary's show ran
 * twice and metrics' four times, reading every counter each time. Their
 * buffer is sized at open for the counters there are then, so that the
 * show runs once (for counters added since, seq_file grows it as before).
 */
#define SUMMARY_LINE_FIXED	100	/* a line's widths, but its strings */

static int summary_open(struct inode *inode, struct file *file)
{
	struct perfkmod_named *n;
	size_t size = SUMMARY_LINE_FIXED;	/* the header */

	/* the spec of a counter changes under both locks: the mutex is enough */
	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node)
		size += SUMMARY_LINE_FIXED + strlen(n->name) + strlen(n->spec);
	mutex_unlock(&perfkmod_named_mutex);
	return single_open_size(file, summary_show, NULL, size);
}

static const struct file_operations summary_fops = {
	.owner = THIS_MODULE,
	.open = summary_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/*
 * metrics: one consistent snapshot per read, every counter read once, with
 * perfkmod_named_mutex held over the reads and the output, so no counter
 * comes or goes or changes its spec meanwhile (the spec of a counter
 * changes under both locks: the mutex is enough). The samples of a family
 * must be contiguous, so the values are kept in an array first, with each
 * counter's labels, escaped once and copied into each of its samples.
 * Nothing goes through seq_printf(), which cost four times as much.
 */
enum family { FAM_EVENTS, FAM_ENABLED, FAM_RUNNING, FAM_ACTIVE,
	FAM_OVERFLOWS, FAM_THROTTLED, FAM_DROPPED, FAM_REQUEUED, FAM_COUNT };

static const struct {
	const char *name, *type, *help;
	bool sampling;	/* sampling counters only */
} families[] = {
	[FAM_EVENTS] = { "perfkmod_events_total", "counter",
		"Events counted, scaled to the enabled time as perf stat scales them." },
	[FAM_ENABLED] = { "perfkmod_enabled_seconds_total", "counter",
		"Time the counter was enabled." },
	[FAM_RUNNING] = { "perfkmod_running_seconds_total", "counter",
		"Time the counter was on a PMU (less than enabled when multiplexed)." },
	[FAM_ACTIVE] = { "perfkmod_active", "gauge",
		"1 while the counter counts; 0 when off, in error or its task exited." },
	[FAM_OVERFLOWS] = { "perfkmod_overflows_total", "counter",
		"Overflows of a sampling counter.", true },
	[FAM_THROTTLED] = { "perfkmod_throttled_total", "counter",
		"Times perf throttled a sampling counter for overflowing too often.", true },
	[FAM_DROPPED] = { "perfkmod_dropped_total", "counter",
		"Deferred overflow samples dropped because a ring was full.", true },
	[FAM_REQUEUED] = { "perfkmod_requeued_total", "counter",
		"Deferred overflow samples a delivery batch left for a later one.", true },
};

static_assert(ARRAY_SIZE(families) == FAM_COUNT);

/* What metrics reads of one counter, all at once. */
struct snapshot {
	struct perfkmod_value val;
	struct perfkmod_stats st;	/* of sampling counters only */
	enum perfkmod_state state;
	bool sampling;
	const char *labels;	/* see prom_labels() */
	size_t labels_len;
};

/* A Prometheus label value at @p: \, " and newline escaped; returns the end. */
static char *prom_escape(char *p, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n')
			*p++ = '\\';
		*p++ = *s == '\n' ? 'n' : *s;
	}
	return p;
}

/* @s at @p, without its NUL; returns the end. */
static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

/* @v in decimal at @p ("%llu"); returns the end. */
static char *put_u64(char *p, u64 v)
{
	char buf[20], *d = dec_u64(buf + sizeof(buf), v);

	while (d < buf + sizeof(buf))
		*p++ = *d++;
	return p;
}

/* The most prom_labels() writes, but the escaped name and spec. */
#define PROM_LABELS_FIXED \
	(sizeof("{name=\"\",event=\"\",cpu=\"4294967295\"} ") - 1)

/* At least what prom_labels() writes: escaping at most doubles a string. */
static size_t prom_labels_max(const struct perfkmod_named *n)
{
	return PROM_LABELS_FIXED + 2 * (strlen(n->name) + strlen(n->spec));
}

/*
 * @n's labels at @p: {name="NAME",event="SPEC",cpu="CPU"} and a blank, CPU
 * the CPU of a cpu= counter or "all". Returns the end.
 */
static char *prom_labels(char *p, const struct perfkmod_named *n)
{
	const struct perfkmod_config *cfg = perfkmod_counter_config(n->counter);

	p = put_str(p, "{name=\"");
	p = prom_escape(p, n->name);
	p = put_str(p, "\",event=\"");
	p = prom_escape(p, n->spec);
	p = put_str(p, "\",cpu=\"");
	if (cfg->target == PERFKMOD_TARGET_CPU)
		p = put_u64(p, cfg->cpu);
	else
		p = put_str(p, "all");
	return put_str(p, "\"} ");
}

/* Nanoseconds as seconds at @p, "%llu.%09u"; returns the end. */
static char *put_seconds(char *p, u64 ns)
{
	u32 rem;

	p = put_u64(p, div_u64_rem(ns, NSEC_PER_SEC, &rem));
	*p++ = '.';
	return put_dec(p, rem, 9, '0');
}

/* A family's # HELP and # TYPE lines. */
static void prom_header(struct seq_file *m, enum family f)
{
	seq_puts(m, "# HELP ");
	seq_puts(m, families[f].name);
	seq_putc(m, ' ');
	seq_puts(m, families[f].help);
	seq_puts(m, "\n# TYPE ");
	seq_puts(m, families[f].name);
	seq_putc(m, ' ');
	seq_puts(m, families[f].type);
	seq_putc(m, '\n');
}

/* A sample of family @f, whose name is @name_len long. */
static void prom_sample(struct seq_file *m, enum family f, size_t name_len,
			const struct snapshot *snap)
{
	char buf[20 + 1 + 9 + 1], *p = buf;	/* the longest: seconds */

	switch (f) {
	case FAM_EVENTS:
		p = put_u64(p, snap->val.scaled);
		break;
	case FAM_ENABLED:
		p = put_seconds(p, snap->val.enabled);
		break;
	case FAM_RUNNING:
		p = put_seconds(p, snap->val.running);
		break;
	case FAM_ACTIVE:
		*p++ = snap->state == PERFKMOD_STATE_ACTIVE ? '1' : '0';
		break;
	case FAM_OVERFLOWS:
		p = put_u64(p, snap->st.overflows);
		break;
	case FAM_THROTTLED:
		p = put_u64(p, snap->st.throttled);
		break;
	case FAM_DROPPED:
		p = put_u64(p, snap->st.dropped);
		break;
	case FAM_REQUEUED:
		p = put_u64(p, snap->st.requeued);
		break;
	default:
		break;
	}
	*p++ = '\n';
	seq_write(m, families[f].name, name_len);
	seq_write(m, snap->labels, snap->labels_len);
	seq_write(m, buf, p - buf);
}

static int metrics_show(struct seq_file *m, void *v)
{
	struct perfkmod_named *n;
	struct snapshot *snaps, *snap;
	size_t count = 0, size = 0, i, name_len;
	enum family f;
	char *labels;
	int err = 0;

	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node) {
		count++;
		size += sizeof(*snaps) + prom_labels_max(n);
	}
	snaps = kvmalloc(max_t(size_t, size, 1), GFP_KERNEL);
	if (!snaps) {
		err = -ENOMEM;
		goto out;
	}
	labels = (char *)(snaps + count);
	snap = snaps;
	list_for_each_entry(n, &perfkmod_named_list, node) {
		perfkmod_counter_read(n->counter, &snap->val);
		snap->state = perfkmod_counter_state(n->counter);
		snap->sampling = is_sampling(n->counter);
		if (snap->sampling)
			perfkmod_counter_stats(n->counter, &snap->st);
		snap->labels = labels;
		labels = prom_labels(labels, n);
		snap->labels_len = labels - snap->labels;
		snap++;
	}
	for (f = 0; f < FAM_COUNT; f++) {
		prom_header(m, f);
		name_len = strlen(families[f].name);
		for (i = 0; i < count; i++)
			if (!families[f].sampling || snaps[i].sampling)
				prom_sample(m, f, name_len, &snaps[i]);
	}
	kvfree(snaps);
out:
	mutex_unlock(&perfkmod_named_mutex);
	return err;
}

/* A sample's line but its family's name and its labels */
#define PROM_SAMPLE_MAX	(20 + 1 + 9 + 1)

/* A family's "# HELP NAME HELP" and "# TYPE NAME TYPE" lines, but NAME etc. */
#define PROM_HEADER_FIXED	(2 * (sizeof("# HELP ") - 1 + 2))

/* Sized at open, as summary is, for the show to run once. */
static int metrics_open(struct inode *inode, struct file *file)
{
	struct perfkmod_named *n;
	size_t size = 1, labels;	/* seq_write() keeps a byte free */
	enum family f;

	for (f = 0; f < FAM_COUNT; f++)
		size += PROM_HEADER_FIXED + 2 * strlen(families[f].name) +
			strlen(families[f].help) + strlen(families[f].type);
	/* the spec of a counter changes under both locks: the mutex is enough */
	mutex_lock(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node) {
		labels = prom_labels_max(n);
		for (f = 0; f < FAM_COUNT; f++)
			if (!families[f].sampling || is_sampling(n->counter))
				size += strlen(families[f].name) + labels +
					PROM_SAMPLE_MAX;
	}
	mutex_unlock(&perfkmod_named_mutex);
	return single_open_size(file, metrics_show, NULL, size);
}

static const struct file_operations metrics_fops = {
	.owner = THIS_MODULE,
	.open = metrics_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

/* The named events of the grammar that events probes (perf's names). */
static const char * const probe_events[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char * const probe_caches[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const char * const probe_ops[] = { "load", "store", "prefetch" };
static const char * const probe_results[] = { "misses", "accesses" };

/* Create (disabled, on the reading task) and release one event. */
static void probe(struct seq_file *m, const char *name)
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

static int events_show(struct seq_file *m, void *v)
{
	char name[64];
	size_t i, j, k;

	for (i = 0; i < ARRAY_SIZE(probe_events); i++)
		probe(m, probe_events[i]);
	for (i = 0; i < ARRAY_SIZE(probe_caches); i++)
		for (j = 0; j < ARRAY_SIZE(probe_ops); j++)
			for (k = 0; k < ARRAY_SIZE(probe_results); k++) {
				snprintf(name, sizeof(name), "%s-%s-%s",
					 probe_caches[i], probe_ops[j],
					 probe_results[k]);
				probe(m, name);
			}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(events);

/**
 * perfkmod_debugfs_init() - create /sys/kernel/debug/perfkmod/
 *
 * Also creates the directories of the counters made at load time. Like
 * every debugfs user, perfkmod does not check what debugfs returns: the
 * module works without its files.
 *
 * Context: process context, may sleep; called once from module init,
 * after perfkmod_control_init().
 */
void perfkmod_debugfs_init(void)
{
	struct perfkmod_named_series *ns;
	struct perfkmod_named *n;

	perfkmod_dir = debugfs_create_dir("perfkmod", NULL);
	debugfs_create_file("control", 0600, perfkmod_dir, NULL, &control_fops);
	debugfs_create_file("last_error", 0400, perfkmod_dir, NULL,
			    &last_error_fops);
	debugfs_create_file("summary", 0400, perfkmod_dir, NULL, &summary_fops);
	debugfs_create_file("metrics", 0400, perfkmod_dir, NULL, &metrics_fops);
	debugfs_create_file("events", 0400, perfkmod_dir, NULL, &events_fops);
	mutex_lock(&perfkmod_named_mutex);
	counters_dir = debugfs_create_dir("counters", perfkmod_dir);
	list_for_each_entry(n, &perfkmod_named_list, node)
		perfkmod_debugfs_counter_add(n);
	series_dir = debugfs_create_dir("series", perfkmod_dir);
	list_for_each_entry(ns, &perfkmod_named_series_list, node)
		perfkmod_debugfs_series_add(ns);
	mutex_unlock(&perfkmod_named_mutex);
}

/**
 * perfkmod_debugfs_exit() - remove /sys/kernel/debug/perfkmod/ and its files
 *
 * Waits for running readers and writers; no command runs after it.
 *
 * Context: process context, may sleep; called once from module exit,
 * before perfkmod_control_exit().
 */
void perfkmod_debugfs_exit(void)
{
	struct perfkmod_named_series *ns;
	struct perfkmod_named *n;

	debugfs_remove(perfkmod_dir);
	mutex_lock(&perfkmod_named_mutex);
	counters_dir = NULL;
	series_dir = NULL;
	list_for_each_entry(n, &perfkmod_named_list, node)
		n->dir = NULL;
	list_for_each_entry(ns, &perfkmod_named_series_list, node)
		ns->dir = NULL;
	mutex_unlock(&perfkmod_named_mutex);
}

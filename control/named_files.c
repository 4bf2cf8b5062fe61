// SPDX-License-Identifier: GPL-2.0
/*
 * The directories of the named counters and series under
 * /sys/kernel/debug/perfkmod/ (top_files.c lists every file of the directory):
 *
 *	counters/NAME/value	0400 the count
 *	counters/NAME/stat	0400 value, enabled ns, running ns, scaled, state
 *	counters/NAME/spec	0400 the spec it was made from
 *	counters/NAME/percpu	0400 all-CPUs counters: one stat line per CPU
 *	counters/NAME/overflow	0400 sampling counters: overflow statistics
 *	series/NAME/records	0400 the records of a series, drained as read
 *	series/NAME/records.bin	0400 the same, binary: a header, then records
 *	series/NAME/dropped	0400 records lost to a full ring, or nested
 *	series/NAME/skipped	0400 intervals a late or slow timer let pass
 *	series/NAME/spec	0400 "INTERVAL[,records=N][,wakeup=N] COUNTER..."
 *				or "every=TRIGGER[,records=N][,wakeup=N]
 *				COUNTER...", as taken
 *
 * This file makes counters/ and series/, and the directory of each named
 * counter and series for commands.c. Read-only files have no write bit, so
 * they still open under kernel lockdown, which refuses every debugfs file
 * that has one.
 */
#include <linux/debugfs.h>
#include <linux/lockdep.h>
#include <linux/poll.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "control.h"
#include "referenced_show.h"
#include "dec_u64.h"

static struct dentry *counters_dir;
static struct dentry *series_dir;

static const char * const state_names[] = {
	[PERFKMOD_STATE_ACTIVE] = "active",
	[PERFKMOD_STATE_OFF] = "off",
	[PERFKMOD_STATE_ERROR] = "error",
	[PERFKMOD_STATE_EXIT] = "exit",
};

/**
 * perfkmod_state_name() - the name of a counter's state
 * @state: the state.
 *
 * Context: any context.
 * Return: the word stat and list give for @state.
 */
const char *perfkmod_state_name(enum perfkmod_state state)
{
	return state < ARRAY_SIZE(state_names) ? state_names[state] : "?";
}

/**
 * perfkmod_is_sampling() - whether a counter samples
 * @c: the counter.
 *
 * Context: any context.
 * Return: true when @c samples: it has an overflow file and overflow
 * statistics.
 */
bool perfkmod_is_sampling(const struct perfkmod_counter *c)
{
	return perfkmod_config_samples(perfkmod_counter_config(c));
}

static bool is_all_cpus(const struct perfkmod_counter *c)
{
	return perfkmod_counter_config(c)->target == PERFKMOD_TARGET_ALL_CPUS;
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
	p = perfkmod_dec_u64(buf + VALUE_LEN - 1, val.value);
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
		   perfkmod_state_name(perfkmod_counter_state(n->counter)));
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
 * Does nothing before perfkmod_named_files_init() or after
 * perfkmod_named_files_exit().
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
	if (perfkmod_is_sampling(n->counter))
		debugfs_create_file_unsafe("overflow", 0400, n->dir, n,
					   &overflow_fops);
}

/**
 * perfkmod_debugfs_counter_remove() - remove counters/NAME/
 * @n: the named counter, unlinked from perfkmod_named_list.
 *
 * Waits for the reads of the counter that its files' readers are making,
 * never for their copy to user space; later reads of files still open
 * fail with -EIO and never reach @n. After perfkmod_named_files_exit()
 * (it is removed with the rest), it only forgets it.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_debugfs_counter_remove(struct perfkmod_named *n)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	if (counters_dir)
		debugfs_remove(n->dir);
	n->dir = NULL;
}

/*
 * The files of series/NAME/, referenced as those of counters/NAME/ are.
 *
 * records: each read(2) takes records from the rings, visiting each CPU at
 * most once and taking at most SERIES_BATCH records there, so that it ends
 * however fast the timers write; it gives them as lines "TIME CPU VALUE..."
 * (a value that could not be read is "-"), those of an event-driven series
 * followed by "IP PID TID MODE" (IP in hex, MODE user or kernel: what the
 * trigger's overflow interrupted), or 0 (end of file) when none is
 * waiting. It takes no more records than the buffer it is given can hold,
 * but for a buffer shorter than a line: then the rest of the line waits in
 * the open file for the next read (lost if the file is closed first, as
 * are the records of a read that fails with -EFAULT). Each batch is taken
 * and rendered into the open file's buffer under the file's reference and
 * copied out without it; a series deleted meanwhile ends the read with
 * what it gave, or -EIO.
 *
 * records.bin: the same records, binary: the first read(2) of an open
 * file gives &struct perfkmod_series_file_header first (a buffer shorter
 * than it: -EINVAL), then each read whole records, &struct
 * perfkmod_series_record as the API reads them, no more than the buffer
 * holds (a buffer shorter than one: -EINVAL), or 0 when none is waiting.
 *
 * Both poll(): readable (EPOLLIN) when a CPU's ring holds the series'
 * watermark (wakeup=N; 1 record by default) or text of a record waits in
 * the open file; EPOLLHUP | EPOLLERR once the series is deleted, when a
 * reader asleep in poll() is woken, and a read fails with -EIO. A poller
 * asleep holds no reference to the series: del goes on, and wakes it.
 */
/* TIME CPU VALUE... [IP PID TID MODE]\n */
#define SERIES_LINE_MAX	(20 + 1 + 10 + PERFKMOD_SERIES_MAX_COUNTERS * 21 + \
			 1 + 18 + 1 + 10 + 1 + 10 + 1 + 6 + 1)
#define SERIES_BATCH	32
/* records.bin's records of a CPU's ring a read takes at a time */
#define SERIES_BIN_BATCH	256

struct series_reader {
	struct mutex lock;	/* see "Locks" in control.h */
	int cpu;		/* the CPU whose ring is read next */
	size_t off, len;	/* the part of @buf still to be read */
	bool header_given;	/* records.bin: the header was read */
	/* the series' wait queue, a reference held while the file is open */
	struct perfkmod_series_waitq *waitq;
	union {
		struct {
			struct perfkmod_series_record recs[SERIES_BATCH];
			/* and scnprintf's NUL */
			char buf[SERIES_BATCH * SERIES_LINE_MAX + 1];
		};
		struct perfkmod_series_record bin[SERIES_BIN_BATCH];
	};
};

static int records_open(struct inode *inode, struct file *file)
{
	struct perfkmod_named_series *ns = inode->i_private;
	struct dentry *dentry = file->f_path.dentry;
	struct series_reader *r;
	int err;

	r = kvzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	err = debugfs_file_get(dentry);
	if (err)
		goto err_free;
	r->waitq = perfkmod_series_waitq_get(ns->series);
	debugfs_file_put(dentry);
	mutex_init(&r->lock);
	r->cpu = cpumask_first(cpu_possible_mask);
	file->private_data = r;
	return nonseekable_open(inode, file);

err_free:
	kvfree(r);
	return err;
}

static int records_release(struct inode *inode, struct file *file)
{
	struct series_reader *r = file->private_data;

	perfkmod_series_waitq_put(r->waitq);
	mutex_destroy(&r->lock);
	kvfree(r);
	return 0;
}

/*
 * Readable when a CPU's ring holds the watermark, or a line begun waits
 * in the file; EPOLLHUP | EPOLLERR once the series is gone. The series is
 * looked at under the file's reference, never slept on with it.
 */
static __poll_t records_poll(struct file *file, poll_table *pt)
{
	struct perfkmod_named_series *ns = file_inode(file)->i_private;
	struct dentry *dentry = file->f_path.dentry;
	struct series_reader *r = file->private_data;
	__poll_t mask;

	mask = perfkmod_series_poll_wait(r->waitq, file, pt);
	if (mask)
		return mask;
	/* a line a short read began: @off and @len are the reader's */
	if (READ_ONCE(r->off) != READ_ONCE(r->len))
		return EPOLLIN | EPOLLRDNORM;
	if (debugfs_file_get(dentry))
		return EPOLLHUP | EPOLLERR;
	if (perfkmod_series_ready(ns->series))
		mask = EPOLLIN | EPOLLRDNORM;
	debugfs_file_put(dentry);
	return mask;
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
		if (rec->flags & PERFKMOD_RECORD_TRIGGERED)
			r->len += scnprintf(r->buf + r->len,
					    sizeof(r->buf) - r->len,
					    " %#llx %u %u %s", rec->ip, rec->pid,
					    rec->tid,
					    rec->flags & PERFKMOD_RECORD_USER ?
					    "user" : "kernel");
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
	.poll = records_poll,
	.release = records_release,
};

/*
 * records.bin's layout, version 1 (perfkmod_series.h): a change of these
 * is a new version, or fields at the end.
 */
static_assert(sizeof(struct perfkmod_series_file_header) == 16);
static_assert(sizeof(struct perfkmod_series_record) == 104);
static_assert(offsetof(struct perfkmod_series_record, values) == 16);
static_assert(offsetof(struct perfkmod_series_record, ip) == 80);
static_assert(offsetof(struct perfkmod_series_record, reserved) == 100);

/*
 * records.bin's header, of @ns's series: its counters, then its trigger
 * of an event-driven one ("every=TRIGGER..."), are its uses. Under the
 * file's reference.
 */
static void records_header(struct perfkmod_named_series *ns,
			   struct perfkmod_series_file_header *h)
{
	bool triggered = str_has_prefix(ns->args, "every=");

	*h = (struct perfkmod_series_file_header) {
		.magic = PERFKMOD_SERIES_FILE_MAGIC,
		.version = PERFKMOD_SERIES_FILE_VERSION,
		.header_size = sizeof(*h),
		.record_size = sizeof(struct perfkmod_series_record),
		.nr_counters = ns->nr_uses - triggered,
		.flags = triggered ? PERFKMOD_SERIES_FILE_TRIGGERED : 0,
	};
}

/*
 * records.bin: the header first, then whole records, each CPU's ring
 * visited at most once a read, round robin as records_fill() does.
 */
static ssize_t records_bin_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	struct perfkmod_named_series *ns = file_inode(file)->i_private;
	const size_t size = sizeof(struct perfkmod_series_record);
	struct dentry *dentry = file->f_path.dentry;
	struct series_reader *r = file->private_data;
	struct perfkmod_series_file_header h;
	unsigned int visits, max;
	size_t done = 0;
	ssize_t err = 0;
	int n;

	mutex_lock(&r->lock);
	if (!r->header_given) {
		if (count < sizeof(h)) {
			err = -EINVAL;
			goto out;
		}
		err = debugfs_file_get(dentry);
		if (err)
			goto out;
		records_header(ns, &h);
		debugfs_file_put(dentry);
		if (copy_to_user(ubuf, &h, sizeof(h))) {
			err = -EFAULT;
			goto out;
		}
		r->header_given = true;
		done = sizeof(h);
	} else if (count < size) {
		err = -EINVAL;
		goto out;
	}
	for (visits = 0; visits < num_possible_cpus(); visits++) {
		max = min_t(size_t, (count - done) / size, SERIES_BIN_BATCH);
		if (!max)
			break;
		err = debugfs_file_get(dentry);
		if (err)
			break;
		n = perfkmod_series_read(ns->series, r->cpu, r->bin, max);
		debugfs_file_put(dentry);
		r->cpu = cpumask_next(r->cpu, cpu_possible_mask);
		if (r->cpu >= nr_cpu_ids)
			r->cpu = cpumask_first(cpu_possible_mask);
		if (n <= 0) {
			err = n;
			continue;
		}
		if (copy_to_user(ubuf + done, r->bin, n * size)) {
			err = -EFAULT;	/* those records are lost */
			break;
		}
		done += n * size;
	}
out:
	mutex_unlock(&r->lock);
	return done ?: err;
}

static const struct file_operations records_bin_fops = {
	.owner = THIS_MODULE,
	.open = records_open,
	.read = records_bin_read,
	.poll = records_poll,
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
 * Does nothing before perfkmod_named_files_init() or after
 * perfkmod_named_files_exit().
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
	debugfs_create_file_unsafe("records.bin", 0400, ns->dir, ns,
				   &records_bin_fops);
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
 * fail with -EIO and never reach @ns. After perfkmod_named_files_exit()
 * (it is removed with the rest), it only forgets it.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_debugfs_series_remove(struct perfkmod_named_series *ns)
{
	lockdep_assert_held(&perfkmod_named_mutex);
	if (series_dir)
		debugfs_remove(ns->dir);
	ns->dir = NULL;
}

/**
 * perfkmod_named_files_init() - create counters/ and series/
 * @top: the directory /sys/kernel/debug/perfkmod/.
 *
 * Before anything adds to them. Like every debugfs user, perfkmod does not
 * check what debugfs returns: the module works without its files.
 *
 * Context: process context, may sleep; called once from
 * perfkmod_control_init(), before perfkmod_params_load().
 */
void perfkmod_named_files_init(struct dentry *top)
{
	counters_dir = debugfs_create_dir("counters", top);
	series_dir = debugfs_create_dir("series", top);
}

/**
 * perfkmod_named_files_exit() - forget counters/ and series/
 *
 * Once their parent is removed, with them and every directory in them:
 * perfkmod_debugfs_counter_remove() and perfkmod_debugfs_series_remove()
 * then only forget the directory of the counter or series.
 *
 * Context: process context; called from perfkmod_control_exit(), and
 * from perfkmod_control_init() when it fails.
 */
void perfkmod_named_files_exit(void)
{
	counters_dir = NULL;
	series_dir = NULL;
}

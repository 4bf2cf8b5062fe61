// SPDX-License-Identifier: GPL-2.0
/*
 * The directory of every region, a module's as well as root's, under
 * /sys/kernel/debug/perfkmod/regions/ (Documentation/perfkmod.rst has the
 * formats):
 *
 *	regions/NAME/stat	0400 calls, lost, migrated, missed, min, max,
 *				each counter's sum and mean per call: all
 *				CPUs, then each possible CPU
 *	regions/NAME/hist	0400 the log2 histogram of the first counter
 *	regions/NAME/enable	0600 1 or 0; a write turns the region on or off
 *	regions/NAME/reset	0200 a write sets its figures back to zero
 *	regions/NAME/spec	0400 "func=SYMBOL[,maxactive=N] COUNTER..." or
 *				"marker COUNTER..."
 *
 * A region notifier (perfkmod_region_notifier_register()) makes each
 * directory at the region's CREATED and removes it at its RELEASING, so
 * that a module's region has its files with no code of the module's own.
 * The enable, disable and reset commands find any region by name in the
 * list of these directories.
 *
 * As named_files.c's, the files are made with debugfs_create_file_unsafe()
 * and hold their file's debugfs reference (debugfs_file_get()) over the
 * use of the region, never over a copy to user space: their private data
 * is the region, valid while the reference is held, since the RELEASING
 * callback's debugfs_remove() waits for the references before the region
 * goes. Once the directory is removed a read or write fails with -EIO.
 */
#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/notifier.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "control.h"
#include "referenced_show.h"

/**
 * struct region_dir - the debugfs directory of a region
 * @node: entry in region_dirs, under region_dirs_mutex.
 * @region: the region, from its CREATED to its RELEASING.
 * @dir: regions/NAME/.
 */
struct region_dir {
	struct list_head node;
	struct perfkmod_region *region;
	struct dentry *dir;
};

static DEFINE_MUTEX(region_dirs_mutex);	/* see control.h's "Locks" */
static LIST_HEAD(region_dirs);		/* under region_dirs_mutex */
static struct dentry *regions_dir;

/* Counter @i's name, for the stat header and spec. */
static void put_counter_name(struct seq_file *m,
			     const struct perfkmod_region_config *cfg,
			     unsigned int i)
{
	if (cfg->counter_names)
		seq_puts(m, cfg->counter_names[i]);
	else
		seq_printf(m, "c%u", i);
}

/* " SUM MEAN", the mean @sum / @calls with 3 decimals, rounded. */
static void put_sum_mean(struct seq_file *m, u64 sum, u64 calls)
{
	u64 whole = 0, rem = 0, milli = 0;

	if (calls) {
		whole = div64_u64_rem(sum, calls, &rem);
		/* in halves of a thousandth, then rounded: rem < calls */
		milli = (mul_u64_u64_div_u64(rem, 2000, calls) + 1) / 2;
		if (milli == 1000) {
			whole++;
			milli = 0;
		}
	}
	seq_printf(m, " %llu %llu.%03llu", sum, whole, milli);
}

/* One line of stat: @label, then the figures of @st. */
static void stat_line(struct seq_file *m, const char *label, int cpu,
		      const struct perfkmod_region_stats *st, unsigned int nr)
{
	unsigned int i;

	if (label)
		seq_puts(m, label);
	else
		seq_printf(m, "%d", cpu);
	seq_printf(m, " %llu %llu %llu %llu %llu %llu", st->calls, st->lost,
		   st->migrated, cpu < 0 ? st->missed : 0, st->min, st->max);
	for (i = 0; i < nr; i++)
		put_sum_mean(m, st->sum[i], st->calls);
	seq_putc(m, '\n');
}

static int stat_show(struct seq_file *m, void *v)
{
	struct perfkmod_region *r = m->private;
	const struct perfkmod_region_config *cfg = perfkmod_region_get_config(r);
	struct perfkmod_region_stats *st;
	unsigned int i;
	int cpu, err;

	st = kmalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	seq_puts(m, "# CPU CALLS LOST MIGRATED MISSED MIN MAX");
	for (i = 0; i < cfg->nr_counters; i++) {
		seq_puts(m, " SUM:");
		put_counter_name(m, cfg, i);
		seq_puts(m, " MEAN:");
		put_counter_name(m, cfg, i);
	}
	seq_putc(m, '\n');
	err = perfkmod_region_read(r, -1, st);
	if (err)
		goto out;
	stat_line(m, "all", -1, st, cfg->nr_counters);
	for_each_possible_cpu(cpu) {
		err = perfkmod_region_read(r, cpu, st);
		if (err)
			goto out;
		stat_line(m, NULL, cpu, st, cfg->nr_counters);
	}
out:
	kfree(st);
	return err;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(stat);

/*
 * The log2 buckets of the first counter, all CPUs summed: "LOW HIGH
 * CALLS", from bucket 0 to the last that is not empty.
 */
static int hist_show(struct seq_file *m, void *v)
{
	struct perfkmod_region *r = m->private;
	struct perfkmod_region_stats *st;
	int i, last;
	u64 high;
	int err;

	st = kmalloc(sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	seq_puts(m, "# LOW HIGH CALLS\n");
	err = perfkmod_region_read(r, -1, st);
	if (err)
		goto out;
	for (last = PERFKMOD_REGION_HIST_BUCKETS - 1; last >= 0; last--)
		if (st->hist[last])
			break;
	for (i = 0; i <= last; i++) {
		if (!i) {
			seq_printf(m, "0 0 %llu\n", st->hist[0]);
			continue;
		}
		/* the last bucket holds every value above it too */
		high = i == PERFKMOD_REGION_HIST_BUCKETS - 1 ? U64_MAX :
		       (1ULL << i) - 1;
		seq_printf(m, "%llu %llu %llu\n", 1ULL << (i - 1), high,
			   st->hist[i]);
	}
out:
	kfree(st);
	return err;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(hist);

static int spec_show(struct seq_file *m, void *v)
{
	struct perfkmod_region *r = m->private;
	const struct perfkmod_region_config *cfg = perfkmod_region_get_config(r);
	unsigned int i;

	if (cfg->func) {
		seq_printf(m, "func=%s", cfg->func);
		if (cfg->max_active)
			seq_printf(m, ",maxactive=%u", cfg->max_active);
	} else {
		seq_puts(m, "marker");
	}
	for (i = 0; i < cfg->nr_counters; i++) {
		seq_putc(m, ' ');
		put_counter_name(m, cfg, i);
	}
	seq_putc(m, '\n');
	return 0;
}
DEFINE_REFERENCED_SHOW_ATTRIBUTE(spec);

/*
 * enable: "1" or "0", read under the reference into a kernel buffer and
 * copied out after it.
 */
static ssize_t enable_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct dentry *dentry = file->f_path.dentry;
	char buf[2];
	int err;

	err = debugfs_file_get(dentry);
	if (err)
		return err;
	buf[0] = perfkmod_region_enabled(file->private_data) ? '1' : '0';
	debugfs_file_put(dentry);
	buf[1] = '\n';
	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

/* A kstrtobool() word: turn the region on or off. */
static ssize_t enable_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct dentry *dentry = file->f_path.dentry;
	bool on;
	int err;

	err = kstrtobool_from_user(ubuf, count, &on);
	if (err)
		return err;
	err = debugfs_file_get(dentry);
	if (err)
		return err;
	if (on)
		err = perfkmod_region_enable(file->private_data);
	else
		perfkmod_region_disable(file->private_data);
	debugfs_file_put(dentry);
	return err ? err : count;
}

static const struct file_operations enable_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = enable_read,
	.write = enable_write,
	.llseek = default_llseek,
};

/* Any write resets the region's figures. */
static ssize_t reset_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct dentry *dentry = file->f_path.dentry;
	int err;

	err = debugfs_file_get(dentry);
	if (err)
		return err;
	perfkmod_region_reset(file->private_data);
	debugfs_file_put(dentry);
	return count;
}

static const struct file_operations reset_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = reset_write,
	.llseek = noop_llseek,
};

/* Called with region_dirs_mutex held. */
static struct region_dir *find_dir(const char *name)
{
	struct region_dir *rd;

	lockdep_assert_held(&region_dirs_mutex);
	list_for_each_entry(rd, &region_dirs, node)
		if (!strcmp(perfkmod_region_get_config(rd->region)->name, name))
			return rd;
	return NULL;
}

/*
 * A region was made: its directory. Like every debugfs user, this does not
 * check what debugfs returns; a region without its directory still counts,
 * and is still found by name when the allocation worked.
 */
static void region_created(struct perfkmod_region *r)
{
	const char *name = perfkmod_region_get_config(r)->name;
	struct region_dir *rd;

	rd = kzalloc(sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return;
	rd->region = r;
	rd->dir = debugfs_create_dir(name, regions_dir);
	debugfs_create_file_unsafe("stat", 0400, rd->dir, r, &stat_fops);
	debugfs_create_file_unsafe("hist", 0400, rd->dir, r, &hist_fops);
	debugfs_create_file_unsafe("enable", 0600, rd->dir, r, &enable_fops);
	debugfs_create_file_unsafe("reset", 0200, rd->dir, r, &reset_fops);
	debugfs_create_file_unsafe("spec", 0400, rd->dir, r, &spec_fops);
	mutex_lock(&region_dirs_mutex);
	list_add_tail(&rd->node, &region_dirs);
	mutex_unlock(&region_dirs_mutex);
}

/*
 * A region goes: remove its directory, which waits for the reads and
 * writes of its files under way, and forget it.
 */
static void region_releasing(struct perfkmod_region *r)
{
	struct region_dir *rd;

	mutex_lock(&region_dirs_mutex);
	list_for_each_entry(rd, &region_dirs, node) {
		if (rd->region == r) {
			list_del(&rd->node);
			debugfs_remove(rd->dir);
			kfree(rd);
			break;
		}
	}
	mutex_unlock(&region_dirs_mutex);
}

/*
 * Called by perfkmod under its region mutex, which perfkmod_named_mutex
 * may be held over: takes region_dirs_mutex only.
 */
static int region_event(struct notifier_block *nb, unsigned long event,
			void *data)
{
	if (event == PERFKMOD_REGION_CREATED)
		region_created(data);
	else if (event == PERFKMOD_REGION_RELEASING)
		region_releasing(data);
	return NOTIFY_OK;
}

static struct notifier_block region_nb = {
	.notifier_call = region_event,
};

/**
 * perfkmod_region_by_name() - turn any region on or off, or reset it
 * @name: the region's name.
 * @op: what to do.
 * @why: set to the reason in words for an error.
 *
 * For the enable, disable and reset commands on a name no counter has:
 * a region of root's or of a module's.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held; takes
 * region_dirs_mutex.
 * Return: 0; -%ENOENT when no region has @name; perfkmod_region_enable()'s
 * -%ENODEV and -%ENOENT.
 */
int perfkmod_region_by_name(const char *name, enum perfkmod_region_op op,
			    const char **why)
{
	struct region_dir *rd;
	int err = 0;

	mutex_lock(&region_dirs_mutex);
	rd = find_dir(name);
	if (!rd) {
		*why = "no counter or region has this name";
		err = -ENOENT;
		goto out;
	}
	switch (op) {
	case PERFKMOD_REGION_OP_ENABLE:
		err = perfkmod_region_enable(rd->region);
		if (err == -ENODEV)
			*why = "a counter the region reads was released";
		else if (err == -ENOENT)
			*why = "the region's function went with its module: del the region";
		break;
	case PERFKMOD_REGION_OP_DISABLE:
		perfkmod_region_disable(rd->region);
		break;
	case PERFKMOD_REGION_OP_RESET:
		perfkmod_region_reset(rd->region);
		break;
	}
out:
	mutex_unlock(&region_dirs_mutex);
	return err;
}

/**
 * perfkmod_region_files_init() - make regions/ and a directory for each
 *	region from now on
 * @top: perfkmod's debugfs directory.
 *
 * Context: process context, may sleep; module init, before any command.
 * Return: 0, or perfkmod_region_notifier_register()'s errno.
 */
int perfkmod_region_files_init(struct dentry *top)
{
	int err;

	regions_dir = debugfs_create_dir("regions", top);
	err = perfkmod_region_notifier_register(&region_nb);
	if (err)
		debugfs_remove(regions_dir);
	return err;
}

/**
 * perfkmod_region_files_exit() - remove regions/ and forget every region
 *
 * The notifier goes first: no directory is added or removed after it.
 * Removing regions/ waits for the reads and writes of its files.
 *
 * Context: process context, may sleep; module exit, once no command can
 * run, before the named regions are released.
 */
void perfkmod_region_files_exit(void)
{
	struct region_dir *rd, *tmp;

	perfkmod_region_notifier_unregister(&region_nb);
	mutex_lock(&region_dirs_mutex);
	debugfs_remove(regions_dir);
	list_for_each_entry_safe(rd, tmp, &region_dirs, node) {
		list_del(&rd->node);
		kfree(rd);
	}
	mutex_unlock(&region_dirs_mutex);
}

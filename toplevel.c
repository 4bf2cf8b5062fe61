// SPDX-License-Identifier: GPL-2.0
/*
 * The files at the top of /sys/kernel/debug/perfkmod/, each registered in
 * perfkmod_toplevel_init(). The directory is debugfs.c's, whose header
 * lists every file; Documentation/perfkmod.rst documents them. The
 * commands and the named counters are control.c's; everything else goes
 * through the exported API, as a client module would.
 */
#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "internal.h"

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
	char *end = p + width, *d = perfkmod_dec_u64(end, v);

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
	s = perfkmod_state_name(perfkmod_counter_state(n->counter));
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
	char buf[20], *d = perfkmod_dec_u64(buf + sizeof(buf), v);

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
		snap->sampling = perfkmod_is_sampling(n->counter);
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
			if (!families[f].sampling || perfkmod_is_sampling(n->counter))
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

/*
 * list: every named counter in one read, raw numbers for programs, a line
 * each (Documentation/perfkmod.rst has the format):
 *
 *	NAME TARGET STATE VALUE SCALED ENABLED_NS RUNNING_NS OVERFLOWS
 *	THROTTLED DROPPED REQUEUED SPEC
 *
 * after a header line that names the fields. Everything summary and
 * metrics show follows from it. One show under perfkmod_named_mutex, as
 * theirs: one consistent listing. Each line is written straight into the
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

/* Sized at open, as summary is, for the show to run once. */
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

static int events_show(struct seq_file *m, void *v)
{
	char name[64];
	size_t i, j, k;

	for (i = 0; i < ARRAY_SIZE(probe_events); i++)
		try_event(m, probe_events[i]);
	for (i = 0; i < ARRAY_SIZE(probe_caches); i++)
		for (j = 0; j < ARRAY_SIZE(probe_ops); j++)
			for (k = 0; k < ARRAY_SIZE(probe_results); k++) {
				snprintf(name, sizeof(name), "%s-%s-%s",
					 probe_caches[i], probe_ops[j],
					 probe_results[k]);
				try_event(m, name);
			}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(events);

/**
 * perfkmod_toplevel_init() - create the files at the top of the directory
 *
 * Context: process context, may sleep; called once from module init,
 * after perfkmod_debugfs_init(), once nothing of the init can fail.
 */
void perfkmod_toplevel_init(void)
{
	perfkmod_debugfs_file("control", 0600, &control_fops);
	perfkmod_debugfs_file("last_error", 0400, &last_error_fops);
	perfkmod_debugfs_file("summary", 0400, &summary_fops);
	perfkmod_debugfs_file("metrics", 0400, &metrics_fops);
	perfkmod_debugfs_file("list", 0400, &list_fops);
	perfkmod_debugfs_file("events", 0400, &events_fops);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The root users' interface, a client of perfkmod.h: the debugfs control
 * file and the named counters and series it makes (commands.c), the
 * module parameters that make them at load time (params.c), their list,
 * its mutex and their limits (named.c), the files of each
 * (named_files.c), the regions over named counters (named_regions.c),
 * the directory of every region, a module's too (region_files.c), and
 * the directory with its files at the top (top_files.c). Module init and
 * exit call perfkmod_control_init() and perfkmod_control_exit(); nothing
 * else of the module calls in here, and nothing here calls the module but
 * through perfkmod.h.
 *
 * Locks
 *
 * Those of the interface, outermost first; the module's own (perfkmod.h's
 * functions take them) are all taken under these, and its "Locks" map
 * (internal.h) places these above them:
 *
 *	perfkmod_named_mutex > perfkmod_named.lock > the module's locks
 *
 *	perfkmod_named_mutex > the module's region mutex > region_dirs_mutex
 *	perfkmod_named_mutex > region_dirs_mutex > the module's locks but
 *		its region mutex
 *
 *	series_reader.lock > the series' read lock (perfkmod_series_read())
 *
 * perfkmod_named_mutex (named.c)
 *	Protects the named counters' and series' lists and counts,
 *	last_error, an open control file's @temporary and each named
 *	counter's, series' and region's @owner, each counter's and
 *	series' @dir (its debugfs directory is added and removed under it,
 *	and all of them at once by perfkmod_control_exit(), once no command
 *	can run), the named regions' list, and each named counter's
 *	@series_users and @region_users, which del checks. Taken by the control
 *	file's writes, reads and release (a temporary one's), last_error,
 *	list, and module init and exit; never in a CPU hotplug callback nor
 *	under cpu_hotplug_lock. Held while a counter or series
 *	is released (perfkmod_counter_release() waits for the module's
 *	workqueues and takes its locks) and while a directory is removed,
 *	which waits for the reads of its files (they take perfkmod_named.lock
 *	or the module's locks through perfkmod.h, never this).
 * perfkmod_named.lock (struct perfkmod_named)
 *	Protects @spec, which the period command rewrites: written under
 *	both locks, read under either. Taken under perfkmod_named_mutex
 *	(period, the control file's listing) or alone (the spec file);
 *	period sets the counter's period under it.
 * region_dirs_mutex (region_files.c)
 *	Protects the list of the regions' directories: one for each region
 *	perfkmod's region notifier told of, added at its CREATED and removed
 *	at its RELEASING, both of which the module calls under its region
 *	mutex (held by perfkmod_region_create() and
 *	perfkmod_region_release(), which commands call under
 *	perfkmod_named_mutex): so it is taken under that mutex, and never
 *	takes perfkmod_named_mutex. Held while a directory is removed, which
 *	waits for the reads and writes of its files (they take no lock of
 *	the interface; the region functions they call take no region mutex),
 *	and by the enable, disable and reset commands while they find a
 *	region by name and turn it on or off or reset it, so that its
 *	RELEASING waits for them.
 * series_reader.lock (named_files.c), an open records file's
 *	One read(2) of the file at a time: its CPU, its buffer and what is
 *	left of it. Held over the series' read (perfkmod_series_read(),
 *	which takes the series' read lock) and over the copy to user space,
 *	which may fault (mmap_lock); the file's debugfs reference is taken
 *	and dropped under it around the series' read only, so that a del
 *	waiting for the reference under perfkmod_named_mutex never waits for
 *	a fault. Taken under no lock.
 */
#ifndef _PERFKMOD_CONTROL_H
#define _PERFKMOD_CONTROL_H

#include <linux/compiler_types.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/types.h>

#include "perfkmod.h"

struct dentry;
struct perfkmod_control_file;
struct seq_file;

/* The hard ceiling of max_name_len. */
#define PERFKMOD_NAME_LIMIT	255

/*
 * Words of a command, split on blanks: the longest is series's, and one
 * more, so that a series of too many counters is told so.
 */
#define PERFKMOD_MAX_WORDS	(3 + PERFKMOD_SERIES_MAX_COUNTERS + 1)

/**
 * struct perfkmod_named - a counter root made through debugfs or counters=
 * @node: entry in perfkmod_named_list, under perfkmod_named_mutex.
 * @counter: the counter.
 * @dir: its debugfs directory counters/@name; under perfkmod_named_mutex.
 * @lock: protects @spec; see "Locks" above.
 * @series_users: how many times the named series read it or trigger on
 *	it; del refuses to release it while any does. Under
 *	perfkmod_named_mutex.
 * @region_users: how many named regions read it; del refuses to release
 *	it while any does. Under perfkmod_named_mutex.
 * @owner: the open control file it is a temporary of, released with it;
 *	NULL for a counter that stays until a del. Under
 *	perfkmod_named_mutex.
 * @spec: the spec it was made from, as an add command takes it.
 * @name: its name.
 *
 * The files of counters/@name/ reach it through their inode's private
 * pointer without perfkmod_named_mutex: debugfs_remove() of @dir waits
 * for the reads of it under way (never for a copy to user space, see
 * named_files.c) before the counter is released.
 */
struct perfkmod_named {
	struct list_head node;
	struct perfkmod_counter *counter;
	struct dentry *dir;
	struct mutex lock;	/* see "Locks" above */
	unsigned int series_users;
	unsigned int region_users;
	const struct perfkmod_control_file *owner;
	char spec[PERFKMOD_SPEC_MAX + 1];
	char name[];
};

/**
 * struct perfkmod_named_series - a series made through debugfs or series=
 * @node: entry in the list of named series, under perfkmod_named_mutex.
 * @series: the series; it reads named counters, which del refuses to
 *	release while it exists.
 * @dir: its debugfs directory series/@name; under perfkmod_named_mutex.
 * @uses: the named counters it reads, then its trigger; each counted in
 *	its @series_users.
 * @nr_uses: how many @uses has.
 * @owner: the open control file it is a temporary of, as a named
 *	counter's @owner.
 * @args: the rest of the command that made it, "INTERVAL[,OPTIONS]
 *	COUNTER..." or "every=TRIGGER[,OPTIONS] COUNTER..." (OPTIONS:
 *	records=N, wakeup=N); kept in the same allocation, after @name.
 * @name: its name, in the namespace of the named counters.
 *
 * Like a named counter's, the files of series/@name/ reach it through
 * their inode's private pointer: debugfs_remove() of @dir waits for the
 * reads of it under way before the series is released.
 */
struct perfkmod_named_series {
	struct list_head node;
	struct perfkmod_series *series;
	struct dentry *dir;
	struct perfkmod_named *uses[PERFKMOD_SERIES_MAX_COUNTERS + 1];
	unsigned int nr_uses;
	const struct perfkmod_control_file *owner;
	const char *args;
	char name[];
};

/**
 * struct perfkmod_named_region - a region made through debugfs
 * @node: entry in the list of named regions, under perfkmod_named_mutex.
 * @region: the region; it reads named counters, which del refuses to
 *	release while it exists.
 * @uses: the named counters it reads, each counted in its @region_users.
 * @nr_uses: how many @uses has.
 * @owner: the open control file it is a temporary of, as a named
 *	counter's @owner.
 * @args: the rest of the command that made it,
 *	"func=SYMBOL[,maxactive=N][,off] COUNTER..."; kept in the same
 *	allocation, after @name.
 * @name: its name, in the namespace of the named counters.
 *
 * Its directory regions/@name/ is region_files.c's, as any region's.
 */
struct perfkmod_named_region {
	struct list_head node;
	struct perfkmod_region *region;
	struct perfkmod_named *uses[PERFKMOD_REGION_MAX_COUNTERS];
	unsigned int nr_uses;
	const struct perfkmod_control_file *owner;
	const char *args;
	char name[];
};

/* top_files.c: the directory and its files at the top; module init and exit */
int perfkmod_control_init(void);
void perfkmod_control_exit(void);

/* the name and arguments of a series or region, as the listing shows them */

/**
 * perfkmod_name_args_size() - the bytes perfkmod_name_args() writes
 * @name: a series' or region's name.
 * @words: its command's words after the name.
 * @nwords: how many.
 *
 * Context: any context.
 * Return: the size of @name and the words joined by blanks, each with its
 * NUL.
 */
static inline size_t perfkmod_name_args_size(const char *name, char **words,
					     int nwords)
{
	/* with no words, the arguments are an empty string: its NUL */
	size_t size = strlen(name) + 1 + !nwords;
	int i;

	for (i = 0; i < nwords; i++)
		size += strlen(words[i]) + 1;
	return size;
}

/**
 * perfkmod_name_args() - a name and its arguments, as the listing shows them
 * @buf: perfkmod_name_args_size() bytes.
 * @name: a series' or region's name, copied first.
 * @words: its command's words after the name, copied after it, joined by
 *	blanks.
 * @nwords: how many.
 *
 * Context: any context.
 * Return: the arguments' string, in @buf after the name's NUL.
 */
static inline char *perfkmod_name_args(char *buf, const char *name,
				       char **words, int nwords)
{
	size_t len = strlen(name) + 1;
	char *args = buf + len, *p = args;
	int i;

	memcpy(buf, name, len);
	for (i = 0; i < nwords; i++) {
		if (i)
			*p++ = ' ';
		len = strlen(words[i]);
		memcpy(p, words[i], len);
		p += len;
	}
	*p = '\0';
	return args;
}

/* commands.c: the named counters and series, and the control file */
int perfkmod_named_add(const char *name, const char *spec, bool files,
		       const char **why);
int perfkmod_named_series_add(const char *name, char **words, int nwords,
			      bool files, const char **why);
void perfkmod_named_add_files(void);
void perfkmod_named_release_all(void);
int perfkmod_split_words(char *s, char **words, const char **why);
int perfkmod_name_free(const char *name, const char **why);

/* series_opts.c */
int perfkmod_parse_series_opts(char *opts, struct perfkmod_series_config *cfg,
			       const char **trigger, const char **why);
struct perfkmod_control_file *perfkmod_control_open(void);
void perfkmod_control_release(struct perfkmod_control_file *f);
ssize_t perfkmod_control_write(struct perfkmod_control_file *f,
			       const char __user *ubuf, size_t count);
void perfkmod_control_show(struct seq_file *m);
void perfkmod_control_last_error(struct seq_file *m);

/* named_regions.c: the region command, and the named regions */
int perfkmod_named_region_add(const char *name, char **words, int nwords,
			      const struct perfkmod_control_file *owner,
			      const char **why);
struct perfkmod_named_region *perfkmod_named_region_find(const char *name);
void perfkmod_named_region_del(struct perfkmod_named_region *nr);
void perfkmod_named_regions_release(const struct perfkmod_control_file *owner,
				    bool all);
void perfkmod_named_regions_show(struct seq_file *m);

/* region_files.c: regions/ and the directory of every region */
enum perfkmod_region_op {
	PERFKMOD_REGION_OP_ENABLE,
	PERFKMOD_REGION_OP_DISABLE,
	PERFKMOD_REGION_OP_RESET,
};

int perfkmod_region_files_init(struct dentry *top);
void perfkmod_region_files_exit(void);
int perfkmod_region_by_name(const char *name, enum perfkmod_region_op op,
			    const char **why);

/* params.c: counters=, series= and regions= */
int perfkmod_params_load(void);

/* named.c: the list, its mutex, max_name_len, max_cmd_len and max_counters */
extern struct mutex perfkmod_named_mutex;	/* see "Locks" above */
extern struct list_head perfkmod_named_list;	/* under the mutex */
extern unsigned int perfkmod_max_name_len;
extern unsigned int perfkmod_max_cmd_len;
extern unsigned int perfkmod_max_counters;

/* named_files.c: counters/, series/ and the directory of each */
void perfkmod_named_files_init(struct dentry *top);
void perfkmod_named_files_exit(void);
const char *perfkmod_state_name(enum perfkmod_state state);
bool perfkmod_is_sampling(const struct perfkmod_counter *c);
void perfkmod_debugfs_counter_add(struct perfkmod_named *n);
void perfkmod_debugfs_counter_remove(struct perfkmod_named *n);
void perfkmod_debugfs_series_add(struct perfkmod_named_series *ns);
void perfkmod_debugfs_series_remove(struct perfkmod_named_series *ns);

#endif /* _PERFKMOD_CONTROL_H */

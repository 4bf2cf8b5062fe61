// SPDX-License-Identifier: GPL-2.0
/*
 * The regions of root users: the control file's region command measures a
 * kernel function's calls over named counters (Documentation/perfkmod.rst
 * has the details):
 *
 *	region NAME func=SYMBOL[,maxactive=N][,off] COUNTER...
 *
 * NAME is in the named counters' namespace; del NAME releases the region,
 * and del refuses a counter while a region reads it, as with series. A
 * region made on a temporary open file is one of its temporaries, released
 * with it before its counters. The directory of each region,
 * regions/NAME/, is region_files.c's, which makes one for every region,
 * a module's too. commands.c dispatches the command here, params.c the
 * entries of regions=; both check first that the name is free
 * (perfkmod_name_free()).
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "control.h"

/* The named regions and their count, under perfkmod_named_mutex. */
static LIST_HEAD(named_regions);
static unsigned int region_count;

/* Called with perfkmod_named_mutex held. */
static struct perfkmod_named *find_counter(const char *name)
{
	struct perfkmod_named *n;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry(n, &perfkmod_named_list, node)
		if (!strcmp(n->name, name))
			return n;
	return NULL;
}

/**
 * perfkmod_named_region_find() - the named region of a name
 * @name: the name.
 *
 * Context: process context; perfkmod_named_mutex held.
 * Return: the region, or NULL when none has @name.
 */
struct perfkmod_named_region *perfkmod_named_region_find(const char *name)
{
	struct perfkmod_named_region *nr;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry(nr, &named_regions, node)
		if (!strcmp(nr->name, name))
			return nr;
	return NULL;
}

/* A region's name: what perfkmod_region_create() takes. */
static int check_region_name(const char *name, const char **why)
{
	const char *p;

	if (strlen(name) > PERFKMOD_REGION_NAME_MAX) {
		*why = "a region's name is at most 63 characters";
		return -ENAMETOOLONG;
	}
	for (p = name; *p; p++) {
		if (!isalnum(*p) && *p != '_' && *p != '-' && *p != '.') {
			*why = "a region's name is letters, digits, '_', '-' and '.'";
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Parse "func=SYMBOL[,maxactive=N][,off]" into @cfg; @opts is cut up,
 * and @cfg->func points into it.
 */
static int parse_opts(char *opts, struct perfkmod_region_config *cfg,
		      const char **why)
{
	bool seen_max = false;
	char *tok;
	int err;

	while ((tok = strsep(&opts, ","))) {
		if (str_has_prefix(tok, "func=") && !cfg->func && tok[5]) {
			cfg->func = tok + 5;
		} else if (str_has_prefix(tok, "maxactive=") && !seen_max) {
			err = kstrtouint(tok + 10, 0, &cfg->max_active);
			if (!err && cfg->max_active > PERFKMOD_REGION_MAX_ACTIVE)
				err = -ERANGE;
			if (err) {
				*why = "maxactive= is not a number from 0 to 4096";
				return err;
			}
			seen_max = true;
		} else if (!strcmp(tok, "off") && !cfg->disabled) {
			cfg->disabled = true;
		} else {
			*why = "options: func=SYMBOL, then ,maxactive=N, ,off (each once)";
			return -EINVAL;
		}
	}
	if (!cfg->func) {
		*why = "a region needs func=SYMBOL";
		return -EINVAL;
	}
	return 0;
}

/*
 * The counters are all all-CPUs counters, or all counters of one task
 * without inherit: what a region reads.
 */
static bool counters_fit(struct perfkmod_named **uses, unsigned int nr)
{
	const struct perfkmod_config *first, *cfg;
	unsigned int i;

	first = perfkmod_counter_config(uses[0]->counter);
	if (first->target != PERFKMOD_TARGET_ALL_CPUS &&
	    (first->target != PERFKMOD_TARGET_TASK || first->inherit))
		return false;
	for (i = 1; i < nr; i++) {
		cfg = perfkmod_counter_config(uses[i]->counter);
		if (cfg->target != first->target || cfg->inherit ||
		    (cfg->target == PERFKMOD_TARGET_TASK &&
		     cfg->pid != first->pid))
			return false;
	}
	return true;
}

/* The reason in words of perfkmod_region_create()'s errno, for a function. */
static const char *create_why(int err)
{
	switch (err) {
	case -ENOENT:
		return "no such function";
	case -EINVAL:
		return "kprobes may not probe this function (blacklisted, notrace or entry code)";
	case -EILSEQ:
		return "the symbol is not at an instruction's start, kprobes says";
	case -EEXIST:
		return "a region (a module's) has this name";
	case -EOPNOTSUPP:
		return "this kernel has no kretprobes";
	default:
		return NULL;	/* perfkmod_strerror()'s */
	}
}

/**
 * perfkmod_named_region_add() - the region command: measure a function
 * @name: the region's name, which perfkmod_name_free() let the caller
 *	take.
 * @words: "func=SYMBOL[,maxactive=N][,off]", then the names of the
 *	counters it reads.
 * @nwords: how many @words there are.
 * @owner: the open control file it is a temporary of, or NULL.
 * @why: set to the reason in words for some of the errors.
 *
 * A region of @owner's (or of none) reads no temporary of another file,
 * nor one of @owner's when @owner is NULL, so that the temporaries of a
 * file go with it whole.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 * Return: 0 or a negative errno: perfkmod_region_create()'s, with kprobes'
 * errno for a function it may not probe, or -%EINVAL, -%ENOENT, -%EPERM,
 * -%ENOSPC, -%ENAMETOOLONG for a command out of bounds, -%EEXIST for a
 * name a module's region has.
 */
int perfkmod_named_region_add(const char *name, char **words, int nwords,
			      const struct perfkmod_control_file *owner,
			      const char **why)
{
	struct perfkmod_counter *counters[PERFKMOD_REGION_MAX_COUNTERS];
	const char *names[PERFKMOD_REGION_MAX_COUNTERS];
	struct perfkmod_region_config cfg = {
		.name = name,
		.counters = counters,
		.counter_names = names,
	};
	struct perfkmod_named *uses[PERFKMOD_REGION_MAX_COUNTERS];
	struct perfkmod_named_region *nr;
	struct perfkmod_named *n;
	size_t size, i;
	char *opts;
	int err;

	lockdep_assert_held(&perfkmod_named_mutex);
	err = check_region_name(name, why);
	if (err)
		return err;
	if (nwords < 2 || nwords > PERFKMOD_REGION_MAX_COUNTERS + 1) {
		*why = "a region reads 1 to 8 counters";
		return -EINVAL;
	}
	for (i = 1; i < nwords; i++) {
		n = find_counter(words[i]);
		if (!n) {
			*why = "a counter the region reads does not exist";
			return -ENOENT;
		}
		if (n->owner && n->owner != owner) {
			*why = "a temporary counter is read only by regions of the same open file";
			return -EPERM;
		}
		uses[cfg.nr_counters] = n;
		names[cfg.nr_counters] = n->name;
		counters[cfg.nr_counters++] = n->counter;
	}
	if (!counters_fit(uses, cfg.nr_counters)) {
		*why = "a region reads counters of all CPUs, or of one task (no inherit)";
		return -EINVAL;
	}
	if (region_count >= perfkmod_max_counters) {
		*why = "max_counters regions exist already";
		return -ENOSPC;
	}
	size = perfkmod_name_args_size(name, words, nwords);
	nr = kzalloc(struct_size(nr, name, size), GFP_KERNEL);
	if (!nr)
		return -ENOMEM;
	nr->args = perfkmod_name_args(nr->name, name, words, nwords);
	opts = kstrdup(words[0], GFP_KERNEL);
	if (!opts) {
		err = -ENOMEM;
		goto err_free;
	}
	err = parse_opts(opts, &cfg, why);
	if (err)
		goto err_opts;
	nr->region = perfkmod_region_create(&cfg);
	if (IS_ERR(nr->region)) {
		err = PTR_ERR(nr->region);
		*why = create_why(err);
		goto err_opts;
	}
	kfree(opts);
	nr->nr_uses = cfg.nr_counters;
	for (i = 0; i < nr->nr_uses; i++) {
		nr->uses[i] = uses[i];
		uses[i]->region_users++;
	}
	nr->owner = owner;
	list_add_tail(&nr->node, &named_regions);
	region_count++;
	return 0;

err_opts:
	kfree(opts);
err_free:
	kfree(nr);
	return err;
}

/**
 * perfkmod_named_region_del() - release a named region
 * @nr: the region, from perfkmod_named_region_find().
 *
 * Its directory goes first, at the region notifier's RELEASING, which
 * waits for the reads and writes of its files under way.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_named_region_del(struct perfkmod_named_region *nr)
{
	unsigned int i;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_del(&nr->node);
	region_count--;
	perfkmod_region_release(nr->region);
	for (i = 0; i < nr->nr_uses; i++)
		nr->uses[i]->region_users--;
	kfree(nr);
}

/**
 * perfkmod_named_regions_release() - release an open file's regions, or all
 * @owner: the open control file whose temporaries go.
 * @all: release every named region instead (module exit).
 *
 * Before the counters they read.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_named_regions_release(const struct perfkmod_control_file *owner,
				    bool all)
{
	struct perfkmod_named_region *nr, *tmp;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry_safe(nr, tmp, &named_regions, node)
		if (all || nr->owner == owner)
			perfkmod_named_region_del(nr);
}

/**
 * perfkmod_named_regions_show() - list the named regions as commands
 * @m: the seq_file of the control file.
 *
 * A line "region NAME ARGS" each, after the counters they name.
 *
 * Context: process context, may sleep; perfkmod_named_mutex held.
 */
void perfkmod_named_regions_show(struct seq_file *m)
{
	struct perfkmod_named_region *nr;

	lockdep_assert_held(&perfkmod_named_mutex);
	list_for_each_entry(nr, &named_regions, node)
		seq_printf(m, "region %s %s\n", nr->name, nr->args);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The module parameters counters=, series= and regions=: the named
 * counters, series and regions made at load time, each entry as the
 * control file's add, series or region command would make it, all of them
 * or the load fails.
 */
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "control.h"

/* counters="NAME=SPEC;NAME=SPEC": created at load time, or the load fails */
static char *counters;
module_param(counters, charp, 0400);
MODULE_PARM_DESC(counters, "counters to create at load time: \"NAME=SPEC;NAME=SPEC...\"; a bad one fails the load");

/*
 * series="NAME=INTERVAL:COUNTER:COUNTER;...": the series command's words,
 * ":" between them (a blank would end the parameter); made after the
 * counters= ones, or the load fails
 */
static char *series;
module_param(series, charp, 0400);
MODULE_PARM_DESC(series, "series to create at load time: \"NAME=INTERVAL|every=TRIGGER[,records=N]:COUNTER:COUNTER...;...\"; a bad one fails the load");

/*
 * regions="NAME=func=SYMBOL[,maxactive=N][,off]:COUNTER:COUNTER;...": the
 * region command's words, as series='s; made after the series= ones, or
 * the load fails. A function of a module's ("MODULE:SYMBOL") cannot be
 * written here, where ":" parts the words.
 */
static char *regions;
module_param(regions, charp, 0400);
MODULE_PARM_DESC(regions, "regions to create at load time: \"NAME=func=SYMBOL[,maxactive=N][,off]:COUNTER:COUNTER...;...\"; a bad one fails the load");

enum param_kind { PARAM_COUNTERS, PARAM_SERIES, PARAM_REGIONS };

static const char * const entry_forms[] = {
	[PARAM_COUNTERS] = "an entry is NAME=SPEC",
	[PARAM_SERIES] = "an entry is NAME=INTERVAL|every=TRIGGER:COUNTER...",
	[PARAM_REGIONS] = "an entry is NAME=func=SYMBOL:COUNTER...",
};

/*
 * Make one entry of counters= ("NAME=SPEC"), series= ("NAME=INTERVAL:
 * COUNTER:COUNTER...") or regions= ("NAME=func=SYMBOL:COUNTER..."); called
 * with perfkmod_named_mutex held.
 */
static int load_entry(char *entry, enum param_kind kind, const char **why)
{
	char *words[PERFKMOD_MAX_WORDS], *rest = strchr(entry, '=');
	int nwords, err;

	if (!rest) {
		*why = entry_forms[kind];
		return -EINVAL;
	}
	*rest++ = '\0';
	if (kind == PARAM_COUNTERS)
		return perfkmod_named_add(entry, rest, false, why);
	strreplace(rest, ':', ' ');
	nwords = perfkmod_split_words(rest, words, why);
	if (nwords < 0)
		return nwords;
	if (kind == PARAM_REGIONS) {
		err = perfkmod_name_free(entry, why);
		if (err)
			return err;
		return perfkmod_named_region_add(entry, words, nwords, NULL, why);
	}
	return perfkmod_named_series_add(entry, words, nwords, false, why);
}

/* Make each entry of "ENTRY;ENTRY...", or the first error, logged. */
static int load_param(const char *param, const char *pname,
		      enum param_kind kind)
{
	char *list, *s, *entry, *copy;
	const char *why = NULL;
	int err = 0;

	list = kstrdup(param, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	s = list;
	while ((entry = strsep(&s, ";"))) {
		entry = strim(entry);
		if (!*entry)
			continue;
		/* the entry as written, for the error message */
		copy = kstrdup(entry, GFP_KERNEL);
		err = copy ? load_entry(entry, kind, &why) : -ENOMEM;
		if (err)
			pr_err("%s=: \"%s\": %pe: %s; not loading\n", pname,
			       copy ?: entry, ERR_PTR(err),
			       why ?: perfkmod_strerror(err));
		kfree(copy);
		if (err)
			break;
	}
	kfree(list);
	return err;
}

/**
 * perfkmod_params_load() - create the counters=, series= and regions= ones
 *
 * Each entry of counters= ("NAME=SPEC;NAME=SPEC..."), then of series=,
 * then of regions= must be created, or none is and the load fails with
 * the errno of the first that could not be, logged with the reason. The
 * debugfs directories of the counters and series are made once all are,
 * so that none exists when the load fails; a region's is made with it
 * (region_files.c), and goes with it, before the control file exists.
 *
 * Context: process context, may sleep; called once from
 * perfkmod_control_init(), after perfkmod_named_files_init() and
 * perfkmod_region_files_init(), and before the files at the top exist. Takes perfkmod_named_mutex.
 * Return: 0 or a negative errno.
 */
int perfkmod_params_load(void)
{
	int err = 0;

	mutex_lock(&perfkmod_named_mutex);
	if (counters && *counters)
		err = load_param(counters, "counters", PARAM_COUNTERS);
	if (!err && series && *series)
		err = load_param(series, "series", PARAM_SERIES);
	if (!err && regions && *regions)
		err = load_param(regions, "regions", PARAM_REGIONS);
	if (err)
		perfkmod_named_release_all();
	else
		perfkmod_named_add_files();
	mutex_unlock(&perfkmod_named_mutex);
	return err;
}

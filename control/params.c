// SPDX-License-Identifier: GPL-2.0
/*
 * The module parameters counters= and series=: the named counters and
 * series made at load time, each entry as the control file's add or series
 * command would make it, all of them or the load fails.
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
 * Make one entry of counters= ("NAME=SPEC") or series= ("NAME=INTERVAL:
 * COUNTER:COUNTER..."); called with perfkmod_named_mutex held.
 */
static int load_entry(char *entry, bool is_series, const char **why)
{
	char *words[PERFKMOD_MAX_WORDS], *rest = strchr(entry, '=');
	int nwords;

	if (!rest) {
		*why = is_series ? "an entry is NAME=INTERVAL|every=TRIGGER:COUNTER..." :
				   "an entry is NAME=SPEC";
		return -EINVAL;
	}
	*rest++ = '\0';
	if (!is_series)
		return perfkmod_named_add(entry, rest, false, why);
	strreplace(rest, ':', ' ');
	nwords = perfkmod_split_words(rest, words, why);
	if (nwords < 0)
		return nwords;
	return perfkmod_named_series_add(entry, words, nwords, false, why);
}

/* Make each entry of "ENTRY;ENTRY...", or the first error, logged. */
static int load_param(const char *param, const char *pname, bool is_series)
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
		err = copy ? load_entry(entry, is_series, &why) : -ENOMEM;
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
 * perfkmod_params_load() - create the counters= and series= ones
 *
 * Each entry of counters= ("NAME=SPEC;NAME=SPEC...") and then of series=
 * must be created, or none is and the load fails with the errno of the
 * first that could not be, logged with the reason. Their debugfs
 * directories are made once all are, so that none exists when the load
 * fails.
 *
 * Context: process context, may sleep; called once from
 * perfkmod_control_init(), after perfkmod_named_files_init() and before
 * the files at the top exist. Takes perfkmod_named_mutex.
 * Return: 0 or a negative errno.
 */
int perfkmod_params_load(void)
{
	int err = 0;

	mutex_lock(&perfkmod_named_mutex);
	if (counters && *counters)
		err = load_param(counters, "counters", false);
	if (!err && series && *series)
		err = load_param(series, "series", true);
	if (err)
		perfkmod_named_release_all();
	else
		perfkmod_named_add_files();
	mutex_unlock(&perfkmod_named_mutex);
	return err;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * What perf's event syntax looks up on this machine: the PMUs of
 * /sys/bus/event_source/devices (each one's type, the bit fields of its
 * terms in format/, its event aliases in events/) and the tracepoints'
 * ids in tracefs (/sys/kernel/tracing, or /sys/kernel/debug/tracing).
 * sysfs_root, empty but in the host tests, is put before every path.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkstat.h"
#include "events.h"

const char *sysfs_root = "";

static const char pmu_dir[] = "/sys/bus/event_source/devices";

/* sys_text: the text of the file at sysfs_root + the path FMT makes; NULL if none */
static __printf(1, 2) char *sys_text(const char *fmt, ...)
{
	char *path, *text;
	va_list ap;
	int n;

	va_start(ap, fmt);
	path = vxasprintf(fmt, ap, &n);
	va_end(ap);
	text = read_text(path);
	free(path);
	return text;
}

/* safe_name: S may be a file's name in a path (no /, not . or ..) */
static bool safe_name(const char *s)
{
	return *s && !strchr(s, '/') && strcmp(s, ".") && strcmp(s, "..");
}

bool pmu_type(const char *pmu, u32 *type)
{
	char *text;
	u64 v = 0;
	bool ok;

	if (!safe_name(pmu))
		return false;
	text = sys_text("%s%s/%s/type", sysfs_root, pmu_dir, pmu);
	ok = text && parse_u64(text, &v) && v <= UINT32_MAX;
	free(text);
	*type = v;
	return ok;
}

char *pmu_alias(const char *pmu, const char *name)
{
	if (!safe_name(pmu) || !safe_name(name))
		return NULL;
	return sys_text("%s%s/%s/events/%s", sysfs_root, pmu_dir, pmu, name);
}

char *pmu_format(const char *pmu, const char *term)
{
	if (!safe_name(pmu) || !safe_name(term))
		return NULL;
	return sys_text("%s%s/%s/format/%s", sysfs_root, pmu_dir, pmu, term);
}

/*
 * pmu_put: VALUE into CONFIG (config, config1, config2) at the bits of
 * FORMAT ("config:0-7,32-35", "config1:9"), its low bits in the lowest
 * field first, as perf's pmu_format_value() puts them; NULL, or why not
 */
const char *pmu_put(const char *format, u64 value, u64 config[3])
{
	const char *p = strchr(format, ':');
	unsigned int lo, hi, b, used = 0, idx;
	u64 *dst;
	int n;

	if (!p)
		return "a format file not in perf's form";
	if ((size_t)(p - format) == 6 && !strncmp(format, "config", 6))
		idx = 0;
	else if ((size_t)(p - format) == 7 && !strncmp(format, "config1", 7))
		idx = 1;
	else if ((size_t)(p - format) == 7 && !strncmp(format, "config2", 7))
		idx = 2;
	else
		return "a term of a field perfkmod does not set (config3?)";
	dst = &config[idx];
	for (p++; *p; p += n) {
		n = 0;
		if (sscanf(p, "%u-%u%n", &lo, &hi, &n) != 2 || !n) {
			n = 0;
			if (sscanf(p, "%u%n", &lo, &n) != 1 || !n)
				return "a format file not in perf's form";
			hi = lo;
		}
		if (hi < lo || hi > 63)
			return "a format file not in perf's form";
		for (b = lo; b <= hi; b++, used++) {
			if (used < 64 && (value >> used & 1))
				*dst |= 1ULL << b;
			else
				*dst &= ~(1ULL << b);
		}
		if (p[n] == ',')
			n++;
		else if (p[n] && p[n] != '\n')
			return "a format file not in perf's form";
	}
	if (used < 64 && value >> used)
		return "a value too big for the term's bits";
	return NULL;
}

/* the tracefs directories perf looks in, in its order */
static const char * const tracefs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

char *tracefs_events(void)
{
	char *path;
	size_t i;
	DIR *d;

	for (i = 0; i < ARRAY_SIZE(tracefs); i++) {
		path = xasprintf("%s%s/events", sysfs_root, tracefs[i]);
		d = opendir(path);
		if (d) {
			closedir(d);
			return path;
		}
		free(path);
	}
	return NULL;
}

bool tracepoint_id(const char *sys, const char *event, u64 *id)
{
	char *dir, *text;
	bool ok;

	if (!safe_name(sys) || !safe_name(event))
		return false;
	dir = tracefs_events();
	if (!dir)
		return false;
	text = sys_text("%s/%s/%s/id", dir, sys, event);
	free(dir);
	ok = text && parse_u64(text, id);
	free(text);
	return ok;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

char **dir_names(const char *path, int *n)
{
	char **names = NULL;
	struct dirent *e;
	DIR *d = opendir(path);

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		names = xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), by_name);
	return names;
}

void free_names(char **names, int n)
{
	while (n-- > 0)
		free(names[n]);
	free(names);
}

char **pmu_names(int *n)
{
	char *path = xasprintf("%s%s", sysfs_root, pmu_dir);
	char **names = dir_names(path, n);

	free(path);
	return names;
}

char **pmu_dir_names(const char *pmu, const char *sub, int *n)
{
	char *path = xasprintf("%s%s/%s/%s", sysfs_root, pmu_dir, pmu, sub);
	char **names = dir_names(path, n);

	free(path);
	return names;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * perfkmod's list file: every named counter in one read, consistent
 * within it (Documentation/perfkmod.rst has the format): a "#" header,
 * then a line a counter,
 *
 *	NAME TARGET STATE VALUE SCALED ENABLED_NS RUNNING_NS OVERFLOWS
 *	THROTTLED DROPPED REQUEUED SPEC
 *
 * with "-" for the overflow statistics of a counter that only counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfkstat.h"

/* field: the next blank-separated field of *P, NUL-terminated */
static char *field(char **p)
{
	char *f = *p + strspn(*p, " "), *end = f + strcspn(f, " ");

	*p = *end ? end + 1 : end;
	*end = '\0';
	return f;
}

static bool number(const char *f, u64 *v, bool *dash)
{
	if (dash && !strcmp(f, "-")) {
		*dash = true;
		*v = 0;
		return true;
	}
	return parse_u64(f, v);
}

int read_list(struct list_entry **out)
{
	struct list_entry *e = NULL, *x;
	char *path = dbg_path("list"), *text, *p, *line;
	u64 *num[8];
	bool dash;
	int n = 0, k;

	text = read_text(path);
	if (!text)
		die("%s: %s", path, strerror(errno));
	p = text;
	/* the header: the first line, and it alone (a NAME may begin with #) */
	if (!next_line(&p) || text[0] != '#')
		die("%s: no header line", path);
	while ((line = next_line(&p))) {
		if (!line[0])
			continue;
		e = xrealloc(e, (n + 1) * sizeof(*e));
		x = &e[n];
		memset(x, 0, sizeof(*x));
		x->name = xstrdup(field(&line));
		x->target = xstrdup(field(&line));
		x->state = xstrdup(field(&line));
		num[0] = &x->value;
		num[1] = &x->scaled;
		num[2] = &x->enabled;
		num[3] = &x->running;
		num[4] = &x->overflows;
		num[5] = &x->throttled;
		num[6] = &x->dropped;
		num[7] = &x->requeued;
		dash = false;
		for (k = 0; k < 8; k++)
			if (!number(field(&line), num[k], k >= 4 ? &dash : NULL))
				die("%s: a line not in its format: %s", path, x->name);
		x->sampling = !dash;
		x->spec = xstrdup(line);
		n++;
	}
	free(text);
	free(path);
	*out = e;
	return n;
}

void free_list(struct list_entry *e, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(e[i].name);
		free(e[i].target);
		free(e[i].state);
		free(e[i].spec);
	}
	free(e);
}

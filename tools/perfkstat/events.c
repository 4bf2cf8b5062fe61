// SPDX-License-Identifier: GPL-2.0
/*
 * An -e argument, as perf stat and perf record read it: a comma-separated
 * list of events. perfkmod's own grammar takes a comma too, before each
 * option of an event (cycles:u,period=100000): a piece that is one of
 * its options (parse.c's option words) belongs to the event before it,
 * as perf would refuse such a piece as an event.
 *
 * A pmu/term=value,.../ event and a {a,b} group are one piece each, their
 * commas kept: what they mean is for the code that makes the counters.
 */
#include <stdlib.h>
#include <string.h>

#include "perfkstat.h"
#include "events.h"

/* perfkmod's options: with a value, and the flags */
static const char * const value_options[] = {
	"period", "freq", "cpu", "pid", "precise", "config", "config1", "config2",
};

static const char * const flag_options[] = {
	"pinned", "exclusive", "inherit", "disabled", "enable_on_exec",
};

/* is_option: the LEN bytes at S are one of perfkmod's options */
static bool is_option(const char *s, size_t len)
{
	const char *eq = memchr(s, '=', len);
	size_t i, n = eq ? (size_t)(eq - s) : len;
	const char * const *words = eq ? value_options : flag_options;
	size_t nwords = eq ? ARRAY_SIZE(value_options) : ARRAY_SIZE(flag_options);

	for (i = 0; i < nwords; i++)
		if (strlen(words[i]) == n && !strncmp(s, words[i], n))
			return true;
	return false;
}

/* add_piece: the LEN bytes at S as a new piece, or joined to the last one */
static char **add_piece(char **pieces, int *n, const char *s, size_t len,
			bool join)
{
	char *p;

	if (join) {
		p = xasprintf("%s,%.*s", pieces[*n - 1], (int)len, s);
		free(pieces[*n - 1]);
		pieces[*n - 1] = p;
		return pieces;
	}
	pieces = xrealloc(pieces, (*n + 1) * sizeof(*pieces));
	pieces[(*n)++] = xasprintf("%.*s", (int)len, s);
	return pieces;
}

static void free_pieces(char **pieces, int n)
{
	while (n--)
		free(pieces[n]);
	free(pieces);
}

/*
 * split_events: ARG's events, N of them, in an array to free with each
 * string; NULL, with WHY, when ARG is not a list perf would take (an
 * empty event, an option before any event, a term or group not closed).
 * A comma ends an event but inside a pmu/.../ term or a {...} group. A
 * "/" opens or closes a term, but in a breakpoint (mem:ADDR/LEN).
 */
char **split_events(const char *arg, int *n, const char **why)
{
	const char *start = arg, *elem = arg, *s;
	bool term = false, opt;
	char **pieces = NULL;
	int depth = 0;

	*n = 0;
	for (s = arg;; s++) {
		if (term) {
			if (!*s) {
				*why = "a pmu/.../ event without its closing /";
				goto fail;
			}
			term = *s != '/';
			continue;
		}
		if (*s == '/') {
			term = strncmp(elem, "mem:", 4) != 0;
		} else if (*s == '{') {
			depth++;
			elem = s + 1;
		} else if (*s == '}') {
			if (!depth--) {
				*why = "a } without its {";
				goto fail;
			}
		} else if (*s == ',' && depth) {
			elem = s + 1;
		} else if (*s == ',' || !*s) {
			if (!*s && depth) {
				*why = "a { group without its }";
				goto fail;
			}
			if (s == start) {
				*why = "an empty event (a comma too many?)";
				goto fail;
			}
			opt = is_option(start, s - start);
			if (opt && !*n) {
				*why = "an option of perfkmod's grammar before any event";
				goto fail;
			}
			pieces = add_piece(pieces, n, start, s - start, opt);
			if (!*s)
				return pieces;
			start = s + 1;
			elem = start;
		}
	}
fail:
	free_pieces(pieces, *n);
	*n = 0;
	return NULL;
}

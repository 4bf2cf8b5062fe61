// SPDX-License-Identifier: GPL-2.0
/*
 * An -e argument, as perf stat and perf record read it: a comma-separated
 * list of events, each made a spec of perfkmod's grammar as perf's parser
 * (tools/perf/util/parse-events.l and .y) reads the event. perfkmod's own
 * grammar takes a comma too, before each option of an event
 * (cycles:u,period=100000): a piece that is one of its options (parse.c's
 * option words) belongs to the event before it, as perf would refuse such
 * a piece as an event.
 *
 * A pmu/term=value,.../ event and a {a,b} group are one piece each, their
 * commas kept: what they mean is for the code that makes the counters.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* perf's event modifiers, parse-events.l's modifier_event */
static const char perf_mods[] = "ukhpPGHSDIWebR";

/* is_mods: S is a run of perf's event modifiers, as its lexer takes them */
static bool is_mods(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 16 && strspn(s, perf_mods) == n;
}

/*
 * perf's legacy symbols (parse-events.l's sym()) with the attr perf gives
 * each (parse-events.c's event_symbols_hw and event_symbols_sw: type 0 is
 * PERF_TYPE_HARDWARE, 1 PERF_TYPE_SOFTWARE, the config its index there),
 * and its tool events, which have no attr of their own (NO_ATTR)
 */
#define NO_ATTR ~0U
static const struct {
	const char *name;
	u32 type;
	u64 config;
} perf_symbols[] = {
	{ "cpu-cycles", 0, 0 }, { "cycles", 0, 0 },
	{ "stalled-cycles-frontend", 0, 7 }, { "idle-cycles-frontend", 0, 7 },
	{ "stalled-cycles-backend", 0, 8 }, { "idle-cycles-backend", 0, 8 },
	{ "instructions", 0, 1 }, { "cache-references", 0, 2 },
	{ "cache-misses", 0, 3 }, { "branch-instructions", 0, 4 },
	{ "branches", 0, 4 }, { "branch-misses", 0, 5 }, { "bus-cycles", 0, 6 },
	{ "ref-cycles", 0, 9 },
	{ "cpu-clock", 1, 0 }, { "task-clock", 1, 1 }, { "page-faults", 1, 2 },
	{ "faults", 1, 2 }, { "minor-faults", 1, 5 }, { "major-faults", 1, 6 },
	{ "context-switches", 1, 3 }, { "cs", 1, 3 }, { "cpu-migrations", 1, 4 },
	{ "migrations", 1, 4 }, { "alignment-faults", 1, 7 },
	{ "emulation-faults", 1, 8 }, { "dummy", 1, 9 }, { "bpf-output", 1, 10 },
	{ "cgroup-switches", 1, 11 },
	{ "duration_time", NO_ATTR, 0 }, { "user_time", NO_ATTR, 0 },
	{ "system_time", NO_ATTR, 0 },
};

/*
 * the hardware cache events' names, CACHE[-OP][-RESULT], each part by its
 * aliases, the index its value in the config (evsel.c's evsel__hw_cache,
 * evsel__hw_cache_op and evsel__hw_cache_result)
 */
static const char * const cache_types[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char * const cache_ops[][5] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char * const cache_results[][5] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

static bool is_symbol(const char *s)
{
	size_t i, j, n;

	for (i = 0; i < ARRAY_SIZE(perf_symbols); i++)
		if (!strcmp(s, perf_symbols[i].name))
			return true;
	for (i = 0; i < ARRAY_SIZE(cache_types); i++)
		for (j = 0; j < ARRAY_SIZE(cache_types[i]) && cache_types[i][j]; j++) {
			n = strlen(cache_types[i][j]);
			if (!strncmp(s, cache_types[i][j], n) && (!s[n] || s[n] == '-'))
				return true;
		}
	return false;
}

/*
 * cache_alias: the index in NAMES (N of them) of S's first part, its
 * length in LEN, as perf's parse_aliases() finds it; -1 for none
 */
static int cache_alias(const char *s, const char * const (*names)[5], size_t n,
		       size_t *len)
{
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		*len = 0;
		for (j = 0; j < 5 && names[i][j]; j++) {
			k = strlen(names[i][j]);
			if (k > *len && !strncasecmp(s, names[i][j], k))
				*len = k;
		}
		if (*len)
			return i;
	}
	return -1;
}

/*
 * cache_config: the config of cache event S, as perf's
 * parse_events__decode_legacy_cache() makes it (its OP read and its
 * RESULT accesses unless it names them); false if S is none
 */
static bool cache_config(const char *s, u64 *config)
{
	const char *end = s + strlen(s);
	int type, op = -1, result = -1, k, part;
	size_t len;

	type = cache_alias(s, cache_types, ARRAY_SIZE(cache_types), &len);
	if (type < 0)
		return false;
	s += len + 1;
	for (part = 0; part < 2 && s < end + 1; part++) {
		k = op < 0 ? cache_alias(s, cache_ops, ARRAY_SIZE(cache_ops), &len) : -1;
		if (k >= 0) {
			op = k;
		} else if (result < 0) {
			k = cache_alias(s, cache_results, ARRAY_SIZE(cache_results), &len);
			if (k < 0)
				break;
			result = k;
		} else {
			break;
		}
		s += len + 1;
	}
	*config = type | (u64)(op < 0 ? 0 : op) << 8 | (u64)(result < 0 ? 0 : result) << 16;
	return true;
}

/* perf_num: S is a number as perf's lexer reads one, decimal or 0x hex */
static bool perf_num(const char *s, u64 *v)
{
	char *end;

	if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2))
		return parse_u64(s, v);
	if (!s[2] || strspn(s + 2, "0123456789abcdefABCDEF") != strlen(s + 2) ||
	    strlen(s + 2) - strspn(s + 2, "0") > 16)
		return false;
	*v = strtoull(s + 2, &end, 16);
	return true;
}

/* fail: WHY set to a message of FMT, for a NULL to return */
static __printf(2, 3) char *fail(char **why, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	*why = vxasprintf(fmt, ap, &n);
	va_end(ap);
	return NULL;
}

/*
 * check_mods: MODS, one run of modifiers as typed, as perf's lexer takes
 * it (each letter once, but p up to three times); NULL or why not
 */
static const char *check_mods(const char *mods, bool group)
{
	const char *m;
	int p = 0;

	for (m = mods; *m; m++) {
		if (*m == 'p' && ++p > 3)
			return "Maximum precise value is 3 (perf's limit)";
		if (*m != 'p' && strchr(m + 1, *m))
			return "a modifier given twice (perf refuses it)";
		if (*m == 'W' && !group)
			return "Weak modifier is for use with groups (perf's error)";
	}
	return NULL;
}

static bool noted_host;

/*
 * put_mods: perf's modifiers MODS as perfkmod writes them, letters after
 * a NAME or raw event (NAMED) into LETTERS, else options into OPTS; false,
 * with WHY, for one perfkmod cannot honour. :H says once that perfkmod's
 * counters count a guest too.
 */
static bool put_mods(const char *mods, bool named, struct sbuf *letters,
		     struct sbuf *opts, char **why)
{
	const char *m;
	int p = 0;

	for (m = mods; *m; m++) {
		switch (*m) {
		case 'u': case 'k': case 'h': case 'I':
			if (!named) {
				fail(why, ":%c: perfkmod has it for named and raw events only",
				     *m);
				return false;
			}
			sb_printf(letters, "%c", *m);
			break;
		case 'p':
			p++;
			break;
		case 'D':
			if (named)
				sb_printf(letters, "D");
			else
				sb_printf(opts, ",pinned");
			break;
		case 'e':
			if (named)
				sb_printf(letters, "e");
			else
				sb_printf(opts, ",exclusive");
			break;
		case 'W':
			break;
		case 'H':
			if (!noted_host)
				warn("note: :H: perfkmod's counters count guests too");
			noted_host = true;
			break;
		case 'G':
			fail(why, ":G: perfkmod cannot count a guest alone (no exclude_host)");
			return false;
		case 'P':
			fail(why, ":P: perfkmod has no highest precise level: :p, :pp or :ppp");
			return false;
		case 'S':
			fail(why, ":S: reading the members at the leader's samples needs a group");
			return false;
		case 'b':
			fail(why, ":b: BPF counters are perf's, not the kernel's");
			return false;
		default:
			fail(why, ":%c: perfkmod has no such modifier", *m);
			return false;
		}
	}
	if (p > 3) {
		fail(why, "Maximum precise value is 3 (perf's limit)");
		return false;
	}
	if (p && named)
		sb_printf(letters, "%.*s", p, "ppp");
	else if (p)
		sb_printf(opts, ",precise=%d", p);
	return true;
}

static char *pmu_terms(const char *pmu, const char *terms, u64 config[3],
		       struct sbuf *opts, char **name, int depth);

/* pmu_term: the term T[=V] of PMU (a format's bits, or an alias), or why not */
static char *pmu_term(const char *pmu, const char *t, const char *v, u64 val,
		      u64 config[3], struct sbuf *opts, int depth)
{
	char *text, *why = NULL;
	const char *err;

	text = pmu_format(pmu, t);
	if (text) {
		err = pmu_put(text, v ? val : 1, config);
		if (err)
			fail(&why, "%s/%s/: %s (%s)", pmu, t, err, text);
		free(text);
		return why;
	}
	text = !v && !depth ? pmu_alias(pmu, t) : NULL;
	if (text) {
		why = pmu_terms(pmu, text, config, opts, NULL, depth + 1);
		free(text);
		return why;
	}
	if (*pmu)
		return fail(&why, "PMU %s has no term or event %s", pmu, t), why;
	return fail(&why, "%s: a named event takes period, freq and name here", t), why;
}

/* what separates terms: commas, and the blanks an alias file may have */
static const char term_seps[] = ",\t\n ";

/*
 * pmu_terms: TERMS of PMU (perf's term=value,... between the slashes)
 * into CONFIG, period and freq into OPTS, name= into NAME; NULL, or why
 * not. An alias of PMU's events/ is its own terms (DEPTH: in one).
 */
static char *pmu_terms(const char *pmu, const char *terms, u64 config[3],
		       struct sbuf *opts, char **name, int depth)
{
	char *copy = xstrdup(terms), *save = NULL, *t, *v, *why = NULL;
	u64 val = 0;

	for (t = strtok_r(copy, term_seps, &save); t && !why;
	     t = strtok_r(NULL, term_seps, &save)) {
		v = strchr(t, '=');
		if (v)
			*v++ = '\0';
		if (v && strcmp(t, "name") && !perf_num(v, &val)) {
			fail(&why, "%s=%s: not a number perf takes (decimal, 0x hex)", t, v);
		} else if (!strcmp(t, "config") || !strcmp(t, "config1") ||
			   !strcmp(t, "config2")) {
			if (!v)
				fail(&why, "%s needs a value", t);
			else
				config[t[6] ? t[6] - '0' : 0] = val;
		} else if (!strcmp(t, "period") || !strcmp(t, "freq")) {
			if (!v)
				fail(&why, "%s needs a value", t);
			else
				sb_printf(opts, ",%s=%llu", t, (unsigned long long)val);
		} else if (!strcmp(t, "name") && !depth) {
			if (!v || !*v || !name) {
				fail(&why, "name needs a value");
			} else {
				free(*name);
				*name = xstrdup(v);
			}
		} else {
			why = pmu_term(pmu, t, v, val, config, opts, depth);
		}
	}
	free(copy);
	return why;
}

/* one_pmu_with: the PMU whose events/ has NAME, if one alone has it */
static char *one_pmu_with(const char *name)
{
	char **pmus, *alias, *found = NULL;
	int n, i, count = 0;

	pmus = pmu_names(&n);
	for (i = 0; i < n; i++) {
		alias = pmu_alias(pmus[i], name);
		if (alias && !count++)
			found = xstrdup(pmus[i]);
		free(alias);
	}
	free_names(pmus, n);
	if (count > 1) {
		free(found);
		found = NULL;
	}
	return found;
}

/* after_slash: the end of a pmu/terms/ event at S: its second "/" */
static const char *after_slash(const char *s)
{
	const char *a = strchr(s, '/');

	return a ? strchr(a + 1, '/') : NULL;
}

/*
 * pmu_event: the spec of PMU/TERMS/MODS (or of a named event's
 * NAME/TERMS/MODS), NULL with WHY. The CPU's PMU (PERF_TYPE_RAW) is
 * written raw, so that its modifiers stay letters; another is pmu=TYPE.
 */
static char *pmu_event(const char *pmu, const char *terms, const char *mods,
		       char **name, char **why)
{
	struct sbuf sb = { 0 }, letters = { 0 }, opts = { 0 };
	u64 config[3] = { 0 };
	bool named = false;
	u32 type = 0;

	if (!pmu_type(pmu, &type)) {
		if (!is_symbol(pmu) || strchr(pmu, ':'))
			return fail(why, "no PMU %s on this machine", pmu);
		/* perf's NAME/TERMS/: period, freq and name alone */
		named = true;
		*why = pmu_terms("", terms, config, &opts, name, 0);
		sb_printf(&sb, "%s", pmu);
	} else {
		named = type == 4;
		*why = pmu_terms(pmu, terms, config, &opts, name, 0);
		if (named)
			sb_printf(&sb, "r%llx", (unsigned long long)config[0]);
		else
			sb_printf(&sb, "pmu=%u,config=0x%llx", type,
				  (unsigned long long)config[0]);
	}
	if (*why || !put_mods(mods, named, &letters, &opts, why)) {
		sb_free(&sb);
		sb_free(&opts);
		sb_free(&letters);
		return NULL;
	}
	if (letters.len)
		sb_printf(&sb, ":%s", letters.buf);
	if (config[1])
		sb_printf(&sb, ",config1=0x%llx", (unsigned long long)config[1]);
	if (config[2])
		sb_printf(&sb, ",config2=0x%llx", (unsigned long long)config[2]);
	if (opts.len)
		sb_printf(&sb, "%s", opts.buf);
	sb_free(&opts);
	sb_free(&letters);
	return sb.buf;
}

/* numeric_event: perf's TYPE:CONFIG, or a tracepoint SYS:EVENT, as BASE */
static bool numeric_event(const char *sys, const char *ev, char **base, char **why)
{
	char *dir;
	u64 id;

	if (all_digits(sys) && perf_num(ev, &id)) {
		*base = xasprintf("pmu=%s,config=0x%llx", sys, (unsigned long long)id);
		return true;
	}
	if (strpbrk(sys, "*?[") || strpbrk(ev, "*?[")) {
		fail(why, "one tracepoint here, not a pattern");
		return false;
	}
	if (tracepoint_id(sys, ev, &id)) {
		*base = xasprintf("tracepoint=%llu", (unsigned long long)id);
		return true;
	}
	dir = tracefs_events();
	if (dir)
		fail(why, "no tracepoint %s:%s in %s", sys, ev, dir);
	else
		fail(why, "no tracefs (/sys/kernel/tracing) for tracepoint %s:%s", sys, ev);
	free(dir);
	return false;
}

/* is_raw: perf's rNNN or r0xNNN */
static bool is_raw(const char *s)
{
	if (s[0] != 'r')
		return false;
	s += strncmp(s, "r0x", 3) ? 1 : 3;
	return *s && strspn(s, "0123456789abcdefABCDEF") == strlen(s);
}

/*
 * translate: perfkmod's spec of EV (one event as perf reads it, in a
 * GROUP with the modifiers GMODS); NULL with WHY when it cannot be made.
 * NAME gets perf's name= term, if there is one.
 */
static char *translate(const char *ev, const char *gmods, bool group, char **name,
		       char **why)
{
	char *base = xstrdup(ev), *mods = NULL, *colon, *spec = NULL, *pmu = NULL;
	struct sbuf letters = { 0 }, opts = { 0 }, all = { 0 };
	const char *end = NULL, *err;
	bool named = true;

	if (strncmp(base, "mem:", 4))
		end = after_slash(base);
	if (end) {
		/* PMU/TERMS/[:]MODS */
		mods = xstrdup(end[1] == ':' ? end + 2 : end + 1);
		base[end - base] = '\0';
		colon = strchr(base, '/');
		*colon = '\0';
		pmu = xstrdup(base);
		memmove(base, colon + 1, strlen(colon + 1) + 1);
	} else if (strchr(base, '/') && strncmp(base, "mem:", 4)) {
		fail(why, "a pmu/.../ event without its closing /");
		goto out;
	} else {
		colon = strrchr(base, ':');
		if (colon && colon != base && is_mods(colon + 1)) {
			mods = xstrdup(colon + 1);
			*colon = '\0';
		}
	}
	err = mods && *mods ? check_mods(mods, group) : NULL;
	if (err) {
		fail(why, ":%s: %s", mods, err);
		goto out;
	}
	sb_printf(&all, "%s%s", mods ? mods : "", gmods);

	if (!pmu && !strpbrk(base, ":=") && !is_raw(base) && !is_symbol(base)) {
		/* a PMU's event by its alias alone, when one PMU has it */
		pmu = one_pmu_with(base);
	}
	if (pmu) {
		spec = pmu_event(pmu, base, all.len ? all.buf : "", name, why);
		goto out;
	}

	if (!strncmp(base, "mem:", 4)) {
		/* a breakpoint: perfkmod takes perf's mem:ADDR[/LEN][:ACCESS] */
		named = false;
	} else if (strchr(base, '=')) {
		/* perfkmod's own tracepoint=ID, pmu=TYPE: no modifiers there */
		if (all.len) {
			fail(why, "perfkmod's %s takes no modifiers", base);
			goto out;
		}
	} else if (strchr(base, ':')) {
		colon = strchr(base, ':');
		*colon = '\0';
		named = false;
		if (!numeric_event(base, colon + 1, &spec, why))
			goto out;
		free(base);
		base = spec;
		spec = NULL;
	} else if (!strncmp(base, "r0x", 3)) {
		/* perf's r0xNNN is perfkmod's rNNN */
		memmove(base + 1, base + 3, strlen(base + 3) + 1);
	}
	if (!put_mods(all.len ? all.buf : "", named, &letters, &opts, why))
		goto out;
	spec = xasprintf("%s%s%s%s", base, letters.len ? ":" : "",
			 letters.len ? letters.buf : "", opts.len ? opts.buf : "");
out:
	sb_free(&letters);
	sb_free(&opts);
	sb_free(&all);
	free(base);
	free(mods);
	free(pmu);
	return spec;
}

/* event_end: where the event of PIECE ends, before perfkmod's options */
static size_t event_end(const char *piece)
{
	const char *s = piece, *end;

	if (!strncmp(s, "mem:", 4))
		return strcspn(s, ",");
	if (strcspn(s, "/") < strcspn(s, ",")) {
		end = after_slash(s);
		if (end)
			return end - s + strcspn(end, ",");
	}
	return strcspn(s, ",");
}

/* has_mods: EV ends with its modifiers */
static bool has_mods(const char *ev)
{
	const char *end = after_slash(ev), *colon = strrchr(ev, ':');

	if (end && strncmp(ev, "mem:", 4))
		return end[1];
	return colon && colon != ev && is_mods(colon + 1);
}

/*
 * group_spec: PIECE's event (with the group's modifiers GMODS) made
 * perfkmod's spec, its options kept; LABEL is how its row is named
 */
static char *group_spec(const char *piece, const char *gmods, bool group,
			char **label, char **why)
{
	size_t n = event_end(piece);
	char *ev = xasprintf("%.*s", (int)n, piece), *name = NULL, *spec, *full;

	*why = NULL;
	spec = translate(ev, gmods, group, &name, why);
	if (!spec) {
		free(ev);
		free(name);
		return NULL;
	}
	full = xasprintf("%s%s", spec, piece + n);
	free(spec);
	if (name)
		*label = name;
	else if (*gmods)
		*label = xasprintf("%s%s%s", ev,
				   has_mods(ev) || (after_slash(ev) && strncmp(ev, "mem:", 4)) ?
				   "" : ":", gmods);
	else
		*label = xstrdup(piece);
	free(ev);
	return full;
}

/*
 * event_spec: perfkmod's spec of PIECE (one of split_events(), not a
 * group) and the name of its row in LABEL; NULL, with WHY, when it
 * cannot be made. Both to free.
 */
char *event_spec(const char *piece, char **label, char **why)
{
	return group_spec(piece, "", false, label, why);
}

/* spec_attr: the type and config of perfkmod's SPEC, as perf's attr */
static bool spec_attr(const char *spec, u32 *type, u64 *config)
{
	size_t len = strcspn(spec, ":,"), i;
	char *base, *end;
	bool found;

	*config = 0;
	if (!strncmp(spec, "mem:", 4)) {
		*type = 5;			/* PERF_TYPE_BREAKPOINT */
		return true;
	}
	if (!strncmp(spec, "tracepoint=", 11)) {
		*type = 2;			/* PERF_TYPE_TRACEPOINT */
		*config = strtoull(spec + 11, NULL, 10);
		return true;
	}
	if (!strncmp(spec, "pmu=", 4)) {
		*type = strtoul(spec + 4, &end, 10);
		if (strncmp(end, ",config=", 8))
			return false;
		*config = strtoull(end + 8, NULL, 0);
		return true;
	}
	base = xasprintf("%.*s", (int)len, spec);
	for (i = 0; i < ARRAY_SIZE(perf_symbols); i++)
		if (!strcmp(base, perf_symbols[i].name)) {
			free(base);
			*type = perf_symbols[i].type;
			*config = perf_symbols[i].config;
			return *type != NO_ATTR;
		}
	found = is_symbol(base) && cache_config(base, config);
	*type = 3;				/* PERF_TYPE_HW_CACHE */
	if (!found && is_raw(base)) {
		*type = 4;			/* PERF_TYPE_RAW */
		*config = strtoull(base + 1, NULL, 16);
		found = true;
	}
	free(base);
	return found;
}

bool event_attr(const char *ev, u32 *type, u64 *config)
{
	char *label = NULL, *why = NULL, *spec = event_spec(ev, &label, &why);
	bool found = spec && spec_attr(spec, type, config);

	free(spec);
	free(label);
	free(why);
	return found;
}

static bool noted_group;

/* perf_event_create_kernel_counter() has no group leader */
static const char no_groups[] =
	"in-kernel counters cannot be grouped: its events count independently";

/*
 * tracepoints: the tracepoints that PIECE's pattern SYS:EVENT matches (as
 * perf's sched:* or sched:sched_*), a piece each with PIECE's modifiers
 * and options, N of them, in name order; NULL when PIECE is no pattern
 */
static char **tracepoints(const char *piece, int *n)
{
	size_t end = event_end(piece), len;
	char *ev = xasprintf("%.*s", (int)end, piece), *dir, **sys, **evs, *path;
	char **found = NULL, *colon = strchr(ev, ':'), *rest, *pat;
	int ns, ne, i, k;

	*n = 0;
	if (!colon || strchr(ev, '/') || !strpbrk(ev, "*?[")) {
		free(ev);
		return NULL;
	}
	*colon = '\0';
	len = strcspn(colon + 1, ":");
	pat = xasprintf("%.*s", (int)len, colon + 1);
	rest = colon + 1 + len;		/* the modifiers, if any */
	dir = tracefs_events();
	sys = dir ? dir_names(dir, &ns) : NULL;
	for (i = 0; sys && i < ns; i++) {
		if (fnmatch(ev, sys[i], 0))
			continue;
		path = xasprintf("%s/%s", dir, sys[i]);
		evs = dir_names(path, &ne);
		free(path);
		for (k = 0; k < ne; k++) {
			path = xasprintf("%s/%s/%s/id", dir, sys[i], evs[k]);
			if (!fnmatch(pat, evs[k], 0) && !access(path, R_OK)) {
				found = xrealloc(found, (*n + 1) * sizeof(*found));
				found[(*n)++] = xasprintf("%s:%s%s%s", sys[i], evs[k], rest,
							  piece + end);
			}
			free(path);
		}
		free_names(evs, ne);
	}
	free_names(sys, sys ? ns : 0);
	free(dir);
	free(pat);
	free(ev);
	return found ? found : xmalloc(sizeof(*found));
}

/* add_spec: E[*N], the event PIECE (in a GROUP with GMODS), or die saying why */
static struct event_spec *add_spec(struct event_spec *e, int *n, const char *piece,
				   const char *gmods, bool group)
{
	char *why = NULL, *label = NULL, *spec, **tps;
	int ntp, i;

	tps = tracepoints(piece, &ntp);
	if (tps) {
		if (!ntp)
			die("-e %s: no tracepoint matches it (perfkstat events lists them)", piece);
		for (i = 0; i < ntp; i++)
			e = add_spec(e, n, tps[i], gmods, group);
		free_pieces(tps, ntp);
		return e;
	}

	spec = group_spec(piece, gmods, group, &label, &why);
	if (!spec)
		die("-e %s: %s (perfkstat events lists what this machine can count)",
		    piece, why);
	e = xrealloc(e, (*n + 1) * sizeof(*e));
	e[*n].label = label;
	e[(*n)++].spec = spec;
	return e;
}

/*
 * event_specs: -e's ARG, each event made perfkmod's spec, N of them;
 * the members of a {...} group each an event, with the group's modifiers
 * (in-kernel counters have no group leader: one note on standard error
 * says so). Dies, naming what was typed, when one cannot be made.
 */
struct event_spec *event_specs(const char *arg, int *n)
{
	struct event_spec *e = NULL;
	char **pieces, **members, *inner, *gmods;
	const char *why, *close, *err;
	int np, nm, i, k;

	*n = 0;
	pieces = split_events(arg, &np, &why);
	if (!pieces)
		die("-e %s: %s", arg, why);
	for (i = 0; i < np; i++) {
		if (pieces[i][0] != '{') {
			e = add_spec(e, n, pieces[i], "", false);
			continue;
		}
		close = strrchr(pieces[i], '}');
		if (close[1] && (close[1] != ':' || !is_mods(close + 2)))
			die("-e %s: after a group's }, its modifiers alone (:u...)", pieces[i]);
		gmods = xstrdup(close[1] ? close + 2 : "");
		err = check_mods(gmods, true);
		if (err)
			die("-e %s: :%s: %s", pieces[i], gmods, err);
		inner = xasprintf("%.*s", (int)(close - pieces[i] - 1), pieces[i] + 1);
		members = split_events(inner, &nm, &why);
		if (!members)
			die("-e %s: %s", pieces[i], why);
		if (!noted_group)
			warn("note: %s: %s", pieces[i], no_groups);
		noted_group = true;
		for (k = 0; k < nm; k++) {
			if (members[k][0] == '{')
				die("-e %s: a group inside a group", pieces[i]);
			e = add_spec(e, n, members[k], gmods, true);
		}
		free_pieces(members, nm);
		free(inner);
		free(gmods);
	}
	free_pieces(pieces, np);
	return e;
}

void free_event_specs(struct event_spec *e, int n)
{
	while (n-- > 0) {
		free(e[n].label);
		free(e[n].spec);
	}
	free(e);
}

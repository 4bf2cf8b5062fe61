// SPDX-License-Identifier: GPL-2.0
/*
 * The event grammar: the one text form of an event, used by the module
 * parameters, the debugfs control file and (through debugfs) the userspace
 * tool. Pure functions: no allocation, no locking, no global state.
 *
 *	SPEC     := EVENT { "," OPTION }
 *	EVENT    := NAME [ ":" MODIFIERS ]        hardware, software, cache
 *		  | "r" HEX [ ":" MODIFIERS ]      raw
 *		  | "mem:" ADDR [ "/" LEN ] [ ":" ACCESS [ LEN ] ]
 *		  | "tracepoint=" ID
 *		  | "pmu=" TYPE
 *	MODIFIERS:= { "u" | "k" | "h" | "I" | "p" | "D" | "e" }
 *	ACCESS   := "r" | "w" | "rw" | "wr" | "x"
 *	OPTION   := "period=" N | "freq=" N | "cpu=" N | "pid=" N
 *		  | "precise=" N | "config=" N | "config1=" N | "config2=" N
 *		  | "pinned" | "exclusive" | "inherit" | "disabled"
 *		  | "enable_on_exec"
 *
 * Documentation/perfkmod.rst has the details and examples.
 */
#include <linux/ctype.h>
#include <linux/export.h>
#include <linux/hw_breakpoint.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/threads.h>

#include "compat.h"
#include "perfkmod.h"

struct event_name {
	const char *name;
	u64 config;
};

/* The generic hardware events, with perf's names and aliases. */
static const struct event_name hw_events[] = {
	{ "cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "idle-cycles-frontend", PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "idle-cycles-backend", PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
};

/* The software events, with perf's names and aliases. */
static const struct event_name sw_events[] = {
	{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_COUNT_SW_PAGE_FAULTS },
	{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
	{ "dummy", PERF_COUNT_SW_DUMMY },
	{ "bpf-output", PERF_COUNT_SW_BPF_OUTPUT },
	{ "cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES },
};

/* Hardware cache events are named CACHE-OP[-RESULT], as perf names them. */
static const struct event_name cache_ids[] = {
	{ "L1-dcache", PERF_COUNT_HW_CACHE_L1D },
	{ "L1-icache", PERF_COUNT_HW_CACHE_L1I },
	{ "LLC", PERF_COUNT_HW_CACHE_LL },
	{ "dTLB", PERF_COUNT_HW_CACHE_DTLB },
	{ "iTLB", PERF_COUNT_HW_CACHE_ITLB },
	{ "branch", PERF_COUNT_HW_CACHE_BPU },
	{ "node", PERF_COUNT_HW_CACHE_NODE },
};

static const struct event_name cache_ops[] = {
	{ "load", PERF_COUNT_HW_CACHE_OP_READ },
	{ "loads", PERF_COUNT_HW_CACHE_OP_READ },
	{ "store", PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "stores", PERF_COUNT_HW_CACHE_OP_WRITE },
	{ "prefetch", PERF_COUNT_HW_CACHE_OP_PREFETCH },
	{ "prefetches", PERF_COUNT_HW_CACHE_OP_PREFETCH },
};

static const struct event_name cache_results[] = {
	{ "misses", PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "miss", PERF_COUNT_HW_CACHE_RESULT_MISS },
	{ "accesses", PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "access", PERF_COUNT_HW_CACHE_RESULT_ACCESS },
	{ "refs", PERF_COUNT_HW_CACHE_RESULT_ACCESS },
};

static bool lookup(const struct event_name *names, size_t n,
		   const char *name, size_t len, u64 *config)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strlen(names[i].name) == len &&
		    !strncmp(names[i].name, name, len)) {
			*config = names[i].config;
			return true;
		}
	}
	return false;
}

/* A number as perf takes it: decimal, 0x hex or 0 octal. */
static int parse_u64(const char *s, u64 *val)
{
	if (!*s)
		return -EINVAL;
	return kstrtou64(s, 0, val);
}

static int parse_u64_max(const char *s, u64 max, u64 *val)
{
	int err = parse_u64(s, val);

	if (!err && *val > max)
		err = -ERANGE;
	return err;
}

/* CACHE-OP[-RESULT]; a missing RESULT means accesses, as in perf. */
static int parse_cache(const char *name, struct perfkmod_config *cfg)
{
	u64 id, op, result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	const char *rest;
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(cache_ids); i++) {
		len = strlen(cache_ids[i].name);
		if (!strncmp(name, cache_ids[i].name, len) && name[len] == '-')
			break;
	}
	if (i == ARRAY_SIZE(cache_ids))
		return -EINVAL;
	id = cache_ids[i].config;
	rest = name + len + 1;

	len = strcspn(rest, "-");
	if (!lookup(cache_ops, ARRAY_SIZE(cache_ops), rest, len, &op))
		return -EINVAL;
	if (rest[len] == '-') {
		rest += len + 1;
		if (!lookup(cache_results, ARRAY_SIZE(cache_results), rest,
			    strlen(rest), &result))
			return -EINVAL;
	}

	cfg->type = PERF_TYPE_HW_CACHE;
	cfg->config = PERFKMOD_HW_CACHE(id, op, result);
	return 0;
}

/*
 * perf's modifiers: any of u, k, h counts in those privilege levels only;
 * I excludes idle; each p raises precise_ip; D pins; e is exclusive.
 */
static int parse_modifiers(const char *mods, struct perfkmod_config *cfg)
{
	bool u = false, k = false, h = false;
	const char *m;

	if (!*mods)
		return -EINVAL;
	for (m = mods; *m; m++) {
		switch (*m) {
		case 'u':
			u = true;
			break;
		case 'k':
			k = true;
			break;
		case 'h':
			h = true;
			break;
		case 'I':
			cfg->exclude_idle = true;
			break;
		case 'p':
			if (cfg->precise_ip == 3)
				return -ERANGE;
			cfg->precise_ip++;
			break;
		case 'D':
			cfg->pinned = true;
			break;
		case 'e':
			cfg->exclusive = true;
			break;
		default:
			return -EINVAL;
		}
	}
	if (u || k || h) {
		cfg->exclude_user = !u;
		cfg->exclude_kernel = !k;
		cfg->exclude_hv = !h;
	}
	return 0;
}

/* A breakpoint length, 1 to 8 bytes. */
static int parse_bp_len(const char *s, u64 *len)
{
	int err = parse_u64_max(s, HW_BREAKPOINT_LEN_8, len);

	return !err && !*len ? -EINVAL : err;
}

/*
 * mem:ADDR[/LEN][:ACCESS[LEN]], perf's breakpoint syntax. As in perf, the
 * access defaults to rw and the length to 4, or sizeof(long) for x.
 */
static int parse_mem(char *s, struct perfkmod_config *cfg)
{
	char *access = strchr(s, ':');
	char *len = strchr(s, '/');
	u32 type = HW_BREAKPOINT_RW;
	u64 addr, n = 0;
	size_t letters;
	int err;

	if (access && len && len > access)
		return -EINVAL;
	if (access)
		*access++ = '\0';
	if (len) {
		*len++ = '\0';
		err = parse_bp_len(len, &n);
		if (err)
			return err;
	}
	err = parse_u64(s, &addr);
	if (err)
		return err;

	if (access) {
		letters = strspn(access, "rwx");
		if (letters == 1 && access[0] == 'r')
			type = HW_BREAKPOINT_R;
		else if (letters == 1 && access[0] == 'w')
			type = HW_BREAKPOINT_W;
		else if (letters == 1 && access[0] == 'x')
			type = HW_BREAKPOINT_X;
		else if (letters == 2 && (!strncmp(access, "rw", 2) ||
					  !strncmp(access, "wr", 2)))
			type = HW_BREAKPOINT_RW;
		else
			return -EINVAL;
		if (access[letters]) {
			if (n)
				return -EINVAL;
			err = parse_bp_len(access + letters, &n);
			if (err)
				return err;
		}
	}
	if (!n)
		n = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;

	cfg->type = PERF_TYPE_BREAKPOINT;
	cfg->bp_addr = addr;
	cfg->bp_type = type;
	cfg->bp_len = n;
	return 0;
}

/* "r" and hex digits: a raw event. */
static bool is_raw(const char *s)
{
	return s[0] == 'r' && s[1] && !s[1 + strspn(s + 1, "0123456789abcdefABCDEF")];
}

static int parse_event(char *s, struct perfkmod_config *cfg)
{
	char *mods;
	size_t len;
	u64 val;
	int err;

	if (str_has_prefix(s, "mem:"))
		return parse_mem(s + 4, cfg);
	if (str_has_prefix(s, "tracepoint=")) {
		cfg->type = PERF_TYPE_TRACEPOINT;
		return parse_u64(s + 11, &cfg->config);
	}
	if (str_has_prefix(s, "pmu=")) {
		err = parse_u64_max(s + 4, U32_MAX, &val);
		if (!err)
			cfg->type = val;
		return err;
	}

	mods = strchr(s, ':');
	if (mods)
		*mods++ = '\0';
	len = strlen(s);
	if (lookup(hw_events, ARRAY_SIZE(hw_events), s, len, &cfg->config)) {
		cfg->type = PERF_TYPE_HARDWARE;
	} else if (lookup(sw_events, ARRAY_SIZE(sw_events), s, len,
			  &cfg->config)) {
		cfg->type = PERF_TYPE_SOFTWARE;
	} else if (is_raw(s)) {
		cfg->type = PERF_TYPE_RAW;
		err = kstrtou64(s + 1, 16, &cfg->config);
		if (err)
			return err;
	} else {
		err = parse_cache(s, cfg);
		if (err)
			return err;
	}
	return mods ? parse_modifiers(mods, cfg) : 0;
}

/* Each option once: a bit per option in a mask of those seen. */
enum option {
	OPT_PERIOD, OPT_FREQ, OPT_CPU, OPT_PID, OPT_PRECISE, OPT_CONFIG,
	OPT_CONFIG1, OPT_CONFIG2, OPT_PINNED, OPT_EXCLUSIVE, OPT_INHERIT,
	OPT_DISABLED, OPT_ENABLE_ON_EXEC, OPT_COUNT
};

static const char * const option_names[] = {
	[OPT_PERIOD] = "period", [OPT_FREQ] = "freq", [OPT_CPU] = "cpu",
	[OPT_PID] = "pid", [OPT_PRECISE] = "precise", [OPT_CONFIG] = "config",
	[OPT_CONFIG1] = "config1", [OPT_CONFIG2] = "config2",
	[OPT_PINNED] = "pinned", [OPT_EXCLUSIVE] = "exclusive",
	[OPT_INHERIT] = "inherit", [OPT_DISABLED] = "disabled",
	[OPT_ENABLE_ON_EXEC] = "enable_on_exec",
};

static_assert(ARRAY_SIZE(option_names) == OPT_COUNT);

/* Options with a value; the others are flags. */
#define VALUE_OPTIONS	(BIT(OPT_PERIOD) | BIT(OPT_FREQ) | BIT(OPT_CPU) | \
			 BIT(OPT_PID) | BIT(OPT_PRECISE) | BIT(OPT_CONFIG) | \
			 BIT(OPT_CONFIG1) | BIT(OPT_CONFIG2))

static int parse_option(char *s, struct perfkmod_config *cfg, bool pmu,
			unsigned long *seen)
{
	char *value = strchr(s, '=');
	u64 val = 0;
	int opt, err = 0;

	if (value)
		*value++ = '\0';
	opt = match_string(option_names, ARRAY_SIZE(option_names), s);
	if (opt < 0 || __test_and_set_bit(opt, seen))
		return -EINVAL;
	if (!!value != !!(VALUE_OPTIONS & BIT(opt)))
		return -EINVAL;
	if (value) {
		err = parse_u64(value, &val);
		if (err)
			return err;
	}

	switch (opt) {
	case OPT_PERIOD:
		if (!val)
			return -EINVAL;
		/* perf keeps the top bit of a period for itself */
		if (val & BIT_ULL(63))
			return -ERANGE;
		cfg->sample_period = val;
		break;
	case OPT_FREQ:
		if (!val)
			return -EINVAL;
		cfg->sample_freq = val;
		break;
	case OPT_CPU:
		if (val > INT_MAX)
			return -ERANGE;
		cfg->cpu = val;
		cfg->target = PERFKMOD_TARGET_CPU;
		break;
	case OPT_PID:
		if (!val)
			return -EINVAL;
		if (val > PID_MAX_LIMIT)
			return -ERANGE;
		cfg->pid = val;
		cfg->target = PERFKMOD_TARGET_TASK;
		break;
	case OPT_PRECISE:
		if (cfg->precise_ip)	/* also given as :p modifiers */
			return -EINVAL;
		if (val > 3)
			return -ERANGE;
		cfg->precise_ip = val;
		break;
	case OPT_CONFIG:
		if (!pmu)
			return -EINVAL;
		cfg->config = val;
		break;
	case OPT_CONFIG1:
	case OPT_CONFIG2:
		if (!pmu && cfg->type != PERF_TYPE_RAW)
			return -EINVAL;
		if (opt == OPT_CONFIG1)
			cfg->config1 = val;
		else
			cfg->config2 = val;
		break;
	case OPT_PINNED:
		cfg->pinned = true;
		break;
	case OPT_EXCLUSIVE:
		cfg->exclusive = true;
		break;
	case OPT_INHERIT:
		cfg->inherit = true;
		break;
	case OPT_DISABLED:
		cfg->disabled = true;
		break;
	case OPT_ENABLE_ON_EXEC:
		cfg->enable_on_exec = true;
		break;
	}
	return err;
}

/*
 * The kernel-doc of perfkmod_parse() is in perfkmod.h, with the rest of the
 * exported interface.
 */
int perfkmod_parse(const char *spec, struct perfkmod_config *config)
{
	char buf[PERFKMOD_SPEC_MAX + 1];
	struct perfkmod_config cfg = {};
	DECLARE_BITMAP(seen, OPT_COUNT) = {};
	char *s = buf, *tok;
	size_t len, i;
	bool pmu;
	int err;

	len = strnlen(spec, sizeof(buf));
	if (len == sizeof(buf))
		return -E2BIG;
	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isgraph(spec[i]))
			return -EINVAL;
	memcpy(buf, spec, len + 1);

	tok = strsep(&s, ",");
	pmu = str_has_prefix(tok, "pmu=");
	err = parse_event(tok, &cfg);
	while (!err && s) {
		tok = strsep(&s, ",");
		err = parse_option(tok, &cfg, pmu, seen);
	}
	if (err)
		return err;
	if (cfg.sample_period && cfg.sample_freq)
		return -EINVAL;
	if (test_bit(OPT_CPU, seen) && test_bit(OPT_PID, seen))
		return -EINVAL;
	/* off until the exec, or off until enabled: not both */
	if (cfg.enable_on_exec && cfg.disabled)
		return -EINVAL;

	*config = cfg;
	return 0;
}
EXPORT_SYMBOL_GPL(perfkmod_parse);

/* Whether @names[@i] is the first name of its event: the rest are aliases. */
static bool first_name(const struct event_name *names, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (names[j].config == names[i].config)
			return false;
	return true;
}

/*
 * The name of @names' event number @index, aliases left out, or NULL when
 * there are fewer events; @index less those there are, then.
 */
static const char *nth_name(const struct event_name *names, size_t n,
			    unsigned int *index)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!first_name(names, i))
			continue;
		if (!*index)
			return names[i].name;
		(*index)--;
	}
	return NULL;
}

/* How many events @names has, aliases left out. */
static unsigned int count_names(const struct event_name *names, size_t n)
{
	unsigned int i = UINT_MAX;

	nth_name(names, n, &i);
	return UINT_MAX - i;
}

/*
 * The kernel-doc of perfkmod_event_name() is in perfkmod.h, with the rest of
 * the exported interface.
 */
int perfkmod_event_name(unsigned int index, char *buf, size_t size)
{
	unsigned int nops = count_names(cache_ops, ARRAY_SIZE(cache_ops));
	unsigned int nresults = count_names(cache_results,
					    ARRAY_SIZE(cache_results));
	unsigned int id, op, result;
	const char *name;

	name = nth_name(hw_events, ARRAY_SIZE(hw_events), &index);
	if (!name)
		name = nth_name(sw_events, ARRAY_SIZE(sw_events), &index);
	if (name)
		return strscpy(buf, name, size) < 0 ? -E2BIG : 0;
	/* CACHE-OP-RESULT: the caches outermost, the results innermost */
	id = index / (nops * nresults);
	op = index / nresults % nops;
	result = index % nresults;
	name = nth_name(cache_ids, ARRAY_SIZE(cache_ids), &id);
	if (!name)
		return -ENOENT;
	if (snprintf(buf, size, "%s-%s-%s", name,
		     nth_name(cache_ops, ARRAY_SIZE(cache_ops), &op),
		     nth_name(cache_results, ARRAY_SIZE(cache_results),
			      &result)) >= size)
		return -E2BIG;
	return 0;
}
EXPORT_SYMBOL_GPL(perfkmod_event_name);

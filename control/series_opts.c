// SPDX-License-Identifier: GPL-2.0
/*
 * The options of the series command and of series=, the text after the
 * series' name, made the fields of its struct perfkmod_series_config.
 */
#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include "control.h"

/* The texts that refuse an option name these limits. */
static_assert(PERFKMOD_SERIES_MIN_INTERVAL_NS == 100000);
static_assert(PERFKMOD_SERIES_MAX_RECORDS == 1048576);

/* "100us": a number and its unit, ns, us, ms or s, in nanoseconds. */
static int parse_interval(const char *s, u64 *ns)
{
	static const struct {
		const char *unit;
		u64 mult;
	} units[] = {
		{ "ns", 1 }, { "us", NSEC_PER_USEC }, { "ms", NSEC_PER_MSEC },
		{ "s", NSEC_PER_SEC },
	};
	size_t len = strspn(s, "0123456789");
	char num[21];
	u64 v;
	int i, err;

	if (!len)
		return -EINVAL;
	if (len >= sizeof(num))
		return -ERANGE;
	memcpy(num, s, len);
	num[len] = '\0';
	err = kstrtou64(num, 10, &v);
	if (err)
		return err;
	for (i = 0; i < ARRAY_SIZE(units); i++)
		if (!strcmp(s + len, units[i].unit))
			return check_mul_overflow(v, units[i].mult, ns) ?
			       -ERANGE : 0;
	return -EINVAL;
}

/**
 * perfkmod_parse_series_opts() - a series' own options, into its config
 * @opts: "INTERVAL[,records=N][,wakeup=N]" or
 *	"every=TRIGGER[,records=N][,wakeup=N]"; split in place.
 * @cfg: gets the interval, ring_records and wakeup_records given.
 * @trigger: set to the name of the trigger, in @opts, else NULL.
 * @why: set to the reason in words when @opts is refused.
 *
 * Context: any context; takes no lock.
 * Return: 0, or -%EINVAL or -%ERANGE.
 */
int perfkmod_parse_series_opts(char *opts, struct perfkmod_series_config *cfg,
			       const char **trigger, const char **why)
{
	char *tok = strsep(&opts, ",");
	bool records = false, wakeup = false;
	int err;

	*trigger = NULL;
	if (str_has_prefix(tok, "every=")) {
		*trigger = tok + strlen("every=");
		if (!**trigger) {
			*why = "every= names the trigger: every=COUNTER";
			return -EINVAL;
		}
	} else {
		err = parse_interval(tok, &cfg->interval_ns);
		if (!err && cfg->interval_ns > KTIME_MAX)
			err = -ERANGE;
		if (!err && cfg->interval_ns < PERFKMOD_SERIES_MIN_INTERVAL_NS)
			err = -EINVAL;
		if (err) {
			*why = "an interval is a number and a unit (ns, us, ms, s), at least 100us";
			return err;
		}
	}
	while ((tok = strsep(&opts, ","))) {
		if (str_has_prefix(tok, "wakeup=") && !wakeup) {
			wakeup = true;
			err = kstrtouint(tok + strlen("wakeup="), 10,
					 &cfg->wakeup_records);
			if (!err && (!cfg->wakeup_records ||
				     cfg->wakeup_records >
				     PERFKMOD_SERIES_MAX_RECORDS))
				err = -ERANGE;
			if (err) {
				*why = "wakeup is 1 to 1048576";
				return err;
			}
			continue;
		}
		if (!str_has_prefix(tok, "records=") || records) {
			*why = "the options of a series are records=N and wakeup=N, once each";
			return -EINVAL;
		}
		records = true;
		err = kstrtouint(tok + strlen("records="), 10, &cfg->ring_records);
		if (!err && (!cfg->ring_records ||
			     cfg->ring_records > PERFKMOD_SERIES_MAX_RECORDS))
			err = -ERANGE;
		if (err) {
			*why = "records is 1 to 1048576";
			return err;
		}
	}
	return 0;
}

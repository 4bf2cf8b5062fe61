#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# promcheck FILE: a strict checker of the Prometheus text exposition
# format (version 0.0.4), as node_exporter's textfile collector reads it.
# Prints the first problem and exits 1; exits 0 when FILE is well formed.
#
# Stricter than Prometheus where perfkmod's output should be: every sample
# has a # TYPE before it, HELP and TYPE at most once per name and before
# its samples, a family's samples contiguous, no series twice, counters
# named *_total, no blank lines, the file ends with a newline.
#
# Prometheus's own promtool (check metrics: its parser and its lint) judges
# the same files on the host (prom_out in lib.sh, scripts/judge.py). What
# only this checker catches (promtool 2.42 accepts each): a series twice, a
# family's samples split by another family's, a sample with no # TYPE, a
# blank line.

f=${1:?usage: promcheck FILE}
[ -s "$f" ] || { echo "$f: empty"; exit 1; }
[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] ||
	{ echo "$f: does not end with a newline"; exit 1; }

awk '
function bad(why) {
	printf "line %d: %s: %s\n", NR, why, $0
	failed = 1
	exit 1
}
function is_name(s) { return s ~ /^[a-zA-Z_:][a-zA-Z0-9_:]*$/ }
function is_value(s) {
	return s ~ /^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$/ ||
		s ~ /^([-+]?Inf|NaN)$/
}
# close the previous family when another begins; a family never reopens
function family(name) {
	if (name == cur)
		return
	if (name in closed)
		bad("samples of " name " are not contiguous")
	if (cur != "")
		closed[cur] = 1
	cur = name
}
/^$/ { bad("blank line") }
/^#/ {
	if ($0 !~ /^# (HELP|TYPE) /)
		bad("a comment other than # HELP or # TYPE")
	if (!is_name($3))
		bad("bad metric name " $3)
	if ($2 == "HELP") {
		if ($3 in help)
			bad("second HELP for " $3)
		if ($3 in seen)
			bad("HELP after samples of " $3)
		help[$3] = 1
		next
	}
	if (NF != 4 || $4 !~ /^(counter|gauge|histogram|summary|untyped)$/)
		bad("bad TYPE line")
	if ($3 in type)
		bad("second TYPE for " $3)
	if ($3 in seen)
		bad("TYPE after samples of " $3)
	type[$3] = $4
	next
}
{
	line = $0
	match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*/)
	if (RSTART != 1)
		bad("a sample must start with a metric name")
	name = substr(line, 1, RLENGTH)
	rest = substr(line, RLENGTH + 1)
	if (!(name in type))
		bad("no TYPE before the samples of " name)
	if (type[name] == "counter" && name !~ /_total$/)
		bad("counter " name " is not named *_total")
	family(name)
	seen[name] = 1
	key = name "{"
	split("", labels)
	if (substr(rest, 1, 1) == "{") {
		rest = substr(rest, 2)
		while (substr(rest, 1, 1) != "}") {
			match(rest, /^[a-zA-Z_][a-zA-Z0-9_]*="/)
			if (RSTART != 1)
				bad("bad label name or no opening quote")
			lname = substr(rest, 1, RLENGTH - 2)
			if (lname ~ /^__/)
				bad("label name " lname " is reserved")
			if (lname in labels)
				bad("label " lname " twice")
			labels[lname] = 1
			rest = substr(rest, RLENGTH + 1)
			val = ""
			for (;;) {
				c = substr(rest, 1, 1)
				if (c == "")
					bad("label value not closed")
				rest = substr(rest, 2)
				if (c == "\"")
					break
				if (c == "\\") {
					c = substr(rest, 1, 1)
					rest = substr(rest, 2)
					if (c != "\\" && c != "\"" && c != "n")
						bad("bad escape \\" c " in a label value")
					val = val "\\" c
				} else {
					val = val c
				}
			}
			key = key lname "=" val ","
			c = substr(rest, 1, 1)
			if (c == ",")
				rest = substr(rest, 2)
			else if (c != "}")
				bad("expected , or } after a label")
		}
		rest = substr(rest, 2)
	}
	if (substr(rest, 1, 1) != " ")
		bad("no space before the value")
	n = split(substr(rest, 2), v, " ")
	if (n < 1 || n > 2 || substr(rest, 2) ~ /^ | $|  /)
		bad("expected a value and an optional time stamp")
	if (!is_value(v[1]))
		bad("bad value " v[1])
	if (n == 2 && v[2] !~ /^-?[0-9]+$/)
		bad("bad time stamp " v[2])
	if (type[name] == "counter" && v[1] ~ /^-/)
		bad("negative counter")
	if (key in series)
		bad("series twice")
	series[key] = 1
	samples++
}
END {
	if (!failed && !samples) {
		print "no samples"
		exit 1
	}
}' "$f"

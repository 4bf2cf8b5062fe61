#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkman.sh VERSION < "perfkstat help": the manual perfkstat prints, as a
# man page (roff) on standard output: NAME, its usage lines as the
# SYNOPSIS, then each heading a section, its text laid out as it is (.nf).
awk -v version="$1" '
function roff(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	if (s ~ /^[.\047]/)
		s = "\\&" s
	return s
}
/^usage: / { sub(/^usage: /, ""); synopsis[ns++] = roff($0); next }
/^[A-Z][A-Z ]*$/ { section = $0; heads[nh++] = section; next }
section == "NAME" && NF { sub(/^ */, ""); name = roff($0); next }
section != "" {
	sub(/^       /, "")
	body[section] = body[section] (body[section] == "" && $0 == "" ? "" : roff($0) "\n")
}
END {
	print ".TH PERFKSTAT 1 \"\" \"perfkmod " version "\" \"perfkmod\""
	print ".SH NAME"
	print name
	print ".SH SYNOPSIS"
	print ".nf"
	for (i = 0; i < ns; i++)
		print synopsis[i]
	print ".fi"
	for (i = 0; i < nh; i++) {
		if (heads[i] == "NAME")
			continue
		print ".SH " heads[i]
		print ".nf"
		sub(/\n+$/, "\n", body[heads[i]])
		printf "%s", body[heads[i]]
		print ".fi"
	}
}'

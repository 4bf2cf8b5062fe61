# SPDX-License-Identifier: GPL-2.0
#
# What the host lane's shell tests share, sourced by each: one case, in the
# form run.sh reads ("ok NAME" or "not ok NAME").
#
# case_ NAME CONDITION...: "ok NAME" when the command CONDITION succeeds;
# else "not ok NAME", the test's $tmp/err indented below it, and bad=1.
case_() {
	local name=$1

	shift
	if "$@"; then
		echo "ok $name"
	else
		echo "not ok $name"
		sed 's/^/    /' "$tmp/err"
		bad=1
	fi
}

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perfkstat's command line as a perf user types it, with the guest's own
# (static) perfkstat: perf's event list syntax in the README's example
# (-e page-faults,context-switches -- COMMAND, a row each); SUBCOMMAND -h
# (that subcommand's usage and text alone, status 0) and an unknown option
# (perf's "Error: unknown option", that subcommand's usage alone, status
# 2), neither of which makes or leaves a counter; --version, the loaded
# module's own MODULE_VERSION. (plot needs gnuplot, which the guest does
# not have: its panels are checked on the host, by make -C tools/perfkstat
# check and make lint's plot gate.)

. /tests/lib.sh

insmod $MODDIR/perfkmod.ko

# --version: what the module says of itself in sysfs
check cli-version sh -c "[ \"\$(perfkstat --version)\" = \
	\"perfkstat version \$(cat /sys/module/perfkmod/version)\" ]"
check cli-version-word sh -c "[ \"\$(perfkstat version)\" = \"\$(perfkstat --version)\" ]"

# usage_is FILE WORDS: FILE's "usage: perfkstat W" lines name the
# subcommands WORDS and no other (sorted, a space after each)
usage_is() {
	_w=$(sed -n 's/^usage: perfkstat \([^ ]*\).*/\1/p' "$1" | sort -u | tr '\n' ' ')
	[ "$_w" = "$2" ] || { echo "usage lines of: $_w"; return 1; }
}

# SUBCOMMAND -h: its usage and text on standard output, status 0
for c in stat record plot list events prom; do
	perfkstat $c -h >/tmp/cli-h.out 2>/tmp/cli-h.err
	check cli-$c-h-status [ $? = 0 ]
	check cli-$c-h-its-usage-alone usage_is /tmp/cli-h.out "$c "
	check cli-$c-h-its-text sh -c "grep -q '^       $c' /tmp/cli-h.out &&
		[ ! -s /tmp/cli-h.err ]"
done

# an unknown option: perf's error, the subcommand's usage alone, status 2
perfkstat stat --bogus -e page-faults -- true >/tmp/cli-bad.out 2>/tmp/cli-bad.err
check cli-stat-bogus-status [ $? = 2 ]
check cli-stat-bogus-error sh -c "head -1 /tmp/cli-bad.err |
	grep -qx \"  Error: unknown option \\\`bogus'\" && [ ! -s /tmp/cli-bad.out ]"
check cli-stat-bogus-stat-usage-alone usage_is /tmp/cli-bad.err "stat "
perfkstat record -Z -e page-faults -- true >/dev/null 2>/tmp/cli-bad.err
check cli-record-switch-status [ $? = 2 ]
check cli-record-switch-error sh -c "head -1 /tmp/cli-bad.err |
	grep -qx \"  Error: unknown switch \\\`Z'\""
check cli-record-switch-record-usage-alone usage_is /tmp/cli-bad.err "record "
check_fails cli-usage-nothing-made grep -q perfkstat- $DBG/list

# the README's example: perf's -e list, a row each
perfkstat stat -x, -e page-faults,context-switches -- sh -c 'ls / >/dev/null' \
	2>/tmp/cli-list.csv
check cli-list-status [ $? = 0 ]
check cli-list-two-rows awk -F, '
	$3 == "page-faults" && $1 > 0 { pf++ }
	$3 == "context-switches" && $1 ~ /^[0-9]+$/ { cs++ }
	END { exit !(pf == 1 && cs == 1 && NR == 2) }' /tmp/cli-list.csv
check_fails cli-list-nothing-left grep -q perfkstat- $DBG/list

rmmod perfkmod

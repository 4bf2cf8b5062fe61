#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/lanes.sh's lanes_check, which every reader of tests/lanes calls
# first: the table as it is passes; a table with a fault is refused, with
# the line of the lane at fault. Each bad table is tests/lanes with one
# line changed, in a tree of the test's own ($top of lanes.sh).
#
#   tests/host/lanes.sh
#
# Prints "ok NAME" or "not ok NAME" with the reason, a line a case, and
# exits 1 when a case failed.

set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
mkdir -p "$tmp/tests"

# (check_table and refused run through case_)
# shellcheck disable=SC2317
# check_table: lanes_check on $tmp/tests/lanes, its stderr in $tmp/err
check_table() {
	(top=$tmp && . "$src/scripts/lanes.sh" && lanes_check) 2>"$tmp/err"
}

# case_ NAME CONDITION...: one TAP case (tap.sh)
. "$src/tests/host/tap.sh"

# shellcheck disable=SC2317
# refused SED LINE TEXT: tests/lanes edited by SED is refused with a
# message about line LINE that holds TEXT
refused() {
	sed "$1" "$src/tests/lanes" >"$tmp/tests/lanes"
	cmp -s "$src/tests/lanes" "$tmp/tests/lanes" &&
		{ echo "the edit '$1' changed nothing" >"$tmp/err"; return 1; }
	check_table && { echo "accepted" >"$tmp/err"; return 1; }
	grep -q "^tests/lanes:$2: .*$3" "$tmp/err" ||
		{ echo "no line 'tests/lanes:$2: ...$3...' above" >>"$tmp/err"; return 1; }
}

# line LANE: the line of tests/lanes where LANE's line begins
line() { grep -n "^$1[ 	]" "$src/tests/lanes" | cut -d: -f1; }

cp "$src/tests/lanes" "$tmp/tests/lanes"
case_ "the table as it is passes" check_table

d=$(line distro)
case_ "an unknown IN word" refused "${d}s/all,quick/all,quik/" "$d" 'IN: unknown word "quik"'
case_ "an unknown RUNS word" refused "${d}s/guest dkms/guest dmks/" "$d" 'RUNS: unknown word "dmks"'
case_ "an unknown RUNS word on a continued line" \
	refused "$(($(line arm64-pmu) + 1))s/^\t/\tgest /" \
	"$(line arm64-pmu)" 'RUNS: unknown word "gest"'
case_ "a missing column" refused "${d}s/guest dkms\$//" "$d" "5 columns"
case_ "a missing column in the middle" \
	refused "${d}s/x86_64  1200/1200/" "$d" 'ARCH: unknown "1200"'
case_ "a duplicate lane name" refused \
	"$(line distro-5.10)s/^distro-5.10 /distro      /" "$(line distro-5.10)" \
	"distro: a second line of this lane (the first: line $d)"
case_ "lane:NAME of no lane" refused \
	"$(line x86-kunit)s/lane:x86-debug/lane:x86-dbg/" "$(line x86-kunit)" \
	"lane:x86-dbg, no such lane"
exit $bad

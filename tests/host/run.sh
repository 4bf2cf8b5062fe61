#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The host tests, the host lane of make check: what is tested on this
# machine, in seconds, without a VM.
#
#   tests/host/run.sh [NAME]    every host test, or test NAME alone
#   tests/host/run.sh --list    their names
#
#   parse      perfkmod_parse(): parse.c built for the host against the
#              shim of the kernel's headers (tests/host/shim/), run against
#              the cases of its KUnit suite (tests/kunit/parse_cases.h)
#              by tests/host/parse_test.c
#   perfkstat  make -C tools/perfkstat check, perfkstat's own unit tests,
#              where its Makefile has that target
#   perf-syntax
#              tests/host/syntax.sh: perfkstat's spec of each form of
#              perf's event syntax this host can express, through
#              perfkmod_parse() for the host, makes the attr perf stat -vv
#              prints for it (skipped without perf, or not as root)
#   judge      tests/host/judge.py: scripts/judge.py counts a KCSAN
#              report when an access or the memory is perfkmod's, lists
#              one of the kernel's own; a warning a test announced is
#              expected, any other fails
#   deb-lane   tests/host/deb-lane.sh: scripts/kernel.sh takes Debian's
#              kernel packages as apt would from an archive that moves
#              (a private apt source of made-up packages)
#   lanes      tests/host/lanes.sh: scripts/lanes.sh refuses a tests/lanes
#              with an unknown word, a missing column or a lane named
#              twice, saying the line
#
# Each test prints a line a case, "ok ..." or "not ok ..." (TAP's, or
# the harness's own); here each becomes "ok NAME: CASE" or "not ok NAME:
# CASE" ("skip NAME: CASE" for TAP's "# SKIP"), and what else the test
# printed, indented, when it failed. A test that fails without a failed
# case, or reports none, is one case failed more. "# time NAME SECONDS" says what each took. Exits
# 1 when a case failed. Builds in .build/host/.

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/.build/host
tests=(parse perfkstat perf-syntax judge deb-lane lanes)
bad=0

if [ "${1:-}" = --list ]; then
	printf '%s\n' "${tests[@]}"
	exit 0
fi
if [ -n "${1:-}" ]; then
	case " ${tests[*]} " in
	*" $1 "*) tests=("$1") ;;
	*) echo "run.sh: no host test '$1' (${tests[*]})" >&2; exit 1 ;;
	esac
fi

# (the tests' functions run through run(), below)
# shellcheck disable=SC2317
# parse.c is copied beside nothing of the module's: its "compat.h" is then
# the shim's, and "perfkmod.h" the tree's.
parse_test() {
	local shim=$top/tests/host/shim

	rm -rf "$out/parse"
	mkdir -p "$out/parse"
	cp "$top/parse.c" "$out/parse/"
	gcc -std=gnu11 -O2 -Wall -Werror -include "$shim/linux/kernel.h" \
		-I "$shim" -I "$top" -I "$top/tests/kunit" \
		-o "$out/parse/parse_test" "$out/parse/parse.c" \
		"$top/tests/host/parse_test.c" 2>&1 ||
		{ echo "not ok 1 - builds"; return 1; }
	"$out/parse/parse_test"
}

# shellcheck disable=SC2317
perfkstat_test() {
	grep -q '^check:' "$top/tools/perfkstat/Makefile" ||
		{ echo "ok 1 - # SKIP no check target"; return 0; }
	make -s -C "$top/tools/perfkstat" OUTPUT="$out/perfkstat/" check
}

# run NAME COMMAND...: one test, its cases prefixed with NAME
run() {
	local name=$1 start=$SECONDS r rc

	shift
	r=$("$@" 2>&1)
	rc=$?
	echo "$r" | awk -v name="$name" -v rc="$rc" '
		/^(not )?ok / {
			not = /^not /
			sub(/^(not )?ok ([0-9]+ )?(- )?/, "")
			line = (not ? "not ok " : "ok ") name ": " $0
			if (!not && line ~ /# SKIP/) {
				skip++; sub(/^ok /, "skip ", line); print line; next
			}
			print line
			cases++; failed += not
			next
		}
		/^1\.\.[0-9]+/ { next }
		{ print "    " $0 }
		END {
			if (rc != 0 && !failed)
				print "not ok " name ": exits 0 (exit " rc ")"
			else if (!cases && !skip)
				print "not ok " name ": reports a case"
		}' | awk -v rc="$rc" '
		# what a test printed beside its cases: only when it failed
		/^    / { held = held $0 "\n"; next }
		{ if (/^not ok / || rc != 0) printf "%s", held; held = ""; print }
		END { if (rc != 0) printf "%s", held }'
	echo "# time $name $((SECONDS - start))"
	[ $rc = 0 ] || bad=1
}

for t in "${tests[@]}"; do
	case $t in
	parse) run parse parse_test ;;
	perfkstat) run perfkstat perfkstat_test ;;
	perf-syntax) run perf-syntax "$top/tests/host/syntax.sh" "$out" ;;
	judge) run judge "$top/tests/host/judge.py" ;;
	deb-lane) run deb-lane "$top/tests/host/deb-lane.sh" ;;
	lanes) run lanes "$top/tests/host/lanes.sh" ;;
	esac
done
exit $bad

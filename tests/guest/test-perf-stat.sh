#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf's own perf stat output tests, run against perfkstat: the scripts
# stat+std_output.sh, stat+csv_output.sh and stat+json_output.sh of the
# kernel's tools/perf/tests/shell (scripts/check.sh copies them and their
# lib/ to /tests/perf/), as perf test runs them, under Debian's static bash,
# with the commands they lack on their PATH (perf-stat-shims.sh): perf,
# whose "perf stat ARGS" runs "perfkstat stat ARGS" unchanged; python3,
# which hands each input of the JSON linter to the host; mktemp, which takes
# their five X.
#
# A script runs its checks in order under set -e and stops at the first
# that fails; each check is a case here, perf-stat-KIND.CHECK (CHECK: the
# check_* function the script calls, KIND: std, csv, json), read from
# what the script prints ("Checking ... [Success]", "[Skip] WHY", or what
# went wrong: the checker's or perfkstat's own words), a check after a
# failed one failed as not run, and the script's exit status one more case,
# perf-stat-KIND.exits-0. The JSON test's linter runs on the host: each
# JSON check that gets to its linter here sends the linter's input and
# arguments to the console (base64), and scripts/judge.py runs
# perf_json_output_lint.py on them with the host's Python: its verdict is
# the check's.

. /tests/lib.sh

tests=/tests/perf
work=/tmp/perf-stat
# a script's time limit: each runs true about 12 times
limit=300

if [ ! -f $tests/stat+std_output.sh ] || [ ! -x /bin/bash ]; then
	fail perf-stat-tests "no $tests/stat+std_output.sh or /bin/bash (scripts/check.sh puts them in the initramfs)"
	exit 0
fi

rm -rf $work
mkdir -p $work/bin $work/lint
for t in perf python3 mktemp; do
	ln -s /tests/perf-stat-shims.sh $work/bin/$t
done
export PATH=$work/bin:$PATH PERF_STAT_SPOOL=$work/lint
loaded perfkmod || insmod $MODDIR/perfkmod.ko

# run KIND: stat+KIND_output.sh run as perf test runs it, in a session of
# its own (killed whole after $limit seconds), what it prints in
# $work/KIND.out; its exit status in $rc ("timeout" when killed).
run() {
	rm -f $work/$1.rc
	setsid sh -c '"$1" >"$2" 2>&1 </dev/null; echo $? >"$3.tmp"
		mv "$3.tmp" "$3"' sh "$tests/stat+$1_output.sh" $work/$1.out \
		$work/$1.rc &
	_pid=$!
	if await $limit "stat+$1_output.sh to end" test -e $work/$1.rc \
		>/dev/null; then
		read -r rc <$work/$1.rc
	else
		kill -KILL -$_pid
		rc=timeout
	fi
	wait $_pid
}

# verdicts KIND: a line "VERDICT CHECK" for each check the script calls
# (its top-level check_* calls, in order), VERDICT pass, skip or fail; why
# in $work/KIND.why.CHECK (for a pass: what else the check printed). The
# Nth "Checking" of the output is the Nth call's: checked against the
# check's name, whose words begin what it prints ("per_cache_instance",
# "per cache instance" or "per cache_instance").
verdicts() {
	_checks=$(awk '/^[ \t]*check_[a-z_]+([ \t]|$)/ &&
		$1 != "check_for_topology" { sub(/^check_/, "", $1); print $1 }' \
		"$tests/stat+$1_output.sh")
	awk -v checks="$_checks" -v rc="$rc" -v limit=$limit \
		-v why="$work/$1.why." '
	function trim(s) {
		sub(/^[ \t\n]+/, "", s)
		sub(/[ \t\n]+$/, "", s)
		return s
	}
	function say(name, verdict, text) {
		print verdict, name
		printf "%s", text > (why name)
		close(why name)
	}
	{ all = all $0 "\n" }
	END {
		n = split(checks, c, /[ \t\n]+/)
		if (rc == "timeout")
			killed = " (the script was killed after " limit " s)"
		# tail: what the script printed after its last check that ran
		# (all of it, if none did); stopped: the check it stopped at
		k = 0
		p = index(all, "Checking ")
		rest = p ? substr(all, p) : ""
		tail = p ? "" : all
		stopped = ran = ""
		while (rest != "" && k < n) {
			k++
			ran = c[k]
			q = index(substr(rest, 10), "Checking ")
			seg = q ? substr(rest, 1, q + 8) : rest
			rest = q ? substr(rest, q + 9) : ""
			# "Checking KIND output: DESC OUTCOME"
			d = index(seg, " output: ")
			desc = d ? substr(seg, d + 9) : ""
			want = c[k]
			gsub(/_/, " ", want)
			norm = desc
			gsub(/_/, " ", norm)
			if (substr(norm, 1, length(want)) != want) {
				say(c[k], "fail", "check " k " of the script is not " \
					c[k] " but: " trim(seg))
				stopped = c[k]
				break
			}
			e = index(substr(desc, length(want) + 1), " ")
			out = e ? substr(desc, length(want) + e + 1) : ""
			s = index(out, "[Success]")
			if (s) {
				say(c[k], "pass", trim(substr(out, 1, s - 1)))
				tail = substr(out, s + 9)
			} else if (substr(out, 1, 6) == "[Skip]") {
				say(c[k], "skip", trim(substr(out, 7)))
				tail = ""
			} else {
				out = trim(out)
				say(c[k], "fail", (out == "" ? "no output" : out) \
					killed)
				stopped = c[k]
				break
			}
		}
		# the checks that did not run
		s = index(tail, "[Skip]")
		t = substr(tail, s + 6)
		sub(/\n.*/, "", t)
		for (k++; k <= n; k++) {
			if (stopped != "")
				say(c[k], "fail", "not run: the script stopped at " \
					"its failed check " stopped)
			else if (s)
				say(c[k], "skip", trim(t))
			else if (rc == 2)
				say(c[k], "skip", "the script skipped itself: " \
					trim(tail))
			else
				say(c[k], "fail", "not run: the script ended (exit " \
					rc ")" (ran == "" ? "" : " after " ran) \
					(trim(tail) == "" ? "" : ": " trim(tail)) killed)
		}
	}' $work/$1.out
}

# lint NAME I: the I-th linter input of the JSON test, for check NAME, to
# the host as case perf-stat-json.NAME: its arguments on a first line,
# then the input, base64.
lint() {
	_args=$(cat $work/lint/$2.args 2>/dev/null)
	_want=--$(echo "$1" | tr _ -)
	if [ ! -f $work/lint/$2.args ]; then
		fail "perf-stat-json.$1" "the JSON linter was not run for it"
	elif [ "${_want#"${_args%% *}"}" = "$_want" ]; then
		fail "perf-stat-json.$1" "the linter's input for it came with '$_args'"
	else
		{ echo "$_args"; cat $work/lint/$2.in; } |
			base64 -w 600 >$work/lint/$2.b64
		host_case PERFJSON "perf-stat-json.$1" $work/lint/$2.b64
	fi
}

for kind in std csv json; do
	run $kind
	i=0
	verdicts $kind >$work/$kind.verdicts
	while read -r verdict name; do
		text=$(tail -n 20 "$work/$kind.why.$name")
		case $verdict in
		pass)
			[ -z "$text" ] || note "perf-stat-$kind.$name printed: $text"
			if [ $kind = json ]; then
				lint "$name" $i
				i=$((i + 1))
			else
				pass "perf-stat-$kind.$name"
			fi
			;;
		skip) skip "perf-stat-$kind.$name" "$text" ;;
		*) fail "perf-stat-$kind.$name" "$text" ;;
		esac
	done <$work/$kind.verdicts
	if [ $kind = json ] && [ -f $work/lint/$i.args ]; then
		fail perf-stat-json.linter-calls "the JSON linter ran more often than checks passed: $(cat $work/lint/$i.args)"
	fi
	case $rc in
	0) pass "perf-stat-$kind.exits-0" ;;
	2) skip "perf-stat-$kind.exits-0" "the script skipped itself (exit 2)" ;;
	timeout) fail "perf-stat-$kind.exits-0" "killed after $limit s" ;;
	*)
		fail "perf-stat-$kind.exits-0" "exit $rc$(awk '$1 == "fail" {
			print ", at its failed check " $2; exit }' $work/$kind.verdicts)"
		;;
	esac
done

rmmod perfkmod

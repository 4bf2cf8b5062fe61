#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf's own perf stat tests, run against perfkstat: the scripts
# stat+std_output.sh, stat+csv_output.sh, stat+json_output.sh and
# stat+csv_summary.sh of the kernel's tools/perf/tests/shell, and the
# default case of its stat.sh (scripts/check.sh copies them and their
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
# perf-stat-KIND.exits-0. stat+csv_summary.sh and stat.sh's case are a
# case each, their exit status and what they print (below). The JSON test's linter runs on the host: each
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

# run KIND [SCRIPT]: SCRIPT (stat+KIND_output.sh) run as perf test runs
# it, in a session of its own (killed whole after $limit seconds), what it
# prints in $work/KIND.out; its exit status in $rc ("timeout" when killed).
run() {
	rm -f $work/$1.rc
	setsid sh -c '"$1" >"$2" 2>&1 </dev/null; echo $? >"$3.tmp"
		mv "$3.tmp" "$3"' sh "${2:-$tests/stat+$1_output.sh}" \
		$work/$1.out $work/$1.rc &
	_pid=$!
	if await $limit "${2:-stat+$1_output.sh} to end" test -e $work/$1.rc \
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

# run_script NAME SCRIPT WANT: SCRIPT run as run() runs it, case NAME: it
# ends 0 and what it prints has the line WANT (none: prints nothing)
run_script() {
	run "$1" "$2"
	if [ "$rc" != 0 ]; then
		fail "$1" "exit $rc: $(tail -n 5 $work/$1.out | tr '\n' ' ')"
	elif [ -n "$3" ] && ! grep -qxF "$3" $work/$1.out; then
		fail "$1" "no '$3' in: $(tail -n 5 $work/$1.out | tr '\n' ' ')"
	elif [ -z "$3" ] && [ -s $work/$1.out ]; then
		fail "$1" "it printed: $(tail -n 5 $work/$1.out | tr '\n' ' ')"
	else
		pass "$1"
	fi
}

# stat+csv_summary.sh, as written: it prints nothing and ends 0 when every
# line with "summary" begins with that word, and none has it with
# --no-csv-summary; but it ends 0 as well when perf stat prints no such
# line at all, or fails. So its two perf stat commands are checked here
# too, against what perf's display code prints (util/stat-display.c): an
# interval's row, its time first, and after it --summary's row of the
# whole count, "summary" its first field, or with --no-csv-summary
# nothing in its place.
run_script perf-stat-csv-summary.exits-0 $tests/stat+csv_summary.sh ''
summary() {
	perf stat -e cycles -x' ' -I1000 --interval-count 1 --summary "$@" \
		>$work/summary.out 2>&1
	awk -v want="$1" '
	$1 ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]$/ &&
		/ cycles / { iv++; next }
	$1 == "summary" && / cycles / { sum++; next }
	/ cycles / { bare++; next }
	{ other++ }
	END {
		if (want == "--no-csv-summary")
			exit !(iv == 1 && bare == 1 && !sum && !other)
		exit !(iv == 1 && sum == 1 && !bare && !other)
	}' $work/summary.out || { cat $work/summary.out; return 1; }
}
check perf-stat-csv-summary.summary-row summary
check perf-stat-csv-summary.no-csv-summary-row summary --no-csv-summary

# stat.sh: its test_default_stat, as written, alone: its other cases need
# what perfkstat leaves to perf (perf stat record and report, perf
# script), groups scheduled together (weak groups, topdown's slots), or a
# hybrid machine's core PMUs (--cputype): in-kernel counters cannot do
# those. The function is taken from the script unchanged.
{
	echo '#!/bin/sh'
	echo 'set -e'
	sed -n '/^test_default_stat() {$/,/^}$/p' $tests/stat.sh
	echo 'err=0'
	echo 'test_default_stat'
	echo 'exit $err'
} >$work/stat-default.sh
chmod +x $work/stat-default.sh
run_script perf-stat-sh.test_default_stat $work/stat-default.sh \
	"Basic stat command test [Success]"

# perf stat's other options, as perf prints them (util/stat-display.c):
# -r's mean and variance ("( +- x.xx% )", CSV's x.xx% after the event,
# JSON's "variance"), the " (N runs)" title and the time's deviation
p=$work/opt
perf stat -r 3 -x, -e page-faults true 2>$p.r.csv
check perf-stat-opt.repeat-csv-variance awk -F, '$3 == "page-faults" &&
	$4 ~ /^[0-9]+\.[0-9][0-9]%$/ && NF == 8 { n++ } END { exit n != 1 }' $p.r.csv
perf stat -r 3 -e page-faults true 2>$p.r.txt
check perf-stat-opt.repeat-title grep -qF "Performance counter stats for 'true' (3 runs):" $p.r.txt
check perf-stat-opt.repeat-elapsed grep -qE '^ +[0-9]+\.[0-9]+ \+- [0-9]+\.[0-9]+ seconds time elapsed' $p.r.txt
perf stat -r 2 -j -e page-faults true 2>$p.r.json
check perf-stat-opt.repeat-json-variance grep -qE '"event" : "page-faults", "variance" : [0-9]+\.[0-9][0-9], "event-runtime"' $p.r.json
check_fails perf-stat-opt.repeat-needs-a-command perf stat -r 2 -e page-faults
# a run whose command SIGINT ends is the last (^C ends the runs): one run,
# no variance, the command's status
# (SIGINT ignored from the start stays ignored: then there is nothing to see)
sh -c 'kill -INT $$'
if [ $? != 130 ]; then
	skip perf-stat-opt.repeat-sigint-last "SIGINT is ignored here"
else
	perf stat -r 5 -x, -e page-faults -- sh -c 'kill -INT $$' 2>$p.ri.csv
	rc=$?
	check perf-stat-opt.repeat-sigint-last sh -c "[ $rc = 130 ] &&
		awk -F, '\$3 == \"page-faults\" && NF == 7 { n++ } END { exit n != 1 }' $p.ri.csv"
fi

# -C: counters on those CPUs alone, titled as perf's
perf stat -C 0 -e cpu-clock -- true 2>$p.c.txt
check perf-stat-opt.cpu-title grep -qF "Performance counter stats for 'CPU(s) 0':" $p.c.txt
perf stat -C 0 -A -x, -e cpu-clock -- true 2>$p.c.csv
cpu_rows() {
	awk -F, '$4 == "cpu-clock" { n++; c = $1 }
	END { exit !(n == 1 && c == "CPU0") }' $p.c.csv || { cat $p.c.csv; return 1; }
}
check perf-stat-opt.cpu-rows cpu_rows
check_fails perf-stat-opt.cpu-not-a-list perf stat -C x -e cpu-clock true

# -n: no counters, the time alone; with -x, nothing at all
perf stat -n true 2>$p.n.txt
check perf-stat-opt.null-time sh -c "grep -q 'seconds time elapsed' $p.n.txt &&
	! grep -q 'task-clock' $p.n.txt"
perf stat -n -x, true 2>$p.n.csv
check perf-stat-opt.null-csv-empty test ! -s $p.n.csv

# -d, -dd, -ddd: perf's detailed events after the default ones, each a
# row, <not supported> where the machine lacks it
d4="L1-dcache-loads L1-dcache-load-misses LLC-loads LLC-load-misses"
d10="$d4 L1-icache-loads L1-icache-load-misses dTLB-loads dTLB-load-misses iTLB-loads iTLB-load-misses"
d12="$d10 L1-dcache-prefetches L1-dcache-prefetch-misses"
detailed() {
	perf stat "$1" -x, true 2>$p.d.csv &&
	[ "$(awk -F, 'NR > 8 { printf "%s%s", s, $3; s = " " }' $p.d.csv)" = "$2" ] ||
		{ cat $p.d.csv; return 1; }
}
check perf-stat-opt.detailed detailed -d "$d4"
check perf-stat-opt.detailed-2 detailed -dd "$d10"
check perf-stat-opt.detailed-3 detailed -ddd "$d12"

# --all-user, --all-kernel: perf's exclude_kernel and exclude_user on
# every event, the hypervisor's as the event's modifiers say
privilege() {
	perf stat "$1" -x, -e page-faults -e "cpu-clock:$2" -- \
		perfkstat list >$p.l.txt 2>&1 &&
	grep -q "^add perfkstat-.* page-faults:$3," $p.l.txt &&
	grep -q "^add perfkstat-.* cpu-clock:$4," $p.l.txt ||
		{ cat $p.l.txt; return 1; }
}
check perf-stat-opt.all-user privilege --all-user k uh u
check perf-stat-opt.all-kernel privilege --all-kernel uh kh kh

# --timeout: the command gets SIGTERM, as perf's
perf stat --timeout 200 -x, -e page-faults -- sleep 100 2>$p.t.csv
rc=$?
check perf-stat-opt.timeout sh -c "[ $rc = 143 ] && grep -q ',page-faults,' $p.t.csv"
check_fails perf-stat-opt.timeout-under-10ms perf stat --timeout 5 true

# -D: disabled, then enabled, said as perf says it
perf stat -D 50 -x, -e page-faults true 2>$p.D.csv
delay() {
	grep -qx 'Events disabled' $p.D.csv && grep -qx 'Events enabled' $p.D.csv &&
	grep -q ',page-faults,' $p.D.csv || { cat $p.D.csv; return 1; }
}
check perf-stat-opt.delay delay

# an event of perfkmod's grammar is labelled as perf names such an
# event: page-faults,pinned is page-faults/pinned/, one CSV field
perf stat -x, -e page-faults,pinned true 2>$p.label.csv
check perf-stat-opt.label-perf-name awk -F, '$3 == "page-faults/pinned/" &&
	NF == 7 { n++ } END { exit n != 1 }' $p.label.csv

# --metric-only: perf's header, the units of the metrics it shows (not
# /sec or CPUs utilized), a ratio named after its event; then one row
metric_only() {
	perf stat --metric-only -x, true 2>$p.m.csv &&
	[ "$(head -n 1 $p.m.csv)" = "GHz,insn per cycle,branch-misses of all branches," ] &&
	[ "$(wc -l <$p.m.csv)" = 2 ] || { cat $p.m.csv; return 1; }
}
check perf-stat-opt.metric-only metric_only

# refused, each with its reason
refused() {
	! perf stat "$@" -e page-faults true >$p.ref 2>&1 &&
	grep -qe "$1: " $p.ref || { cat $p.ref; return 1; }
}
check perf-stat-opt.cgroup-refused refused -G foo
check perf-stat-opt.bpf-counters-refused refused --bpf-counters
check_fails perf-stat-opt.no-temporaries-left grep -q perfkstat- $DBG/list

rmmod perfkmod

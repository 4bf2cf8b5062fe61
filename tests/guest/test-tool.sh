#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perfkstat, the userspace tool: each command, its errors, and its outputs
# checked strictly: CSV field by field, JSON by a real parser (the lines go
# to the console for scripts/judge.py to parse with Python's json),
# interval rows, the Prometheus file written atomically.

. /tests/lib.sh

# csv FILE FIELDS [TIMESTAMPED]: every line has FIELDS comma-separated
# fields, as perf stat -x, prints them: [time,] value (or <not counted>,
# <not supported>), unit (empty or msec), event, run time ns, percent
# running, and a metric and its unit (both or neither).
csv() {
	awk -F, -v nf="$2" -v ts="${3:-0}" '
	NF != nf { print "line " NR ": " NF " fields: " $0; exit 1 }
	{
		o = ts ? 1 : 0
		if (ts && $1 !~ /^[0-9]+\.[0-9]+$/) { print "bad time: " $0; exit 1 }
		if ($(o + 1) !~ /^([0-9]+|[0-9]+\.[0-9][0-9]|<not counted>|<not supported>)$/) {
			print "bad value: " $0; exit 1
		}
		if ($(o + 2) != "" && $(o + 2) != "msec") { print "bad unit: " $0; exit 1 }
		if (($(o + 6) == "") != ($(o + 7) == "") || $(o + 6) !~ /^[0-9.]*$/) {
			print "bad metric: " $0; exit 1
		}
		if ($(o + 3) == "") { print "no event: " $0; exit 1 }
		if ($(o + 4) !~ /^[0-9]+$/ || $(o + 5) !~ /^[0-9]+\.[0-9][0-9]$/) {
			print "bad run time or percent: " $0; exit 1
		}
	}
	END { exit NR == 0 }' "$1"
}

# json NAME FILE: each line of FILE a case, NAME-1, NAME-2, ..., that the
# host decides with Python's json (host_case). At least one line.
json() {
	[ -s "$2" ] || return 1
	_i=0
	while IFS= read -r line; do
		_i=$((_i + 1))
		echo "$line" >/tmp/json.line
		host_case JSON "$1-$_i" /tmp/json.line
	done <"$2"
}

work() { i=0; while [ $i -lt 30 ]; do ls / >/dev/null; i=$((i + 1)); done; }

insmod $MODDIR/perfkmod.ko "counters=pf=page-faults"
check tool-add perfkstat add cs context-switches
check tool-add-disabled perfkstat add idle dummy,disabled
check tool-list sh -c "perfkstat list | grep -qx 'add cs context-switches'"
check_fails tool-add-duplicate-fails perfkstat add cs dummy
check tool-add-duplicate-says-why \
	sh -c "perfkstat add cs dummy 2>&1 | grep -q '^perfkstat: -EEXIST: .*: add cs dummy$'"
check tool-add-bad-spec-says-why \
	sh -c "perfkstat add z bogus 2>&1 | grep -q '^perfkstat: -EINVAL: '"
check_fails tool-del-unknown-fails perfkstat del nope
check tool-disable perfkstat disable cs
check tool-enable perfkstat enable cs
check tool-reset perfkstat reset cs
check tool-period-refused-says-why \
	sh -c "perfkstat period cs 5 2>&1 | grep -q -- '-EINVAL: the counter does not sample'"
check tool-events sh -c "perfkstat events | grep -q '^page-faults  *ok$'"

# stat of the named counters: the table, on standard error as perf's
work
perfkstat stat 2>/tmp/stat.txt
check tool-stat-table \
	sh -c "grep -q 'Performance counter stats for perfkmod counters:' /tmp/stat.txt &&
	grep -q '^ *[0-9][0-9,]*  *pf *$' /tmp/stat.txt &&
	grep -q '^ *<not counted>  *idle *$' /tmp/stat.txt"
check tool-stat-names-only sh -c "[ \$(perfkstat stat -x, -k pf 2>&1 | wc -l) = 1 ]"
check_fails tool-stat-unknown-fails perfkstat stat -k nope
check tool-stat-o sh -c "perfkstat stat -x, -k pf -o /tmp/o.csv 2>/tmp/o.err &&
	[ ! -s /tmp/o.err ] && head -1 /tmp/o.csv | grep -q '^# started on ' &&
	[ \$(grep -c ',pf,' /tmp/o.csv) = 1 ]"

# CSV, and any separator
perfkstat stat -x, 2>/tmp/stat.csv
check tool-csv-strict csv /tmp/stat.csv 7
check tool-csv-rows \
	sh -c "[ \$(wc -l </tmp/stat.csv) = 3 ] && grep -q '^<not counted>,,idle,0,' /tmp/stat.csv"
check tool-csv-pf-counts \
	awk -F, '$3 == "pf" && $1 > 0 && $5 == "100.00" { ok = 1 } END { exit !ok }' /tmp/stat.csv
perfkstat stat -x';' -k pf 2>/tmp/stat.ssv
check tool-sep-semicolon awk -F';' 'NF == 7 && $3 == "pf" { ok = 1 } END { exit !ok }' /tmp/stat.ssv

# JSON lines: parsed on the host by the judge
perfkstat stat -j 2>/tmp/stat.json
check tool-json-lines \
	sh -c "[ \$(wc -l </tmp/stat.json) = 3 ] && grep -q '\"event\" : \"pf\"' /tmp/stat.json"
check tool-json-to-judge json tool-json /tmp/stat.json

# -I: one row per counter per interval, with increasing times
perfkstat stat -I 300 --interval-count 3 -x, -k pf -k cs 2>/tmp/interval.csv
check tool-interval-csv-strict csv /tmp/interval.csv 8 1
check tool-interval-rows awk -F, '
	{ rows[$1]++; if ($1 < last) bad = 1; last = $1; ev[$1 "," $4]++ }
	END {
		for (t in rows) { n++; if (rows[t] != 2) bad = 1 }
		for (k in ev) if (ev[k] != 1) bad = 1
		exit bad || n != 3 || NR != 6
	}' /tmp/interval.csv
perfkstat stat -I 200ms --interval-count 2 -j -k pf 2>/tmp/interval.json
check tool-interval-json-rows \
	sh -c "[ \$(grep -c '^{\"interval\" : [0-9.]*, ' /tmp/interval.json) = 2 ]"
check tool-interval-json-to-judge json tool-interval-json /tmp/interval.json
perfkstat stat -I 200 --interval-count 2 -k pf 2>/tmp/interval.txt
check tool-interval-table sh -c "[ \$(grep -c '^ *[0-9.]*  *[0-9,]*  *pf *$' /tmp/interval.txt) = 2 ]"
check_fails tool-interval-too-short perfkstat stat -I 50us -k pf
# a reset between intervals: the interval across it counts from it
perfkstat stat -I 100 -x, -k pf 2>/tmp/reset.csv &
st=$!
check tool-interval-reset-first await 60 "stat's first interval" test -s /tmp/reset.csv
perfkstat reset pf
n=$(wc -l </tmp/reset.csv)
check tool-interval-reset-after await 60 "two intervals after the reset" \
	sh -c "[ \$(wc -l </tmp/reset.csv) -ge $((n + 2)) ]"
kill $st
wait $st
check tool-interval-reset awk -F, '$2 > 1000000000 { bad = 1 } END { exit bad }' \
	/tmp/reset.csv

# exact: counts past 2^53 and 2^64 (a value scaled by enabled/running),
# from a debugfs directory made for it
mkdir -p /tmp/fakedbg
fake_list() {
	printf '%s\n%s\n' "# NAME TARGET STATE VALUE SCALED ENABLED_NS RUNNING_NS OVERFLOWS THROTTLED DROPPED REQUEUED SPEC" \
		"big all active $1 0 $2 $3 - - - - instructions" >/tmp/fakedbg/list
}
fake_list 18446744073709551557 2000 1000
check tool-stat-exact sh -c "PERFKMOD_DEBUGFS=/tmp/fakedbg perfkstat stat -x, 2>&1 |
	grep -qx '36893488147419103114,,big,1000,50.00,,'"
fake_list 9007199254740993 1000 1000
check tool-stat-exact-2-53 sh -c "PERFKMOD_DEBUGFS=/tmp/fakedbg perfkstat stat 2>&1 |
	grep -q '^ *9007199254740993  *big *$'"
# a name may begin with "#": only list's first line is its header
check tool-stat-hash-name sh -c "perfkstat add '#h' dummy && perfkstat stat -x, 2>&1 |
	grep -q ',#h,' && perfkstat del '#h'"

# a command: -e events counted on it and its children, from its exec,
# temporary counters deleted after it; <not supported> as perf's
perfkstat stat -x, -e page-faults -e cycles -e task-clock -- \
	sh -c 'i=0; while [ $i -lt 30 ]; do ls / >/dev/null; i=$((i + 1)); done' \
	>/tmp/cmd.csv 2>&1
check tool-cmd-csv-strict csv /tmp/cmd.csv 7
check tool-cmd-page-faults \
	awk -F, '$3 == "page-faults" && $1 > 100 { ok = 1 } END { exit !ok }' /tmp/cmd.csv
check tool-cmd-task-clock-msec \
	awk -F, '$3 == "task-clock" && $2 == "msec" && $7 == "CPUs utilized" { ok = 1 }
	END { exit !ok }' /tmp/cmd.csv
if grep -q "^cycles  *ok$" $DBG/events; then
	skip tool-not-supported "this machine has cycles"
else
	check tool-not-supported grep -q '^<not supported>,,cycles,0,100.00,,$' /tmp/cmd.csv
fi
check_fails tool-temporaries-deleted grep -q perfkstat- $DBG/control
check tool-cmd-table \
	sh -c "perfkstat stat -e page-faults true 2>&1 |
	grep -q \"Performance counter stats for 'true':\""
check tool-cmd-status sh -c "perfkstat stat -e page-faults -- sh -c 'exit 3' 2>/dev/null;
	[ \$? = 3 ]"
check_fails tool-e-bad-spec-fails perfkstat stat -e bogus -- true
check_fails tool-e-bad-spec-leaves-nothing grep -q perfkstat- $DBG/control
# -e without a command or target counts every CPU, as perf's
check tool-e-no-target-system-wide \
	sh -c "perfkstat stat -e page-faults --timeout 100 2>&1 |
	grep -q \"Performance counter stats for 'system wide':\""

# -e as perf takes it, a comma-separated list: a row an event, named as
# typed; perfkmod's options (pinned) stay with the event before them,
# its row named as perf names an event with terms (page-faults/pinned/)
check tool-e-list sh -c "perfkstat stat -x, -e page-faults,context-switches -- true 2>&1 |
	awk -F, '{ print \$3 }' | tr '\n' ' ' | grep -qx 'page-faults context-switches '"
check tool-e-list-options sh -c "perfkstat stat -e page-faults,pinned,context-switches -- true 2>&1 |
	grep -c -e ' page-faults/pinned/ ' -e ' context-switches ' | grep -qx 2"
check_fails tool-e-list-empty-fails perfkstat stat -e page-faults,,context-switches -- true

# the command alone: the 2000 pages its child touches count, the 20000
# pages a loop beside it touches in each round meanwhile do not (the
# command waits for two rounds' ends: one whole round runs within it)
rounds() {
	while [ ! -e /tmp/tp.stop ]; do
		rm -rf /tmp/tp-side; mkdir /tmp/tp-side
		touchpages 20000 /tmp/tp-side & tp=$!
		until [ -e /tmp/tp-side/ready ]; do sleep 0.01; done
		kill -USR1 $tp; until [ -e /tmp/tp-side/done ]; do sleep 0.01; done
		kill $tp; wait $tp; touch /tmp/tp.round
	done
}
rounds &
side=$!
mkdir -p /tmp/tp-cmd
perfkstat stat -x, -e page-faults -- sh -c 'touchpages 2000 /tmp/tp-cmd & tp=$!
	until [ -e /tmp/tp-cmd/ready ]; do sleep 0.01; done
	kill -USR1 $tp; until [ -e /tmp/tp-cmd/done ]; do sleep 0.01; done
	kill $tp; wait $tp
	for r in 1 2; do
		rm -f /tmp/tp.round; until [ -e /tmp/tp.round ]; do sleep 0.01; done
	done' 2>/tmp/own.csv
touch /tmp/tp.stop
wait $side
note "$(cat /tmp/own.csv)"
check tool-cmd-counts-children \
	awk -F, '$3 == "page-faults" && $1 >= 2000 { ok = 1 } END { exit !ok }' /tmp/own.csv
check tool-cmd-not-beside \
	awk -F, '$3 == "page-faults" && $1 < 20000 { ok = 1 } END { exit !ok }' /tmp/own.csv

# -a: every CPU
mkdir -p /tmp/tp-a
perfkstat stat -a -x, -e page-faults -- sh -c 'touchpages 2000 /tmp/tp-a & tp=$!
	until [ -e /tmp/tp-a/ready ]; do sleep 0.01; done
	kill -USR1 $tp; until [ -e /tmp/tp-a/done ]; do sleep 0.01; done
	kill $tp; wait $tp' 2>/tmp/all.csv
check tool-a-counts-all \
	awk -F, '$3 == "page-faults" && $1 >= 2000 { ok = 1 } END { exit !ok }' /tmp/all.csv
perfkstat stat -a -A -x, -e cpu-clock true 2>/tmp/percpu.csv
check tool-A-rows sh -c "[ \$(grep -c '^CPU[0-9]*,[0-9.]*,msec,cpu-clock,' /tmp/percpu.csv) = \
	\$(grep -c . /tmp/percpu.csv) ] && [ \$(grep -c . /tmp/percpu.csv) = \$(nproc) ]"

# Signals while stat's COMMAND runs. The command says its pid, then waits
# for a file, which the test makes once it has sent the signal: a caught
# TERM waits for the command, then deletes the temporary and exits 143; a
# HUP ignored on entry (nohup, here trap '' HUP) stays ignored, by stat
# and by the command, which both run to their ends.
rm -f /tmp/term.* /tmp/hup.*
perfkstat stat -x, -e page-faults -- sh -c "$(waiter term)" >/tmp/term.out 2>&1 &
pk=$!
await 120 "stat's command" test -s /tmp/term.pid
kill -TERM $pk
touch /tmp/term.go
wait $pk
check tool-signal-term-status [ $? = 143 ]
check tool-signal-term-waits-for-command test -e /tmp/term.done
check_fails tool-signal-term-nothing-left grep -q perfkstat- $DBG/control
sh -c "trap '' HUP; exec perfkstat stat -x, -e page-faults -- sh -c '$(waiter hup)'" \
	>/tmp/hup.out 2>&1 &
pk=$!
await 120 "stat's command" test -s /tmp/hup.pid
kill -HUP $pk "$(cat /tmp/hup.pid)"
touch /tmp/hup.go
wait $pk
check tool-nohup-status [ $? = 0 ]
check tool-nohup-command-ran-on test -e /tmp/hup.done
check tool-nohup-counted grep -q '^[0-9][0-9]*,,page-faults,' /tmp/hup.out
check_fails tool-nohup-nothing-left grep -q perfkstat- $DBG/control
# TERM with -o FILE: the counts are in FILE before the exit; QUIT is caught
# as TERM is; SIGINT waits for the command (which the terminal's Ctrl-C
# reaches too), its counts shown, then 130
perfkstat stat -x, -e page-faults -o /tmp/term.csv -- sh -c 'kill -TERM $PPID'
check tool-signal-term-o-status [ $? = 143 ]
check tool-signal-term-o-counted grep -q '^[0-9][0-9]*,,page-faults,' /tmp/term.csv
perfkstat stat -x, -e page-faults -- sh -c 'kill -QUIT $PPID' 2>/dev/null
check tool-signal-quit-status [ $? = 131 ]
check_fails tool-signal-quit-nothing-left grep -q perfkstat- $DBG/control
perfkstat stat -x, -e page-faults -- sh -c 'kill -INT $PPID; echo ran-on >/tmp/int.done' \
	2>/tmp/int.csv
check tool-signal-int-status [ $? = 130 ]
check tool-signal-int-command-ran-on test -e /tmp/int.done
check tool-signal-int-counted grep -q '^[0-9][0-9]*,,page-faults,' /tmp/int.csv
# a command that is not there: 127, as a shell's
perfkstat stat -e page-faults -- /nonexistent 2>/dev/null
check tool-cmd-not-found-127 [ $? = 127 ]
check_fails tool-cmd-not-found-nothing-left grep -q perfkstat- $DBG/control

# prom: the metrics file, written atomically in its directory
mkdir -p /tmp/textfile
check tool-prom perfkstat prom /tmp/textfile/perfkmod.prom
check tool-prom-format sh /tests/promcheck.sh /tmp/textfile/perfkmod.prom
prom_out perfkstat-prom /tmp/textfile/perfkmod.prom
check tool-prom-has-pf \
	grep -q '^perfkmod_events_total{name="pf",event="page-faults",cpu="all"} [1-9]' \
	/tmp/textfile/perfkmod.prom
check tool-prom-no-temporaries sh -c "[ \"\$(ls -A /tmp/textfile)\" = perfkmod.prom ]"
check tool-prom-mode sh -c "[ \$(stat -c %a /tmp/textfile/perfkmod.prom) = 644 ]"
check_fails tool-prom-bad-dir perfkstat prom /nonexistent/x.prom

check tool-del perfkstat del cs
check_fails tool-del-gone test -e $DBG/counters/cs
rmmod perfkmod
check_fails tool-without-module perfkstat list

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf's event syntax in perfkstat stat -e, counted: a list of two
# events, a tracepoint by name (its row named so), a group (counted as
# independent events, with one note), a PMU's terms from sysfs (the
# arm64 PMU's armv8_pmuv3_0/event=0x11/, where the lane has one), the
# refusals naming what was typed; perfkstat events lists what perf list
# would. Nothing of it stays in perfkmod. The translation itself, form
# by form against perf's own attrs, is the host lane's (perf-syntax).

. /tests/lib.sh


# count EVENT FILE: EVENT's count in the CSV FILE, or nothing
count() { awk -F, -v e="$1" '$3 == e { print $1 }' "$2"; }

# counted NAME EVENT FILE: EVENT's row in FILE has a count above 0
counted() {
	_c=$(count "$2" "$3")
	case $_c in
	[1-9]*) pass "$1" ;;
	*) fail "$1" "$2: '$_c' in: $(tr '\n' ' ' <"$3")" ;;
	esac
}

# nothing_left NAME: perfkmod holds no counter, temporary or not
nothing_left() { check "$1" sh -c "[ -z \"\$(ls -A $DBG/counters)\" ]"; }

insmod $MODDIR/perfkmod.ko

# a list: both events counted, a row each, named as typed
perfkstat stat -x, -e page-faults,context-switches -- sh -c \
	'i=0; while [ $i -lt 30 ]; do ls / >/dev/null; i=$((i + 1)); done' \
	2>/tmp/list.csv
counted syntax-list-page-faults page-faults /tmp/list.csv
counted syntax-list-context-switches context-switches /tmp/list.csv
check syntax-list-two-rows sh -c "[ \$(wc -l </tmp/list.csv) = 2 ]"
nothing_left syntax-list-nothing-left

# a tracepoint by name: the row is sched:sched_switch, not tracepoint=ID
if [ -e /sys/kernel/tracing/events/sched/sched_switch/id ] ||
	[ -e /sys/kernel/debug/tracing/events/sched/sched_switch/id ]; then
	# a sleep blocks, so its task is switched out at least once: ls and a
	# shell that finds its child already gone need not be
	perfkstat stat -x, -e sched:sched_switch -- sh -c 'ls / >/dev/null; sleep 0.01' \
		2>/tmp/tp.csv
	counted syntax-tracepoint sched:sched_switch /tmp/tp.csv
	check_fails syntax-tracepoint-no-id grep -q tracepoint= /tmp/tp.csv
	check syntax-events-lists-tracepoint \
		sh -c "perfkstat events tracepoint | grep -q '^  sched:sched_switch '"
else
	skip syntax-tracepoint "no sched:sched_switch in tracefs on this kernel"
	skip syntax-tracepoint-no-id "no sched:sched_switch in tracefs on this kernel"
	skip syntax-events-lists-tracepoint "no sched:sched_switch in tracefs on this kernel"
fi
nothing_left syntax-tracepoint-nothing-left

# a group: its events counted independently, one note saying so
perfkstat stat -x, -e '{page-faults,context-switches}' -- sh -c \
	'ls / >/dev/null; ls / >/dev/null' 2>/tmp/group.csv
counted syntax-group-page-faults page-faults /tmp/group.csv
check syntax-group-context-switches sh -c "awk -F, '\$3 == \"context-switches\"' \
	/tmp/group.csv | grep -q '^[0-9]'"
check syntax-group-one-note sh -c "[ \$(grep -c 'cannot be grouped' /tmp/group.csv) = 1 ]"
nothing_left syntax-group-nothing-left

# a PMU's terms, from sysfs: the arm64 PMU's CPU_CYCLES (event 0x11)
pmu=
for d in /sys/bus/event_source/devices/armv8_pmuv3*; do
	[ -e "$d/format/event" ] && pmu=${d##*/} && break
done
if [ -n "$pmu" ]; then
	perfkstat stat -x, -e "$pmu/event=0x11/" -- sh -c 'ls / >/dev/null' 2>/tmp/pmu.csv
	counted syntax-pmu-terms "$pmu/event=0x11/" /tmp/pmu.csv
	check syntax-pmu-spec sh -c "perfkstat events -e $pmu/event=0x11/ |
		grep -qx \"$pmu/event=0x11/	pmu=\$(cat /sys/bus/event_source/devices/$pmu/type),config=0x11\""
	check syntax-pmu-modifier-refused-says-why sh -c "! perfkstat stat -e $pmu/event=0x11/u -- true \
		2>/tmp/pmu.err && grep -q \"^perfkstat: -e $pmu/event=0x11/u: :u: \" /tmp/pmu.err"
	check syntax-events-lists-pmu sh -c "perfkstat events pmu | grep -q '^  $pmu/term=value'"
elif lane_has pmu && [ "$(uname -m)" = aarch64 ]; then
	fail syntax-pmu-terms "no armv8_pmuv3 PMU in /sys/bus/event_source/devices"
else
	skip syntax-pmu-terms "no armv8_pmuv3 PMU on this machine"
fi
nothing_left syntax-pmu-nothing-left

# refusals name what was typed and where to look
check syntax-refusal-names-typed sh -c "! perfkstat stat -e sched:nope -- true 2>/tmp/bad.err &&
	grep -q '^perfkstat: -e sched:nope: .*perfkstat events' /tmp/bad.err"
# one the kernel refuses: named as typed, never the internal spec
check syntax-kernel-refusal-names-typed sh -c "! perfkstat stat -e bogus -- true 2>/tmp/bad.err &&
	grep -q '^perfkstat: bogus: see perfkstat events' /tmp/bad.err &&
	! grep -q 'perfkstat-[0-9]' /tmp/bad.err"
check syntax-guest-only-refused sh -c "! perfkstat stat -e page-faults:G -- true 2>/tmp/bad.err &&
	grep -q ':G: ' /tmp/bad.err"
check syntax-events-lists-breakpoints sh -c "perfkstat events | grep -q '^  mem:<addr>'"
check syntax-events-lists-named sh -c "perfkstat events | grep -q '^page-faults  *ok$'"
check syntax-list-class sh -c "perfkstat list bp | grep -q '^  mem:<addr>'"
nothing_left syntax-refusals-nothing-left
rmmod perfkmod

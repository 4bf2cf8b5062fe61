#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test of one lane inside the VM: the integration scripts
# test-*.sh, then the KUnit modules, then the checks over all of it (perf
# events freed, kmemleak). The results are one KTAP document on the
# console: a subtest per script, the document KUnit prints as each module
# loads, a subtest for the checks; its plan counts them, so that a run
# that dies halfway shows as missing results.

. /tests/lib.sh
lane=$1

# Nothing a script or a program prints goes to the console itself: there
# it would break into the kernel's lines, the KTAP among them. What the
# scripts print becomes diagnostic lines after each script; run.sh's own,
# after the checks.
exec >/tmp/run.out 2>&1

# The boot's kernel messages, before the tests' own can push them out of
# the log (what the drivers said they use: test-trigger.sh).
dmesg >/tmp/boot-dmesg

# An emulated CPU on a loaded host can take minutes over a few thousand
# RCU grace periods: report hung tasks after 10 minutes, not 2 (a real
# deadlock is still reported, and the lane's timeout ends it).
hung=/proc/sys/kernel/hung_task_timeout_secs
[ -e $hung ] && echo 600 >$hung

kmemleak=/sys/kernel/debug/kmemleak
[ -e $kmemleak ] && echo clear >$kmemleak

# Live perf events: the objects of the perf_event slab cache (vm.sh boots
# with slab_nomerge, so that it has a cache of its own). Shrinking the
# cache first empties KASAN's quarantine of it and the per-CPU free lists,
# which would otherwise count as live. Empty where the file is missing.
slab=/sys/kernel/slab/perf_event
perf_events() {
	[ -e $slab/objects ] || return 0
	echo 1 >$slab/shrink
	cut -d' ' -f1 $slab/objects
}
events_before=$(perf_events)

# Every script, or those the lane runs (tests/lanes: scripts/check.sh
# gives perfkmod_scripts=A.sh,B.sh on the kernel command line; "none" for
# none).
scripts=/tests/test-*.sh
[ -n "$perfkmod_scripts" ] && scripts=$(for t in $(echo "$perfkmod_scripts" |
	tr , ' '); do [ "$t" = none ] || echo "/tests/$t"; done)
# perfkmod_kunit=none (make check T=, a guest script): no KUnit module
kunits=$(ls $MODDIR/kunit/*.ko 2>/dev/null)
[ "$perfkmod_kunit" = none ] && kunits=

# KUnit is a module, as distributions ship it (no document of its own at
# boot); it takes its kunit.* parameters from the kernel command line, as
# modprobe would give them.
kunit_args=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^kunit\.//p')
if [ -n "$kunits" ] && [ -e $MODDIR/kernel/kunit.ko ] &&
	! insmod $MODDIR/kernel/kunit.ko $kunit_args; then
	log "# insmod kunit.ko $kunit_args failed"
fi

set -- $scripts $kunits
log "KTAP version 1"
log "1..$(($# + 1))"
n=0

# begin NAME: the next subtest of the lane's document.
begin() {
	n=$((n + 1))
	log "    KTAP version 1"
	log "    # Subtest: $1"
	echo 0 >"$KTAP_COUNT"
	rm -f "$KTAP_COUNT.failed"
}

# end NAME RC: its result, not ok when a case failed. A script that
# exits with RC other than 0, or reports no case, fails one case more.
end() {
	read -r _cases <"$KTAP_COUNT"
	if [ "$2" != 0 ]; then
		fail "$1-exits-0" "$1 exited with $2 after $_cases cases"
	elif [ "$_cases" = 0 ]; then
		fail "$1-reports-cases" "$1 reported no case"
	fi
	if [ -e "$KTAP_COUNT.failed" ]; then
		log "not ok $n $1"
	else
		log "ok $n $1"
	fi
}

for t in $scripts; do
	name=${t##*/}
	name=${name%.sh}
	begin "$name"
	sh "$t" "$lane" >/tmp/script.out 2>&1
	rc=$?
	[ -s /tmp/script.out ] && note "$(tail -n 40 /tmp/script.out)"
	end "$name" $rc
done

# Fault injection for the KUnit stress suite, which sets its own fail-nth:
# failslab must not skip allocations that may sleep (GFP_KERNEL).
failslab=/sys/kernel/debug/failslab
if [ -d $failslab ]; then
	echo N >$failslab/ignore-gfp-wait
	echo 1 >$failslab/verbose
fi

# KUnit suites: each module runs its suites when it is loaded, and prints
# them as a KTAP document of its own, which becomes the subtest this
# result line ends. Its verdict is that of the suites, read in KUnit's
# debugfs while the module is loaded (what is there and was not before).
suites=/sys/kernel/debug/kunit
for ko in $kunits; do
	name=${ko##*/}
	name=${name%.ko}
	n=$((n + 1))
	loaded perfkmod || insmod $MODDIR/perfkmod.ko
	args=
	lane_has pmu && args=require_pmu=1
	before=$(ls $suites)
	if ! insmod "$ko" $args; then
		log "# insmod $ko failed"
		log "not ok $n $name"
		continue
	fi
	verdict=ok new=
	for s in $(ls $suites); do
		case " $(echo $before) " in *" $s "*) continue ;; esac
		new="$new $suites/$s/results"
		grep -q "^not ok" $suites/$s/results && verdict="not ok"
	done
	if [ -z "$new" ]; then
		log "# $name ran no KUnit suite"
		verdict="not ok"
	else
		# for scripts/judge.py to hold the console's cases to
		cat $new | awk '/# Totals: / {
			for (i = 3; i <= 5; i++) { split($i, f, ":"); t[i] += f[2] }
		} END {
			printf "# KUnit debugfs totals: pass:%d fail:%d skip:%d\n",
				t[3], t[4], t[5]
		}' >/dev/kmsg
	fi
	if ! rmmod "$name"; then
		log "# rmmod $name failed"
		verdict="not ok"
	fi
	log "$verdict $n $name"
done
loaded perfkmod && rmmod perfkmod

begin checks

# The data-race lane (tests/lanes' kcsan) is worth something only while
# KCSAN watches.
if lane_has kcsan; then
	check kcsan-enabled grep -qx "enabled: 1" /sys/kernel/debug/kcsan
fi

# Every perf event the tests made is freed (after an RCU grace period,
# which a loaded host stretches: waited for, a minute at most).
events_back() { [ "$(perf_events)" = "$events_before" ]; }
if [ -n "$events_before" ]; then
	await 60 "the perf events to be freed" events_back
	left=$(($(perf_events) - events_before))
	if [ $left = 0 ]; then
		pass perf-events-all-freed
	else
		fail perf-events-all-freed "$left perf events more than before the tests"
	fi
else
	skip perf-events-all-freed "no $slab"
fi

# Objects must be older than kmemleak's minimum age (5 s) to be reported;
# two scans so that a pointer seen only once in a register is not missed.
if [ -e $kmemleak ]; then
	sleep 6
	echo scan >$kmemleak
	echo scan >$kmemleak
	# debugfs files have size 0: read the report, do not test -s
	leaks=$(cat $kmemleak)
	if [ -n "$leaks" ]; then
		fail kmemleak "unreferenced objects after the tests:
$leaks"
	else
		pass kmemleak
	fi
else
	skip kmemleak "no kmemleak in this kernel"
fi
[ -s /tmp/run.out ] && note "$(tail -n 40 /tmp/run.out)"
end checks 0

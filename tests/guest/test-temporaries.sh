#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Temporaries: the counters and series made on an open control file after
# its "temporary" command go when that file is closed, however its process
# ends. perfkstat stat -a and perfkstat record killed by SIGKILL while they
# count, or ended by SIGINT, leave the control listing, list and the
# debugfs tree as they were before; a counter made on another open file
# outlives the owner's close; a temporary deleted from elsewhere, and its
# name taken again there, leave the close clean; a series of another file
# cannot read a temporary. A refused command (perf's default events in a
# VM, a typo) is an errno and last_error, not a kernel log line.

. /tests/lib.sh

# state: what a temporary must not outlive its file in: the counters and
# series as commands, list's names, and the debugfs tree
state() {
	cat $DBG/control
	cut -d' ' -f1 $DBG/list
	find $DBG | sort
}

# before: save the state, for same
before() { state >/tmp/tmp-before; }

# same TAG: the state is the one before() saved
same() {
	state >/tmp/tmp-$1 && diff /tmp/tmp-before /tmp/tmp-$1
}

# killed TAG PID: PID, killed by SIGKILL, left the state unchanged
killed() {
	kill -KILL "$2"
	wait "$2"
	check "$1-was-killed" [ $? = 137 ]
	check "$1-nothing-left" same "$1"
}

check load insmod $MODDIR/perfkmod.ko
# a named counter and a series of no open file's, there before and after
check named-add kw ok "add keep page-faults"
check named-series kw ok "series keeps 10ms keep"

# perfkstat stat -a, killed as soon as its first temporary exists (its
# counters may be half made), and with -I once it printed an interval
before
perfkstat stat -a >/dev/null 2>&1 &
pk=$!
check stat-a-made await 120 "perfkstat's temporaries" \
	grep -q "^add perfkstat-$pk-" $DBG/control
killed stat-a-kill9 $pk
before
perfkstat stat -a -I 100 -x, -e page-faults -e cpu-clock >/tmp/tmp-i.csv 2>&1 &
pk=$!
check stat-a-I-counts await 120 "an interval of perfkstat stat -a -I" \
	grep -q ',cpu-clock,' /tmp/tmp-i.csv
check stat-a-I-temporaries grep -q "^add perfkstat-$pk-" $DBG/control
killed stat-a-I-kill9 $pk

# perfkstat record, killed once its series records
before
perfkstat record -I 10ms -e page-faults -e cpu-clock -o /tmp/tmp-rec.csv \
	>/dev/null 2>&1 &
pk=$!
check record-records await 120 "perfkstat record's series" \
	test -d $DBG/series/perfkstat-$pk-series
killed record-kill9 $pk

# SIGINT (sent by the command, as a terminal's Ctrl-C reaches both)
before
perfkstat stat -a -x, -e page-faults -- sh -c 'kill -INT $PPID' >/dev/null 2>&1
check stat-sigint-status [ $? = 130 ]
check stat-sigint-nothing-left same stat-sigint
before
perfkstat record -I 10ms -e page-faults -o /tmp/tmp-int.csv -- \
	sh -c 'kill -INT $PPID' >/dev/null 2>&1
check record-sigint-nothing-left same record-sigint

# By hand, on the test shell's own open file (fd 3).
before
exec 3>$DBG/control
check temporary-takes-no-word kw EINVAL "temporary now"
check temporary sh -c "echo temporary >&3"
check own-add sh -c "echo 'add t1 page-faults' >&3"
check own-add-2 sh -c "echo 'add t2 page-faults' >&3"
check own-add-3 sh -c "echo 'add t3 cpu-clock' >&3"
# an own series of own counters, and of a counter of no file's
check own-series sh -c "echo 'series ts 10ms t1 t3' >&3"
check own-series-of-named sh -c "echo 'series tk 10ms keep' >&3"
# another file: a counter of its own, stays; no series of the temporaries
check other-add kw ok "add other page-faults"
check other-series-refused kw EPERM "series os 10ms t1"
check other-series-mixed-refused kw EPERM "series os 10ms keep t3"
check other-series-refused-says-why grep -q \
	"^-EPERM: a temporary counter is read only by series of the same open file: series os 10ms keep t3$" \
	$DBG/last_error
# a temporary deleted elsewhere, its name taken again there
check other-del-own kw ok "del t2"
check other-add-same-name kw ok "add t2 cpu-clock"
check own-listed sh -c "grep -q '^add t1 page-faults$' $DBG/control &&
	grep -q '^series ts 10ms t1 t3$' $DBG/control"
check_fails rmmod-refused-while-owner-open rmmod perfkmod
exec 3>&-
check own-gone sh -c "! grep -Eq '^(add (t1|t3)|series (ts|tk)) ' $DBG/control &&
	[ ! -e $DBG/counters/t1 ] && [ ! -e $DBG/series/ts ]"
check other-stays sh -c "grep -q '^add other page-faults$' $DBG/control &&
	grep -q '^add t2 cpu-clock$' $DBG/control && [ -d $DBG/counters/t2 ]"
check del-other kw ok "del other"
check del-t2 kw ok "del t2"
check by-hand-nothing-left same by-hand

# an open file that is not temporary releases nothing at its close
exec 3>$DBG/control
check plain-add sh -c "echo 'add plain page-faults' >&3"
exec 3>&-
check plain-stays grep -q '^add plain page-faults$' $DBG/control
check plain-series-of-nothing-temporary kw ok "series ps 10ms plain"
check plain-del-series kw ok "del ps"
check plain-del kw ok "del plain"

# The kernel log: perfkstat's default events (those a VM lacks refused),
# a typo, and a refused command leave it unchanged; the errno and
# last_error say why.
before
dmesg >/tmp/tmp-dmesg-before
perfkstat stat -- true >/dev/null 2>&1
perfkstat stat -e no-such-event -- true >/dev/null 2>&1
kwrite $DBG/control "add x not-an-event" >/tmp/tmp-kw
dmesg >/tmp/tmp-dmesg-after
check kernel-log-unchanged diff /tmp/tmp-dmesg-before /tmp/tmp-dmesg-after
check refusal-errno grep -qx EINVAL /tmp/tmp-kw
check refusal-in-last-error grep -q "^-EINVAL: .*: add x not-an-event$" $DBG/last_error
check stat-nothing-left same stat

check del-series kw ok "del keeps"
check del-keep kw ok "del keep"
check unload rmmod perfkmod

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Under kernel lockdown (integrity), debugfs refuses to open any file with
# a write bit (-EPERM): control cannot be written, so no counter can be
# added or changed. The read-only files (0400) still open, and the
# counters made at insmod time (counters=) still count.
#
# Raising lockdown cannot be undone in this boot, and forbids loading
# unsigned modules afterwards: this script's name sorts last, and it skips
# itself where KUnit modules are still to be loaded after the scripts.

. /tests/lib.sh

L=/sys/kernel/security/lockdown
C=$DBG/control

if [ ! -e $L ]; then
	skip lockdown "no $L: this kernel has no lockdown LSM"
	exit 0
fi
if ls $MODDIR/kunit/*.ko >/dev/null 2>&1; then
	skip lockdown "KUnit modules load after the scripts here; lockdown would refuse them"
	exit 0
fi

check lockdown-load insmod $MODDIR/perfkmod.ko \
	"counters=pf=page-faults;cs=context-switches"
check lockdown-add-before kwrite $C "add before dummy"
check lockdown-raise sh -c "echo integrity >$L"
check lockdown-is-integrity grep -q '\[integrity\]' $L
check lockdown-control-open-EPERM sh -c "[ \"\$(kwrite $C 'add x dummy')\" = 'open EPERM' ]"
check lockdown-echo-Operation-not-permitted \
	sh -c "! echo 'del pf' 2>/tmp/err >$C && grep -q 'Operation not permitted' /tmp/err"
check_fails lockdown-nothing-added test -e $DBG/counters/x
check lockdown-pf-still-there test -d $DBG/counters/pf
v0=$(cat $DBG/counters/pf/value)
i=0
while [ $i -lt 20 ]; do ls / >/dev/null; i=$((i + 1)); done
check lockdown-insmod-counter-counts sh -c "[ \$(cat $DBG/counters/pf/value) -gt $v0 ]"
check lockdown-stat-reads grep -q ' active$' $DBG/counters/cs/stat
check lockdown-list-reads grep -q '^pf all ' $DBG/list
check lockdown-events-reads grep -q '^page-faults  *ok$' $DBG/events
check lockdown-tool-stat sh -c "perfkstat stat -x, -k pf 2>&1 | grep -q ',pf,'"
check lockdown-tool-prom perfkstat prom /tmp/lockdown2.prom
check lockdown-tool-prom-format sh /tests/promcheck.sh /tmp/lockdown2.prom
check lockdown-control-unreadable sh -c "[ \"\$(kwrite $C '')\" = 'open EPERM' ] && ! cat $C"
check lockdown-tool-list sh -c "perfkstat list | grep -qx 'add pf page-faults' &&
	[ \$(perfkstat list | wc -l) = 3 ]"
check lockdown-tool-stat-all sh -c "[ \$(perfkstat stat -x, 2>&1 | grep -c ',,[a-z]*,') = 3 ]"
check_fails lockdown-tool-add-fails perfkstat add y dummy
check lockdown-tool-add-says-why \
	sh -c "perfkstat add y dummy 2>&1 | grep -q 'Operation not permitted'"
check lockdown-rmmod rmmod perfkmod

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Counters asked for at insmod (counters=), and the limits: a bad entry
# fails the whole load with the reason in the kernel log, and leaves no
# module and no counter behind.

. /tests/lib.sh

C=$DBG/control
P=/sys/module/perfkmod/parameters

check load-with-counters insmod $MODDIR/perfkmod.ko \
	"counters=pf=page-faults;cs0=context-switches,cpu=0;clk=cpu-clock,period=1000000;" \
	max_name_len=8 max_cmd_len=64
check counters-listed sh -c "[ \"\$(cat $C)\" = 'add pf page-faults
add cs0 context-switches,cpu=0
add clk cpu-clock,period=1000000' ]"
check counters-have-files sh -c "test -e $DBG/counters/pf/percpu &&
	test -e $DBG/counters/clk/overflow && test -e $DBG/counters/cs0/stat"
v0=$(cat $DBG/counters/pf/value)
i=0
while [ $i -lt 20 ]; do ls / >/dev/null; i=$((i + 1)); done
check insmod-counter-counts sh -c "[ \$(cat $DBG/counters/pf/value) -gt $v0 ]"
check insmod-counter-active grep -q " active$" $DBG/counters/pf/stat
check param-counters-shown grep -q "^pf=page-faults;cs0=" $P/counters
check param-max-name-len grep -qx 8 $P/max_name_len
check param-max-cmd-len grep -qx 64 $P/max_cmd_len
check params-0400 sh -c "for p in counters max_name_len max_cmd_len; do
	[ \$(stat -c %a $P/\$p) = 400 ] || exit 1; done"
check name-8-ok kw ok "add abcdefgh dummy"
check name-9-ENAMETOOLONG kw ENAMETOOLONG "add abcdefghi dummy"
check cmd-64-ok kw ok "add s $(printf 'dummy,period=%045d' 1)"
check cmd-65-E2BIG kw E2BIG "add t $(printf 'dummy,period=%046d' 1)"
check unload-with-counters rmmod perfkmod

# bad entries: the load fails, says why, leaves nothing
bad() {
	_name=$1 _want=$2
	shift 2
	dmesg -c >/dev/null
	if insmod $MODDIR/perfkmod.ko "$@" 2>/dev/null; then
		rmmod perfkmod
		fail "$_name" "insmod $* succeeded"
	elif loaded perfkmod; then
		fail "$_name" "a failed insmod left the module loaded"
	elif ! dmesg | grep -q "perfkmod: counters=: .*$_want"; then
		fail "$_name" "no reason in the log: $(dmesg | tail -2 | tr '\n' ' ')"
	else
		pass "$_name"
	fi
}
bad bad-spec-refused '"b=bogus": -EINVAL: not in the event grammar (unknown name' \
	"counters=a=page-faults;b=bogus"
bad no-equals-refused '"a": -EINVAL: an entry is NAME=SPEC' "counters=a"
bad duplicate-refused '"a=dummy": -EEXIST' "counters=a=page-faults;a=dummy"
bad no-task-refused '-ESRCH' "counters=a=dummy;b=page-faults,pid=4194303"
bad too-many-refused '"c=dummy": -ENOSPC: max_counters' \
	max_counters=2 "counters=a=dummy;b=dummy;c=dummy"
bad long-name-refused '-ENAMETOOLONG' max_name_len=4 "counters=abcde=dummy"
check_fails max-name-len-0-refused insmod $MODDIR/perfkmod.ko max_name_len=0
check_fails max-name-len-256-refused insmod $MODDIR/perfkmod.ko max_name_len=256
check_fails max-cmd-len-8-refused insmod $MODDIR/perfkmod.ko max_cmd_len=8
check_fails max-cmd-len-huge-refused insmod $MODDIR/perfkmod.ko max_cmd_len=1000000
check_fails refused-loads-left-nothing loaded perfkmod

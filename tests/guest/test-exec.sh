#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# enable_on_exec: a command counted from its exec, as a tool counts it
# (tests/helpers/execpages: fork, the child waits, the counter is made on
# the child's pid through control, the child execs). The child touches N
# pages before its exec, which must not count; the program it execs
# touches M and forks a grandchild that touches K, which counts with
# inherit only. Also: enable and disable before the exec, a sampling
# counter, a series of the task.

. /tests/lib.sh

N=6000 M=1000 K=1500
# What the exec, and the programs' own start, fork and exit, fault
# besides the pages touched: well below N and K, so that N's pages counted,
# or K's counted or missed, show.
SLACK=300

C=$DBG/control
num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }

# run NAME OPTIONS [LINE...]: execpages, its lines in /tmp/eoe.NAME
run() {
	_n=$1 _o=$2
	shift 2
	execpages $_n $_o $N $M $K "$@" >/tmp/eoe.$_n
}
# field NAME STEP FIELD: a field of the stat line execpages printed at STEP
# (before, running, after): 1 value, 5 state
field() { sed -n "s/^$2 //p" /tmp/eoe.$1 | cut -d' ' -f$3; }
# between NAME STEP LO HI: LO <= the value at STEP < HI
between() {
	_v=$(field $1 $2 1)
	num "$_v" && [ "$_v" -ge $3 ] && [ "$_v" -lt $4 ] ||
		{ echo "$1 $2: $_v page faults, not in [$3, $4)"; return 1; }
}
# is NAME STEP STATE
is() {
	[ "$(field $1 $2 5)" = $3 ] ||
		{ echo "$1 $2: state '$(field $1 $2 5)', not $3"; return 1; }
}
report() { note "$1: $(tr '\n' ' ' </tmp/eoe.$1)"; }

check load insmod $MODDIR/perfkmod.ko

# inherit: the exec'd program's pages and its child's, not those before
check inherit-runs run inh inherit,enable_on_exec
report inh
check inherit-off-before is inh before off
check inherit-zero-before between inh before 0 1
check inherit-active-after-exec is inh running active
check inherit-counts-from-exec between inh running $((M + K)) $((M + K + SLACK))
check inherit-exit is inh after exit
check inherit-final between inh after $(field inh running 1) $((M + K + SLACK))
check inherit-listed grep -q "^inh pid=[0-9]* exit " $DBG/list
check inherit-del kw ok "del inh"

# without inherit: the grandchild's K pages are not counted
check own-runs run own enable_on_exec
report own
check own-off-before is own before off
check own-active-after-exec is own running active
check own-not-the-grandchild between own running $M $((M + SLACK))
check own-del kw ok "del own"

# enable before the exec starts it at once: N's pages count too
check enable-first-runs run en inherit,enable_on_exec "enable en"
report en
check enable-first-active is en before active
check enable-first-counts-all between en running $((N + M + K)) \
	$((N + M + K + SLACK))
check enable-first-del kw ok "del en"

# disable before the exec does not cancel the exec's enable (as in perf)
check disable-first-runs run dis inherit,enable_on_exec "disable dis"
report dis
check disable-first-off is dis before off
check disable-first-exec-enables between dis running $((M + K)) \
	$((M + K + SLACK))
check disable-first-del kw ok "del dis"

# sampling: overflows from the exec only, every 100 page faults of the
# task and of its child (each event keeps its own count to the period)
check sampling-runs run smp inherit,enable_on_exec,period=100
report smp
check sampling-off-before is smp before off
check sampling-counts-from-exec between smp after $((M + K)) $((M + K + SLACK))
ovf=$(sed -n 's/^overflows //p' $DBG/counters/smp/overflow)
v=$(field smp after 1)
note "smp: $ovf overflows"
check sampling-overflows sh -c "[ $((ovf * 100)) -le $v ] &&
	[ $((ovf * 100)) -gt $((v - 300)) ]"
check sampling-del kw ok "del smp"

# a series of the task (no inherit): 0 until the exec, then what it
# counts, never more than its counter
check series-runs run ser enable_on_exec "series sers 1ms ser"
report ser
check series-counts-from-exec between ser after $M $((M + SLACK))
cat $DBG/series/sers/records >/tmp/eoe.records
note "series: $(wc -l </tmp/eoe.records) records, values $(cut -d' ' -f3 \
	/tmp/eoe.records | sort -n | uniq | tr '\n' ' ' | cut -c1-200)"
check series-zero-before-exec awk '$3 == 0 { z = 1 } END { exit !z }' \
	/tmp/eoe.records
check series-counts-after-exec awk -v m=$M -v v=$(field ser after 1) '
	$3 > v { exit 1 } $3 >= m { c = 1 } END { exit !c }' /tmp/eoe.records
check series-del kw ok "del sers"
check series-counter-del kw ok "del ser"

# the options a command cannot have: the errno, nothing made
check refused-cpu-EINVAL kw EINVAL "add x page-faults,cpu=0,enable_on_exec"
check refused-all-cpus-EINVAL kw EINVAL "add x page-faults,enable_on_exec"
check refused-disabled-EINVAL kw EINVAL \
	"add x page-faults,pid=1,enable_on_exec,disabled"
check refused-made-nothing sh -c "[ -z \"\$(cat $C)\" ]"
check unload rmmod perfkmod

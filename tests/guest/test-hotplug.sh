#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug under every kind of counter the grammar makes.
# perfkmod's cpuhp callbacks must not create or release the perf events of
# per-CPU counters, for the hotplug thread runs them with the hotplug lock
# held for writing. A software event other than the two clocks counts
# itself in a static key when it is made or freed (perf_swevent_init(),
# sw_perf_event_destroy()), and a tracepoint's first or last perf user
# flips one; with CONFIG_JUMP_LABEL=y, as in every distribution kernel,
# each takes cpus_read_lock(), and an offline would never return. A
# tracepoint's first or last perf user also updates a static call on x86,
# which takes it with or without JUMP_LABEL. cpu-clock touches neither, so
# hotplug runs here under every kind of event. The callbacks only queue a
# work that makes and releases the events outside the lock.
#
# The matrix, each kind of event that exists here (the events file says
# which; tracepoint, breakpoint and hardware as the kernel has them):
#   kinds    every software event (parse.c's names, aliases left out),
#            the sched:sched_switch tracepoint, a write breakpoint on
#            jiffies (an execute one on schedule() where kallsyms lists
#            no data), cycles and instructions
#   targets  all CPUs, CPU 1 (the one going away), a busy task pinned to
#            CPU 1
#   1. for each target, CPU 1 offline and online 20 times (KCSAN,
#      arm64: 5) under a counting and a sampling counter of every kind
#      at once (control) and a sampling counter with a callback (the
#      example client): values and overflows never go back, states are
#      active after, the clocks keep counting
#   2. counters created and released (add/del, counting and sampling)
#      while a background loop takes CPU 1 down and up
#   3. counters released while CPU 1 is offline: del, the client's rmmod
#      and perfkmod's rmmod with counters live
#   4. a suspend to the pm_test "processors" level (secondary CPUs down
#      and up by the suspend path) with counters of every kind live
#
# A deadlock must not wait for the lane's timeout: every step runs under
# a watchdog that, when the step has not ended after $limit seconds, says
# "not ok hotplug-STEP - hung: ..." with what the step was doing, dumps
# the blocked tasks (sysrq w, or the hung task detector where the kernel
# has no sysrq) and ends the VM at once (scripts/judge.py reports it).

. /tests/lib.sh

C=$DBG/control
cpu1=/sys/devices/system/cpu/cpu1/online
client=/sys/module/perfkmod_client/parameters/value
AT=/tmp/hotplug.at

# Hotplug cycles per target: 20, 5 on the slow KCSAN kernel (tests/lanes'
# kcsan) and on the emulated arm64 machine. The watchdog's time per step
# (in the matrix, per CPU state change and per phase), far above what one
# takes on a loaded host: 120 s for seconds on Debian's x86 kernels, 240 s
# for a minute at most on the debug kernels (debug) and on arm64.
n=20 limit=120
if lane_has kcsan || [ "$(uname -m)" = aarch64 ]; then
	n=5 limit=240
elif lane_has debug; then
	limit=240
fi

# at WHAT: what the step is doing now, for the watchdog to report.
at() { echo "$*" >$AT; }

# hung NAME DESCRIPTION: the watchdog's report, then the end of the VM.
# Only shell builtins until the blocked tasks are dumped: a deadlock of
# the hotplug lock may stop more of the system than the step.
hung() {
	where=
	read -r where <$AT
	log "    # hotplug-$1: hung: $2; no end after ${limit}s, at: $where"
	ktap_result "not ok" "hotplug-$1"
	log "    # PERFKMOD-ABORT hotplug-$1 hung ($where): dumping blocked tasks, ending the VM"
	if [ -w /proc/sysrq-trigger ]; then
		echo w >/proc/sysrq-trigger
		[ -e /proc/lockdep ] && echo d >/proc/sysrq-trigger
		sleep 2
		echo b >/proc/sysrq-trigger
	fi
	# No sysrq (the self-built kernels): the hung task detector prints
	# each blocked task and panics; the kernel's panic=-1 ends the VM.
	if [ -e /proc/sys/kernel/hung_task_panic ]; then
		echo 1 >/proc/sys/kernel/hung_task_panic
		echo 1 >/proc/sys/kernel/hung_task_timeout_secs
		sleep 30
	fi
	reboot -f
}

# watch NAME DESCRIPTION: start the watchdog of a step; unwatch ends it.
wd=
watch() {
	at "start"
	(
		s=
		trap '[ -n "$s" ] && kill $s; exit 0' TERM
		sleep $limit &
		s=$!
		wait $s
		hung "$1" "$2"
	) </dev/null >/dev/null 2>&1 &
	wd=$!
}
unwatch() {
	kill $wd 2>/dev/null
	wait $wd 2>/dev/null
	wd=
}

# result NAME WHY: pass when WHY is empty.
result() {
	if [ -z "$2" ]; then
		pass "$1"
	else
		fail "$1" "$2"
	fi
}

# The busy task of the task target: mostly spinning, forking now and then
# (page faults, context switches), pinned to CPU 1 where taskset exists
# (perf has it follow its task to CPU 0 while CPU 1 is offline), niced so
# that the test's shell keeps most of a CPU they share.
busy=
pin=
command -v taskset >/dev/null && pin=1
pin_busy() {
	[ -n "$pin" ] && [ -n "$busy" ] && taskset -p 2 $busy >/dev/null 2>&1
	return 0
}
start_busy() {
	sh -c 'while :; do i=0; while [ $i -lt 300 ]; do i=$((i + 1)); done
		/bin/true; done' </dev/null >/dev/null 2>&1 &
	busy=$!
	renice -n 19 -p $busy >/dev/null 2>&1
	pin_busy
}
stop_busy() {
	[ -n "$busy" ] || return 0
	kill $busy
	wait $busy 2>/dev/null
	busy=
}

# target_opt TARGET: the spec's option for the target, in $opt, and the
# spec for it, in $tspec: $spec, except for a breakpoint of the task on
# arm64, which has no task breakpoints on kernel addresses (-EINVAL): a
# user address there, which the busy task never writes.
target_opt() {
	case $1 in
	all) opt= ;;
	cpu1) opt=,cpu=1 ;;
	task) opt=,pid=$busy ;;
	esac
	tspec=$spec
	case $1:$spec:$(uname -m) in
	task:mem:*:aarch64) tspec=mem:0x10000:w ;;
	esac
}

# online: CPU 1 back online whatever a failed step left.
online() {
	read -r o <$cpu1
	[ "$o" = 1 ] || echo 1 >$cpu1
}

if [ ! -e $cpu1 ]; then
	skip hotplug "no hotpluggable CPU 1"
	exit 0
fi
online

# --- what exists here ---------------------------------------------------

insmod $MODDIR/perfkmod.ko || { fail hotplug-load "insmod perfkmod"; exit 0; }
events=$(cat $DBG/events)
ev_ok() { echo "$events" | grep -q "^$1  *ok\$"; }
ev_why() { echo "$events" | sed -n "s/^$1  *//p"; }

# Entries LABEL|SPEC|PERIOD: PERIOD is the sampling variant's (1 ms for
# the clocks and hardware events, every event for the others).
kinds=
for ev in cpu-clock task-clock page-faults context-switches cpu-migrations \
	minor-faults major-faults alignment-faults emulation-faults dummy \
	bpf-output cgroup-switches cycles instructions; do
	case $ev in
	cpu-clock | task-clock | cycles | instructions) p=1000000 ;;
	*) p=1 ;;
	esac
	if ev_ok $ev; then
		kinds="$kinds $ev|$ev|$p"
	else
		skip hotplug-$ev "no such event here: $(ev_why $ev)"
	fi
done

tp=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -e $d/events/sched/sched_switch/id ] &&
		tp=$(cat $d/events/sched/sched_switch/id) && break
done
if [ -n "$tp" ]; then
	kinds="$kinds tracepoint|tracepoint=$tp|1"
else
	skip hotplug-tracepoint "no tracefs events/sched/sched_switch/id"
fi

# A write breakpoint on jiffies (or jiffies_64, where the linker's alias
# is not listed), written every tick. A kernel without KALLSYMS_ALL
# (Debian's arm64) lists no data: an execute breakpoint on schedule(),
# which runs about as often.
bp=$(awk '$1 ~ /[1-9a-f]/ && ($3 == "jiffies" || $3 == "jiffies_64") {
	print "mem:0x" $1 ":w"; exit }' /proc/kallsyms)
[ -n "$bp" ] || bp=$(awk '$1 ~ /[1-9a-f]/ && $3 == "schedule" {
	print "mem:0x" $1 ":x"; exit }' /proc/kallsyms)
if [ ! -d /sys/bus/event_source/devices/breakpoint ]; then
	skip hotplug-breakpoint "no breakpoint PMU"
elif [ -z "$bp" ]; then
	skip hotplug-breakpoint "no address of jiffies or schedule in /proc/kallsyms"
else
	kinds="$kinds breakpoint|$bp|1"
fi
note "hotplug: kinds:$kinds"
read -r t0 _ </proc/uptime

# --- 1. the matrix ------------------------------------------------------

# A step's cases keep their state in files of $H: "last.NAME", the last
# value read (NAME.o: overflows), and "why.NAME", the first thing found
# wrong with NAME.
H=/tmp/hotplug
wrong() { [ -s $H/why.$1 ] || echo "$2" >$H/why.$1; }
# why_of NAME...: what was found wrong with any of NAME..., "; " between,
# in $w. last NAME: NAME's last value, in $l. (Shell builtins only: a
# fork takes a good part of a second on the emulated arm64 machine.)
why_of() {
	w=
	for _n; do
		[ -s $H/why.$_n ] || continue
		read -r _r <$H/why.$_n
		w=${w:+$w; }$_r
	done
}
last() { l=; read -r l <$H/last.$1; }

# mono NAME V WHEN: V, NAME's value now, is not below its last one.
mono() {
	_l=0 _what=
	[ -e $H/last.$1 ] && read -r _l <$H/last.$1
	case $1 in *.o) _what="overflows " ;; esac
	[ "$2" -ge "$_l" ] || wrong $1 "${_what}went back from $_l to $2, $3"
	echo "$2" >$H/last.$1
}

# read_counter NAME: counter NAME's value in $v and, for a sampling
# counter (s-*), its overflows in $o (a missing count is wrong with NAME.o).
read_counter() {
	read -r v <$DBG/counters/$1/value
	o=
	case $1 in
	s-*)
		while read -r _k o; do
			[ "$_k" = overflows ] && break
			o=
		done <$DBG/counters/$1/overflow
		[ -n "$o" ] || wrong $1.o "no overflows line in its overflow file"
		;;
	esac
}

# counters_grow: every clock counter's value, and its overflows, above
# their last reading.
counters_grow() {
	for _c in $clocks; do
		read_counter $_c
		last $_c
		[ "$v" -gt "$l" ] || return 1
		[ -z "$o" ] || { last $_c.o && [ "$o" -gt "$l" ]; } || return 1
	done
	[ -n "$has_client" ] && [ -n "$client_clock" ] || return 0
	read -r _v _ _ _ _o <$client
	last client
	[ "$_v" -gt "$l" ] && last client.o && [ "$_o" -gt "$l" ]
}

# client_above V O: the client's value is above V, its overflows above O.
client_above() {
	read -r _v _ _ _ _o <$client && [ "$_v" -gt "$1" ] && [ "$_o" -gt "$2" ]
}

# matrix TARGET: CPU 1 offline and online $n times under counters of every
# kind on TARGET at once. For each kind, a counting counter c-LABEL and a
# sampling one s-LABEL (PERIOD), both through control: tests
# hotplug-LABEL-TARGET-count and -sample. And the example client sampling
# $client_spec with its callback: hotplug-client-TARGET. Having every kind
# live at once hides nothing: a software event takes the hotplug lock for
# its static key whenever it is made or freed, and on the cpu1 target
# c-tracepoint and s-tracepoint are the tracepoint's only perf users, so
# that its key and static call still flip each cycle. Values and overflows
# never go back, the counters are active after, the clocks keep counting.
# The watchdog starts again at each CPU state change.
matrix() {
	target=$1
	rm -rf $H
	mkdir -p $H
	watch matrix-$target "adding counters of every kind on $target"
	live= clocks= labels=
	for k in $kinds; do
		label=${k%%|*}
		spec=${k#*|}
		period=${spec#*|}
		spec=${spec%|*}
		labels="$labels $label"
		target_opt $target
		for m in c s; do
			c=$m-$label samp=
			[ $m = s ] && samp=,period=$period
			at "add $c $tspec$samp$opt"
			r=$(kwrite $C "add $c $tspec$samp$opt")
			case $m/$label/$r in
			*/cpu-clock/ok* | */task-clock/ok*)
				live="$live $c" clocks="$clocks $c" ;;
			*/ok*) live="$live $c" ;;
			s/cpu-clock/* | s/task-clock/*)
				wrong $c "add $tspec$samp$opt: $r ($(cat $DBG/last_error))" ;;
			s/*/EOPNOTSUPP*)
				echo "cannot sample here: $r ($(cat $DBG/last_error))" \
					>$H/skip.$c ;;
			*) wrong $c "add $tspec$samp$opt: $r ($(cat $DBG/last_error))" ;;
			esac
		done
	done
	spec=$client_spec
	target_opt $target
	at "insmod perfkmod_client.ko spec=$tspec$opt"
	r=$(insmod $MODDIR/perfkmod_client.ko spec="$tspec$opt" 2>&1) ||
		wrong client "client spec=$tspec$opt: $r"
	has_client=
	loaded perfkmod_client && has_client=1

	i=0
	while [ $i -lt $n ]; do
		for state in 0 1; do
			unwatch
			watch matrix-$target "CPU 1 offline/online $n times under counters of every kind on $target"
			at "cycle $((i + 1)): echo $state > cpu1/online"
			echo $state >$cpu1 ||
				{ wrong cpu1 "echo $state > cpu1/online failed"; break 2; }
			for c in $live; do
				at "cycle $((i + 1)): reading $c, CPU 1 $state"
				read_counter $c
				mono $c "$v" "cycle $((i + 1))"
				[ -z "$o" ] || mono $c.o "$o" "cycle $((i + 1))"
			done
			if [ -n "$has_client" ]; then
				at "cycle $((i + 1)): reading the client, CPU 1 $state"
				read -r v _ _ _ o <$client
				mono client "$v" "cycle $((i + 1))"
				echo "$o" >$H/last.client.o
			fi
		done
		[ $target = task ] && pin_busy
		i=$((i + 1))
	done
	online

	# after the cycles: the clocks count on (waited for, a minute at
	# most: the checks below say which did not), all is still active
	unwatch
	watch matrix-$target "deleting the counters of every kind on $target"
	at "waiting for the clocks to count after the cycles"
	[ -e $H/why.cpu1 ] || await 60 "the clocks to count" counters_grow
	at "reading the counters after the cycles"
	for c in $live; do
		read -r _ _ _ _ st <$DBG/counters/$c/stat
		[ "$st" = active ] || wrong $c "state $st after the cycles"
		read_counter $c
		case " $clocks " in
		*" $c "*)
			last $c
			[ "$v" -gt "$l" ] ||
				wrong $c "stopped counting at $v after the cycles"
			[ -z "$o" ] || { last $c.o && [ "$o" -gt "$l" ]; } ||
				wrong $c "stopped sampling at $o overflows after the cycles"
			;;
		esac
		mono $c "$v" "after the cycles"
		[ -z "$o" ] || mono $c.o "$o" "after the cycles"
		at "del $c"
		r=$(kwrite $C "del $c")
		case $r in ok*) ;; *) wrong $c "del: $r" ;; esac
	done
	if [ -n "$has_client" ]; then
		read -r v _ _ st o <$client
		[ "$st" = active ] || wrong client "state $st after the cycles"
		[ -z "$client_clock" ] ||
			{ last client && _lv=$l && last client.o &&
				client_above "$_lv" "$l"; } ||
			wrong client "stopped sampling at $v ($o overflows) after the cycles"
		mono client "$v" "after the cycles"
		at "rmmod perfkmod_client"
		rmmod perfkmod_client || wrong client "rmmod perfkmod_client failed"
	fi
	unwatch
	for label in $labels; do
		name=hotplug-$label-$target
		why_of cpu1 c-$label
		result $name-count "$w"
		if [ -e $H/skip.s-$label ]; then
			case " $nosample " in
			*" $label "*) ;;
			*) nosample="$nosample $label" ;;
			esac
			read -r w <$H/skip.s-$label
			skip $name-sample "$w"
		else
			why_of cpu1 s-$label s-$label.o
			result $name-sample "$w"
		fi
	done
	why_of cpu1 client
	result hotplug-client-$target "$w"
}

# The client samples, with its callback, what runs its callback in the
# rarest context: cycles in the PMU's interrupt (an NMI where the kernel
# has them), else x86's breakpoint in its debug exception (arm64 cannot
# sample breakpoints), else cpu-clock in its hrtimer. Only the clock is
# sure to go on sampling on an idle CPU 1.
client_clock=
case " $kinds :$(uname -m)" in
*" cycles|"*) client_spec=cycles,period=1000000 ;;
*" breakpoint|"*:x86_64) client_spec=$bp,period=1 ;;
*) client_spec=cpu-clock,period=1000000 client_clock=1 ;;
esac
nosample=
for target in all cpu1 task; do
	[ $target = task ] && start_busy
	matrix $target
	stop_busy
done
read -r t1 _ </proc/uptime
note "hotplug matrix: $n cycles per target, $(echo "$kinds" | wc -w)" \
	"kinds at once, ${t0%.*} to ${t1%.*} s"

# --- 2. create and release while CPU 1 comes and goes -------------------

# more_rounds: no cycle of churn's loop yet, the loop going on, and less
# than 60 s since churn's rounds began ($churn_t0). Shell builtins only.
more_rounds() {
	read -r _now _ </proc/uptime
	[ ! -e /tmp/hotplug.cycled ] && [ ! -e /tmp/hotplug.loops ] &&
		[ "${_now%.*}" -lt $((churn_t0 + 60)) ]
}

# churn LABEL SPEC PERIOD: 2 rounds of add and del of a counter on each
# target (counting, then sampling where the matrix could), and more until
# the loop's first cycle, while a background loop takes CPU 1 offline and
# online. A CPU 1 counter may find
# it offline (ENODEV).
churn() {
	label=$1 spec=$2 period=$3
	watch churn-$label \
		"add/del of $spec counters while a loop takes CPU 1 down and up"
	why=
	rm -f /tmp/hotplug.stop /tmp/hotplug.loops /tmp/hotplug.cycled
	(
		c=0
		while [ ! -e /tmp/hotplug.stop ]; do
			echo 0 >$cpu1 || break
			echo 1 >$cpu1 || break
			c=$((c + 1))
			[ $c = 1 ] && : >/tmp/hotplug.cycled
		done
		echo $c >/tmp/hotplug.loops
	) </dev/null >/dev/null 2>&1 &
	loop=$!
	round=0
	read -r churn_t0 _ </proc/uptime
	churn_t0=${churn_t0%.*}
	# 2 rounds, and more until the loop's first cycle (60 s at most), so
	# that counters come and go while CPU 1 does
	while [ -z "$why" ] && { [ $round -lt 2 ] || more_rounds; }; do
		samp=
		case " $nosample " in
		*" $label "*) ;;
		*) [ $((round % 2)) = 1 ] && samp=,period=$period ;;
		esac
		for t in all cpu1 task; do
			target_opt $t
			at "churn round $((round + 1)): add x-$t $tspec$samp$opt"
			r=$(kwrite $C "add x-$t $tspec$samp$opt")
			case $r/$t in
			ok*) ;;
			ENODEV/cpu1) ;;
			*) why="${why:-add x-$t $tspec$samp$opt: $r ($(cat $DBG/last_error))}" ;;
			esac
		done
		for t in all cpu1 task; do
			at "churn round $((round + 1)): read and del x-$t"
			[ -e $DBG/counters/x-$t ] || continue
			read -r v _ _ _ st <$DBG/counters/x-$t/stat
			r=$(kwrite $C "del x-$t")
			case $r in
			ok*) ;;
			*) why="${why:-del x-$t: $r}" ;;
			esac
		done
		round=$((round + 1))
	done
	at "churn: stopping the hotplug loop"
	touch /tmp/hotplug.stop
	wait $loop
	online
	read -r loops </tmp/hotplug.loops
	[ "${loops:-0}" -gt 0 ] || why="${why:-the hotplug loop made no cycle}"
	unwatch
	result hotplug-churn-$label "$why"
}

start_busy
for k in $kinds; do
	spec=${k#*|}
	churn "${k%%|*}" "${spec%|*}" "${spec#*|}"
done
stop_busy

# --- 3. release while the CPU is offline --------------------------------

# release LABEL SPEC: counters on all CPUs and on CPU 1, and a client's on
# CPU 1; CPU 1 offline; those of control deleted but one, the client
# removed, then perfkmod removed with that one live; CPU 1 online;
# perfkmod again. Four events on CPU 1: x86 has four breakpoint registers.
release() {
	label=$1 spec=$2
	watch release-$label "release of $spec counters while CPU 1 is offline"
	why=
	for c in a-all a-cpu1 b-all; do
		target_opt ${c#*-}
		at "add $c $tspec$opt"
		r=$(kwrite $C "add $c $tspec$opt")
		case $r in ok*) ;; *) why="${why:-add $c: $r}" ;; esac
	done
	at "insmod perfkmod_client.ko spec=$spec,cpu=1"
	r=$(insmod $MODDIR/perfkmod_client.ko spec="$spec,cpu=1" 2>&1) ||
		why="${why:-client spec=$spec,cpu=1: $r}"
	at "echo 0 > cpu1/online"
	echo 0 >$cpu1 || why="${why:-echo 0 > cpu1/online failed}"
	at "reading a-cpu1 and the client, CPU 1 offline"
	read -r v _ _ _ st <$DBG/counters/a-cpu1/stat ||
		why="${why:-a-cpu1 unreadable while CPU 1 is offline}"
	if loaded perfkmod_client; then
		read -r v _ _ st _ <$client ||
			why="${why:-the client's value unreadable while CPU 1 is offline}"
		at "rmmod perfkmod_client, CPU 1 offline"
		rmmod perfkmod_client || why="${why:-rmmod perfkmod_client failed}"
	fi
	for c in a-all a-cpu1; do
		at "del $c, CPU 1 offline"
		r=$(kwrite $C "del $c")
		case $r in ok*) ;; *) why="${why:-del $c: $r}" ;; esac
	done
	at "rmmod perfkmod with b-all live, CPU 1 offline"
	rmmod perfkmod || why="${why:-rmmod perfkmod failed}"
	at "echo 1 > cpu1/online"
	online
	at "insmod perfkmod"
	insmod $MODDIR/perfkmod.ko || why="${why:-insmod perfkmod failed}"
	unwatch
	result hotplug-release-offline-$label "$why"
}

for k in $kinds; do
	spec=${k#*|}
	release "${k%%|*}" "${spec%|*}"
done

# --- 4. the suspend path ------------------------------------------------

# "processors": the suspend path takes the secondary CPUs down and back
# (freeze_secondary_cpus()) and wakes at once, after pm_test_delay. It
# needs S3 ("deep"); suspend to idle has the freezer level only, which
# takes no CPU down. During a suspend this watchdog is frozen with every
# other task: a hang inside it waits for the lane's timeout, but the
# hotplug steps above have taken the same callbacks through the same
# paths already.
power=/sys/power
mode= level=
if [ ! -e $power/pm_test ]; then
	skip hotplug-suspend "no /sys/power/pm_test (CONFIG_PM_DEBUG): cannot suspend and come back"
elif grep -qw mem $power/state 2>/dev/null &&
	{ [ ! -e $power/mem_sleep ] || grep -qw deep $power/mem_sleep ||
		grep -q '\[deep\]' $power/mem_sleep; }; then
	mode=mem level=processors
	[ -e $power/mem_sleep ] && echo deep >$power/mem_sleep
elif grep -qw freeze $power/state 2>/dev/null; then
	mode=freeze level=freezer
	note "hotplug: no suspend to RAM here ($(cat $power/state)): the freezer level only, no CPU goes down"
else
	skip hotplug-suspend "no mem or freeze in /sys/power/state: $(cat $power/state 2>/dev/null)"
fi

# after: why counter s-LABEL-TARGET, read before as $before, is wrong
after_suspend() {
	w=
	read -r v _ _ _ st <$DBG/counters/$1/stat
	[ "$st" = active ] || w="state $st"
	[ "$v" -ge "$2" ] || w="${w:-went back from $2 to $v}"
	case $1 in
	s-cpu-clock-*) [ "$v" -gt "$2" ] || w="${w:-stopped counting at $v}" ;;
	esac
	[ -z "$w" ] || echo "$1: $w after the suspend"
}

if [ -n "$mode" ]; then
	watch suspend-$level "suspend to $mode at pm_test $level with counters of every kind live"
	why=
	for k in $kinds; do
		spec=${k#*|}
		spec=${spec%|*}
		for t in all cpu1; do
			target_opt $t
			at "add s-${k%%|*}-$t $tspec$opt"
			r=$(kwrite $C "add s-${k%%|*}-$t $tspec$opt")
			case $r in ok*) ;; *) why="${why:-add $tspec$opt: $r}" ;; esac
		done
	done
	at "insmod perfkmod_client.ko spec=cpu-clock,period=1000000"
	insmod $MODDIR/perfkmod_client.ko spec=cpu-clock,period=1000000 ||
		why="${why:-client refused}"
	before=
	for d in $DBG/counters/s-*; do
		read -r v <$d/value
		before="$before ${d##*/}=$v"
	done
	read -r cv _ _ _ co <$client
	# pm_test waits 5 s at its level by default: 1 is enough
	delay=/sys/module/suspend/parameters/pm_test_delay
	old_delay=
	[ -w $delay ] && read -r old_delay <$delay && echo 1 >$delay
	echo $level >$power/pm_test
	at "echo $mode > /sys/power/state (pm_test $level)"
	echo $mode >$power/state || why="${why:-echo $mode > /sys/power/state failed}"
	echo none >$power/pm_test
	[ -n "$old_delay" ] && echo "$old_delay" >$delay
	online
	at "waiting for the client to sample after the suspend"
	await 60 "the client to sample" client_above "$cv" "$co"
	at "reading the counters after the suspend"
	# one result per kind, given once the watchdog is off: "LABEL|WHY "
	res=
	for k in $kinds; do
		w=
		for t in all cpu1; do
			c=s-${k%%|*}-$t
			for b in $before; do
				[ "${b%=*}" = $c ] && w=${w:-$(after_suspend $c ${b#*=})}
			done
		done
		res="$res
${k%%|*}|$w"
	done
	read -r v _ _ st o <$client
	cw=
	[ "$st" = active ] && [ "$v" -gt "$cv" ] && [ "$o" -gt "$co" ] ||
		cw="sampling cpu-clock client: $st, $v ($o overflows) after, $cv ($co) before"
	at "rmmod perfkmod_client, del s-*"
	rmmod perfkmod_client
	for b in $before; do
		kwrite $C "del ${b%=*}" >/dev/null
	done
	unwatch
	result hotplug-suspend-$level "$why"
	echo "$res" | while IFS='|' read -r l w; do
		[ -n "$l" ] && result hotplug-suspend-$level-$l "$w"
	done
	result hotplug-suspend-$level-sample "$cw"
fi

online
loaded perfkmod_client && rmmod perfkmod_client
loaded perfkmod && rmmod perfkmod
read -r t2 _ </proc/uptime
note "hotplug: ${t0%.*} to ${t2%.*} s"

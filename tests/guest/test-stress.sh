#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Lifecycle under load, through the exported API's example client: 100
# insmod/rmmod cycles of perfkmod with a client counting and sampling,
# task counters whose task is killed mid-count, and CPU 1 taken offline
# and online 100 times under an all-CPUs counter (20 and 20 on the debug
# kernels).

. /tests/lib.sh

client=/sys/module/perfkmod_client/parameters/value
field() { cut -d' ' -f"$1" $client; }
# counted V: the client's value is above V
counted() { [ "$(field 1)" -gt "$1" ]; }

# 100 cycles (20 on the slow debug kernels, tests/lanes' debug, where each
# cycle runs every check of KASAN or KCSAN and lockdep): perfkmod with two
# counters made at load time, a client with a sampling all-CPUs counter
# and a callback, reads, then both modules removed with their counters
# live.
n=100
! lane_has debug || n=20
cycles() {
	i=0
	while [ $i -lt $n ]; do
		insmod $MODDIR/perfkmod.ko \
			counters="pf=page-faults;clk=cpu-clock,period=1000000" ||
			return 1
		insmod $MODDIR/perfkmod_client.ko \
			spec="cpu-clock,period=100000" || return 1
		field 1 >/dev/null || return 1
		cat $DBG/counters/clk/value >/dev/null || return 1
		rmmod perfkmod_client || return 1
		rmmod perfkmod || return 1
		i=$((i + 1))
	done
}
check insmod-rmmod-$n-cycles-with-client cycles

# A task counter whose task is killed (SIGKILL) while it counts: the value
# stays readable, final, in the exit state; 20 times.
killed() {
	insmod $MODDIR/perfkmod.ko || return 1
	i=0
	while [ $i -lt 20 ]; do
		sh -c 'while :; do :; done' &
		pid=$!
		insmod $MODDIR/perfkmod_client.ko spec="task-clock,pid=$pid" ||
			return 1
		await 60 "task-clock to count" counted 0 || return 1
		kill -KILL $pid
		wait $pid
		[ "$(field 4)" = exit ] || { echo "state $(field 4)"; return 1; }
		v=$(field 1)
		[ "$v" -gt 0 ] || { echo "task-clock $v"; return 1; }
		sleep 0.05
		[ "$(field 1)" = "$v" ] || { echo "changed after exit"; return 1; }
		rmmod perfkmod_client || return 1
		i=$((i + 1))
	done
	rmmod perfkmod
}
check task-killed-mid-count-20-times killed

# CPU 1 offline and online 100 times under an all-CPUs cpu-clock counter:
# the value never goes back, and keeps growing once CPU 1 is back. 20 times
# on the slow debug lanes (tests/lanes' debug), where test-hotplug.sh has done the rest.
cpu1=/sys/devices/system/cpu/cpu1/online
hp=100
! lane_has debug || hp=20
hotplug() {
	insmod $MODDIR/perfkmod.ko || return 1
	insmod $MODDIR/perfkmod_client.ko spec="cpu-clock" || return 1
	last=0
	i=0
	while [ $i -lt $hp ]; do
		echo 0 >$cpu1 || return 1
		v=$(field 1)
		[ "$v" -ge "$last" ] || { echo "went back: $v < $last"; return 1; }
		echo 1 >$cpu1 || return 1
		last=$v
		i=$((i + 1))
	done
	await 60 "cpu-clock to count after the cycles" counted "$last" || return 1
	[ "$(field 4)" = active ] || { echo "state $(field 4)"; return 1; }
	rmmod perfkmod_client && rmmod perfkmod
}
if [ -e $cpu1 ]; then
	check cpu-hotplug-$hp-cycles-all-cpus-counter hotplug
else
	skip cpu-hotplug-$hp-cycles-all-cpus-counter "no hotpluggable CPU 1"
fi
loaded perfkmod_client && rmmod perfkmod_client
if loaded perfkmod; then rmmod perfkmod; fi

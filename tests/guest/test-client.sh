#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The example client module counts through perfkmod's exported API: the
# page faults of one process that touches N fresh pages are at least N.

. /tests/lib.sh

N=1000
value() { cut -d' ' -f1 /sys/module/perfkmod_client/parameters/value; }

insmod $MODDIR/perfkmod.ko
dir=$(mktemp -d)
touchpages $N "$dir" &
pid=$!
wait_file "$dir/ready"

check client-load insmod $MODDIR/perfkmod_client.ko spec="page-faults,pid=$pid"
check client-counts-nothing-yet sh -c "[ $(value) -lt $N ]"
kill -USR1 $pid
wait_file "$dir/done"
v=$(value)
check client-page-faults-at-least-$N sh -c "[ $v -ge $N ]"
note "client: $N pages touched, $v page faults counted"
check client-state-active grep -q " active " /sys/module/perfkmod_client/parameters/value
check_fails perfkmod-busy-while-client-loaded rmmod perfkmod
kill $pid
wait $pid
check client-exit-state grep -q " exit " /sys/module/perfkmod_client/parameters/value
check client-value-kept sh -c "[ $(value) -eq $v ]"
check client-unload rmmod perfkmod_client
check_fails client-bad-spec insmod $MODDIR/perfkmod_client.ko spec=bogus
check_fails client-no-such-pid \
	insmod $MODDIR/perfkmod_client.ko spec=page-faults,pid=4194303
rm -rf "$dir"
rmmod perfkmod

# A client with a sampling counter and a callback counting its overflows,
# unloaded while both are live: its exit releases them.
insmod $MODDIR/perfkmod.ko
check client-sampling-load insmod $MODDIR/perfkmod_client.ko \
	spec="cpu-clock,period=1000000"
overflows() { cut -d' ' -f5 /sys/module/perfkmod_client/parameters/value; }
overflowed() { [ "$(overflows)" -gt "$1" ]; }
check client-callback-runs await 60 "100 overflows" overflowed 100
check client-unload-live-callback rmmod perfkmod_client

# A client that forgets to clean up: perfkmod releases its counter and
# callback when it unloads, says so, and keeps working.
check client-forgetful-load insmod $MODDIR/perfkmod_client.ko \
	spec="cpu-clock,period=1000000" forget_cleanup=1
check client-forgetful-overflows await 60 "an overflow" overflowed 0
check client-forgetful-unload rmmod perfkmod_client
check perfkmod-released-forgotten \
	sh -c "dmesg | grep -q 'module perfkmod_client unloaded without releasing 1 counters and 1 callbacks'"
check perfkmod-works-after-forgetful-client \
	insmod $MODDIR/perfkmod_client.ko spec=context-switches
rmmod perfkmod_client
check perfkmod-unload-after-clients rmmod perfkmod

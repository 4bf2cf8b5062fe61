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
i=0
while [ ! -e "$dir/ready" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done

check client-load insmod $MODDIR/perfkmod_client.ko spec="page-faults,pid=$pid"
check client-counts-nothing-yet sh -c "[ $(value) -lt $N ]"
kill -USR1 $pid
i=0
while [ ! -e "$dir/done" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
v=$(value)
check client-page-faults-at-least-$N sh -c "[ $v -ge $N ]"
log "client: $N pages touched, $v page faults counted"
check client-state-active grep -q " active$" /sys/module/perfkmod_client/parameters/value
check_fails perfkmod-busy-while-client-loaded rmmod perfkmod
kill $pid
wait $pid
check client-exit-state grep -q " exit$" /sys/module/perfkmod_client/parameters/value
check client-value-kept sh -c "[ $(value) -eq $v ]"
check client-unload rmmod perfkmod_client
check_fails client-bad-spec insmod $MODDIR/perfkmod_client.ko spec=bogus
check_fails client-no-such-pid \
	insmod $MODDIR/perfkmod_client.ko spec=page-faults,pid=4194303
rm -rf "$dir"
rmmod perfkmod

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A perfkmod counter read through debugfs against perf_event_open(2) on
# the same workload: pfself counts its own page faults with a perf fd
# while a perfkmod counter (page-faults,pid=) counts the same process.
#
# Tolerance: 0 <= perfkmod - perf <= 64. The perf fd is enabled just
# around the loop that touches N fresh pages, a window inside the perfkmod
# counter's (from before SIGUSR1 to after DIR/done is written): perfkmod
# can only see more, and the extra is the helper's own few faults outside
# the loop (signal return, stack, stdio's buffer and the files it writes),
# a handful of pages however large N is. Both must be at least N.

. /tests/lib.sh

N=2000
insmod $MODDIR/perfkmod.ko
dir=$(mktemp -d)
pfself $N "$dir" &
pid=$!
wait_file "$dir/ready"
check compare-add sh -c "echo 'add cmp page-faults,pid=$pid' >$DBG/control"
kill -USR1 $pid
wait_file "$dir/done"
k=$(cat $DBG/counters/cmp/value)
p=$(cat "$dir/count")
note "compare: $N pages touched: perf_event_open counted $p, perfkmod $k"
check compare-perf-at-least-N sh -c "[ '$p' -ge $N ]"
check compare-perfkmod-within-0-64-of-perf \
	sh -c "[ '$k' -ge '$p' ] && [ \$(($k - $p)) -le 64 ]"
kill $pid
wait $pid
check compare-task-exit-state grep -q " exit$" $DBG/counters/cmp/stat
check compare-value-kept sh -c "[ \$(cat $DBG/counters/cmp/value) = $k ]"
rm -rf "$dir"
rmmod perfkmod

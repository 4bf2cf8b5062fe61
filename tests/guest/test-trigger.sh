#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Event-driven series through debugfs: "series NAME every=TRIGGER ...".
# A process's page-faults counter with period N as the trigger of a
# series of itself and its task-clock: touching K pages makes one record
# per N faults, exactly as many as the count at the end says (the helper's
# own start-up faults are measured, not guessed), each taken in that
# process with the count a multiple of N; the refusals, each with its
# errno and nothing left; del refused for the trigger; the listing; and
# series= at load time.

. /tests/lib.sh

C=$DBG/control
S=$DBG/series
N=10
K=1000

state() { cat $C; ls $S; }
value() { cut -d' ' -f1 $DBG/counters/$1/value; }

check load insmod $MODDIR/perfkmod.ko
dir=$(mktemp -d)
touchpages $K "$dir" &
pid=$!
wait_file "$dir/ready"
check trigger-add kw ok "add pf page-faults,pid=$pid,period=$N"
check trigger-add-clock kw ok "add clk task-clock,pid=$pid"
check series-add kw ok "series ev every=pf pf clk"
check series-spec grep -qx "every=pf pf clk" $S/ev/spec
check series-listed grep -qx "series ev every=pf pf clk" $C
before=$(value pf)
kill -USR1 $pid
wait_file "$dir/done"
# stopped: no fault of its own after the count is read
kill -STOP $pid
await 60 "touchpages stopped" sh -c "grep -q '^State:.*T' /proc/$pid/status"
after=$(value pf)
# the rings are read a CPU at a time: in time order, as the process went
sort -n -k1,1 $S/ev/records >/tmp/ev
note "page faults: $before before the touching, $after after; $(wc -l </tmp/ev) records"
check faults-counted sh -c "[ $((after - before)) -ge $K ]"
# one record per N faults: as many as the count says, none dropped
check records-per-period sh -c "[ $(wc -l </tmp/ev) = $((after / N)) ]"
check none-dropped grep -qx 0 $S/ev/dropped
# each: TIME CPU PF CLK IP PID TID MODE, taken in the process, its count
# a multiple of N, one period more than the one before, in time order
check records-taken-in-task awk -v n=$N -v pid=$pid '
	NF != 8 || $6 != pid || $7 != pid || $3 % n || $3 != prev + n ||
	$1 < t || $5 !~ /^0x[0-9a-f]+$/ || ($8 != "user" && $8 != "kernel") {
		print "line " NR ": " $0; exit 1
	}
	{ prev = $3; t = $1 }' /tmp/ev
check records-user-mode grep -q " user$" /tmp/ev
# refusals, each with its errno, nothing left by any
check add-not-sampling kw ok "add plain page-faults"
check add-inherit kw ok "add ih page-faults,pid=$pid,inherit,period=$N"
before=$(state)
check refuse-not-sampling kw EINVAL "series x every=plain plain"
check refuse-other-target kw EINVAL "series x every=pf plain"
check refuse-no-trigger kw ENOENT "series x every=nosuch plain"
check refuse-empty-trigger kw EINVAL "series x every= plain"
check refuse-interval-and-trigger kw EINVAL "series x 1ms,every=pf pf"
check refuse-interval-after-trigger kw EINVAL "series x every=pf,1ms pf"
check refuse-inherit-trigger kw EINVAL "series x every=ih pf"
check refuse-series-as-trigger kw ENOENT "series x every=ev pf"
check refuse-del-trigger kw EBUSY "del pf"
now=$(state)
check nothing-left-by-refusals test "$now" = "$before"
check del-series kw ok "del ev"
check del-trigger-after kw ok "del pf"
kill -KILL $pid
wait $pid
check unload rmmod perfkmod

# series= at load time, with a trigger of all CPUs
check load-with-series insmod $MODDIR/perfkmod.ko \
	"counters=cs=context-switches,period=1" "series=evs=every=cs:cs"
check load-series-listed grep -qx "series evs every=cs cs" $C
await 60 "a record of evs" sh -c "cat $S/evs/records >>/tmp/evs; [ -s /tmp/evs ]"
check load-series-records awk 'NF != 7 { exit 1 }' /tmp/evs
check unload-live-series rmmod perfkmod
rm -rf "$dir" /tmp/ev /tmp/evs

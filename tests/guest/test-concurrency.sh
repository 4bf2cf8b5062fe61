#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Four processes add, enable, reset, disable, re-period and delete
# counters at once (their own and one they share) and two more read every
# file, for 15 s and a least number of rounds however slow the machine
# (tests/helpers/ctlstress), while two sampling counters overflow with callbacks: a
# client's and one made through control. Allowed answers: success, EEXIST,
# ENOENT, EINVAL (a period on a counter that does not sample). Afterwards
# the list holds exactly the counter that was there before, and everything
# still works; run.sh then checks that no memory or perf event is left.

. /tests/lib.sh

C=$DBG/control
dur=15
insmod $MODDIR/perfkmod.ko
check conc-client insmod $MODDIR/perfkmod_client.ko spec="cpu-clock,period=1000000"
check conc-hot kwrite $C "add hot cpu-clock,period=2000000"
rm -f /tmp/conc.*
for k in 1 2 3 4; do
	ctlstress write $k $dur >/tmp/conc.w$k 2>>/tmp/conc.err &
done
ctlstress read $dur >/tmp/conc.r1 2>>/tmp/conc.err &
ctlstress read $dur >/tmp/conc.r2 2>>/tmp/conc.err &
wait

sum() { cat "$@" | awk '{ s += $1 } END { print s + 0 }'; }
cmds=$(sum /tmp/conc.w[1-4])
reads=$(sum /tmp/conc.r[12])
bad=$(cat /tmp/conc.w[1-4] /tmp/conc.r[12] | awk '{ s += $2 } END { print s + 0 }')
note "concurrency: $cmds commands and reads from 4 writers, $reads reads from 2 readers in ${dur}s, $bad unexpected answers"
check conc-all-finished sh -c "[ \$(cat /tmp/conc.w[1-4] /tmp/conc.r[12] | wc -l) = 6 ]"
check conc-no-unexpected-errno sh -c "[ $bad = 0 ] || { cat /tmp/conc.err; false; }"
check conc-ran-commands sh -c "[ $cmds -gt 400 ] && [ $reads -gt 100 ]"
check conc-list-as-before sh -c "[ \"\$(cat $C)\" = 'add hot cpu-clock,period=2000000' ]"
check conc-no-directory-left sh -c "[ \"\$(ls $DBG/counters)\" = hot ]"
# the samplers' timers, late on a loaded host: waited for
check conc-hot-overflowed await 60 "an overflow of hot" sh -c \
	"[ \$(sed -n 's/^overflows //p' $DBG/counters/hot/overflow) -gt 0 ]"
check conc-client-overflowed await 60 "an overflow of the client" sh -c \
	"[ \$(cut -d' ' -f5 /sys/module/perfkmod_client/parameters/value) -gt 0 ]"
check conc-still-works kwrite $C "add after context-switches"
check conc-del kwrite $C "del after"
check conc-unload-client rmmod perfkmod_client
check conc-unload rmmod perfkmod

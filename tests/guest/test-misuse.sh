#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A client's direct callback that calls what may sleep (tests/clients/
# xmod_misuse.c): a page fault counter's, run in the faulting task with
# preemption off, where in_task() holds and interrupts are on. perfkmod
# warns once for each function and refuses: the unregister does nothing
# (the callback goes on running), the read answers -EDEADLK. On Debian's
# kernels without CONFIG_PREEMPT_COUNT (5.10, arm64's 6.1) preempt_count()
# does not tell, and perfkmod's own mark of the delivering task does. The
# client then unloads cleanly, and perfkmod after it. The warnings are
# announced by the client (judge.py expects them).

. /tests/lib.sh

SEEN=/sys/module/xmod_misuse/parameters/seen

# runs_past N: the callback ran more than N times, and refused a read
runs_past() { read -r runs refused accepted <$SEEN && [ "$runs" -gt "$1" ] && [ "$refused" -gt 0 ]; }

check perfkmod-load insmod $MODDIR/perfkmod.ko
check client-load insmod $MODDIR/xmod_misuse.ko
# every command the shell runs faults pages in
check callback-runs await 60 "page faults" runs_past 0
read -r runs0 refused0 accepted0 <$SEEN
check callback-still-registered await 60 "more runs after the refused unregister" \
	runs_past "$runs0"
read -r runs refused accepted <$SEEN
check no-read-accepted test "$accepted" = 0
check warned-unregister sh -c 'dmesg | grep -q "perfkmod: perfkmod_callback_unregister() may sleep"'
check warned-read-cpu sh -c 'dmesg | grep -q "perfkmod: perfkmod_counter_read_cpu() may sleep"'
note "misuse: $runs runs, $refused reads refused"
check client-unload rmmod xmod_misuse
check no-cleanup-warning sh -c '! dmesg | grep -q "module xmod_misuse unloaded without releasing"'
check perfkmod-unload rmmod perfkmod

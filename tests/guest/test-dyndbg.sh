#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perfkmod's decisions show in dynamic debug (pr_debug): counters created,
# refused and released, callbacks registered and unregistered, control
# commands refused.

. /tests/lib.sh

ctl=/sys/kernel/debug/dynamic_debug/control
if [ ! -e $ctl ]; then
	skip dyndbg "this kernel has no CONFIG_DYNAMIC_DEBUG"
	exit 0
fi
insmod $MODDIR/perfkmod.ko
check dyndbg-enable sh -c "echo 'module perfkmod +p' >$ctl"
dmesg -c >/dev/null
insmod $MODDIR/perfkmod_client.ko spec="cpu-clock,period=1000000"
# an overflow of 1 ms at least, for the unregister line's counts
await 60 "an overflow" sh -c \
	"[ \$(cut -d' ' -f5 /sys/module/perfkmod_client/parameters/value) -gt 0 ]"
rmmod perfkmod_client
insmod $MODDIR/perfkmod_client.ko spec="cycles,cpu=4095" 2>/dev/null
log=/tmp/dyndbg.log
dmesg >$log
check dyndbg-created grep -q 'perfkmod: created counter type 1 config 0x0 target 0$' $log
check dyndbg-callback-registered grep -q \
	'perfkmod: callback count_overflow.* of perfkmod_client registered, delivery 0$' $log
check dyndbg-callback-unregistered grep -Eq \
	'perfkmod: callback count_overflow.* unregistered: [1-9][0-9]* overflows, [1-9][0-9]* runs, 0 dropped$' $log
check dyndbg-released grep -q 'perfkmod: release counter type 1 config 0x0$' $log
check dyndbg-refused grep -Eq \
	'perfkmod: create type 0 config 0x0: -(ENODEV|EINVAL|ENOENT)$' $log
# a refused control command: in dynamic debug only (test-temporaries.sh
# checks that it stays out of the log without it)
check dyndbg-control-add kw ok "add x dummy"
check dyndbg-control-add-refused kw EEXIST "add x dummy"
check dyndbg-control-refusal sh -c \
	"dmesg | grep -q 'perfkmod: control: -EEXIST: a counter with this name exists: add x dummy$'"
check dyndbg-control-del kw ok "del x"
echo 'module perfkmod -p' >$ctl
rmmod perfkmod

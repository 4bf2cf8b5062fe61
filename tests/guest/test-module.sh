#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Loading and unloading perfkmod: parameters, the debugfs tree, 20 cycles.

. /tests/lib.sh

check load insmod $MODDIR/perfkmod.ko
check debugfs-dir-created test -d $DBG
check param-default-max-counters \
	grep -qx 256 /sys/module/perfkmod/parameters/max_counters
check param-not-world-readable \
	sh -c '[ "$(stat -c %a /sys/module/perfkmod/parameters/max_counters)" = 400 ]'
check unload rmmod perfkmod
check debugfs-dir-removed test ! -e $DBG

check_fails refuses-max-counters-0 insmod $MODDIR/perfkmod.ko max_counters=0
check_fails refuses-max-counters-huge \
	insmod $MODDIR/perfkmod.ko max_counters=99999999
check_fails refused-load-left-nothing loaded perfkmod

check load-with-param insmod $MODDIR/perfkmod.ko max_counters=8
check param-value grep -qx 8 /sys/module/perfkmod/parameters/max_counters
check unload-with-param rmmod perfkmod

cycles() {
	i=0
	while [ $i -lt 20 ]; do
		insmod $MODDIR/perfkmod.ko || return 1
		test -d $DBG || return 1
		rmmod perfkmod || return 1
		test ! -e $DBG || return 1
		i=$((i + 1))
	done
}
check load-unload-20-cycles cycles

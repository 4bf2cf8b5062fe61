#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What "make demo" shows: each command and its output, sent to the kernel
# log as PERFKMOD-DEMO lines for scripts/demo.sh to print.

. /tests/lib.sh

show() {
	log "PERFKMOD-DEMO # $*"
	"$@" 2>&1 | while IFS= read -r line; do
		log "PERFKMOD-DEMO $line"
	done
}

show uname -r
show insmod $MODDIR/perfkmod.ko max_counters=16
show ls -l $DBG
show cat /sys/module/perfkmod/parameters/max_counters
show rmmod perfkmod

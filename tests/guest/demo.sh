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

workload() {
	i=0
	while [ $i -lt 50 ]; do
		ls / >/dev/null
		i=$((i + 1))
	done
}

show uname -r
show insmod $MODDIR/perfkmod.ko "counters=pf=page-faults;cs0=context-switches,cpu=0"
show ls $DBG $DBG/counters/pf
show perfkstat add clk cpu-clock,period=1000000
show perfkstat list
show workload
show perfkstat stat
show perfkstat stat -x,
show perfkstat stat -j pf
show perfkstat stat -I 500 -n 2 pf cs0
show perfkstat stat -e page-faults -e cycles -- sh -c 'ls / >/dev/null'
show cat $DBG/counters/pf/stat $DBG/counters/clk/overflow
show cat $DBG/summary
show perfkstat add pf dummy
show cat $DBG/last_error
show perfkstat prom /tmp/perfkmod.prom
show cat /tmp/perfkmod.prom
show grep -E '^(cycles|page-faults|cpu-clock|L1-dcache-load-misses) ' $DBG/events
show rmmod perfkmod

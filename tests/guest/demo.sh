#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What "make demo" shows: each command and its output, sent to the kernel
# log as PERFKMOD-DEMO lines for scripts/demo.sh to print.

. /tests/lib.sh

# show_as TEXT COMMAND...: run COMMAND, shown as TEXT (with its quotes)
show_as() {
	log "PERFKMOD-DEMO ~ # $1"
	shift
	"$@" 2>&1 | while IFS= read -r line; do
		log "PERFKMOD-DEMO $line"
	done
}

show() { show_as "$*" "$@"; }

workload() {
	i=0
	while [ $i -lt 50 ]; do
		ls / >/dev/null
		i=$((i + 1))
	done
}

show uname -r
show_as "insmod $MODDIR/perfkmod.ko counters='pf=page-faults;cs0=context-switches,cpu=0'" \
	insmod $MODDIR/perfkmod.ko "counters=pf=page-faults;cs0=context-switches,cpu=0"
show ls $DBG $DBG/counters/pf
show perfkstat add clk cpu-clock,period=1000000
show perfkstat list
show_as 'for i in $(seq 50); do ls / >/dev/null; done' workload
show perfkstat stat
show perfkstat stat -x, -k pf -k cs0
show perfkstat stat -j -k pf
show perfkstat stat -I 500 --interval-count 2 -k pf -k cs0
show_as "perfkstat stat sh -c 'ls / >/dev/null'" \
	perfkstat stat sh -c 'ls / >/dev/null'
show perfkstat stat -a -A -e cpu-clock -e page-faults sleep 0.1
show_as "echo 'series pfs 10ms pf clk' >$DBG/control" \
	sh -c "echo 'series pfs 10ms pf clk' >$DBG/control"
show_as 'for i in $(seq 50); do ls / >/dev/null; done' workload
show_as "head -4 $DBG/series/pfs/records" sh -c "head -4 $DBG/series/pfs/records"
show cat $DBG/series/pfs/dropped
show_as "echo 'del pfs' >$DBG/control" sh -c "echo 'del pfs' >$DBG/control"
show_as "perfkstat record -I 1ms -e page-faults -e context-switches -o /tmp/pf.csv -- sh -c 'for i in \$(seq 50); do ls / >/dev/null; done'" \
	perfkstat record -I 1ms -e page-faults -e context-switches -o /tmp/pf.csv -- \
	sh -c 'for i in $(seq 50); do ls / >/dev/null; done'
show head -5 /tmp/pf.csv
show cat $DBG/counters/pf/stat $DBG/counters/clk/overflow
show cat $DBG/list
show perfkstat add pf dummy
show cat $DBG/last_error
show perfkstat prom /tmp/perfkmod.prom
show cat /tmp/perfkmod.prom
show_as "grep -E '^(cycles|page-faults|cpu-clock|L1-dcache-load-misses) ' $DBG/events" \
	grep -E '^(cycles|page-faults|cpu-clock|L1-dcache-load-misses) ' $DBG/events
show rmmod perfkmod

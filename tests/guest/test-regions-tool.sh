#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perfkstat's regions on a real kernel function: stat --func counts the
# calls of vfs_read around a command that reads files, in the table, in
# CSV (field by field, as many fields on every line) and in JSON (each
# line parsed on the host); regions shows a region root made; a function
# kprobes cannot probe is refused with the kernel's reason; nothing of
# perfkstat's is left after it. Skipped where perfkmod has no regions/.

. /tests/lib.sh

# region_csv FILE FIELDS: every line of FILE (but -o's "# started on" and
# blank lines) has FIELDS fields: region,[CPUn,]value,unit,event,calls,
# percent,metric,metric unit; a value a number, a mean (N.NN, a clock's
# N.NNNNNN) or <not counted>; the metric and its unit both or neither
region_csv() {
	grep -v '^#' "$1" | grep -v '^$' | awk -F, -v nf="$2" '
	NF != nf { print "line " NR ": " NF " fields: " $0; exit 1 }
	{
		o = nf - 8
		if ($1 !~ /^[A-Za-z0-9_.-]+$/) { print "bad region: " $0; exit 1 }
		if (o && $2 !~ /^CPU[0-9]+$/) { print "bad cpu: " $0; exit 1 }
		if ($(o + 2) !~ /^([0-9]+|[0-9]+\.[0-9]+|<not counted>|<not supported>)$/) {
			print "bad value: " $0; exit 1
		}
		if ($(o + 4) == "") { print "no event: " $0; exit 1 }
		if ($(o + 5) !~ /^[0-9]+$/ || $(o + 6) !~ /^[0-9]+\.[0-9][0-9]$/) {
			print "bad calls or percent: " $0; exit 1
		}
		if (($(o + 7) == "") != ($(o + 8) == "")) { print "bad metric: " $0; exit 1 }
	}
	END { exit NR == 0 }'
}

# calls FILE [MIN]: the calls row of a CSV without -A has a value of at
# least MIN (1)
calls() {
	grep -v '^#' "$1" | awk -F, -v min="${2:-1}" '
		$4 == "calls" && $2 >= min { ok = 1 } END { exit !ok }'
}

# reads: 64 calls of vfs_read, a byte each (busybox's cat copies with
# sendfile(), which calls no vfs_read)
reads() { dd if=/proc/version of=/dev/null bs=1 count=64 2>/dev/null; }

insmod $MODDIR/perfkmod.ko
if [ ! -d $DBG/regions ]; then
	skip regions-tool "$DBG/regions does not exist: this perfkmod has no regions"
	rmmod perfkmod
	exit 0
fi

ev=cpu-clock,page-faults
lane_has pmu && ev=$ev,cycles,instructions

check regions-stat-func sh -c "perfkstat stat --func vfs_read -a -e $ev -o /tmp/rt.txt -- \
	dd if=/proc/version of=/dev/null bs=1 count=64"
check regions-stat-func-title grep -q "Performance counter stats for region 'perfkstat-[0-9]*-f' (func=vfs_read, [1-9][0-9]* calls):" /tmp/rt.txt
check regions-stat-func-calls grep -Eq '^ +[1-9][0-9]* +calls' /tmp/rt.txt
check regions-stat-func-elapsed grep -q 'seconds time elapsed' /tmp/rt.txt
note "$(cat /tmp/rt.txt)"

check regions-stat-func-csv sh -c "perfkstat stat --func vfs_read -a -x, -e $ev -o /tmp/rt.csv -- \
	dd if=/proc/version of=/dev/null bs=1 count=64"
check regions-stat-func-csv-fields region_csv /tmp/rt.csv 8
check regions-stat-func-csv-calls calls /tmp/rt.csv 64
check regions-stat-func-csv-hist grep -q ',hist(cpu-clock)\[' /tmp/rt.csv
# the region is off before its figures are read: the histogram holds the calls
check regions-stat-func-csv-hist-is-calls sh -c "grep -v '^#' /tmp/rt.csv | awk -F, '
	\$4 == \"calls\" { c = \$2 } \$4 ~ /^hist\\(/ { h += \$2 } END { exit !(c > 0 && c == h) }'"


check regions-stat-func-csv-A sh -c "perfkstat stat --func vfs_read -a -A -x, -e $ev -o /tmp/rtA.csv -- \
	dd if=/proc/version of=/dev/null bs=1 count=64"
check regions-stat-func-csv-A-fields region_csv /tmp/rtA.csv 9

check regions-stat-func-json sh -c "perfkstat stat --func vfs_read -a -j -e $ev -o /tmp/rt.json -- \
	dd if=/proc/version of=/dev/null bs=1 count=64"
i=0
while IFS= read -r line; do
	i=$((i + 1))
	echo "$line" >/tmp/json.line
	host_case JSON "regions-json-$i" /tmp/json.line
done </tmp/rt.json
check regions-stat-func-json-lines [ $i -gt 0 ]

check_fails regions-stat-func-left grep -q perfkstat- $DBG/control
check regions-stat-func-no-dir sh -c "! ls $DBG/regions | grep -q perfkstat-"

# kprobes' refusal, its reason from last_error
check_fails regions-stat-func-bad perfkstat stat --func perfkmod_no_such_function -a -e cpu-clock true
check regions-stat-func-bad-says-why sh -c \
	"perfkstat stat --func perfkmod_no_such_function -a -e cpu-clock true 2>&1 |
	grep -q '^perfkstat: cannot probe perfkmod_no_such_function: -'"
check_fails regions-stat-func-without-a perfkstat stat --func vfs_read -e cpu-clock true

# regions: a region root made, by name and in the listing of all
check regions-add perfkstat add rclk cpu-clock
check regions-make kw ok "region rr func=vfs_read rclk"
reads
check regions-show sh -c "perfkstat regions rr -x, >/tmp/rr.csv"
check regions-show-fields region_csv /tmp/rr.csv 8
check regions-show-calls calls /tmp/rr.csv 64
check regions-show-all sh -c "perfkstat regions | grep -q \"region 'rr' (func=vfs_read\""
check regions-show-A sh -c "perfkstat regions -A -x, rr >/tmp/rrA.csv"
check regions-show-A-fields region_csv /tmp/rrA.csv 9
check_fails regions-show-unknown perfkstat regions perfkmod_no_such_region
check regions-del perfkstat del rr
check regions-del-counter perfkstat del rclk
check_fails regions-del-gone test -e $DBG/regions/rr
rmmod perfkmod

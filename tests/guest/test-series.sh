#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Time series through debugfs: the series command and its errors (each
# errno exact, nothing left by a failure), the records file (lines, per-CPU
# order, drained as read, whole lines however small the reads), the sum
# of the records against the counter, drops counted when nobody reads,
# del refused for a counter a series reads, the listing replayed, series=
# at load time, a file of a deleted series, rmmod with live series.

. /tests/lib.sh

C=$DBG/control
S=$DBG/series

state() { cat $C; ls $S; }
mode() { [ "$(stat -c %a "$1")" = "$2" ]; }
work() { i=0; while [ $i -lt 20 ]; do ls / >/dev/null; i=$((i + 1)); done; }
ncpu=$(grep -c ^processor /proc/cpuinfo)

# lines FILE NVALUES: every line is "TIME CPU V..." with NVALUES values,
# a possible CPU, and times and values that never go back on one CPU.
lines() {
	awk -v nv="$2" -v ncpu="$ncpu" '
	NF != nv + 2 { print "line " NR ": " NF " fields: " $0; exit 1 }
	{
		for (i = 1; i <= NF; i++)
			if ($i !~ /^[0-9]+$/ && !(i > 2 && $i == "-")) {
				print "line " NR ": field " i ": " $0; exit 1
			}
		if ($2 >= ncpu) { print "line " NR ": cpu " $2; exit 1 }
		if ($1 <= t[$2]) { print "line " NR ": time goes back: " $0; exit 1 }
		t[$2] = $1
		for (i = 3; i <= NF; i++) {
			if ($i == "-")
				continue
			if ($i < v[$2, i]) { print "line " NR ": value goes back: " $0; exit 1 }
			v[$2, i] = $i
		}
	}
	END { if (NR == 0) { print "no records"; exit 1 } }' "$1"
}

# take SERIES FILE: add what SERIES' records file holds to FILE; true when
# FILE then holds a record.
take() { cat $S/$1/records >>"$2" && [ -s "$2" ]; }

# recorded CPU FILE: FILE holds a record of CPU.
recorded() { awk -v c="$1" '$2 == c { ok = 1 } END { exit !ok }' "$2"; }

# every_cpu FILE N: FILE holds N records of each CPU at least.
every_cpu() {
	awk -v ncpu="$ncpu" -v n="$2" '{ c[$2]++ }
		END { for (i = 0; i < ncpu; i++) if (c[i] < n) exit 1 }' "$1"
}

check load insmod $MODDIR/perfkmod.ko "counters=pf=page-faults;cs=context-switches;one=dummy,cpu=0"
check layout-series-dir test -d $S

# series: its files, its listing
check series-add kw ok "series s1 1ms,records=65536 pf cs"
for f in records dropped skipped spec; do
	check series-files-$f mode $S/s1/$f 400
done
check series-skipped-number grep -qx "[0-9][0-9]*" $S/s1/skipped
check series-spec grep -qx "1ms,records=65536 pf cs" $S/s1/spec
check series-listed grep -qx "series s1 1ms,records=65536 pf cs" $C
check series-listed-after-counters sh -c "tail -1 $C | grep -q '^series s1 '"

# records: lines of two values, drained as read
work
: >/tmp/r1
r1_full() { take s1 /tmp/r1 && every_cpu /tmp/r1 10; }
await 60 "10 records of each CPU" r1_full
check records-lines lines /tmp/r1 2
note "series sample: $(head -3 /tmp/r1 | tr "\n" "|")"
check records-every-cpu sh -c "[ \$(cut -d' ' -f2 /tmp/r1 | sort -u | wc -l) = $ncpu ]"
# under TCG the guest's timers come late and skipped intervals are not
# recorded, but each CPU records at least a tenth of the 1 ms intervals
# its records span
check records-count-per-cpu awk -v ncpu="$ncpu" '
	{ n[$2]++; if (!first[$2]) first[$2] = $1; last[$2] = $1 }
	END {
		for (c = 0; c < ncpu; c++)
			if (n[c] < 10 || n[c] < (last[c] - first[c]) / 1e6 / 10) {
				print "CPU " c ": " n[c] " records"; exit 1
			}
	}' /tmp/r1
: >/tmp/r2
await 60 "records after those read" take s1 /tmp/r2
check records-drained awk '
	NR == FNR { if ($1 > last[$2]) last[$2] = $1; next }
	$1 <= last[$2] { exit 1 }
	END { exit FNR == 0 }' /tmp/r1 /tmp/r2
check records-pf-counts awk '{ if ($3 > m) m = $3 } END { exit m == 0 }' /tmp/r1

# small reads give the same whole lines: 300 reads of 7 bytes, whole lines
# but for the last, cut short (until they hold a whole line)
small_reads() {
	dd if=$S/s1/records bs=7 count=300 2>/dev/null | sed '$d' >/tmp/r3
	[ -s /tmp/r3 ]
}
await 60 "a whole line in reads of 7 bytes" small_reads
check records-small-reads lines /tmp/r3 2
tiny_read() {
	dd if=$S/s1/records bs=1 count=5 2>/dev/null >/tmp/r4
	[ "$(wc -c </tmp/r4)" = 5 ]
}
check records-tiny-read await 60 "5 bytes in reads of one" tiny_read

# once the counter is off, the last record of each online CPU adds up to
# its value: the records made before the disable are drained first, then
# those made after it are read until every CPU has one
check disable-pf kw ok "disable pf"
cat $S/s1/records >/dev/null
: >/tmp/r5
r5_full() { take s1 /tmp/r5 && every_cpu /tmp/r5 1; }
await 60 "a record of each CPU after the disable" r5_full
check records-sum-is-value awk -v want="$(cat $DBG/counters/pf/value)" -v ncpu=$ncpu '
	$3 != "-" { last[$2] = $3 }
	END {
		for (c in last) { s += last[c]; n++ }
		if (n != ncpu || s != want) { print n " CPUs, " s " != " want; exit 1 }
	}' /tmp/r5
check enable-pf kw ok "enable pf"

# a ring nobody reads drops, and says how many
check series-small-ring kw ok "series s2 10ms,records=16 pf"
check series-small-ring-spec grep -qx "10ms,records=16 pf" $S/s2/spec
check dropped-counted await 60 "a record dropped" sh -c \
	"[ \$(cat $S/s2/dropped) -gt 0 ]"
# one read(2): the 16 records a full ring holds, and those the timers add
# while it runs (QEMU may run the other CPU for 100 ms or more meanwhile)
dd if=$S/s2/records bs=1M count=1 2>/dev/null >/tmp/r6
check dropped-ring-holds-16 awk -v ncpu=$ncpu '
	{ n[$2]++ }
	END { for (c = 0; c < ncpu; c++) if (n[c] < 16 || n[c] > 16 + 30) exit 1 }' /tmp/r6
# s1 holds 65 s of records: none dropped, however slow the steps between
# its reads
check dropped-s1-none sh -c "[ \$(cat $S/s1/dropped) = 0 ]"

# errors, each with its errno, and nothing left behind
before=$(state)
check err-no-unit kw EINVAL "series x 100 pf"
check err-bad-unit kw EINVAL "series x 100m pf"
check err-too-short kw EINVAL "series x 99us pf"
check err-interval-overflow kw ERANGE "series x 99999999999s pf"
check err-interval-ktime-max kw ERANGE "series x 9999999999s pf"
check err-records-octal kw ok "series oct 1ms,records=010 pf"
check err-records-decimal grep -qx "series oct 1ms,records=010 pf" $C
check err-records-decimal-del kw ok "del oct"
check err-records-hex kw EINVAL "series x 1ms,records=0x10 pf"
check err-records-0 kw ERANGE "series x 1ms,records=0 pf"
check err-records-too-many kw ERANGE "series x 1ms,records=1048577 pf"
check err-records-twice kw EINVAL "series x 1ms,records=8,records=8 pf"
check err-other-option kw EINVAL "series x 1ms,freq=8 pf"
check err-no-counter kw EINVAL "series x 1ms"
check err-unknown-counter kw ENOENT "series x 1ms pf nope"
check err-cpu-counter kw EINVAL "series x 1ms one"
check err-cpu-counter-says-why grep -q "^-EINVAL: a series reads counters of all CPUs, or of one task" $DBG/last_error
check err-nine-counters kw EINVAL "series x 1ms pf pf pf pf pf pf pf pf pf"
check err-nine-counters-says-why grep -q "^-EINVAL: a series reads 1 to 8 counters" $DBG/last_error
check err-name-of-counter kw EEXIST "series pf 1ms cs"
check err-name-of-series kw EEXIST "series s1 1ms cs"
check err-counter-name-of-series kw EEXIST "add s1 dummy"
check err-bad-name kw EINVAL "series a/b 1ms pf"
check err-del-read-counter kw EBUSY "del pf"
check err-says-why grep -q "^-EBUSY: a series reads this counter" $DBG/last_error
check err-commands-on-series kw ENOENT "reset s1"
# the ring memory of all series together is bounded: with s1 (65536
# records) and s2 (16) live, a bound that leaves room for one more series
# of 65536 records takes one, and another once it is deleted
mb=/sys/module/perfkmod/parameters/series_max_mb
check series-max-mb-default grep -qx 256 $mb
possible=$(($(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1))
size=104	# sizeof(struct perfkmod_series_record)
rec=$((65536 * size * possible))
echo $(((2 * rec + 16 * size * possible + (1 << 20) - 1) >> 20)) >$mb
check series-mem-one-more kw ok "series m1 1ms,records=65536 pf"
check series-mem-bound kw ENOMEM "series m2 1ms,records=65536 pf"
check series-mem-given-back kw ok "del m1"
check series-mem-again kw ok "series m2 1ms,records=65536 pf"
check series-mem-del kw ok "del m2"
echo 256 >$mb
check err-leave-nothing sh -c "[ \"\$(cat $C; ls $S)\" = '$before' ]"
check eight-counters kw ok "series s8 1ms pf pf cs cs pf pf cs cs"
: >/tmp/r8
await 60 "records of s8" take s8 /tmp/r8
check eight-counters-lines lines /tmp/r8 8

# a series of one process's counters follows it: touchpages faults 5000
# pages, then sleeps; the last record, in time order over the CPUs, is the
# counter's value, and the values never go back. Under KASAN and TCG the
# faults take seconds: wait for done (2 minutes at most), then for the
# record of its going to sleep (a minute at most).
mkdir -p /tmp/tp
rm -f /tmp/tp/*
touchpages 5000 /tmp/tp &
tp=$!
wait_file /tmp/tp/ready
check task-add kw ok "add tpf page-faults,pid=$tp"
check task-series kw ok "series ts 1ms tpf"
kill -USR1 $tp
check task-done await 120 "touchpages to be done" test -e /tmp/tp/done
: >/tmp/t0
last_is_value() {
	want=$(cat $DBG/counters/tpf/value)
	cat $S/ts/records >>/tmp/t0
	[ "$(sort -n /tmp/t0 | tail -1 | cut -d' ' -f3)" = "$want" ]
}
await 60 "the record of touchpages going to sleep" last_is_value
sort -n /tmp/t0 >/tmp/t1
check task-records-lines lines /tmp/t1 1
check task-records-in-time-order awk '$3 < last { exit 1 } { last = $3 }' /tmp/t1
check task-last-record-is-value awk -v want="$want" '
	{ last = $3 } END { if (last != want || last < 5000) { print last " " want; exit 1 } }' /tmp/t1
check task-add-inherit kw ok "add tinh page-faults,pid=$tp,inherit"
check task-inherit-series-einval kw EINVAL "series x 1ms tinh"
check task-mixed-einval kw EINVAL "series x 1ms tpf pf"
check task-del kw ok "del ts"
kill $tp
wait $tp 2>/dev/null
check task-del-counters sh -c "echo 'del tinh' >$C && echo 'del tpf' >$C"

# CPU 1 goes and comes back under a series: it records again after
if [ -e /sys/devices/system/cpu/cpu1/online ]; then
	cat $S/s1/records >/dev/null
	check hotplug-cpu1-off sh -c "echo 0 >/sys/devices/system/cpu/cpu1/online"
	check hotplug-cpu1-on sh -c "echo 1 >/sys/devices/system/cpu/cpu1/online"
	: >/tmp/r7
	cpu1_recorded() { take s1 /tmp/r7 && recorded 1 /tmp/r7; }
	await 60 "a record of CPU 1" cpu1_recorded
	check hotplug-lines lines /tmp/r7 2
	check hotplug-cpu1-records recorded 1 /tmp/r7
fi

# an open records file keeps the module loaded; a file of a deleted
# series reads -EIO; del frees the counters again
exec 3<$S/s2/records
check_fails rmmod-open-file rmmod perfkmod
check del-series kw ok "del s2"
check del-series-gone test ! -e $S/s2
check_fails deleted-file-eio cat <&3
exec 3<&-
check del-series-s8 kw ok "del s8"

# the listing, written back after a reload, makes the same
cat $C >/tmp/listing
check rmmod-live-series rmmod perfkmod
check reload insmod $MODDIR/perfkmod.ko
check replay sh -c "cat /tmp/listing >$C && cat $C | cmp - /tmp/listing"
: >/tmp/r9
check replay-records await 60 "records of s1" take s1 /tmp/r9
check rmmod-again rmmod perfkmod

# series= at load time, ":" for blanks; a bad entry fails the load
check param-load insmod $MODDIR/perfkmod.ko "counters=pf=page-faults;cs=context-switches" \
	"series=a=1ms:pf;b=10ms,records=64:pf:cs"
check param-listed sh -c "grep -qx 'series a 1ms pf' $C && grep -qx 'series b 10ms,records=64 pf cs' $C"
: >/tmp/r10
check param-records await 60 "records of b" take b /tmp/r10
check param-rmmod rmmod perfkmod
check_fails param-bad-fails insmod $MODDIR/perfkmod.ko "counters=pf=page-faults" \
	"series=a=1ms:pf:nope"
check param-bad-not-loaded sh -c "! grep -q '^perfkmod ' /proc/modules"
check param-bad-says-why sh -c "dmesg | grep -q 'perfkmod: series=: \"a=1ms:pf:nope\": -ENOENT'"

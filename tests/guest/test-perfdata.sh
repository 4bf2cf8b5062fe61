#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perfkstat record --every ... --perf-data: one recording, as CSV (with
# --symbols) and as perf.data, of a command that reads /proc/kallsyms (the
# kernel's code, the module's) among the other CPUs' work. The file's
# layout is checked here; then the perf.data, the CSV and the lines of
# /proc/kallsyms that name the records' kernel IPs (the symbol at or
# below each, and the next) go to the host, gzipped tar in base64, as the
# case perfdata-perf-reads, which scripts/judge.py decides: the host's
# perf report and perf script must show the CSV's samples (the same
# number, ips, pids, tids, CPUs and times), each event's counts, and the
# same top kernel symbols.

. /tests/lib.sh

nothing_left() {
	! grep -q perfkstat- $DBG/control && [ -z "$(ls -A $DBG/series)" ]
}

check load insmod $MODDIR/perfkmod.ko

# the trigger: the PMU's cycles where they count (their overflows are
# the PMU's interrupts), else the clock
if grep -q "^cycles  *ok$" $DBG/events; then
	trigger=cycles:20000000
else
	trigger=cpu-clock:10ms
fi
work=/tmp/perfdata
rm -rf $work
mkdir -p $work/host
# the command: a fixed amount of work, three reads of /proc/kallsyms
perfkstat record --every $trigger --symbols -e page-faults \
	-o $work/host/samples.csv --perf-data $work/host/perf.data \
	-- sh -c 'for i in 1 2 3; do cat /proc/kallsyms >/dev/null; done' \
	2>$work/err
check perfdata-status [ $? = 0 ]
note "$(cat $work/err)"
rows=$(($(wc -l <$work/host/samples.csv) - 1))
check perfdata-rows [ $rows -ge 10 ]
check perfdata-nothing-left nothing_left

# le64 FILE OFFSET: the little-endian u64 at OFFSET of FILE, in decimal
le64() {
	od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '
}
f=$work/host/perf.data
check perfdata-magic [ "$(head -c 8 $f)" = PERFILE2 ]
# the header (104 bytes), an attr of 112 bytes (and its ids' section) an
# event: the trigger and page-faults
check perfdata-header-size [ "$(le64 $f 8)" = 104 ]
check perfdata-attr-size [ "$(le64 $f 16)" = 128 ]
check perfdata-attrs [ "$(le64 $f 32)" = 256 ]
# the data reaches the features' table, which the file holds
check perfdata-data-in-file [ $(($(le64 $f 40) + $(le64 $f 48))) -lt \
	"$(wc -c <$f)" ]

# the lines of kallsyms perf needs for the CSV's kernel IPs: _text and
# _etext, and for each IP the text symbols at the greatest address at or
# below it and those at the next (IPs and addresses as 16 hex digits
# sort as strings)
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["mode"] == "kernel" {
		ip = substr($c["ip"], 3)
		while (length(ip) < 16)
			ip = "0" ip
		print ip, "~"
	}' $work/host/samples.csv >$work/ips
awk '$2 == "t" || $2 == "T" { print }' /proc/kallsyms |
	cat - $work/ips | sort -k1,1 -k2,2 | awk '
	function flush() { for (k = 0; k < n; k++) print at[k]; n = 0 }
	$2 == "~" { want = 1; next }
	{
		if ($1 != a) {
			# a new address: the one before it held an IP, or
			# this one is the next after an IP
			if (want == 1 || next_of) flush()
			next_of = want == 1
			want = 0
			n = 0
			a = $1
		}
		at[n++] = $1 " " $2 " " $3 ($4 != "" ? "\t" $4 : "")
		if ($3 == "_text" || $3 == "_stext" || $3 == "_etext")
			keep[$0] = at[n - 1]
	}
	END {
		if (want == 1 || next_of) flush()
		for (k in keep) print keep[k]
	}' | sort -u >$work/host/kallsyms
check perfdata-kallsyms grep -q ' _text$' $work/host/kallsyms
note "perfdata: $rows rows, $(wc -c <$f) bytes of perf.data," \
	"$(wc -l <$work/host/kallsyms) lines of kallsyms"
(cd $work/host && tar cf - perf.data samples.csv kallsyms) | gzip -9 |
	base64 -w 600 >$work/host.b64
host_case PERFDATA perfdata-perf-reads $work/host.b64

# perf.data is of --every's records, and nothing is made without them
check_fails perfdata-needs-every perfkstat record -I 10ms -e page-faults \
	--perf-data $work/time.data -- true
check perfdata-needs-every-no-file [ ! -e $work/time.data ]
check perfdata-needs-every-nothing-left nothing_left

# perf record's -o FILE.data: the perf.data alone, no CSV
perfkstat record --every $trigger -o $work/o.data -- true >$work/o.out 2>&1
check perfdata-o-status [ $? = 0 ]
check perfdata-o-magic [ "$(head -c 8 $work/o.data)" = PERFILE2 ]
check perfdata-o-no-csv sh -c "! grep -q '^time,cpu' $work/o.out"
check perfdata-o-nothing-left nothing_left

rmmod perfkmod

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perfkstat record and plot: a command recorded at 10 ms, 1 ms and 100 us
# with two temporary counters; the CSV checked strictly (header, fields,
# numbers, times in order); what the rows sum to checked against the
# counters' own values, which perfkstat reads from the kernel after
# stopping them; the records of each CPU, and those the series skipped,
# counted against the intervals of the run; every temporary deleted; bad
# intervals and events refused with the kernel's reason and nothing left
# behind.

. /tests/lib.sh

EVENTS="page-faults context-switches"

# cs: /proc/uptime in hundredths of a second.
cs() {
	read -r _t _ </proc/uptime
	echo "${_t%.*}${_t#*.}"
}

# The workload: ls / until CS hundredths of a second have passed; it
# writes its start and end (cs) to /tmp/work.time.
cat >/tmp/work.sh <<'EOF'
read -r t _ </proc/uptime
start=${t%.*}${t#*.}
end=$((start + $1))
now=$start
while [ "$now" -lt $end ]; do
	ls / >/dev/null
	read -r t _ </proc/uptime
	now=${t%.*}${t#*.}
done
echo "$start $now" >/tmp/work.time
EOF

# csv FILE EVENT...: the header is exactly "time,cpu,EVENT...", every row
# has as many fields: seconds with 6 decimals, a CPU, counts (or empty);
# sorted by time, then CPU; at least one row.
csv() {
	_f=$1
	shift
	_h=time,cpu
	for _e; do _h=$_h,$_e; done
	awk -F, -v h="$_h" -v nf=$(($# + 2)) '
	NR == 1 {
		if ($0 != h) { print "header: " $0; exit 1 }
		next
	}
	NF != nf { print "line " NR ": " NF " fields: " $0; exit 1 }
	$1 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ || $2 !~ /^[0-9]+$/ {
		print "line " NR ": bad time or CPU: " $0; exit 1
	}
	{
		for (i = 3; i <= NF; i++)
			if ($i !~ /^[0-9]*$/) { print "line " NR ": bad count: " $0; exit 1 }
		if (NR > 2 && ($1 + 0 < t || ($1 + 0 == t && $2 + 0 <= c))) {
			print "line " NR ": out of order: " $0; exit 1
		}
		t = $1 + 0
		c = $2 + 0
	}
	END { exit NR < 2 }' "$_f"
}

# colsum FILE EVENT: the sum of the EVENT column.
colsum() {
	awk -F, -v e="$2" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == e) c = i; next }
	{ s += $c }
	END { printf "%.0f\n", s }' "$1"
}

# totals CSV ERR: for each event, the CSV's column sums to more than 0,
# and perfkstat's summary says the same total and the same value of the
# counter, read after the counter stopped.
totals() {
	for _e in $EVENTS; do
		_s=$(colsum "$1" "$_e")
		[ "$_s" -gt 0 ] || { echo "$_e: the CSV sums to $_s"; return 1; }
		grep -qx "perfkstat: $_e total $_s, counter $_s" "$2" ||
			{ echo "$_e: the CSV sums to $_s; $(grep "$_e" "$2")"; return 1; }
	done
}

online() {
	awk -F, '{
		for (i = 1; i <= NF; i++) {
			n = split($i, r, "-")
			k += r[n] - r[1] + 1
		}
		print k
	}' /sys/devices/system/cpu/online
}

# counts FILE INTERVAL_NS WALL_CS SKIPPED: every online CPU recorded, each
# at most 110% of the intervals of the whole perfkstat run (WALL_CS), plus
# 2 (a timer comes late, never early); and each interval of the workload
# on each CPU is a record or one of the SKIPPED that the series counted (a
# late timer skips the intervals it missed and counts them), the workload's
# time measured to a hundredth of a second and an interval at its start
# aside. How many a CPU recorded is TCG's doing, said and not checked:
# under load its timers come later, and a stretch of time holds fewer.
counts() {
	read -r _a _b </tmp/work.time
	awk -F, -v ns="$2" -v run=$((_b - _a)) -v wall="$3" -v skipped="$4" \
		-v ncpu="$(online)" '
	NR > 1 { n[$2]++; total++ }
	END {
		hi = 1.1 * (wall + 1) * 1e7 / ns + 2
		for (c in n) {
			k++
			printf "CPU %s: %d records in %d intervals (%d%%)\n", c, n[c],
				run * 1e7 / ns, 100 * n[c] * ns / (run * 1e7)
			if (n[c] > hi) {
				printf "CPU %s: %d records, more than %d\n", c, n[c], hi
				bad = 1
			}
		}
		if (k != ncpu) {
			print k " CPUs recorded, " ncpu " online"
			bad = 1
		}
		lo = ncpu * int((run - 1) * 1e7 / ns - 1)
		printf "%d records and %d intervals skipped; the workload had %d\n",
			total, skipped, lo
		if (total + skipped < lo) {
			print "intervals neither recorded nor counted as skipped"
			bad = 1
		}
		exit bad
	}' "$1"
}

# nothing_left: no temporary counter or series of perfkstat.
nothing_left() {
	! grep -q perfkstat- $DBG/control && [ -z "$(ls -A $DBG/series)" ]
}

# run TAG INTERVAL NS CS: a workload of CS hundredths of a second recorded
# at INTERVAL (NS nanoseconds), checked.
run() {
	_t0=$(cs)
	perfkstat record -I "$2" -o "/tmp/$1.csv" -e page-faults \
		-e context-switches -- sh /tmp/work.sh "$4" >"/tmp/$1.out" 2>"/tmp/$1.err"
	_rc=$?
	_wall=$(($(cs) - _t0))
	check "record-$1-exit" [ $_rc = 0 ]
	check "record-$1-stdout-empty" [ ! -s "/tmp/$1.out" ]
	check "record-$1-csv-strict" csv "/tmp/$1.csv" $EVENTS
	check "record-$1-totals" totals "/tmp/$1.csv" "/tmp/$1.err"
	check_fails "record-$1-no-warning" grep -q warning "/tmp/$1.err"
	check "record-$1-summary" \
		grep -qx "perfkstat: $(($(wc -l <"/tmp/$1.csv") - 1)) records, $(online) CPUs, 0 dropped, [0-9]* intervals skipped" \
		"/tmp/$1.err"
	_skipped=$(sed -n 's/^perfkstat: .* dropped, \([0-9]*\) intervals skipped$/\1/p' \
		"/tmp/$1.err")
	check "record-$1-counts" counts "/tmp/$1.csv" "$3" $_wall "${_skipped:-0}"
	counts "/tmp/$1.csv" "$3" $_wall "${_skipped:-0}" | while read -r _l; do
		note "record: $2: $_l"
	done
	check "record-$1-nothing-left" nothing_left
}

insmod $MODDIR/perfkmod.ko

run 10ms 10ms 10000000 100
run 1ms 1ms 1000000 100
# 100 us: about 20,000 records a second, which TCG takes long to process.
# Not on arm64: there each emulated timer interrupt takes about 0.3 ms of
# guest time, so a 100 us series fills both CPUs, and this case took 14
# minutes; the 1 ms case above runs there.
if [ "$(uname -m)" = aarch64 ]; then
	skip record-100us "arm64 under TCG: a timer interrupt takes longer than 100 us"
else
	run 100us 100us 100000 50
fi

# to standard output; for SECONDS, without a command
perfkstat record -I 10ms -t 0.5 -e page-faults >/tmp/t.csv 2>/tmp/t.err
check record-seconds-csv-strict csv /tmp/t.csv page-faults
check record-seconds-nothing-left nothing_left
# -I without a unit: milliseconds, as stat's and perf's
perfkstat record -I 10 -t 0.5 -e page-faults >/tmp/ms.csv 2>/tmp/ms.err
check record-interval-ms csv /tmp/ms.csv page-faults
# a command's exit status is perfkstat's
perfkstat record -I 10ms -e page-faults -- sh -c 'exit 3' >/dev/null 2>&1
check record-command-status [ $? = 3 ]

# a named all-CPUs counter, as it is: its counts since the recording
# began; made disabled and enabled by the command, which disables it at
# its end, so that what the rows sum to is its value now
perfkstat add pf page-faults,disabled
perfkstat record -I 10ms -e context-switches pf -- sh -c \
	'perfkstat enable pf && sh /tmp/work.sh 100 && perfkstat disable pf' \
	>/tmp/named.csv 2>/tmp/named.err
check record-named-csv-strict csv /tmp/named.csv context-switches pf
pfv=$(cat $DBG/counters/pf/value)
check record-named-counts [ "$pfv" -gt 0 ]
check record-named-sum-is-the-counter [ "$(colsum /tmp/named.csv pf)" = "$pfv" ]
check record-named-total grep -qx "perfkstat: pf total $pfv" /tmp/named.err
check record-named-kept test -e $DBG/counters/pf/value
check record-named-nothing-left nothing_left
perfkstat add pf0 page-faults,cpu=0
check_fails record-one-cpu-counter-refused perfkstat record -I 10ms pf0 -- true
check record-one-cpu-counter-says-why sh -c "perfkstat record -I 10ms pf0 -- true 2>&1 |
	grep -qx 'perfkstat: no all-CPUs counter named pf0'"
check record-one-cpu-counter-kept test -e $DBG/counters/pf0/value
check record-one-cpu-counter-nothing-left nothing_left
perfkstat del pf0
perfkstat del pf
check_fails record-one-cpu-event-refused \
	perfkstat record -I 10ms -e page-faults -e page-faults,cpu=0 -- true
check record-one-cpu-event-says-why sh -c "perfkstat record -I 10ms \
	-e page-faults -e page-faults,pid=1 -- true 2>&1 |
	grep -q '^perfkstat: page-faults,pid=1: record takes events of all CPUs'"
check record-one-cpu-event-nothing-left nothing_left

# the kernel's reasons; nothing left behind
for bad in 10min 50us 1.5ms 0s; do
	check_fails "record-interval-$bad-refused" \
		perfkstat record -I $bad -e page-faults -- true
	check "record-interval-$bad-says-why" sh -c \
		"perfkstat record -I $bad -e page-faults -- true 2>&1 |
		grep -q '^perfkstat: -EINVAL: .*: series perfkstat-[0-9]*-series ${bad}[, ]'"
	# no del of the series that was not made, whose error would replace it
	check "record-interval-$bad-last-error-kept" \
		grep -q "series perfkstat-[0-9]*-series ${bad}[, ]" $DBG/last_error
	check "record-interval-$bad-nothing-left" nothing_left
done
check_fails record-no-interval perfkstat record -e page-faults -- true
check record-bad-spec-says-why sh -c \
	"perfkstat record -I 10ms -e bogus -- true 2>&1 | grep -q '^perfkstat: -EINVAL: '"
check record-bad-spec-nothing-left nothing_left
if grep -q "^cycles  *ok$" $DBG/events; then
	skip record-not-supported "this machine has cycles"
else
	check_fails record-not-supported-fails \
		perfkstat record -I 10ms -e page-faults -e cycles -- true
	check record-not-supported-says-why sh -c "perfkstat record -I 10ms \
		-e page-faults -e cycles -- true 2>&1 |
		grep -q '^perfkstat: cycles: this machine cannot count it (-ENOENT'"
	check record-not-supported-nothing-left nothing_left
fi
check record-usage sh -c \
	"perfkstat help 2>&1 | grep -q '^usage: perfkstat record -I INTERVAL '"

# -p: a process followed from CPU to CPU, recorded until it exits.
# touchpages faults 5000 pages once perfkstat's counter of it counts, then
# sleeps (its row made as it leaves its CPU) until it is killed once done:
# the rows sum to its counter's value. Each wait is for an event, two
# minutes at most (KASAN under TCG takes seconds over the faults).
mkdir -p /tmp/tp
rm -f /tmp/tp/*
touchpages 5000 /tmp/tp &
tp=$!
wait_file /tmp/tp/ready
# active PATTERN: a counter whose spec matches PATTERN counts
active() {
	for _s in $DBG/counters/*/spec; do
		grep -q "$1" "$_s" 2>/dev/null &&
			grep -q " active\$" "${_s%spec}stat" 2>/dev/null && return 0
	done
	return 1
}
# touch_when PATTERN: in the background, once a counter whose spec
# matches PATTERN counts, touchpages ($tp) faults its pages, then is killed
touch_when() {
	(await 120 "perfkstat's counter of $tp ($1)" active "$1"
	kill -USR1 $tp
	await 120 "touchpages to be done" test -e /tmp/tp/done
	kill $tp) >/dev/null &
}
# perfkstat's counter of the process is made, then enabled
touch_when "pid=$tp"
perfkstat record -I 1ms -p $tp -e page-faults -o /tmp/pid.csv 2>/tmp/pid.err
wait $tp 2>/dev/null
check record-pid-faults-done test -e /tmp/tp/done
check record-pid-csv csv /tmp/pid.csv page-faults
check record-pid-total sh -c "grep -q '^perfkstat: page-faults total \([0-9]*\), counter \1\$' /tmp/pid.err"
check record-pid-no-warning sh -c "! grep -q warning /tmp/pid.err"
check record-pid-counted awk -F, 'NR > 1 { s += $3 } END { exit s < 5000 }' /tmp/pid.csv
check record-pid-nothing-left nothing_left
# the refusals, of a process that is there
sleep 600 &
tp=$!
check_fails record-pid-with-command perfkstat record -I 1ms -p $tp -e page-faults -- true
check record-pid-named-says-why sh -c "perfkstat record -I 1ms -p $tp pf 2>&1 |
	grep -q 'NAMEd counters are not the process'"
check_fails record-pid-gone perfkstat record -I 1ms -p 999999 -e page-faults
# (kill -0 0 succeeds: it asks about a process group, not a process)
check_fails record-pid-zero perfkstat record -I 1ms -t 1 -p 0 -e page-faults
check record-pid-refusals-nothing-left nothing_left
kill $tp
wait $tp 2>/dev/null

# The series deleted while record drains it: said once, and the
# recording ends with its command, not 10 s of waiting for records.
perfkstat record -I 10ms -e page-faults -o /tmp/gone.csv -- sh -c \
	'for s in /sys/kernel/debug/perfkmod/series/perfkstat-*; do
		echo "del ${s##*/}" >/sys/kernel/debug/perfkmod/control
	done' 2>/tmp/gone.err
check record-series-gone-status [ $? = 0 ]
check record-series-gone-said-once \
	sh -c "[ \$(grep -c '^perfkstat: warning: cannot read the records: ' /tmp/gone.err) = 1 ]"
check_fails record-series-gone-no-wait grep -q 'did not record' /tmp/gone.err
check record-series-gone-nothing-left nothing_left

# A HUP ignored on entry (nohup; here trap '' HUP) stays ignored, by record
# and by its command, which both run to their ends: the command says its
# pid, then waits for a file the test makes once it has sent the HUPs.
rm -f /tmp/hup.*
sh -c "trap '' HUP; exec perfkstat record -I 10ms -e page-faults -o /tmp/hup.csv -- \
	sh -c '$(waiter hup)'" 2>/tmp/hup.err &
pk=$!
await 120 "record's command" test -s /tmp/hup.pid
kill -HUP $pk "$(cat /tmp/hup.pid)"
touch /tmp/hup.go
wait $pk
check record-nohup-status [ $? = 0 ]
check record-nohup-command-ran-on test -e /tmp/hup.done
check record-nohup-csv-strict csv /tmp/hup.csv page-faults
check record-nohup-nothing-left nothing_left

# Memory: a row is kept binary, tens of bytes, until the CSV is written.
# The peak resident set of a recording (tests/helpers/maxrss) stays under
# 4 MB and 100 bytes a row; it needs 1000 rows or more to say so (a row
# kept as a 4 KB text would exceed it).
maxrss /tmp/mem.kb perfkstat record -I 1ms -t 4 -e page-faults \
	-e context-switches -o /tmp/mem.csv 2>/tmp/mem.err
check record-memory-status [ $? = 0 ]
rows=$(($(wc -l </tmp/mem.csv) - 1))
kb=$(cat /tmp/mem.kb)
note "record: memory: $rows rows, at most $kb kB resident"
check record-memory-rows [ "$rows" -ge 1000 ]
check record-memory-bounded [ "$kb" -le $((4096 + rows * 100 / 1024)) ]
check record-memory-nothing-left nothing_left

# --every: a record at each Nth event, with where the CPU was.
# ecsv FILE EVENT...: "time,cpu,EVENT...,ip,pid,tid,mode[,symbol]" exactly
# (symbol when the last EVENT given is "+symbol"), every row's fields
# as record writes them: a time, a CPU, counts, a hex IP, a pid and a tid,
# user or kernel (and a symbol only of a kernel row), in time order.
ecsv() {
	_f=$1
	shift
	_h=time,cpu _sym=0 _n=2
	for _e; do
		if [ "$_e" = +symbol ]; then
			_sym=1
		else
			_h=$_h,$_e
			_n=$((_n + 1))
		fi
	done
	_h=$_h,ip,pid,tid,mode
	[ $_sym = 1 ] && _h=$_h,symbol
	awk -F, -v h="$_h" -v n=$_n -v sym=$_sym '
	NR == 1 {
		if ($0 != h) { print "header: " $0; exit 1 }
		next
	}
	NF != n + 4 + sym { print "line " NR ": " NF " fields: " $0; exit 1 }
	$1 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ || $2 !~ /^[0-9]+$/ ||
	$(n + 1) !~ /^0x[0-9a-f]+$/ || $(n + 2) !~ /^[0-9]+$/ ||
	$(n + 3) !~ /^[0-9]+$/ || ($(n + 4) != "user" && $(n + 4) != "kernel") {
		print "line " NR ": bad field: " $0; exit 1
	}
	sym && ($(n + 4) == "user") != ($(n + 5) == "") {
		print "line " NR ": a symbol is a kernel row'"'"'s: " $0; exit 1
	}
	{
		for (i = 3; i <= n; i++)
			if ($i !~ /^[0-9]+$/) { print "line " NR ": bad count: " $0; exit 1 }
		if (NR > 2 && ($1 + 0 < t || ($1 + 0 == t && $2 + 0 <= c))) {
			print "line " NR ": out of order: " $0; exit 1
		}
		t = $1 + 0
		c = $2 + 0
	}
	END { exit NR < 2 }' "$_f"
}

# every_summary ERR TRIGGER ROWS: the summary's records are the CSV's
# rows, none dropped, each an overflow of the trigger
every_summary() {
	grep -qx "perfkstat: $3 records, [0-9]* CPUs, 0 dropped, $2: $3 overflows, [0-9]* throttled" "$1"
}

# total ERR EVENT: the total the summary gives EVENT, and its counter's value
total() {
	sed -n "s/^perfkstat: $2 total \([0-9]*\), counter \([0-9]*\)\$/\1 \2/p" "$1"
}

# A process's page faults, every 10th: touchpages faults 1000 pages; each
# row is 10 faults more of it, where it faulted, in user mode mostly.
N=10
rm -f /tmp/tp/*
touchpages 1000 /tmp/tp &
tp=$!
wait_file /tmp/tp/ready
# the trigger is enabled last: once it counts, all do
touch_when "^page-faults,.*pid=$tp"
perfkstat record --every page-faults:$N -e context-switches -p $tp \
	-o /tmp/every.csv 2>/tmp/every.err
check every-pid-status [ $? = 0 ]
wait $tp 2>/dev/null
rows=$(($(wc -l </tmp/every.csv) - 1))
set -- $(total /tmp/every.err page-faults)
note "record --every page-faults:$N: $rows rows; page-faults total ${1:-?}, counter ${2:-?}"
check every-pid-csv-strict ecsv /tmp/every.csv page-faults context-switches
check every-pid-faults-done test -e /tmp/tp/done
check every-pid-summary every_summary /tmp/every.err page-faults $rows
# one row per N faults of the process, each of N, taken in it
check every-pid-rows-per-period [ "$rows" = $((${2:-0} / N)) ]
check every-pid-rows-of-the-faults [ "$rows" -ge $((1000 / N)) ]
check every-pid-total [ "${1:-x}" = $((rows * N)) ]
check every-pid-rows awk -F, -v n=$N -v pid=$tp 'NR > 1 &&
	($3 != n || $6 != pid || $7 != pid) { print "line " NR ": " $0; exit 1 }' \
	/tmp/every.csv
check every-pid-user-mode grep -q ',user$' /tmp/every.csv
check every-pid-no-warning sh -c "! grep -q warning /tmp/every.err"
check every-pid-nothing-left nothing_left
# the trigger alone, of a process: no -e needed
sleep 600 &
sl=$!
perfkstat record --every page-faults:1000 -p $sl -t 0.2 >/tmp/alone.csv 2>/tmp/alone.err
check every-pid-trigger-alone [ $? = 0 ]
check every-pid-trigger-alone-header grep -qx "time,cpu,page-faults,ip,pid,tid,mode" /tmp/alone.csv
check every-pid-trigger-alone-nothing-left nothing_left
kill $sl
wait $sl 2>/dev/null

# All CPUs, every millisecond of cpu-clock (a time series again, of the
# clock's overflows), with the kernel's IPs named: each symbol is the
# text symbol of /proc/kallsyms at or below the IP, found here by a sort
# of its own; an offset that does not add up, or a symbol above the IP,
# fails.
perfkstat record --every cpu-clock:1ms --symbols -e page-faults -t 0.5 \
	-o /tmp/sym.csv 2>/tmp/sym.err
check every-symbols-status [ $? = 0 ]
check every-symbols-csv-strict ecsv /tmp/sym.csv cpu-clock page-faults +symbol
check every-symbols-summary every_summary /tmp/sym.err cpu-clock \
	$(($(wc -l </tmp/sym.csv) - 1))
# the clock's rows: the Kth of a CPU comes at K ms or later (a timer
# comes late, never early), so each CPU's clock sums to K ms at least
check every-clock-periods awk -F, 'NR > 1 { k[$2]++; t[$2] += $3 }
	END {
		for (c in k)
			if (t[c] < k[c] * 1000000) {
				print "CPU " c ": " k[c] " rows, " t[c] " ns"
				bad = 1
			}
		exit bad
	}' /tmp/sym.csv
# symcheck CSV: each kernel row's symbol and offset, against kallsyms:
# the rows' IPs sorted in among the text symbols, each IP after the
# symbols of its address; its symbol is one of those of the greatest
# address at or below it, and its offset the difference (in the low 48
# bits, which awk's numbers hold exactly).
symcheck() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["mode"] == "kernel" {
		ip = substr($c["ip"], 3)
		while (length(ip) < 16)
			ip = "0" ip
		print ip, 1, $c["symbol"]
	}' "$1" >/tmp/sym.ips
	[ -s /tmp/sym.ips ] || { echo "no kernel row"; return 1; }
	awk '$2 == "t" || $2 == "T" { print $1, 0, $3 $4 }' /proc/kallsyms |
		cat - /tmp/sym.ips | sort -k1,1 -k2,2n | awk '
	function hex(s,   i, v) {
		v = 0
		if (length(s) > 12)
			s = substr(s, length(s) - 11)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	$2 == 0 {
		if ($1 != a) { a = $1; names = "|" }
		names = names $3 "|"
		next
	}
	{
		k++
		# $3 is "name+0xOFFSET", $4 "[module]" or nothing
		split($3, p, "+")
		d = hex($1) - hex(a)
		if (d < 0)
			d += 2 ^ 48
		if (a == "" || p[2] !~ /^0x[0-9a-f]+$/ || d != hex(substr(p[2], 3)) ||
		    !index(names, "|" p[1] $4 "|")) {
			print "IP 0x" $1 ": " $3 " " $4 "; kallsyms: " a " " names
			bad = 1
			exit
		}
	}
	END {
		if (!bad)
			print k " kernel rows, each its symbol"
		exit bad
	}'
}
check every-symbols-kallsyms symcheck /tmp/sym.csv
check every-symbols-nothing-left nothing_left

# cycles as the trigger, where the machine counts them: each CPU's
# count at its last row is at least its rows' periods
if grep -q "^cycles  *ok$" $DBG/events; then
	perfkstat record --every cycles:1000000 -e page-faults -o /tmp/cyc.csv \
		-- sh /tmp/work.sh 50 2>/tmp/cyc.err
	check every-cycles-status [ $? = 0 ]
	check every-cycles-csv-strict ecsv /tmp/cyc.csv cycles page-faults
	set -- $(total /tmp/cyc.err cycles)
	rows=$(($(wc -l </tmp/cyc.csv) - 1))
	note "record --every cycles:1000000: $rows rows, cycles total ${1:-?}; $(grep overflows /tmp/cyc.err)"
	check every-cycles-periods [ "${1:-0}" -ge $((rows * 1000000)) ]
	check every-cycles-summary grep -q "^perfkstat: $rows records, [0-9]* CPUs, [0-9]* dropped, cycles: [0-9]* overflows" /tmp/cyc.err
	check every-cycles-nothing-left nothing_left
	# a trigger far too fast for the machine: perf throttles it, the
	# summary says so, and the command runs to its end
	perfkstat record --every cycles:2000 -o /tmp/fast.csv -- sh /tmp/work.sh 20 \
		2>/tmp/fast.err
	check every-cycles-fast-status [ $? = 0 ]
	note "record --every cycles:2000: $(grep overflows /tmp/fast.err)"
	check every-cycles-fast-throttled grep -q \
		"^perfkstat: [0-9]* records, [0-9]* CPUs, [0-9]* dropped, cycles: [0-9]* overflows, [1-9][0-9]* throttled$" \
		/tmp/fast.err
	check every-cycles-fast-nothing-left nothing_left
else
	skip every-cycles "no cycles on this machine (an x86 guest under TCG has no PMU)"
fi

# refusals, each said, nothing left
k=0
for bad in page-faults page-faults: :10 page-faults:0 page-faults:1ms \
	page-faults,period=5:10 cpu-clock:1min cpu-clock:1us; do
	k=$((k + 1))
	check_fails "every-refused-$k" perfkstat record --every "$bad" -t 1
	check "every-refused-$k-says-why" sh -c \
		"perfkstat record --every '$bad' -t 1 2>&1 | grep -q '^perfkstat: --every'"
done
check_fails every-and-interval perfkstat record -I 10ms --every page-faults:1 -- true
check_fails every-symbols-needs-every perfkstat record -I 10ms --symbols -e page-faults -- true
check every-refusals-nothing-left nothing_left

# plot: gnuplot's, which the guest does not have
check_fails record-plot-fails perfkstat plot /tmp/10ms.csv
check record-plot-needs-gnuplot sh -c "perfkstat plot /tmp/10ms.csv 2>&1 |
	grep -qx 'perfkstat: plot needs gnuplot (Debian: apt-get install gnuplot-nox)'"
check_fails record-plot-no-svg test -e /tmp/10ms.svg

rmmod perfkmod

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Event-driven series through debugfs: "series NAME every=TRIGGER ...".
# A process's page-faults counter with period N as the trigger of a
# series of itself and its task-clock: touching K pages makes one record
# per N faults, exactly as many as the count at the end says (the helper's
# own start-up faults are measured, not guessed), each taken in that
# process with the count a multiple of N; the refusals, each with its
# errno and nothing left; del refused for the trigger; the listing; a
# hardware trigger, a process's user-mode cycles (below); and series= at
# load time.

. /tests/lib.sh

C=$DBG/control
S=$DBG/series
N=10
K=1000

state() { cat $C; ls $S; }
value() { cut -d' ' -f1 $DBG/counters/$1/value; }

check load insmod $MODDIR/perfkmod.ko
dir=$(mktemp -d)
touchpages $K "$dir" &
pid=$!
wait_file "$dir/ready"
# the trigger counts once the series is there: each of its overflows is
# a record
check trigger-add kw ok "add pf page-faults,pid=$pid,period=$N,disabled"
check trigger-add-clock kw ok "add clk task-clock,pid=$pid"
check series-add kw ok "series ev every=pf pf clk"
check trigger-enable kw ok "enable pf"
check series-spec grep -qx "every=pf pf clk" $S/ev/spec
check series-listed grep -qx "series ev every=pf pf clk" $C
before=$(value pf)
kill -USR1 $pid
wait_file "$dir/done"
# stopped: no fault of its own after the count is read
kill -STOP $pid
await 60 "touchpages stopped" sh -c "grep -q '^State:.*T' /proc/$pid/status"
after=$(value pf)
# the rings are read a CPU at a time: in time order, as the process went
sort -n -k1,1 $S/ev/records >/tmp/ev
note "page faults: $before before the touching, $after after; $(wc -l </tmp/ev) records"
check faults-counted sh -c "[ $((after - before)) -ge $K ]"
# one record per N faults: as many as the count says, none dropped
check records-per-period sh -c "[ $(wc -l </tmp/ev) = $((after / N)) ]"
check none-dropped grep -qx 0 $S/ev/dropped
# each: TIME CPU PF CLK IP PID TID MODE, taken in the process, its count
# a multiple of N, one period more than the one before, in time order
check records-taken-in-task awk -v n=$N -v pid=$pid '
	NF != 8 || $6 != pid || $7 != pid || $3 % n || $3 != prev + n ||
	$1 < t || $5 !~ /^0x[0-9a-f]+$/ || ($8 != "user" && $8 != "kernel") {
		print "line " NR ": " $0; exit 1
	}
	{ prev = $3; t = $1 }' /tmp/ev
check records-user-mode grep -q " user$" /tmp/ev
# refusals, each with its errno, nothing left by any
check add-not-sampling kw ok "add plain page-faults"
check add-inherit kw ok "add ih page-faults,pid=$pid,inherit,period=$N"
before=$(state)
check refuse-not-sampling kw EINVAL "series x every=plain plain"
check refuse-other-target kw EINVAL "series x every=pf plain"
check refuse-no-trigger kw ENOENT "series x every=nosuch plain"
check refuse-empty-trigger kw EINVAL "series x every= plain"
check refuse-interval-and-trigger kw EINVAL "series x 1ms,every=pf pf"
check refuse-interval-after-trigger kw EINVAL "series x every=pf,1ms pf"
check refuse-inherit-trigger kw EINVAL "series x every=ih pf"
check refuse-series-as-trigger kw ENOENT "series x every=ev pf"
check refuse-del-trigger kw EBUSY "del pf"
now=$(state)
check nothing-left-by-refusals test "$now" = "$before"
check del-series kw ok "del ev"
# a trigger the series does not read is as busy
check series-trigger-only kw ok "series ev2 every=pf clk"
check refuse-del-trigger-only kw EBUSY "del pf"
check del-series-trigger-only kw ok "del ev2"
check del-trigger-after kw ok "del pf"
kill -KILL $pid
wait $pid

# A hardware trigger: user-mode cycles of a process that spins in one
# function (tests/helpers/spinner), every P, triggering a series of
# themselves, the counter made off and enabled once the series exists.
# Each record is taken in the spinner in user mode, its IP in spin(). The
# K-th record holds K periods of cycles at least: perf starts each period
# where the last was due, or where its overflow came when that was a
# period late (QEMU's cycles are its virtual clock, which runs on while
# the host holds the vCPU's thread, so an overflow's skid is the host's
# latency: milliseconds, more on a loaded host); what it holds past K
# periods is that overflow's skid, noted. So there are no more records than
# periods, and at least a quarter as many (a quiet host records them all,
# a loaded one about three in four), none dropped: a period makes no
# record when its overflow's skid is a whole period, or when the process
# leaves its CPU before the overflow's interrupt comes (the PMU driver
# clears the overflow as it stops the counter). The PMU's interrupts are
# at least as many as the records, and NMIs where its driver said so at
# boot (the KUnit case hardware_trigger_in_nmi sees each overflow in NMI).
# Where there is no cycles (the x86 lanes under TCG) these are skips with
# the reason; on a lane whose PMU must count (tests/lanes' pmu: a PMU
# and pseudo-NMIs), failures.
P=50000000
hw_checks="cycles-add cycles-series cycles-enable cycles-records
	cycles-in-spin cycles-periods cycles-records-per-period
	cycles-none-dropped cycles-pmu-interrupts cycles-overflow-nmi"
# the PMU's interrupts so far: the arm PMU's line, else x86's PMIs
pmu_irqs() {
	awk '/ arm-pmu$/ || $1 == "PMI:" {
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i
	} END { print n + 0 }' /proc/interrupts
}
if ! grep -q "^cycles  *ok$" $DBG/events; then
	why="no PMU with cycles here: $(grep "^cycles " $DBG/events | tr -s " ")"
	for t in $hw_checks; do
		if lane_has pmu; then fail $t "$why"; else skip $t "$why"; fi
	done
else
	spinner "$dir" &
	spid=$!
	await 60 "the spinner in spin()" sh -c \
		"[ \$(od -An -tu8 $dir/laps 2>/dev/null) -gt 0 ]"
	read -r lo hi <"$dir/range"
	irqs=$(pmu_irqs)
	check cycles-add kw ok "add cyc cycles:u,pid=$spid,period=$P,disabled"
	check cycles-series kw ok "series cy every=cyc cyc"
	check cycles-enable kw ok "enable cyc"
	: >/tmp/cy
	check cycles-records await 120 "20 records of cy" sh -c \
		"cat $S/cy/records >>/tmp/cy; [ \$(wc -l </tmp/cy) -ge 20 ]"
	# stopped in the kernel: no code of its own runs after spin()
	kill -STOP $spid
	await 60 "spinner stopped" sh -c "grep -q '^State:.*T' /proc/$spid/status"
	cat $S/cy/records >>/tmp/cy
	irqs=$(($(pmu_irqs) - irqs))
	end=$(value cyc)
	sort -n -k1,1 /tmp/cy >/tmp/cys
	note "spin() at 0x$lo-0x$hi; cycles every $P: $(wc -l </tmp/cy) records," \
		"$irqs PMU interrupts, $end cycles at the end"
	note "$(head -3 /tmp/cys)"
	note "$(awk -v p=$P '$3 >= NR * p && $3 - NR * p < p {
			s = $3 - NR * p; if (s > max) max = s; sum += s; n++ }
		END { printf "skids: %d records within their period, mean %d, max %d\n",
			n, n ? sum / n : 0, max }' /tmp/cys)"
	# TIME CPU CYC IP PID TID MODE: in the spinner, in user mode, in spin()
	check cycles-in-spin awk -v pid=$spid -v lo=$((0x$lo)) -v hi=$((0x$hi)) '
		NF != 7 || $5 != pid || $6 != pid || $7 != "user" ||
		$4 !~ /^0x[0-9a-f]+$/ || $4 + 0 < lo || $4 + 0 > hi {
			print "line " NR ": " $0; exit 1
		}' /tmp/cys
	# the K-th record: K periods at least, more than the record before
	check cycles-periods awk -v p=$P '$3 < NR * p || $3 <= v {
			print "record " NR ": " $3 " after " v; exit 1
		}
		{ v = $3 }' /tmp/cys
	check cycles-records-per-period awk -v p=$P -v end=$end '
		END { print NR " records of " end / p " periods";
			exit (NR < 20 || NR < end / p / 4) }' /tmp/cys
	check cycles-none-dropped grep -qx 0 $S/cy/dropped
	check cycles-pmu-interrupts test $irqs -ge "$(wc -l </tmp/cy)"
	nmi=$(sed -n 's/^\[[^]]*\] \(hw perfevents: enabled.*\)/\1/p' /tmp/boot-dmesg)
	case $nmi in
	*"using NMIs") pass cycles-overflow-nmi ;;
	*) if lane_has pmu; then
		fail cycles-overflow-nmi "no NMI in the PMU driver's line: $nmi"
	   else
		skip cycles-overflow-nmi \
			"the PMU's overflow is no NMI here: ${nmi:-no PMU driver line}"
	   fi ;;
	esac
	check cycles-del-series kw ok "del cy"
	check cycles-del-trigger kw ok "del cyc"
	kill -KILL $spid
	wait $spid
fi
check unload rmmod perfkmod

# series= at load time, with a trigger of all CPUs
check load-with-series insmod $MODDIR/perfkmod.ko \
	"counters=cs=context-switches,period=1" "series=evs=every=cs:cs"
check load-series-listed grep -qx "series evs every=cs cs" $C
await 60 "a record of evs" sh -c "cat $S/evs/records >>/tmp/evs; [ -s /tmp/evs ]"
check load-series-records awk 'NF != 7 { exit 1 }' /tmp/evs
check unload-live-series rmmod perfkmod
rm -rf "$dir" /tmp/ev /tmp/evs /tmp/cy /tmp/cys

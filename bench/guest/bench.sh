#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The benchmark guest (perfkmod_run=bench.sh, booted by scripts/bench.sh):
# loads perfkmod and the benchmark module, runs each section, and sends
# every figure to the kernel log as "PERFKMOD-BENCH KEY VALUE" lines.
# perfkmod_bench_smoke=1 on the kernel command line: tiny counts.

. /tests/lib.sh

mode=${perfkmod_bench_mode:-run}
log "PERFKMOD-BENCH mode.$mode 1"
log "PERFKMOD-BENCH cpus $(grep -c ^processor /proc/cpuinfo)"

if [ "${perfkmod_bench_smoke:-0}" = 1 ]; then
	params="iters=200 reps=1 work=200000 scale_max=64"
	hold=256 ureads=100 reps=1 turns=200000 rturns=200000
else
	params="iters=20000 reps=5 work=20000000"
	hold=4096 ureads=20000 reps=5 turns=20000000 rturns=140000000
fi

# perfkmod_bench_only=PART,...: only these parts (scripts/bench.sh --only)
want() {
	case ",${perfkmod_bench_only:-all}," in
	*,all,* | *,$1,*) return 0 ;;
	esac
	return 1
}

bench() {
	insmod $MODDIR/perfkmod_bench.ko $params "$@" ||
		log "PERFKMOD-BENCH-ERROR insmod perfkmod_bench $*"
	loaded perfkmod_bench && rmmod perfkmod_bench
}

# Slab and per-CPU memory in kB, with empty slabs given back first.
kmem() {
	for f in /sys/kernel/slab/*/shrink; do
		echo 1 >"$f"
	done 2>/dev/null
	awk '$1 == "Slab:" || $1 == "Percpu:" { kb += $2 } END { print kb }' \
		/proc/meminfo
}

# Objects in use per slab cache: "NAME ACTIVE_OBJS OBJSIZE" lines.
slabs() {
	awk 'NR > 2 { print $1, $2, $4 }' /proc/slabinfo
}

# What each cache holds more in $2 than in $1, in bytes per counter, for
# caches that grew by at least one object per 8 counters.
slab_delta() {
	awk -v n=$hold -v kind="$3" 'FNR == NR { a[$1] = $2; next }
		{ d = ($2 - a[$1]) * $3
		  if ($2 - a[$1] >= n / 8)
			printf "PERFKMOD-BENCH mem.%s.cache.%s %d\n", kind, $1, d / n
		  t += d }
		END { printf "PERFKMOD-BENCH mem.%s.slabobj.bytes %d\n", kind, t / n }' \
		"$1" "$2"
}

# Kernel memory per counter of KIND, in bytes: N counters held against 0.
memory() {
	insmod $MODDIR/perfkmod_bench.ko hold=0 kind="$1"
	m0=$(kmem)
	slabs >/tmp/slabs0
	rmmod perfkmod_bench
	insmod $MODDIR/perfkmod_bench.ko hold=$hold kind="$1" ||
		{ log "PERFKMOD-BENCH-ERROR hold=$hold kind=$1"; return; }
	m1=$(kmem)
	slabs >/tmp/slabs1
	rmmod perfkmod_bench
	log "PERFKMOD-BENCH mem.$1.bytes $(((m1 - m0) * 1024 / hold))"
	[ -s /tmp/slabs0 ] && slab_delta /tmp/slabs0 /tmp/slabs1 "$1" |
		while IFS= read -r line; do
			log "$line"
		done
}

insmod $MODDIR/perfkmod.ko max_counters=65536 ||
	log "PERFKMOD-BENCH-ERROR insmod perfkmod"

# Workload overhead first, with perf's default throttling limits.
log "PERFKMOD-BENCH max_sample_rate.before $(cat /proc/sys/kernel/perf_event_max_sample_rate)"
want workload && bench sections=workload
log "PERFKMOD-BENCH max_sample_rate.after $(cat /proc/sys/kernel/perf_event_max_sample_rate)"

# Time series, from user space as a user meets them: a CPU-bound program
# on CPU 0 (spinwork) with no series, with a series of four all-CPUs
# counters at 1 and 10 kHz, and with perfkstat stat -I polling the same
# four counters every 1 and 10 ms on CPU 0 beside it (-I takes
# milliseconds: it cannot ask for 10 kHz), in turn, median of the reps.
series_section() {
	C=/sys/kernel/debug/perfkmod/control
	for e in context-switches page-faults cpu-migrations minor-faults; do
		echo "add s-$e $e" >$C
	done
	series_run() {
		echo "series bench $1 s-context-switches s-page-faults s-cpu-migrations s-minor-faults" >$C
		spinwork $turns >>/tmp/series.$2
		log "PERFKMOD-BENCH work.series.$2.dropped $(cat /sys/kernel/debug/perfkmod/series/bench/dropped)"
		echo "del bench" >$C
	}
	poll_run() {
		taskset -c 0 perfkstat stat -I $1 -x, -k s-context-switches \
			-k s-page-faults -k s-cpu-migrations -k s-minor-faults 2>/dev/null &
		poller=$!
		sleep 1
		spinwork $turns >>/tmp/series.$2
		kill $poller
		wait $poller 2>/dev/null
	}
	rm -f /tmp/series.*
	spinwork $turns >/dev/null	# warm-up
	i=0
	while [ $i -lt $reps ]; do
		spinwork $turns >>/tmp/series.none
		series_run 1ms 1000
		series_run 100us 10000
		poll_run 1 poll1000
		poll_run 10 poll100
		i=$((i + 1))
	done
	for f in /tmp/series.*; do
		log "PERFKMOD-BENCH work.series.${f#/tmp/series.}.run $(sort -n "$f" |
			awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
	done
	# Records per interval: a series at 1 ms while spinwork runs on CPU 0 (20
	# million turns however small the run: about 0.14 s of guest time). Under
	# -icount guest time is instructions executed and the timer is never
	# late, so CPU 0 records every interval its records span; under plain TCG
	# intervals are skipped when the host runs late.
	echo "series interval 1ms s-context-switches" >$C
	cat /sys/kernel/debug/perfkmod/series/interval/records >/dev/null
	spinwork 20000000 >/dev/null
	cat /sys/kernel/debug/perfkmod/series/interval/records | awk '
		$2 == 0 { n++; if (!first) first = $1; last = $1 }
		END {
			print "PERFKMOD-BENCH series.interval.records " n
			printf "PERFKMOD-BENCH series.interval.spanned %d\n", (last - first) / 1e6 + 1.5
		}' | while IFS= read -r line; do
		log "$line"
	done
	echo "del interval" >$C
	for e in context-switches page-faults cpu-migrations minor-faults; do
		echo "del s-$e" >$C
	done
}
want series && series_section

# Dispatch and the event-driven series' records overflow one per write:
# lift the rate limits perf would otherwise throttle that at (the order
# matters: the rate is refused once throttling is off).
echo 10000000 >/proc/sys/kernel/perf_event_max_sample_rate
echo 0 >/proc/sys/kernel/perf_cpu_time_max_percent
sections=
for s in dispatch trigger read scale region; do
	want $s && sections=$sections${sections:+,}$s
done
[ -n "$sections" ] && bench sections=$sections

# perfkstat record --every: the highest rate of records it keeps without
# a drop, reading as the records come (poll() on records.bin) and on a
# clock (PERFKSTAT_RECORD_TEXT: the text file every 0.2 s): a cpu-clock
# trigger every 100, 50, 20 and 10 us (10 to 100 thousand records a
# second on each CPU) while spinwork runs on CPU 0 (140 million turns:
# about a second of guest time), the default ring of 4096 records.
# Under -icount guest time is instructions: the rates are exact, and the
# reader's cost takes its share of them. Run with the rate limits lifted
# above; the icount boot alone.
record_section() {
	for how in poll clock; do
		best=0
		for period in 100us 50us 20us 10us; do
			rate=$((1000000 / ${period%us}))
			if [ $how = clock ]; then
				export PERFKSTAT_RECORD_TEXT=1
			else
				unset PERFKSTAT_RECORD_TEXT
			fi
			perfkstat record --every cpu-clock:$period -o /tmp/rec.csv \
				-- spinwork $rturns >/dev/null 2>/tmp/rec.err ||
				log "PERFKMOD-BENCH-ERROR record $how $period: $(tail -1 /tmp/rec.err)"
			unset PERFKSTAT_RECORD_TEXT
			# "perfkstat: N records, C CPUs, D dropped, ..."
			set -- $(sed -n 's/^perfkstat: \([0-9]*\) records, [0-9]* CPUs, \([0-9]*\) dropped.*/\1 \2/p' \
				/tmp/rec.err)
			[ $# = 2 ] ||
				log "PERFKMOD-BENCH-ERROR record $how $period: no summary: $(tail -1 /tmp/rec.err)"
			log "PERFKMOD-BENCH record.$how.$rate.records ${1:--1}"
			log "PERFKMOD-BENCH record.$how.$rate.dropped ${2:--1}"
			[ "${2:-1}" = 0 ] && best=$rate
		done
		log "PERFKMOD-BENCH record.$how.rate $best"
	done
	rm -f /tmp/rec.csv /tmp/rec.err
}
[ "$mode" = icount ] && want record && record_section

# The all-CPUs read again with 2 CPUs online.
if want read && [ -e /sys/devices/system/cpu/cpu3/online ]; then
	echo 0 >/sys/devices/system/cpu/cpu3/online
	echo 0 >/sys/devices/system/cpu/cpu2/online
	bench sections=read
	echo 1 >/sys/devices/system/cpu/cpu2/online
	echo 1 >/sys/devices/system/cpu/cpu3/online
fi

if want memory; then
	memory raw
	memory perfkmod
fi

want uread && ureadbench $ureads 2>&1 | while IFS= read -r line; do
	log "$line"
done

rmmod perfkmod
log "PERFKMOD-BENCH-END"

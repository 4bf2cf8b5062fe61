#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Regions through debugfs: the region command on a function of a test
# module (tests/clients/region_target.c) called exactly N times, over a
# breakpoint counter on a variable it writes a known number of times a
# call (calls, sums, means and histogram exact); a real kernel function
# whose calls match a kprobe's hit count from tracefs over the same
# window; a function kprobes may not probe and one that does not exist,
# refused with kprobes' errno and the reason; each refusal of the
# command; del of a counter a region reads refused; a temporary region
# gone with its file; the module's own marker region in regions/, turned
# off and on by its enable file and by name; rmmod of the module under
# live regions, with and without its own cleanup; the listing replayed.

. /tests/lib.sh

C=$DBG/control
R=$DBG/regions
RUN=/sys/module/region_target/parameters/run
FN=perfkmod_test_region_target
WRITES=3

mode() { [ "$(stat -c %a "$1")" = "$2" ]; }
ncpu=$(grep -c ^processor /proc/cpuinfo)

# field REGION LABEL COLUMN: column COLUMN (1: the label) of the stat line
# LABEL ("all" or a CPU) of REGION.
field() { awk -v l="$2" -v c="$3" '$1 == l { print $c }' $R/$1/stat; }

# is GOT WANT WHAT: GOT is WANT, or say what it is.
is() {
	[ "$1" = "$2" ] && return 0
	echo "$3: '$1', want '$2'"
	return 1
}

# outcomes REGION: the calls, migrated and lost of all CPUs summed: every
# call that ended, whichever way it was counted.
outcomes() { awk '$1 == "all" { print $2 + $3 + $4 }' $R/$1/stat; }

# possible CPUs, from their range list ("0-3" or "0,2-3")
possible=$(awk -F, '{ n = 0; for (i = 1; i <= NF; i++) {
	split($i, r, "-"); n += (r[2] == "" ? 1 : r[2] - r[1] + 1) } print n }' \
	/sys/devices/system/cpu/possible)

check load insmod $MODDIR/perfkmod.ko
check layout-regions-dir test -d $R
check target-load insmod $MODDIR/region_target.ko

# The module's marker region, in regions/ with no command of root's
check marker-dir test -d $R/region_target
check marker-spec is "$(cat $R/region_target/spec)" "marker marks" spec
check marker-on is "$(cat $R/region_target/enable)" 1 enable
echo 7 >$RUN
check marker-counts is "$(field region_target all 2)" 7 "marker calls"

# A breakpoint counter on the variable the function writes: exact sums.
addr=$(awk '$3 == "region_target_var" && $4 == "[region_target]" &&
	$1 ~ /[1-9a-f]/ { print $1; exit }' /proc/kallsyms)
bp=
if [ -n "$addr" ] && kw ok "add bp mem:0x$addr:w4" >/dev/null; then
	bp=bp
else
	note "no breakpoint counter on region_target_var (address '$addr'): $(cat $DBG/last_error)"
	check add-sw kw ok "add bp page-faults"
fi
check add-cs kw ok "add cs context-switches"

# region r on the function: its files, its listing
check region-add kw ok "region r func=$FN,off bp cs"
check region-files-stat mode $R/r/stat 400
check region-files-hist mode $R/r/hist 400
check region-files-enable mode $R/r/enable 600
check region-files-reset mode $R/r/reset 200
check region-files-spec mode $R/r/spec 400
check region-spec is "$(cat $R/r/spec)" "func=$FN bp cs" spec
check region-listed grep -qx "region r func=$FN,off bp cs" $C
check region-listed-last sh -c "tail -1 $C | grep -q '^region r '"
check region-off is "$(cat $R/r/enable)" 0 enable
check stat-header is "$(head -1 $R/r/stat)" \
	"# CPU CALLS LOST MIGRATED MISSED MIN MAX SUM:bp MEAN:bp SUM:cs MEAN:cs" header
check stat-lines is "$(wc -l <$R/r/stat)" $((possible + 2)) "stat lines"
check stat-cpu-lines awk -v n=$possible 'NR > 2 && $1 != NR - 3 { exit 1 }
	NR > 2 && NF != 11 { exit 1 }' $R/r/stat
check stat-empty is "$(sed -n 2p $R/r/stat)" "all 0 0 0 0 0 0 0 0.000 0 0.000" "all, no calls"
check hist-empty is "$(cat $R/r/hist)" "# LOW HIGH CALLS" hist
echo 5 >$RUN
check off-counts-nothing is "$(field r all 2)" 0 "calls while off"

# on: N calls, each WRITES writes
N=1000
check reset-bp kw ok "reset bp"
check region-enable-cmd kw ok "enable r"
check region-on is "$(cat $R/r/enable)" 1 enable
echo $N >$RUN
check region-disable-file sh -c "echo 0 >$R/r/enable"
check region-off-again is "$(cat $R/r/enable)" 0 enable
# what perf counted over the same window: only the calls write the variable
bpv=$(cat $DBG/counters/bp/value)
calls=$(field r all 2)
note "region r after $N calls: $(sed -n 2p $R/r/stat)"
check calls-all-ended is "$(outcomes r)" $N "calls + lost + migrated"
check calls-none-missed is "$(field r all 5)" 0 missed
check calls-most-folded sh -c "[ $calls -ge $((N * 9 / 10)) ]"
check calls-cpu-sum awk -v want=$calls 'NR > 2 { s += $2 } END { exit s != want }' $R/r/stat
check cpu-missed-zero awk 'NR > 2 && $5 != 0 { exit 1 }' $R/r/stat
if [ -z "$bp" ]; then
	skip sum-exact "no breakpoint counter"
elif [ $calls = $N ]; then
	check sum-is-counters is "$(field r all 8)" "$bpv" "bp sum against counters/bp/value"
else
	# a call not folded in wrote under the counter, not into the sum
	check sum-within-counters sh -c "[ $(field r all 8) -lt $bpv ]"
fi
# On arm64 a watchpoint hit that an interrupt meets in its single step
# is taken, and counted, again: a call may count a write twice there.
if [ -n "$bp" ] && [ "$(uname -m)" = x86_64 ]; then
	check sum-exact is "$(field r all 8)" $((calls * WRITES)) "bp sum"
	check mean-exact is "$(field r all 9)" $WRITES.000 "bp mean"
	check min-max is "$(field r all 6) $(field r all 7)" "$WRITES $WRITES" "min max"
	check hist-exact is "$(cat $R/r/hist | tr '\n' '|')" \
		"# LOW HIGH CALLS|0 0 0|1 1 0|2 3 $calls|" hist
elif [ -n "$bp" ]; then
	check sum-at-least sh -c "[ $(field r all 8) -ge $((calls * WRITES)) ]"
	check min-exact is "$(field r all 6)" $WRITES "bp min"
	check hist-calls awk -v want=$calls 'NR > 1 { s += $3 } END { exit s != want }' $R/r/hist
fi

# reset, by the file and by name
check reset-file sh -c "echo 1 >$R/r/reset"
check reset-zero is "$(sed -n 2p $R/r/stat)" "all 0 0 0 0 0 0 0 0.000 0 0.000" "all after reset"
check enable-file sh -c "echo on >$R/r/enable"
echo 10 >$RUN
check counts-again is "$(outcomes r)" 10 "calls after enable"
check reset-cmd kw ok "reset r"
check reset-cmd-zero is "$(field r all 2)" 0 "calls after reset r"
check_fails enable-file-bad sh -c "echo maybe >$R/r/enable"

# the marker region by name, and by its enable file: calls stop when off
check marker-reset kw ok "reset region_target"
check marker-disable-cmd kw ok "disable region_target"
check marker-off is "$(cat $R/region_target/enable)" 0 enable
echo 4 >$RUN
check marker-off-nothing is "$(field region_target all 2)" 0 "marker calls while off"
check marker-enable-file sh -c "echo 1 >$R/region_target/enable"
echo 6 >$RUN
check marker-on-counts is "$(field region_target all 2)" 6 "marker calls once on"
check marker-disable-file sh -c "echo 0 >$R/region_target/enable"
echo 6 >$RUN
check marker-off-by-file is "$(field region_target all 2)" 6 "marker calls once off"
check marker-enable-cmd kw ok "enable region_target"
check marker-not-del kw ENOENT "del region_target"

# refusals, each with its errno and reason; nothing left by them
check err-usage kw EINVAL "region x func=$FN"
check err-nine kw EINVAL "region x func=$FN bp bp bp bp bp bp bp bp bp"
check err-nine-why grep -q "^-EINVAL: a region reads 1 to 8 counters" $DBG/last_error
check err-no-func kw EINVAL "region x maxactive=4 bp"
check err-no-func-why grep -q "^-EINVAL: a region needs func=SYMBOL" $DBG/last_error
check err-option kw EINVAL "region x func=$FN,records=4 bp"
check err-maxactive kw EINVAL "region x func=$FN,maxactive=lots bp"
check err-maxactive-big kw ERANGE "region x func=$FN,maxactive=4097 bp"
check err-unknown-counter kw ENOENT "region x func=$FN nope"
check err-name-taken kw EEXIST "region cs func=$FN bp"
check err-name-module kw EEXIST "region region_target func=$FN bp"
check err-name-module-why grep -q "^-EEXIST: a region (a module's) has this name" $DBG/last_error
check err-name-chars kw EINVAL "region a:b func=$FN bp"
check add-cpu kw ok "add one page-faults,cpu=0"
check err-cpu-counter kw EINVAL "region x func=$FN one"
check err-cpu-counter-why grep -q "^-EINVAL: a region reads counters of all CPUs, or of one task" $DBG/last_error
check err-no-such-function kw ENOENT "region x func=perfkmod_no_such_function bp"
check err-no-such-function-why grep -q "^-ENOENT: no such function: region x" $DBG/last_error
# a function on kprobes' blacklist, of a name kallsyms has once
bl=$(awk 'NR == FNR { if ($2 ~ /^[tT]$/) n[$3]++; next }
	$2 !~ /^_/ && n[$2] == 1 { print $2; exit }' /proc/kallsyms \
	/sys/kernel/debug/kprobes/blacklist 2>/dev/null)
if [ -n "$bl" ]; then
	check err-blacklisted kw EINVAL "region x func=$bl bp"
	check err-blacklisted-why grep -q \
		"^-EINVAL: kprobes may not probe this function (blacklisted, notrace or entry code): region x" \
		$DBG/last_error
	note "blacklisted function refused: $(cat $DBG/last_error)"
else
	skip err-blacklisted "no function on kprobes' blacklist"
fi
check err-nothing-left sh -c "[ ! -e $R/x ] && ! grep -q '^region x ' $C"
check err-del-counter kw EBUSY "del bp"
check err-del-counter-why grep -q "^-EBUSY: a region reads this counter: del the region first" $DBG/last_error
check del-one kw ok "del one"

# a real kernel function: iterate_dir's calls in ls, against a kprobe's
# hits over the same window (nothing else in the guest lists directories)
T=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -e $d/kprobe_events ] && T=$d && break
done
if [ -n "$T" ] && echo "p:perfkmod_rt iterate_dir" >>$T/kprobe_events; then
	check real-add kw ok "region real func=iterate_dir,off cs"
	check real-on kw ok "enable real"
	echo 1 >$T/events/kprobes/perfkmod_rt/enable
	i=0
	while [ $i -lt 20 ]; do ls / /sys /proc >/dev/null; i=$((i + 1)); done
	echo 0 >$T/events/kprobes/perfkmod_rt/enable
	check real-off kw ok "disable real"
	hits=$(awk '$1 == "perfkmod_rt" { print $2 }' $T/kprobe_profile)
	note "iterate_dir: kprobe hits $hits; region: $(sed -n 2p $R/real/stat)"
	check real-calls-match is "$(outcomes real)" "$hits" "iterate_dir calls against kprobe hits"
	check real-calls-some sh -c "[ '$hits' -ge 60 ]"
	check real-none-missed is "$(field real all 5)" 0 missed
	echo "-:perfkmod_rt" >>$T/kprobe_events
	check real-del kw ok "del real"
else
	skip real-calls-match "no kprobe_events in tracefs"
fi

# a temporary region goes with its file, before its counter
exec 3>$C
check temp sh -c "echo temporary >&3"
check temp-add sh -c "echo 'add tc context-switches' >&3"
check temp-region sh -c "echo 'region tr func=$FN tc' >&3"
check temp-other-refused kw EPERM "region tx func=$FN tc"
check temp-dir test -d $R/tr
exec 3>&-
check temp-gone sh -c "[ ! -e $R/tr ] && ! grep -Eq '^(region tr|add tc) ' $C"

# the listing, written back after a reload, makes the same
check del-r kw ok "del r"
check del-r-gone test ! -e $R/r
check del-counter-free kw ok "del bp"
check readd-bp kw ok "add bp page-faults"
check readd-r kw ok "region r func=$FN,maxactive=16 bp cs"
check maxactive-spec is "$(cat $R/r/spec)" "func=$FN,maxactive=16 bp cs" spec
cat $C >/tmp/region-listing
check rmmod-target-under-r rmmod region_target
check target-gone-dir test ! -e $R/region_target
check target-gone-r-stays grep -qx "region r func=$FN,maxactive=16 bp cs" $C
check target-gone-enable-on-refused kw ENOENT "enable r"
check target-gone-disable kw ok "disable r"
check target-gone-enable-refused kw ENOENT "enable r"
check target-gone-enable-why grep -q \
	"^-ENOENT: the region's function went with its module: del the region" $DBG/last_error
check del-r-after-rmmod kw ok "del r"
check rmmod-counters rmmod perfkmod
check reload insmod $MODDIR/perfkmod.ko
check reload-target insmod $MODDIR/region_target.ko forget_cleanup=1
check replay sh -c "cat /tmp/region-listing >$C && cat $C | cmp - /tmp/region-listing"
check replay-dirs sh -c "[ -d $R/r ] && [ -d $R/region_target ]"

# rmmod of the module under a live function region on its function and
# its own marker region, which it leaves for perfkmod to release
check forget-on kw ok "enable r"
echo 3 >$RUN
check forget-counts is "$(outcomes r)" 3 "calls of r"
check forget-rmmod rmmod region_target
check forget-dir-gone test ! -e $R/region_target
check forget-r-listed grep -q "^region r " $C
check forget-r-readable sh -c "cat $R/r/stat $R/r/hist $R/r/spec >/dev/null"
check forget-del kw ok "del r"
check forget-empty sh -c "[ -z \"\$(ls $R)\" ] && ! grep -q '^region ' $C"

# rmmod of perfkmod under a live region of root's
check last-region kw ok "region last func=iterate_dir bp"
ls / >/dev/null
check rmmod-live-region rmmod perfkmod

# regions= at load time, ":" for blanks; a bad entry fails the load
check param-load insmod $MODDIR/perfkmod.ko "counters=pf=page-faults;cs=context-switches" \
	"regions=ra=func=iterate_dir:pf:cs;rb=func=iterate_dir,maxactive=8,off:cs"
check param-listed sh -c "grep -qx 'region ra func=iterate_dir pf cs' $C &&
	grep -qx 'region rb func=iterate_dir,maxactive=8,off cs' $C"
check param-dirs is "$(cat $R/ra/enable $R/rb/enable | tr -d '\n')" 10 "ra, rb enable"
ls / >/dev/null
check param-counts sh -c "[ \$(awk '\$1 == \"all\" { print \$2 + \$3 + \$4 }' $R/ra/stat) -gt 0 ]"
check param-rmmod rmmod perfkmod
check_fails param-bad-fails insmod $MODDIR/perfkmod.ko "counters=pf=page-faults" \
	"regions=ra=func=iterate_dir:pf;rb=func=perfkmod_no_such_function:pf"
check param-bad-not-loaded sh -c "! grep -q '^perfkmod ' /proc/modules"
check param-bad-says-why sh -c "dmesg | grep -q 'perfkmod: regions=: \"rb=func=perfkmod_no_such_function:pf\": -ENOENT: no such function'"

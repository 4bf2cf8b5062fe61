#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The debugfs interface: every file, every command and each error with its
# exact errno (kwrite does one write(2) and prints the errno's name), what
# a failed command leaves (nothing), files of a deleted counter, del racing
# with readers, rmmod with live counters.

. /tests/lib.sh

C=$DBG/control

# What a failed command must leave unchanged: the list and the directories.
state() { cat $C; ls $DBG/counters; }

mode() { [ "$(stat -c %a "$1")" = "$2" ]; }
num() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
value() { cat $DBG/counters/$1/value; }
field() { cut -d' ' -f"$2" $DBG/counters/$1/stat; }
work() { i=0; while [ $i -lt 20 ]; do ls / >/dev/null; i=$((i + 1)); done; }

check load insmod $MODDIR/perfkmod.ko
check layout-control-0600 mode $C 600
for f in last_error list events; do
	check layout-$f-0400 mode $DBG/$f 400
done
check layout-counters-dir test -d $DBG/counters
check control-empty sh -c "[ -z \"\$(cat $C)\" ]"

# add: an all-CPUs counter, a one-CPU counter, a sampling counter
check add-all-cpus kw ok "add pf page-faults"
check add-cpu0 kw ok "add cs0 context-switches,cpu=0"
check add-sampling kw ok "add clk cpu-clock,period=1000000"
check add-disabled kw ok "add off dummy,disabled"
for f in value stat spec percpu; do
	check files-pf-$f mode $DBG/counters/pf/$f 400
done
check files-pf-no-overflow test ! -e $DBG/counters/pf/overflow
check files-cpu0-no-percpu test ! -e $DBG/counters/cs0/percpu
check files-clk-overflow mode $DBG/counters/clk/overflow 400
check spec-as-written grep -qx "context-switches,cpu=0" $DBG/counters/cs0/spec
check control-lists-add-commands sh -c "cat $C | grep -qx 'add pf page-faults' &&
	cat $C | grep -qx 'add clk cpu-clock,period=1000000' && [ \$(wc -l <$C) = 4 ]"

# reading: value, stat, percpu, overflow
v0=$(value pf)
work
v1=$(value pf)
check value-counts sh -c "num() { case \$1 in ''|*[!0-9]*) return 1;; esac; };
	num '$v0' && num '$v1' && [ $v1 -gt $v0 ]"
# a byte a time (as a shell's read does): the line of one value, whole
check value-byte-at-a-time sh -c "dd if=$DBG/counters/clk/value bs=1 2>/dev/null |
	grep -qx '[0-9][0-9]*' && [ \$(dd if=$DBG/counters/clk/value bs=1 2>/dev/null |
	wc -l) = 1 ]"
check stat-fields sh -c "set -- \$(cat $DBG/counters/pf/stat); [ \$# = 5 ] &&
	[ \$2 -ge \$3 ] && [ \$3 -gt 0 ] && [ \$4 -ge \$1 ] && [ \$5 = active ]"
check stat-off-state sh -c "[ \$(cut -d' ' -f5 $DBG/counters/off/stat) = off ]"
ncpu=$(grep -c ^processor /proc/cpuinfo)
check percpu-one-line-per-cpu sh -c "[ \$(wc -l <$DBG/counters/pf/percpu) = $ncpu ] &&
	awk 'NF != 5 { exit 1 } { s += \$2 } END { exit s == 0 }' $DBG/counters/pf/percpu"
clk_overflows() {
	[ "$(sed -n 's/^overflows //p' $DBG/counters/clk/overflow)" -gt "$1" ]
}
clk_stats() {
	grep -q '^throttled [0-9]*$' $DBG/counters/clk/overflow && clk_overflows 100
}
check overflow-stats await 60 "100 overflows of clk" clk_stats

# enable, disable, reset
check disable kw ok "disable pf"
check disable-state sh -c "[ \$(cut -d' ' -f5 $DBG/counters/pf/stat) = off ]"
v0=$(value pf)
work
check disabled-does-not-count sh -c "[ \$(cat $DBG/counters/pf/value) = $v0 ]"
check enable kw ok "enable pf"
check enable-state sh -c "[ \$(cut -d' ' -f5 $DBG/counters/pf/stat) = active ]"
work
check enabled-counts-again sh -c "[ \$(cat $DBG/counters/pf/value) -gt $v0 ]"
check reset kw ok "reset pf"
check reset-value sh -c "[ \$(cat $DBG/counters/pf/value) -lt $v0 ]"

# period
check period kw ok "period clk 2000000"
check period-respec grep -qx "cpu-clock,period=2000000" $DBG/counters/clk/spec
check period-listed grep -qx "add clk cpu-clock,period=2000000" $C
check period-not-sampling-EINVAL kw EINVAL "period pf 1000"
check period-zero-EINVAL kw EINVAL "period clk 0"
check period-not-number-EINVAL kw EINVAL "period clk 12abc"
check period-failed-keeps-spec grep -qx "cpu-clock,period=2000000" $DBG/counters/clk/spec
check add-freq kw ok "add f page-faults,freq=100"
check period-freq kw ok "period f 200"
check period-freq-respec grep -qx "page-faults,freq=200" $DBG/counters/f/spec

# errors: the errno, the reason in last_error, and nothing made
before=$(state)
check add-duplicate-EEXIST kw EEXIST "add pf dummy"
check last-error-EEXIST grep -q "^-EEXIST: .*: add pf dummy$" $DBG/last_error
check add-malformed-EINVAL kw EINVAL "add x not-an-event"
check last-error-EINVAL grep -q "^-EINVAL: .*: add x not-an-event$" $DBG/last_error
check add-range-ERANGE kw ERANGE "add x page-faults,precise=7"
check add-long-spec-E2BIG kw E2BIG "add x page-faults,period=$(printf '%0300d' 1)"
check add-no-such-task-ESRCH kw ESRCH "add x page-faults,pid=4194303"
if grep -q "^cycles  *ok$" $DBG/events; then
	skip add-no-pmu-ENOENT "this machine has a PMU with cycles"
else
	check add-no-pmu-ENOENT kw ENOENT "add x cycles"
	check last-error-perf-reason grep -q "^-ENOENT: no PMU has this event" $DBG/last_error
fi
check add-no-spec-EINVAL kw EINVAL "add x"
check add-extra-word-EINVAL kw EINVAL "add x dummy more"
check unknown-command-EINVAL kw EINVAL "frob x"
check name-slash-EINVAL kw EINVAL "add a/b dummy"
check name-dotdot-EINVAL kw EINVAL "add .. dummy"
check name-too-long-ENAMETOOLONG kw ENAMETOOLONG "add $(printf '%065d' 0) dummy"
check cmd-too-long-E2BIG kw E2BIG "add x dummy,period=1$(printf '%0600d' 0)"
check del-unknown-ENOENT kw ENOENT "del nope"
check enable-unknown-ENOENT kw ENOENT "enable nope"
check disable-unknown-ENOENT kw ENOENT "disable nope"
check reset-unknown-ENOENT kw ENOENT "reset nope"
check period-unknown-ENOENT kw ENOENT "period nope 1"
check nul-byte-EINVAL sh -c "printf 'del pf\\000x' >$C; [ \$? != 0 ] && [ -d $DBG/counters/pf ]"
check failures-made-nothing sh -c "[ \"\$(cat $C; ls $DBG/counters)\" = '$before' ]"
check_fails no-x-counter test -e $DBG/counters/x

# busybox echo says what went wrong in words
check echo-File-exists \
	sh -c "! echo 'add pf dummy' >$C 2>/tmp/err && grep -q 'File exists' /tmp/err"
check echo-Invalid-argument \
	sh -c "! echo 'add y bogus' >$C 2>/tmp/err && grep -q 'Invalid argument' /tmp/err"
check echo-No-such-file \
	sh -c "! echo 'del nope' >$C 2>/tmp/err && grep -q 'No such file or directory' /tmp/err"

# blank lines and comments; several commands in one write; the write
# stops at the first that fails, having done the ones before it
check blank-and-comment kw ok "
# a comment
"
check multi-line-write kw ok "add m1 dummy
add m2 dummy
"
check multi-line-made sh -c "test -d $DBG/counters/m1 && test -d $DBG/counters/m2"
check multi-line-stops-at-error sh -c "[ \"\$(kwrite $C 'add m3 dummy
add m3 dummy
del m1
')\" = 'ok 13' ] && test -d $DBG/counters/m3 && test -d $DBG/counters/m1"

# perfkstat's table of these counters: a row per counter
check stat-rows sh -c "[ \$(perfkstat stat -x, 2>&1 | wc -l) = \$(wc -l <$C) ] &&
	perfkstat stat 2>&1 | grep -q '^ *[0-9][0-9,]*  *pf *$'"

# perfkstat prom of list: strict Prometheus text, label values escaped
check add-odd-name kw ok 'add q"x\y dummy'
check metrics-prom perfkstat prom /tmp/metrics.prom
check metrics-prometheus-format sh /tests/promcheck.sh /tmp/metrics.prom
prom_out debugfs-metrics /tmp/metrics.prom
M=/tmp/metrics.prom
check metrics-escaped-name \
	grep -qF 'perfkmod_events_total{name="q\"x\\y",event="dummy",cpu="all"} ' $M
check metrics-cpu-label grep -q \
	'^perfkmod_events_total{name="cs0",event="context-switches,cpu=0",cpu="0"} [0-9]*$' $M
check metrics-sampling-only \
	grep -q '^perfkmod_overflows_total{name="clk",.*} [1-9][0-9]*$' /tmp/metrics.prom
check_fails metrics-no-overflows-of-counting \
	grep -q '^perfkmod_overflows_total{name="pf"' /tmp/metrics.prom
check metrics-seconds \
	grep -q '^perfkmod_enabled_seconds_total{name="pf",.*} [0-9]*\.[0-9]\{9\}$' $M
check metrics-one-series-per-counter \
	sh -c "[ \$(grep -c '^perfkmod_events_total' /tmp/metrics.prom) = \$(wc -l <$C) ]"
check last-error-is-0400-readable cat $DBG/last_error

# list: a header, then a line per counter control lists, each field what
# the counter's own files say (stat, spec, overflow), for counting,
# sampling, cpu= and task counters: between two readings of the files
# while they count, equal once they are off
LIST_HEADER='# NAME TARGET STATE VALUE SCALED ENABLED_NS RUNNING_NS OVERFLOWS THROTTLED DROPPED REQUEUED SPEC'
names() { sed -n 's/^add \([^ ]*\) .*/\1/p' $C; }
# snap DIR: every counter's stat and overflow files, in DIR
snap() {
	rm -rf $1
	mkdir $1
	names | while IFS= read -r _n; do
		cat "$DBG/counters/$_n/stat" >"$1/$_n.stat"
		[ ! -e "$DBG/counters/$_n/overflow" ] ||
			cat "$DBG/counters/$_n/overflow" >"$1/$_n.ovf"
	done
}
# within LO X HI (exact: LO = X = HI), or say which field of $n is not
within() {
	if [ $_exact = 1 ]; then
		[ "$1" = "$2" ] && [ "$2" = "$3" ]
	else
		num "$2" && [ "$1" -le "$2" ] && [ "$2" -le "$3" ]
	fi || { echo "$n: $4 $2, its files $1 and $3"; return 1; }
}
# ovf FILE FIELD: a line of an overflow file, "overflows 12"
ovf() { sed -n "s/^$2 //p" "$1"; }
# list_line: the line's fields ($n $t $s ... $spec) against snapshots
# $_a and $_b of the counter's files
list_line() {
	[ -e "$_a/$n.stat" ] || { echo "$n: listed, not in control"; return 1; }
	set -- $(cat "$_a/$n.stat")
	_av=$1 _ae=$2 _ar=$3 _asc=$4 _ast=$5
	set -- $(cat "$_b/$n.stat")
	within "$_av" "$v" "$1" VALUE && within "$_asc" "$sc" "$4" SCALED &&
		within "$_ae" "$e" "$2" ENABLED_NS &&
		within "$_ar" "$r" "$3" RUNNING_NS || return 1
	[ "$s" = "$_ast" ] && [ "$s" = "$5" ] ||
		{ echo "$n: STATE $s, stat $_ast and $5"; return 1; }
	[ "$spec" = "$(cat "$DBG/counters/$n/spec")" ] ||
		{ echo "$n: SPEC '$spec'"; return 1; }
	case $spec in
	*,cpu=*) _t=cpu=${spec##*,cpu=} ;;
	*,pid=*) _t=pid=${spec##*,pid=} ;;
	*) _t=all ;;
	esac
	[ "$t" = "${_t%%,*}" ] || { echo "$n: TARGET $t for '$spec'"; return 1; }
	if [ -e "$_a/$n.ovf" ]; then
		within "$(ovf $_a/$n.ovf overflows)" "$o" \
			"$(ovf $_b/$n.ovf overflows)" OVERFLOWS &&
		within "$(ovf $_a/$n.ovf throttled)" "$th" \
			"$(ovf $_b/$n.ovf throttled)" THROTTLED &&
		within "$(ovf $_a/$n.ovf dropped)" "$d" \
			"$(ovf $_b/$n.ovf dropped)" DROPPED &&
		within "$(ovf $_a/$n.ovf requeued)" "$rq" \
			"$(ovf $_b/$n.ovf requeued)" REQUEUED
	else
		[ "$o $th $d $rq" = "- - - -" ] ||
			{ echo "$n: counts, but '$o $th $d $rq'"; return 1; }
	fi
}
# list_vs_files EXACT: one read of list between two snapshots of the files
list_vs_files() {
	_exact=$1 _a=/tmp/list-a _b=/tmp/list-b
	snap $_a
	cat $DBG/list >/tmp/list
	snap $_b
	[ "$(head -1 /tmp/list)" = "$LIST_HEADER" ] ||
		{ echo "header: $(head -1 /tmp/list)"; return 1; }
	[ "$(sed 1d /tmp/list | cut -d' ' -f1)" = "$(names)" ] ||
		{ echo "names: $(sed 1d /tmp/list | cut -d' ' -f1 | tr '\n' ' ')"; return 1; }
	sed 1d /tmp/list | while read -r n t s v sc e r o th d rq spec; do
		list_line || exit 1
	done
}
lt=/tmp/list-task
rm -rf $lt
mkdir $lt
touchpages 300 $lt &
ltpid=$!
wait_file $lt/ready
check list-add-task kw ok "add task page-faults,pid=$ltpid"
kill -USR1 $ltpid
check list-task-faulted wait_file $lt/done
check list-kinds sh -c "grep -q '^pf all active [0-9]' $DBG/list &&
	grep -q '^cs0 cpu=0 active [0-9].* - - - - context-switches,cpu=0$' $DBG/list &&
	grep -q '^clk all active \\([0-9]* \\)\\{8\\}cpu-clock,period=2000000$' $DBG/list &&
	grep -q '^task pid=$ltpid active [0-9]' $DBG/list &&
	grep -q '^off all off 0 0 0 0 - - - - dummy,disabled$' $DBG/list"
check list-vs-files-live list_vs_files 0
note "$(cat /tmp/list)"
for n in $(names); do
	kwrite $C "disable $n" >/dev/null
done
check list-vs-files-off list_vs_files 1
check list-short-reads sh -c "[ \"\$(dd if=$DBG/list bs=7 2>/dev/null)\" = \"\$(cat /tmp/list)\" ]"
kill $ltpid
wait $ltpid
check list-task-exit sh -c "grep -q '^task pid=$ltpid exit ' $DBG/list"
check list-vs-files-exit list_vs_files 1
check list-del-task kw ok "del task"
for n in $(names); do
	[ $n = off ] || kwrite $C "enable $n" >/dev/null
done
# counters added after the open: the buffer sized then is too small, and
# the read is still whole (seq_file runs the show again, larger)
exec 3<$DBG/list
list_grow() {
	i=0
	while [ $i -lt 60 ]; do
		kwrite $C "add grown-after-open-$i dummy" >/dev/null || return 1
		i=$((i + 1))
	done
	[ $(cat <&3 | wc -l) = $(($(wc -l <$C) + 1)) ]
}
check list-grows-after-open list_grow
exec 3<&-
i=0
while [ $i -lt 60 ]; do
	kwrite $C "del grown-after-open-$i" >/dev/null
	i=$((i + 1))
done

# events: every generic event probed, with a reason for each failure
check events-page-faults-ok grep -q "^page-faults  *ok$" $DBG/events
check events-each-ok-or-errno awk '
	$2 != "ok" && $2 !~ /^-E[A-Z]+$/ { exit 1 }
	$2 ~ /^-E/ && NF < 3 { exit 1 }
	END { exit NR < 60 }' $DBG/events

# del; a file of a deleted counter that is still open reads -EIO
check add-doomed kw ok "add doomed page-faults"
exec 3<$DBG/counters/doomed/stat 4<$DBG/counters/doomed/value
check del kw ok "del doomed"
check del-removes-dir test ! -e $DBG/counters/doomed
check_fails del-removes-listing grep -q doomed $C
check_fails open-file-of-deleted-reads-error cat <&3
check_fails open-value-of-deleted-reads-error cat <&4
exec 3<&- 4<&-
check add-again-after-del kw ok "add doomed page-faults"
check del-again kw ok "del doomed"

# del while readers of the files stall in their copy to user space
# (uffdread: a read(2) into a page whose fault waits until released, as a
# FUSE-backed or userfaultfd mapping may): del must not wait for them,
# under the lock every command takes. Released, each read gives what it
# read before the del. The top-level files stall beside the counter's.

# exists FILE...: one of FILEs exists (waited for with await).
exists() {
	for _w; do
		[ -e "$_w" ] && return 0
	done
	return 1
}

# stalled T: the reader of stall_del stalled, not ended (T.rc)
stalled() {
	await 60 "the read to stall in its copy to user space" \
		exists $1.faulted $1.rc || return 1
	[ -e $1.faulted ] || { echo "the read ended: $(cat $1.out)"; return 1; }
}

# del_ok DIR: the del of stall_del returned, and succeeded
del_ok() {
	await 60 "the del to return" exists $1/del.done &&
		grep -q '^ok' $1/del.out
}

# read_ended T: the reader of stall_del ended, having read something
read_ended() {
	await 60 "the reader to end" exists $1.rc &&
		grep -q '^read [1-9]' $1.out || { cat $1.out; return 1; }
}

# stall_del NAME FILE...: readers of FILEs stall; del NAME; release them.
stall_del() {
	_del=$1 _d=/tmp/stall-$1
	shift
	rm -rf $_d
	mkdir $_d
	for _f; do
		_t=$_d/$(echo $_f | tr / -)
		(uffdread $DBG/$_f $_t.faulted $_d/release >$_t.out 2>&1
		 echo $? >$_t.rc) &
	done
	for _f; do
		_t=$_d/$(echo $_f | tr / -)
		check stall-faults-${_t##*/} stalled $_t
	done
	(kwrite $C "del $_del" >$_d/del.out; touch $_d/del.done) &
	check stall-del-$_del-returns await 60 \
		"del $_del to return while readers stall in copy_to_user" \
		exists $_d/del.done
	touch $_d/release
	check stall-del-$_del-ok del_ok $_d
	for _f; do
		_t=$_d/$(echo $_f | tr / -)
		check stall-read-ends-${_t##*/} read_ended $_t
	done
	wait
}

if ! why=$(uffdread --probe); then
	skip stall-del "no userfaultfd for a kernel fault here: $why"
else
	check stall-add kw ok "add st page-faults,period=1000"
	check stall-add-series-counter kw ok "add stc page-faults"
	# a ring of 16 records: once it drops one, records has some to copy
	check stall-add-series kw ok "series sts 10ms,records=16 stc"
	check stall-last-error kw ENOENT "del stall-none"
	check stall-series-records await 60 "a full ring of sts" sh -c \
		"[ \$(cat $DBG/series/sts/dropped) -gt 0 ]"
	stall_del st counters/st/value counters/st/stat counters/st/spec \
		counters/st/percpu counters/st/overflow control last_error list
	stall_del sts series/sts/records series/sts/dropped \
		series/sts/skipped series/sts/spec
	check stall-del-series-counter kw ok "del stc"
fi

# del racing with readers: KASAN, lockdep and kmemleak would tell
race_read() {
	while [ ! -e /tmp/race-stop ]; do
		cat $DBG/counters/r/stat $DBG/counters/r/percpu \
			$DBG/counters/r/spec $DBG/list \
			>/dev/null 2>&1
	done
}
# The readers at the lowest priority: the writer keeps most of a CPU, and
# its 100 cycles race with readers on the other, instead of taking turns
# with them on both.
rm -f /tmp/race-stop
race_read &
renice -n 19 -p $! >/dev/null 2>&1
race_read &
renice -n 19 -p $! >/dev/null 2>&1
race() {
	i=0
	while [ $i -lt 100 ]; do
		kwrite $C "add r page-faults" >/dev/null || return 1
		kwrite $C "del r" >/dev/null || return 1
		i=$((i + 1))
	done
}
check add-del-race-100 race
touch /tmp/race-stop
wait

cat $C >/tmp/saved
exec 3<$DBG/list
check_fails rmmod-refused-while-a-file-is-open rmmod perfkmod
exec 3<&-
check rmmod-with-live-counters rmmod perfkmod
check rmmod-removed-tree test ! -e $DBG

# the listing is a script of add commands: replay it, in writes cut short
# at max_cmd_len (cat writes the rest again)
insmod $MODDIR/perfkmod.ko max_cmd_len=64
check control-listing-replays sh -c "cat /tmp/saved >$C &&
	[ \"\$(cat $C)\" = \"\$(cat /tmp/saved)\" ] && [ \$(wc -l </tmp/saved) -ge 8 ]"
check replayed-counters-count await 60 "an overflow of clk" clk_overflows 0
rmmod perfkmod

# max_counters bounds the named counters
insmod $MODDIR/perfkmod.ko max_counters=2
check max-counters-1 kw ok "add a dummy"
check max-counters-2 kw ok "add b dummy"
check max-counters-ENOSPC kw ENOSPC "add c dummy"
check last-error-ENOSPC grep -q "^-ENOSPC: max_counters" $DBG/last_error
check del-frees-a-slot kw ok "del a"
check slot-reused kw ok "add c dummy"
rmmod perfkmod

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A counter used across modules: xmod_owner (tests/clients/) owns a
# sampling all-CPUs counter; xmod_reader reads it through a series and a
# direct and a deferred callback, holding no reference on xmod_owner.
# Every order of going away: the owner unloads first, the reader first,
# each of them without releasing what it made (perfkmod's module notifier
# does, and says so for that module only), and the owner releasing its
# counter while the reader runs on. Once the counter is gone, every later
# record of the reader's series has the counter's error bit and neither
# callback runs again; at the end nothing is left and perfkmod unloads.
#
# Under TCG time is no measure of work: each step waits for what it
# needs to see (records, callback runs), for a minute at most.

. /tests/lib.sh

SPEC=cpu-clock,period=1000000
SEEN=/sys/module/xmod_reader/parameters/seen
RELEASE=/sys/module/xmod_owner/parameters/release
# records each wait for the reader's series to go on asks for
MORE=20

# take: the reader's sums since its load, its series drained: records,
# records with the error bit, records without it after one with it on the
# same CPU, direct and deferred callback runs.
take() { read -r r e l d i <$SEEN; }

# is GOT WANT WHAT: GOT is WANT, or say what it is.
is() {
	[ "$1" = "$2" ] && return 0
	echo "$3: $1, want $2"
	return 1
}

# wait_for NAME COND...: one test, passed once COND succeeds; polled every
# 0.1 s, failed after 60 s.
wait_for() {
	_name=$1
	shift
	_n=0
	until "$@"; do
		if [ $_n -ge 600 ]; then
			fail "$_name" "no $* after 60 s ($r records, $e with the error bit, $d direct runs, $i deferred runs)"
			return 1
		fi
		sleep 0.1
		_n=$((_n + 1))
	done
	pass "$_name"
}

# The conditions waited for.
seeing() { take && [ "$r" -gt 0 ] && [ "$d" -gt 0 ] && [ "$i" -gt 0 ]; }
more_records() { take && [ "$r" -ge $((r0 + MORE)) ]; }

owner_unused() { grep -q "^xmod_owner [0-9]* 0 " /proc/modules; }
none_loaded() { ! grep -q "^xmod_" /proc/modules; }

# The kernel log since the current case began.
mark() {
	case_name=$1
	note "xmod: case $1"
}
since() { dmesg | sed -n "/xmod: case $case_name\$/,\$p"; }
said() { since | grep -q "$1"; }
warned() { since | grep -c "module $1 unloaded without releasing"; }

# start CASE [OWNER_ARGS [READER_ARGS]]: perfkmod, the owner and the
# reader loaded, the reader seeing records and both callbacks run.
start() {
	mark "$1"
	# what a case that failed halfway left, so that this one starts clean
	for m in xmod_reader xmod_owner perfkmod; do
		grep -q "^$m " /proc/modules && rmmod $m
	done
	check "$1-perfkmod-load" insmod $MODDIR/perfkmod.ko
	check "$1-owner-load" insmod $MODDIR/xmod_owner.ko spec=$SPEC $2
	check "$1-reader-load" insmod $MODDIR/xmod_reader.ko $3
	check "$1-owner-not-held" owner_unused
	wait_for "$1-reader-sees-counter" seeing
	take
	check "$1-no-errors-while-counted" is "$e" 0 "records with the error bit"
}

# gone CASE: the counter was released; the reader's series goes on with
# the error bit in every record, its callbacks run no more.
gone() {
	# every record made before the release is taken here
	take
	r0=$r e0=$e d0=$d i0=$i
	wait_for "$1-series-goes-on" more_records
	check "$1-records-after-release-all-errors" \
		is $((e - e0)) $((r - r0)) "records with the error bit of those after the release"
	check "$1-no-good-record-after-an-error" is "$l" 0 \
		"records without the error bit after one with it"
	check "$1-direct-callback-ran-no-more" is "$d" "$d0" "direct runs"
	check "$1-deferred-callback-ran-no-more" is "$i" "$i0" "deferred runs"
	note "xmod: $1: $r records, $e with the error bit; callbacks ran $d direct, $i deferred"
}

# finish CASE OWNER_WARNINGS READER_WARNINGS: nothing is left, and
# perfkmod warned of unreleased objects as often as said for each module.
finish() {
	check "$1-nothing-loaded" none_loaded
	check "$1-owner-warnings" is "$(warned xmod_owner)" "$2" \
		"xmod_owner's unloaded-without-releasing lines"
	check "$1-reader-warnings" is "$(warned xmod_reader)" "$3" \
		"xmod_reader's unloaded-without-releasing lines"
	check "$1-perfkmod-unload" rmmod perfkmod
}

# The reader cannot load without the owner.
insmod $MODDIR/perfkmod.ko
check_fails reader-needs-owner insmod $MODDIR/xmod_reader.ko
rmmod perfkmod

# The owner unloads first, releasing its counter under the reader.
start owner-first
check owner-first-owner-unload rmmod xmod_owner
gone owner-first
check owner-first-reader-unload rmmod xmod_reader
finish owner-first 0 0

# The reader unloads first, then the owner.
start reader-first
check reader-first-reader-unload rmmod xmod_reader
check reader-first-owner-unload rmmod xmod_owner
finish reader-first 0 0

# The owner unloads first without releasing: perfkmod releases its
# counter, the reader's series and callbacks included in what that does.
start owner-forgets forget_cleanup=1
check owner-forgets-owner-unload rmmod xmod_owner
check owner-forgets-warned said \
	"module xmod_owner unloaded without releasing 1 counters and 0 callbacks"
gone owner-forgets
check owner-forgets-reader-unload rmmod xmod_reader
finish owner-forgets 1 0

# The reader unloads first without releasing: perfkmod releases its series
# and its two callbacks on the owner's counter.
start reader-forgets "" forget_cleanup=1
check reader-forgets-reader-unload rmmod xmod_reader
check reader-forgets-warned-callbacks said \
	"module xmod_reader unloaded without releasing 0 counters and 2 callbacks"
check reader-forgets-warned-series said \
	"module xmod_reader unloaded without releasing 1 series"
check reader-forgets-owner-unload rmmod xmod_owner
finish reader-forgets 0 2

# The owner releases its counter while both stay loaded.
start released
check released-release sh -c "echo 1 >$RELEASE"
gone released
check released-reader-unload rmmod xmod_reader
check released-owner-unload rmmod xmod_owner
finish released 0 0

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test of one lane inside the VM: the KUnit modules, then the
# integration scripts test-*.sh, then a kmemleak scan over all of it.

. /tests/lib.sh
lane=$1
log "PERFKMOD-LANE $lane"

kmemleak=/sys/kernel/debug/kmemleak
[ -e $kmemleak ] && echo clear >$kmemleak

for t in /tests/test-*.sh; do
	log "PERFKMOD-SCRIPT ${t##*/}"
	sh "$t" "$lane"
done

# KUnit suites: each module runs its suites when it is loaded.
for ko in $MODDIR/kunit/*.ko; do
	[ -e "$ko" ] || continue
	name=${ko##*/}
	name=${name%.ko}
	loaded perfkmod || insmod $MODDIR/perfkmod.ko
	log "PERFKMOD-KUNIT-MODULE $name"
	args=
	[ "$lane" = arm64-pmu ] && args=require_pmu=1
	insmod "$ko" $args || fail "kunit-load-$name" "insmod $ko failed"
	rmmod "$name" || fail "kunit-unload-$name" "rmmod $name failed"
done
loaded perfkmod && rmmod perfkmod

# Objects must be older than kmemleak's minimum age (5 s) to be reported;
# two scans so that a pointer seen only once in a register is not missed.
if [ -e $kmemleak ]; then
	sleep 6
	echo scan >$kmemleak
	echo scan >$kmemleak
	# debugfs files have size 0: read the report, do not test -s
	leaks=$(cat $kmemleak)
	if [ -n "$leaks" ]; then
		echo "$leaks" | while IFS= read -r line; do
			log "PERFKMOD-KMEMLEAK $line"
		done
		fail kmemleak "unreferenced objects after the tests"
	else
		pass kmemleak
	fi
fi

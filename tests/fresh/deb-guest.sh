#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The installed packages at work (tests/fresh/deb-boot.sh runs this in QEMU, in
# Debian's kernel, chrooted into the fresh lane's root): modprobe loads the
# perfkmod.ko DKMS built, with the counters of the example modprobe
# configuration; perfkstat reads them; the example client DKMS built
# against it loads and counts the page faults of a process that touches N
# fresh pages (at least N); perfkmod-prom.service's command removes an
# old file while perfkmod is not loaded, and writes the Prometheus text
# into node_exporter's textfile directory once it is, where
# tests/fresh/deb-boot.sh scrapes it after the guest has ended.
#
# Prints "deb-guest: ok|FAILED WHAT" per check and "deb-guest: all passed"
# at the end when nothing failed.

set -u

failed=0
dbg=/sys/kernel/debug/perfkmod
conf=/etc/modprobe.d/perfkmod.conf
unit=/lib/systemd/system/perfkmod-prom.service

check() {
	local what=$1

	shift
	if "$@"; then
		echo "deb-guest: ok $what"
	else
		echo "deb-guest: FAILED $what: $*"
		failed=1
	fi
}

# wait_file FILE: until FILE exists, for 60 s at most
wait_file() {
	local _

	for _ in $(seq 600); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	echo "deb-guest: $1 never came"
	return 1
}

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' /root/perfkmod/dkms.conf)
names=$(sed -n 's/^options perfkmod counters=//p' $conf | tr ';' '\n' | cut -d= -f1)
# the service's command, as systemd runs it (sh -c '...')
cmd=$(sed -n 's/^ExecStart=//p' $unit)
prom=/var/lib/prometheus/node-exporter/perfkmod.prom

echo stale >$prom
check prom-service-command-unloaded eval "$cmd"
check prom-removed-while-unloaded test ! -e $prom

check modprobe modprobe perfkmod
check dkms-module test "$(modinfo -n perfkmod)" = \
	"/lib/modules/$(uname -r)/updates/dkms/perfkmod.ko"
check version test "$(cat /sys/module/perfkmod/version)" = "$ver"
check counters-named test -n "$names"
for n in $names; do
	check "counter-$n-active" awk -v n="$n" \
		'$1 == n && $3 == "active" { f = 1 } END { exit !f }' $dbg/list
	# perf stat's CSV: VALUE,UNIT,EVENT,... (a clock's VALUE in msec)
	check "perfkstat-reads-$n" sh -c "perfkstat stat -x, -k $n 2>&1 |
		grep -qE '^[0-9.]+,[^,]*,$n,'"
done

N=1000
dir=$(mktemp -d)
touchpages $N "$dir" &
pid=$!
wait_file "$dir/ready"
check client-modprobe modprobe perfkmod_client spec="page-faults,pid=$pid"
kill -USR1 $pid
wait_file "$dir/done"
v=$(cut -d' ' -f1 /sys/module/perfkmod_client/parameters/value)
check "client-page-faults-at-least-$N" test "${v:-0}" -ge $N
echo "deb-guest: client counted $v page faults of $N pages touched"
kill $pid
wait $pid
# rmmod: modprobe -r would take the unused perfkmod away with it
check client-unload rmmod perfkmod_client
rm -r "$dir"

check prom-service-command eval "$cmd"
for n in $names; do
	check "prom-$n" grep -q "^perfkmod_events_total{.*name=\"$n\"" $prom
done

check unload modprobe -r perfkmod
check unloaded sh -c '! grep -q "^perfkmod " /proc/modules'
[ $failed = 0 ] && echo "deb-guest: all passed"
exit $failed

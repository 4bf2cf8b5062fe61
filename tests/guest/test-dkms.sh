#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module DKMS built and installed for this kernel (scripts/dkms.sh, on
# Debian's kernels: the distro lanes) loads and works like the one make
# builds, and so does the example client DKMS built against it (with the
# Module.symvers perfkmod's DKMS build kept): the page faults of a process
# that touches N fresh pages are at least N.

. /tests/lib.sh

ko=$MODDIR/dkms/perfkmod.ko
if [ ! -e $ko ]; then
	# the lanes whose RUNS in tests/lanes says dkms
	if lane_has dkms; then
		fail dkms-module-present "no $ko on the $1 lane"
	else
		skip dkms-module "the $1 lane builds no DKMS module (tests/lanes' dkms)"
	fi
	exit 0
fi
# the version of the module make built, from its modinfo strings (make
# lint checks it against perfkmod.h and dkms.conf)
want=$(tr '\0' '\n' <$MODDIR/perfkmod.ko | sed -n 's/^version=//p')
check dkms-not-preloaded sh -c '! grep -q "^perfkmod " /proc/modules'
check dkms-module-load insmod $ko
check dkms-module-version grep -qxF "${want:-no version}" /sys/module/perfkmod/version
check dkms-module-debugfs test -d $DBG

N=1000
client=$MODDIR/dkms/perfkmod_client.ko
dir=$(mktemp -d)
touchpages $N "$dir" &
pid=$!
wait_file "$dir/ready"
check dkms-client-load insmod $client spec="page-faults,pid=$pid"
kill -USR1 $pid
wait_file "$dir/done"
v=$(cut -d' ' -f1 /sys/module/perfkmod_client/parameters/value)
check dkms-client-page-faults-at-least-$N sh -c "[ ${v:-0} -ge $N ]"
kill $pid
wait $pid
check dkms-client-unload rmmod perfkmod_client
rm -rf "$dir"
check dkms-module-unload rmmod perfkmod

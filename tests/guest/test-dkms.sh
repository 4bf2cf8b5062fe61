#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The module DKMS built and installed for this kernel (scripts/dkms.sh, on
# Debian's kernels: the distro lanes) loads and works like the one make
# builds.

. /tests/lib.sh

ko=$MODDIR/dkms/perfkmod.ko
if [ ! -e $ko ]; then
	case $1 in
	distro*) fail dkms-module-present "no $ko on the $1 lane" ;;
	*) skip dkms-module "DKMS builds for Debian's kernels, not $1's" ;;
	esac
	exit 0
fi
# the version of the module make built, from its modinfo strings (make
# lint checks it against perfkmod.h and dkms.conf)
want=$(tr '\0' '\n' <$MODDIR/perfkmod.ko | sed -n 's/^version=//p')
check dkms-not-preloaded sh -c '! grep -q "^perfkmod " /proc/modules'
check dkms-module-load insmod $ko
check dkms-module-version grep -qxF "${want:-no version}" /sys/module/perfkmod/version
check dkms-module-debugfs test -d $DBG
check dkms-module-unload rmmod perfkmod

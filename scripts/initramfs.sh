#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test VM's initramfs.
#
#   scripts/initramfs.sh OUT.cpio BUSYBOX MODULE_DIR HELPER_DIR [GUEST_DIR]
#
# It holds busybox, the guest scripts of tests/guest/ (as /init and
# /tests/), perfkmod.ko and the client modules of samples/ and
# tests/clients/ built in MODULE_DIR (KUnit modules of tests/kunit/ go to
# /modules/kunit/, the modules DKMS installed, in MODULE_DIR/dkms/, to
# /modules/dkms/, the kernel's own modules in MODULE_DIR/kernel/, such as
# KUnit, to /modules/kernel/) and the static programs found in HELPER_DIR
# (to /bin/), which has the perfkstat tool built for the guest
# (tools/perfkstat, "make static": /bin/perfkstat). The benchmark module,
# when MODULE_DIR/bench has it, and the modules of MODULE_DIR/extra ("make
# shell"'s client) go to /modules/ too, perf's tests in
# MODULE_DIR/perf-tests (scripts/check.sh copies them there from the
# kernel's tools/perf/tests/shell) to /tests/perf/, and the scripts of
# GUEST_DIR to /tests/ beside those of tests/guest/.
# scripts/cpio.py writes the archive, so that no kernel source is needed,
# and /dev/console is a character device node in it without root
# privileges.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: initramfs.sh OUT BUSYBOX MODULE_DIR HELPER_DIR [GUEST_DIR]}
busybox=${2:?busybox}
moddir=${3:?module dir}
helpers=${4:?helper dir (with perfkstat)}
guest=${5:-}

[ -x "$helpers/perfkstat" ] || {
	echo "initramfs.sh: no $helpers/perfkstat: build tools/perfkstat into it" >&2
	exit 1
}

spec=$out.spec
{
	for d in /dev /proc /sys /tmp /bin /tests /modules /modules/kunit \
		/modules/kernel; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "file /init $top/tests/guest/init 0755 0 0"
	for f in "$top"/tests/guest/* ${guest:+"$guest"/*}; do
		echo "file /tests/${f##*/} $f 0755 0 0"
	done
	echo "file /modules/perfkmod.ko $moddir/perfkmod.ko 0644 0 0"
	for f in "$moddir"/samples/*.ko "$moddir"/tests/clients/*.ko \
		"$moddir"/bench/*.ko "$moddir"/extra/*.ko; do
		[ -e "$f" ] && echo "file /modules/${f##*/} $f 0644 0 0"
	done
	if [ -e "$moddir/dkms/perfkmod.ko" ]; then
		echo "dir /modules/dkms 0755 0 0"
		for f in "$moddir"/dkms/*.ko; do
			echo "file /modules/dkms/${f##*/} $f 0644 0 0"
		done
	fi
	for f in "$moddir"/tests/kunit/*.ko; do
		[ -e "$f" ] && echo "file /modules/kunit/${f##*/} $f 0644 0 0"
	done
	for f in "$moddir"/kernel/*.ko; do
		[ -e "$f" ] && echo "file /modules/kernel/${f##*/} $f 0644 0 0"
	done
	# a tree, sorted: each directory before what it holds
	if [ -d "$moddir/perf-tests" ]; then
		echo "dir /tests/perf 0755 0 0"
		(cd "$moddir/perf-tests" && find . -mindepth 1 | sort) |
			while read -r f; do
				f=${f#./}
				if [ -d "$moddir/perf-tests/$f" ]; then
					echo "dir /tests/perf/$f 0755 0 0"
				else
					echo "file /tests/perf/$f $moddir/perf-tests/$f 0755 0 0"
				fi
			done
	fi
	# the helpers and the userspace tool, perfkstat
	for f in "$helpers"/*; do
		[ -x "$f" ] && echo "file /bin/${f##*/} $f 0755 0 0"
	done
} >"$spec"
"$top/scripts/cpio.py" "$spec" "$out"

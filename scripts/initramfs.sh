#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the test VM's initramfs.
#
#   scripts/initramfs.sh OUT.cpio BUSYBOX MODULE_DIR [HELPER_DIR [GUEST_DIR]]
#
# It holds busybox, the guest scripts of tests/guest/ (as /init and
# /tests/), perfkmod.ko and the sample modules built in MODULE_DIR (KUnit
# modules of tests/ go to /modules/kunit/, the module DKMS installed, in
# MODULE_DIR/dkms/, to /modules/dkms/), the static helper programs found
# in HELPER_DIR (to /bin/) and the perfkstat tool (/bin/perfkstat). The
# benchmark module, when MODULE_DIR/bench has it, goes to /modules/ too,
# and the scripts of GUEST_DIR to /tests/ beside those of tests/guest/.
# It is made with the kernel's own gen_init_cpio, so that /dev/console
# exists without root privileges.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
out=${1:?usage: initramfs.sh OUT BUSYBOX MODULE_DIR [HELPER_DIR]}
busybox=${2:?busybox}
moddir=${3:?module dir}
helpers=${4:-}
guest=${5:-}

gen=$cache/bin/gen_init_cpio
if [ ! -x "$gen" ]; then
	src=$(ls -d "$cache"/src/linux-source-6.12_*/usr/gen_init_cpio.c | head -1)
	mkdir -p "$cache/bin"
	gcc -O2 -o "$gen" "$src"
fi

spec=$out.spec
{
	for d in /dev /proc /sys /tmp /bin /tests /modules /modules/kunit; do
		echo "dir $d 0755 0 0"
	done
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "file /init $top/tests/guest/init 0755 0 0"
	# the userspace tool, as a user would install it
	echo "file /bin/perfkstat $top/scripts/perfkstat 0755 0 0"
	for f in "$top"/tests/guest/* ${guest:+"$guest"/*}; do
		echo "file /tests/${f##*/} $f 0755 0 0"
	done
	echo "file /modules/perfkmod.ko $moddir/perfkmod.ko 0644 0 0"
	for f in "$moddir"/samples/*.ko "$moddir"/bench/*.ko; do
		[ -e "$f" ] && echo "file /modules/${f##*/} $f 0644 0 0"
	done
	if [ -e "$moddir/dkms/perfkmod.ko" ]; then
		echo "dir /modules/dkms 0755 0 0"
		echo "file /modules/dkms/perfkmod.ko $moddir/dkms/perfkmod.ko 0644 0 0"
	fi
	for f in "$moddir"/tests/*.ko; do
		[ -e "$f" ] && echo "file /modules/kunit/${f##*/} $f 0644 0 0"
	done
	if [ -n "$helpers" ]; then
		for f in "$helpers"/*; do
			[ -x "$f" ] && echo "file /bin/${f##*/} $f 0755 0 0"
		done
	fi
} >"$spec"
"$gen" "$spec" >"$out"

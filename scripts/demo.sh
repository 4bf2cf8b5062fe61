#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make demo": build perfkmod for Debian's own kernel, boot that kernel in
# QEMU, load perfkmod there and show what it offers (tests/guest/demo.sh).

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/.build/demo

"$top/scripts/deps.sh" demo
kenv=$("$top/scripts/kernel.sh" distro)
eval "$kenv"
mkdir -p "$dir/src"
rsync -a --delete --exclude=.git --exclude=.build "$top/" "$dir/src/"
make -s -C "$dir/src" KDIR="$KDIR" module >"$dir/build.log" 2>&1 ||
	{ cat "$dir/build.log"; exit 1; }
# perfkstat, static, as the guest's /bin/perfkstat
rm -rf "$dir/helpers"
make -s -C "$top/tools/perfkstat" OUTPUT="$dir/helpers/.perfkstat/" static \
	>>"$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
cp "$dir/helpers/.perfkstat/perfkstat" "$dir/helpers/"
"$top/scripts/initramfs.sh" "$dir/initramfs.cpio" /bin/busybox "$dir/src" \
	"$dir/helpers"
echo "Booting Debian's $KVER kernel in QEMU (TCG)..."
PERFKMOD_TCG_THREAD=$TCG_THREAD "$top/scripts/vm.sh" x86_64 "$IMAGE" \
	"$dir/initramfs.cpio" "$dir/console.log" 300 perfkmod_lane=demo \
	perfkmod_run=demo.sh
sed -n 's/.*PERFKMOD-DEMO //p' "$dir/console.log"
grep -q PERFKMOD-DONE "$dir/console.log" ||
	{ echo "demo: the VM did not finish; see $dir/console.log"; exit 1; }

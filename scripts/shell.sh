#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make shell": boot a kernel in QEMU with perfkmod loaded and a shell on
# this terminal, to try perfkmod and one's own client module by hand.
#
#   scripts/shell.sh KERNEL [CLIENT_DIR [SCRIPT]]
#
# KERNEL: a lane's kernel (scripts/kernel.sh): distro is Debian's 6.1,
# arm64-pmu the 6.12 debug kernel with arm64's emulated PMU. CLIENT_DIR: a
# client module's directory, built there (kbuild's M=) against that kernel
# and perfkmod's Module.symvers, as samples/ is; the modules its
# modules.order lists go to /modules/ beside perfkmod.ko and samples/'s.
# SCRIPT: a busybox sh script the guest runs instead of the shell, its
# output on this terminal; the VM ends with it, and this exits with its
# status (1 when the guest ended before it did). Without SCRIPT, the
# shell's exit ends the VM; Ctrl-A X ends QEMU.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
kernel=${1:?usage: shell.sh KERNEL [CLIENT_DIR [SCRIPT]]}
client=${2:-}
script=${3:-}
dir=$top/.build/shell

[ -z "$client" ] || client=$(cd "$client" && pwd)
[ -z "$script" ] || script=$(realpath "$script")
case $client in
*[[:space:]]*) echo "make shell: kbuild takes no blank in M=: $client" >&2; exit 1 ;;
esac
# the lane whose kernel this is (tests/lanes); what the shell needs of
# it: the demo's packages for Debian's 6.1
. "$top/scripts/lanes.sh"
lanes_check || exit 1
kernel=$(lane_kernel "$kernel") || kernel=
if [ -z "$kernel" ]; then
	echo "make shell: no lane '$1' that boots a kernel" >&2
	exit 1
fi
deps=$kernel
[ "$kernel" != distro ] || deps=demo
"$top/scripts/deps.sh" "$deps"
env=$("$top/scripts/kernel.sh" "$kernel")
eval "$env"
busybox=/bin/busybox
[ "$ARCH" = x86_64 ] || busybox=$cache/arm64-busybox/bin/busybox
rm -rf "$dir/guest"
mkdir -p "$dir/src" "$dir/guest"
rsync -a --delete --exclude=.git --exclude=.build "$top/" "$dir/src/"
export PATH=${KBIN:+$KBIN:}$PATH
kmake=(make -s ARCH="$ARCH" CROSS_COMPILE="$CROSS_COMPILE")
"${kmake[@]}" -C "$dir/src" KDIR="$KDIR" samples >"$dir/build.log" 2>&1 ||
	{ cat "$dir/build.log"; exit 1; }
if [ -n "$client" ]; then
	# PERFKMOD for a Kbuild like samples/'s, the symbols for any other
	"${kmake[@]}" -C "$KDIR" M="$client" PERFKMOD="$dir/src" \
		KBUILD_EXTRA_SYMBOLS="$dir/src/Module.symvers" modules
	mkdir -p "$dir/src/extra"
	sed 's/\.o$/.ko/' "$client/modules.order" | while read -r m; do
		cp "$client/${m#"$client"/}" "$dir/src/extra/"
	done
fi
[ -z "$script" ] || cp "$script" "$dir/guest/user.sh"
# perfkstat, static, for the kernel's arch: the guest's /bin/perfkstat
rm -rf "$dir/helpers"
"${kmake[@]}" -C "$top/tools/perfkstat" OUTPUT="$dir/helpers/.perfkstat/" static \
	>>"$dir/build.log" 2>&1 || { cat "$dir/build.log"; exit 1; }
cp "$dir/helpers/.perfkstat/perfkstat" "$dir/helpers/"
"$top/scripts/initramfs.sh" "$dir/initramfs.cpio" "$busybox" "$dir/src" \
	"$dir/helpers" ${script:+"$dir/guest"}
vm=(env PERFKMOD_TCG_THREAD="$TCG_THREAD" "$top/scripts/vm.sh" "$ARCH"
    "$IMAGE" "$dir/initramfs.cpio" - 0 quiet perfkmod_run=shell.sh)
if [ -z "$script" ]; then
	echo "Booting $KVER in QEMU (TCG); the shell's exit ends it..."
	exec "${vm[@]}"
fi
echo "Booting $KVER in QEMU (TCG) to run $script..."
"${vm[@]}" </dev/null | tee "$dir/run.log"
rc=$(sed -n 's/^make shell: the script exited \([0-9]*\).*/\1/p' "$dir/run.log")
[ -n "$rc" ] || { echo "make shell: the guest ended before the script did" >&2; exit 1; }
exit "$rc"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "make bench": perfkmod's costs next to raw perf, measured in Debian's own
# 6.1 kernel (no KASAN, no lockdep) under QEMU, printed as one table.
#
#   scripts/bench.sh [--smoke] [--only PART,...] [--lane arm64-pmu]
#
# Builds perfkmod, the benchmark module (bench/perfkmod_bench.c) and the
# guest's static programs (bench/helpers/), makes an initramfs, and boots
# it twice, running bench/guest/bench.sh each time:
#
#   icount  QEMU's -icount shift=0: guest time is instructions executed,
#           so every duration the guest measures is an instruction count,
#           the same from run to run whatever else the host does. One CPU:
#           QEMU 7.2's x86 guests hang bringing up a second CPU with
#           -icount (round-robin TCG never switches away from the CPU
#           that waits for it);
#   wall    plain TCG with 4 CPUs: durations in (noisy) nanoseconds.
#
# Each figure is reported next to its raw-perf anchor from the same boot,
# and as the ratio of the two in each boot (bench/table.py). --smoke runs
# tiny counts and checks only that every row was produced (CI's
# bench-smoke lane); it times nothing. --only, for working on one cost:
# the icount boot alone, running only the PARTs named (workload, series,
# dispatch, trigger, read, scale, memory, uread, record, region); the other rows
# show "-".
# Logs stay in .build/bench[-smoke]/.
#
# --lane arm64-pmu: the same guest on the arm64-pmu test lane's kernel
# (scripts/kernel.sh arm64-pmu: 6.12 with ARM64_PSEUDO_NMI and the debug
# options of tests/config/common.config), booted by scripts/vm.sh with
# irqchip.gicv3_pseudo_nmi=1, so that the emulated PMUv3's overflows are
# pseudo-NMIs: the one real NMI path of these machines (x86 guests under
# TCG have no PMU). The wall boot alone (no -icount on arm64 here), 2
# CPUs, and only the parts that take cycles overflows, dispatch and
# trigger, unless --only names others (they would measure a debug
# kernel). The table prints the kernel's debug options beside the
# figures. Logs in .build/bench[-smoke]-arm64-pmu/.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
smoke=0 only='' lane=distro
while [ $# -gt 0 ]; do
	case $1 in
	--smoke) smoke=1 ;;
	--only) only=$2; shift ;;
	--lane) lane=$2; shift ;;
	*) echo "usage: $0 [--smoke] [--only PART,...] [--lane arm64-pmu]" >&2
	   exit 2 ;;
	esac
	shift
done
name=bench
[ $smoke = 1 ] && name=bench-smoke
case $lane in
distro)
	modes="icount wall" qarch=x86_64 busybox=/bin/busybox
	[ -z "$only" ] || modes=icount
	timeout=900
	[ $smoke = 1 ] && timeout=240
	;;
arm64-pmu)
	modes=wall qarch=arm64 busybox=$cache/arm64-busybox/bin/busybox
	only=${only:-dispatch,trigger} name=$name-$lane
	# a debug kernel (KASAN, lockdep) under TCG: slow to boot
	timeout=1800
	[ $smoke = 1 ] && timeout=600
	;;
*) echo "bench: unknown lane '$lane' (arm64-pmu)" >&2; exit 2 ;;
esac
only=${only:-all}
dir=$top/.build/$name

deps=(bench)
[ $lane = distro ] || deps+=("$lane")
"$top/scripts/deps.sh" "${deps[@]}"
kenv=$("$top/scripts/kernel.sh" $lane)
eval "$kenv"

mkdir -p "$dir/src"
rsync -a --delete --exclude=.git --exclude=.build "$top/" "$dir/src/"
if ! PATH=${KBIN:+$KBIN:}$PATH make -C "$dir/src" KDIR="$KDIR" ARCH="$ARCH" \
	CROSS_COMPILE="$CROSS_COMPILE" W=1 bench-module >"$dir/build.log" 2>&1; then
	tail -20 "$dir/build.log"
	echo "bench: the module build failed (log: $dir/build.log)"
	exit 1
fi
if grep -E "warning:|error:" "$dir/build.log"; then
	echo "bench: the module build warns (W=1)"
	exit 1
fi
rm -rf "$dir/helpers"
mkdir -p "$dir/helpers"
for f in "$top"/bench/helpers/*.c; do
	"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror \
		-o "$dir/helpers/$(basename "$f" .c)" "$f"
done
# perfkstat, for the guest's arch (bench.sh polls with perfkstat stat -I)
make -s -C "$top/tools/perfkstat" OUTPUT="$dir/helpers/.perfkstat/" \
	CROSS_COMPILE="$CROSS_COMPILE" static >/dev/null
cp "$dir/helpers/.perfkstat/perfkstat" "$dir/helpers/"
"$top/scripts/initramfs.sh" "$dir/initramfs.cpio" "$busybox" "$dir/src" \
	"$dir/helpers" "$top/bench/guest"

args=(perfkmod_lane=bench perfkmod_run=bench.sh perfkmod_bench_smoke=$smoke
	perfkmod_bench_only=$only)
# One QEMU at a time: the two boots run one after the other.
rm -f "$dir"/console-*.log
for mode in $modes; do
	extra= smp=4
	[ $mode = icount ] && extra="-icount shift=0" smp=1
	# the arm64 lane's CPU count (the bench runs on CPU 0)
	[ $lane = distro ] || smp=2
	echo "bench: booting the $lane lane's $KVER kernel, $smp CPUs, $mode mode..."
	start=$SECONDS
	PERFKMOD_SMP=$smp PERFKMOD_QEMU_EXTRA=$extra PERFKMOD_TCG_THREAD=$TCG_THREAD \
		"$top/scripts/vm.sh" $qarch "$IMAGE" "$dir/initramfs.cpio" \
		"$dir/console-$mode.log" "$timeout" "${args[@]}" \
		perfkmod_bench_mode=$mode
	echo "bench: $mode boot took $((SECONDS - start)) s" \
		"(console log: $dir/console-$mode.log)"
done

table_args=()
[ $smoke = 1 ] && table_args=(--smoke)
# the kernel's debug options, printed beside its figures
[ $lane = distro ] || table_args+=(--kconfig "$KDIR/.config" --lane "$lane")
icount=$dir/console-icount.log wall=$dir/console-wall.log
[ "$modes" = icount ] && wall=-
[ "$modes" = wall ] && icount=-
"$top/bench/table.py" "${table_args[@]}" "$icount" "$wall" |
	tee "$dir/table.txt"

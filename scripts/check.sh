#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run perfkmod's tests in QEMU: "make check" runs this.
#
#   scripts/check.sh [LANE...]    default: x86-debug distro arm64-pmu
#
# For each lane: find or build its kernel (scripts/kernel.sh), build the
# module and, where the kernel has KUnit, the KUnit suites, warning-free
# with W=1, in a directory of the lane's own (.build/LANE); make an
# initramfs; boot it; judge the console log (scripts/judge.py). Ends with
# the line "N passed, N failed, N skipped" over all lanes and exits 1 when
# anything failed, any kernel report included.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
lanes=${*:-x86-debug distro arm64-pmu}
passed=0 failed=0 skipped=0

"$top/scripts/deps.sh" $lanes || exit 1

lane_failed() {
	echo "$lane: FAIL $*"
	failed=$((failed + 1))
}

# build_modules TARGET...: build into .build/$lane/src; fail on any warning.
build_modules() {
	local dir=$top/.build/$lane src=$top/.build/$lane/src

	mkdir -p "$src"
	rsync -a --delete --exclude=.git --exclude=.build "$top/" "$src/"
	if ! make -C "$src" KDIR="$KDIR" ARCH="$ARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" W=1 "$@" >"$dir/build.log" 2>&1; then
		lane_failed "module build failed:"
		tail -20 "$dir/build.log"
		return 1
	fi
	if grep -E "warning:|error:" "$dir/build.log"; then
		lane_failed "the module build warns (W=1)"
	fi
	return 0
}

# build_helpers: the guest's static helper programs, tests/helpers/*.c.
build_helpers() {
	local out=$top/.build/$lane/helpers f

	rm -rf "$out"
	mkdir -p "$out"
	for f in "$top"/tests/helpers/*.c; do
		"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror \
			-o "$out/$(basename "$f" .c)" "$f" ||
			{ lane_failed "helper $f does not build"; return 1; }
	done
}

run_lane() {
	local lane=$1 dir=$top/.build/$1 busybox=/bin/busybox arch target=tests
	local timeout counts start=$SECONDS

	echo "== $lane"
	mkdir -p "$dir"
	if ! eval "$("$top/scripts/kernel.sh" "$lane")"; then
		lane_failed "no kernel"
		return
	fi
	case $lane in
	x86-debug) arch=x86_64 timeout=900 ;;
	distro) arch=x86_64 timeout=300 target=module ;;
	arm64-pmu)
		arch=arm64 timeout=1200
		busybox=$cache/arm64-busybox/bin/busybox
		;;
	esac
	build_modules $target samples || return
	build_helpers || return
	"$top/scripts/initramfs.sh" "$dir/initramfs.cpio" "$busybox" \
		"$dir/src" "$dir/helpers" || { lane_failed "initramfs"; return; }
	"$top/scripts/vm.sh" "$arch" "$IMAGE" "$dir/initramfs.cpio" \
		"$dir/console.log" "$timeout" "perfkmod_lane=$lane"
	"$top/scripts/judge.py" "$lane" "$dir/console.log" | tee "$dir/judge.log" |
		grep -v '^counts '
	counts=$(sed -n 's/^counts //p' "$dir/judge.log")
	set -- $counts
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
	echo "$lane: $KVER, $((SECONDS - start)) s, console log in $dir/console.log"
}

for lane in $lanes; do
	case $lane in
	x86-debug | distro | arm64-pmu) run_lane "$lane" ;;
	*) lane_failed "unknown lane (x86-debug, distro, arm64-pmu)" ;;
	esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]

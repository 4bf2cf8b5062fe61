#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Find or build the kernel a test lane runs.
#
#   scripts/kernel.sh LANE      LANE: x86-debug | x86-kcsan | arm64-pmu | distro
#   scripts/kernel.sh LANE prepare
#
# With "prepare", a self-built kernel's tree is only configured and made
# with modules_prepare (a minute or two, not a kernel build): enough to
# build modules against, as scripts/lint.sh's sparse gate does, but no
# vmlinux, no Module.symvers and no IMAGE. A tree already built serves too.
# A later build of the lane goes on in the same directory.
#
# Prints shell assignments on stdout (ARCH, CROSS_COMPILE, KDIR, IMAGE,
# KVER, and TCG_THREAD, the PERFKMOD_TCG_THREAD scripts/vm.sh must boot
# IMAGE with) for the caller to eval; everything else goes to stderr.
#
# Self-built kernels come from Debian's linux-source-6.12, configured as
# allnoconfig plus tests/config/common.config, tests/config/ARCH.config
# (where there is one) and tests/config/LANE.config, and are cached in
# $PERFKMOD_CACHE (default ~/.cache/perfkmod) under a key made of the
# source package version, the fragments and the compiler: they are rebuilt
# only when that key changes. The distro lane is Debian's own
# amd64 kernel image and the headers package that matches it.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
lane=${1:?usage: kernel.sh x86-debug|x86-kcsan|arm64-pmu|distro}
jobs=$(nproc)

log() { echo "kernel.sh: $*" >&2; }
die() { log "$*"; exit 1; }

case ${2:-} in
"") target=all done=built ;;
prepare) target=modules_prepare done=prepared ;;
*) die "unknown target '$2' (prepare)" ;;
esac

# One kernel.sh per lane at a time: two test runs (or a run and a demo)
# would otherwise build or fetch into the same directory at once. The
# source tree all lanes share has a lock of its own (source_tree).
mkdir -p "$cache"
exec 9>"$cache/.lock-$lane"
if ! flock -n 9; then
	log "$lane: waiting for the kernel another kernel.sh is making"
	flock 9
fi

# Extract the kernel source once per Debian source package version.
source_tree() {
	local ver dir tmp

	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	dir=$cache/src/linux-source-6.12_${ver//[^A-Za-z0-9.+-]/_}
	exec 8>"$cache/.lock-src"
	flock 8
	if [ ! -f "$dir/.perfkmod-extracted" ]; then
		log "extracting linux-source-6.12 $ver into $dir"
		rm -rf "$dir" "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xf /usr/src/linux-source-6.12.tar.xz -C "$dir.tmp"
		mv "$dir.tmp/linux-source-6.12" "$dir"
		rmdir "$dir.tmp"
		touch "$dir/.perfkmod-extracted"
	fi
	exec 8>&-
	echo "$dir"
}

# Every option a fragment asks for must survive olddefconfig: Kconfig drops
# options whose dependencies are missing without a word.
verify_config() {
	local config=$1 frag=$2 line sym bad=0

	while IFS= read -r line; do
		case $line in
		CONFIG_*=*)
			grep -qxF "$line" "$config" ||
				{ log "not set as asked: $line"; bad=1; }
			;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			! grep -q "^$sym=" "$config" ||
				{ log "set but asked off: $sym"; bad=1; }
			;;
		esac
	done <"$frag"
	return $bad
}

build_lane() {
	local arch=$1 cross=$2 image=$3 src ver key out frag frags f thread=

	src=$(source_tree)
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	frags=
	for f in common "$4" "$lane"; do
		[ ! -f "$top/tests/config/$f.config" ] ||
			frags="$frags $top/tests/config/$f.config"
	done
	# shellcheck disable=SC2086 # a list of paths without spaces
	key=$(cat $frags | sha256sum | cut -c1-12)
	key=$key-$(echo "$("${cross}gcc" --version | head -1)" | sha256sum | cut -c1-6)
	out=$cache/build/$lane-${ver//[^A-Za-z0-9.+-]/_}-$key
	frag=$out/perfkmod.fragment

	if [ ! -f "$out/.perfkmod-built" ] && [ ! -f "$out/.perfkmod-$done" ]; then
		log "building $lane kernel ($target) in $out (log: $out/build.log)"
		mkdir -p "$out"
		# a later fragment may override an earlier one (x86-kcsan
		# turns KASAN off): keep each option's last setting
		# shellcheck disable=SC2086
		cat $frags | awk '
			/^CONFIG_[A-Za-z0-9_]+=/ { sym = $0; sub(/=.*/, "", sym) }
			/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { sym = $2 }
			sym != "" {
				if (!(sym in line)) order[n++] = sym
				line[sym] = $0; sym = ""
			}
			END { for (i = 0; i < n; i++) print line[order[i]] }' >"$frag"
		make -s -C "$src" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" \
			KCONFIG_ALLCONFIG="$frag" allnoconfig >&2
		verify_config "$out/.config" "$frag" ||
			die "$lane: the config fragment did not survive Kconfig"
		if ! make -C "$src" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" \
			-j"$jobs" $target >"$out/build.log" 2>&1; then
			tail -40 "$out/build.log" >&2
			die "$lane: kernel build failed (see $out/build.log)"
		fi
		touch "$out/.perfkmod-$done"
	fi
	# Other configurations of the lane (other checkouts, other branches
	# sharing this cache) are removed only when unused for a week: two
	# checkouts would otherwise delete each other's kernels on every run.
	touch "$out/.perfkmod-used"
	for old in "$cache/build/$lane"-*; do
		[ "$old" = "$out" ] ||
			[ -n "$(find "$old/.perfkmod-used" -mtime -7 2>/dev/null)" ] ||
			# the markers first: a removal cut short leaves no
			# tree that looks built
			{ rm -f "$old"/.perfkmod-* && rm -rf "$old"; }
	done
	# x86 kernels with JUMP_LABEL: one host thread (see distro_lane())
	[ "$arch" != x86_64 ] || thread=single
	echo "ARCH=$arch CROSS_COMPILE=$cross KDIR=$out IMAGE=$out/$image" \
		"KVER=$(cat "$out/include/config/kernel.release") TCG_THREAD=$thread"
}

# Debian's own kernel: the image that matches the installed headers.
distro_lane() {
	local dep kver pkgver dir

	dep=$(dpkg-query -W -f='${Depends}' linux-headers-amd64)
	kver=${dep%% *}
	kver=${kver#linux-headers-}
	pkgver=${dep##*= }
	pkgver=${pkgver%)}
	dir=$cache/distro/${kver}_${pkgver//[^A-Za-z0-9.+-]/_}
	if [ ! -f "$dir/.perfkmod-extracted" ]; then
		log "fetching Debian's linux-image-$kver-unsigned $pkgver"
		rm -rf "$dir"
		mkdir -p "$dir"
		(cd "$dir" && apt-get download -q \
			"linux-image-$kver-unsigned=$pkgver" >&2)
		dpkg-deb -x "$dir"/linux-image-*.deb "$dir/root"
		rm -f "$dir"/linux-image-*.deb
		touch "$dir/.perfkmod-extracted"
	fi
	[ -d "/usr/src/linux-headers-$kver" ] ||
		die "missing /usr/src/linux-headers-$kver"
	# One host thread for all vCPUs. On QEMU 7.2's multi-threaded TCG this
	# kernel froze: after it rewrote a jump label (perf flips a static key
	# when the first or last event of a software type comes or goes; the
	# kernel does so at boot too), a vCPU kept running the INT3 of a stale
	# translation while memory held the new jmp; the INT3 handler, finding
	# no INT3 there, returned to it for ever (gdb: both vCPUs in
	# asm_exc_int3 at finish_task_switch's perf_sw_event branch, memory
	# there "jmp", no patch in progress). The x86 6.12 test kernels, once
	# built with JUMP_LABEL like this one, showed it too ("Oops: int3" in
	# __schedule, the INT3 of the old code run where memory held the new
	# jmp): every x86 kernel gets one host thread. arm64 patches its
	# jump labels without INT3 and keeps a thread per vCPU.
	echo "ARCH=x86_64 CROSS_COMPILE= KDIR=/usr/src/linux-headers-$kver" \
		"IMAGE=$dir/root/boot/vmlinuz-$kver KVER=$kver TCG_THREAD=single"
}

case $lane in
x86-debug | x86-kcsan) build_lane x86_64 "" arch/x86/boot/bzImage x86_64 ;;
arm64-pmu) build_lane arm64 aarch64-linux-gnu- arch/arm64/boot/Image arm64 ;;
distro) distro_lane ;;
*) die "unknown lane '$lane' (x86-debug, x86-kcsan, arm64-pmu, distro)" ;;
esac

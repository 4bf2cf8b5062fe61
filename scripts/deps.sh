#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the given lanes or commands need (as root),
# or name them.
#
#   scripts/deps.sh LANE...     LANE: a lane of tests/lanes, demo or bench
#
# Every program a lane or command runs on the host comes from a package
# listed here (the fresh lane proves it for demo, lint and distro, in a
# Debian root with nothing but build-essential and git added). The arm64
# lanes also need busybox-static and bash-static for arm64 (bash for perf's
# own perf stat tests, tests/guest/test-perf-stat.sh): those packages are
# downloaded (not installed) into $PERFKMOD_CACHE/arm64-busybox/ and
# arm64-bash/, which needs the arm64 architecture in dpkg's list. The lanes that boot also need Prometheus's
# promtool (scripts/judge.py checks the guests' metrics with it): the
# binary out of Debian's prometheus package, downloaded into
# $PERFKMOD_CACHE/promtool/ and not installed (the package would start a
# Prometheus server on the machine).

set -euo pipefail

cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
# Everything: make and gcc (the module, perfkstat, and the guests' static
# programs: the helpers, perfkstat), rsync
# (each build copies the tree), python3 (initramfs.sh writes the cpio,
# judge.py, bench/table.py).
pkgs="build-essential rsync python3"
# Debian's own 6.1 kernel under QEMU: the headers to build against (the
# image itself is fetched by scripts/kernel.sh), busybox for the guest.
debian="linux-headers-amd64 qemu-system-x86 busybox-static"
# The guest's bash, for perf's perf stat tests (#!/bin/bash scripts that
# busybox's sh does not run): tests/guest/test-perf-stat.sh.
guestbash="bash-static"
# The 6.12 tree scripts/kernel.sh extracts (tar.xz), configures and builds.
ksrc="linux-source-6.12 xz-utils flex bison bc libelf-dev libssl-dev cpio"
# Every lane that boots: KUnit's kunit.py, from the 6.12 tree, reads the
# console's KTAP (scripts/check.sh, scripts/judge.py).
kunit="linux-source-6.12 xz-utils"
# The host's perf, which must read a guest's perfkstat recording as its
# CSV (tests/guest/test-perfdata.sh, scripts/perfdata-check.py): for the
# lanes that run that script.
perf="linux-perf"
arm64=0 promtool=0

for lane in "$@"; do
	case $lane in
	# checkpatch and kernel-doc are perl, the file list is git's, sparse
	# runs against the 6.12 tree and Debian's headers, perfkstat plot
	# draws with gnuplot
	# the host tests: gcc and make (parse.c, perfkstat's), python3
	# (judge.py), dpkg-dev and apt (tests/host/deb-lane.sh)
	host) pkgs="$pkgs build-essential python3 dpkg-dev apt" ;;
	lint) pkgs="$pkgs $ksrc perl git sparse python3-sphinx linux-headers-amd64 gnuplot-nox" ;;
	x86-debug | x86-kunit | x86-kcsan)
		pkgs="$pkgs $ksrc qemu-system-x86 busybox-static $guestbash"
		[ "$lane" != x86-debug ] || pkgs="$pkgs $perf"
		promtool=1
		;;
	# dkms.sh: dkms add/build/install (kmod: its depmod)
	distro)
		pkgs="$pkgs $debian $guestbash $kunit dkms kmod $perf"
		promtool=1
		;;
	# Debian's other kernels, fetched by scripts/kernel.sh (6.12's module
	# build makes BTF with pahole, as its headers package asks)
	distro-5.10 | distro-6.12)
		pkgs="$pkgs $kunit qemu-system-x86 busybox-static $guestbash"
		pkgs="$pkgs dkms kmod dwarves $perf"
		promtool=1
		;;
	distro-arm64)
		pkgs="$pkgs $kunit qemu-system-arm gcc-aarch64-linux-gnu"
		pkgs="$pkgs libc6-dev-arm64-cross dkms kmod"
		arm64=1 promtool=1
		;;
	demo | bench | bench-smoke) pkgs="$pkgs $debian" ;;
	arm64-pmu)
		pkgs="$pkgs $ksrc qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
		pkgs="$pkgs $perf"
		arm64=1 promtool=1
		;;
	# scripts/fresh.sh: a new Debian root, a clone of the checkout
	# and tests/fresh/deb-boot.sh boots the root's kernel in QEMU with busybox
	fresh) pkgs="$pkgs debootstrap git qemu-system-x86 busybox-static" ;;
	*) echo "deps.sh: unknown lane '$lane'" >&2; exit 1 ;;
	esac
done

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done

updated=0
apt_update() {
	[ $updated = 1 ] || apt-get update -q >&2
	updated=1
}

if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps.sh: missing packages:$missing" >&2
		echo "deps.sh: run as root, or: apt-get install$missing" >&2
		exit 1
	fi
	echo "deps.sh: installing$missing" >&2
	apt_update
	# shellcheck disable=SC2086 # a list of package names
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >&2
fi

# arm64_deb PACKAGE DIR: Debian's PACKAGE for arm64, downloaded and
# extracted (not installed) into DIR, for the arm64 guests.
arm64_deb() {
	[ "$(id -u)" = 0 ] || {
		echo "deps.sh: run as root once to fetch $1:arm64" >&2
		exit 1
	}
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		updated=0
	fi
	apt_update
	rm -rf "$2" "$2.tmp"
	mkdir -p "$2.tmp"
	(cd "$2.tmp" && apt-get download -q "$1:arm64" >&2 &&
		dpkg-deb -x "$1"_*_arm64.deb root)
	mv "$2.tmp/root" "$2"
	rm -rf "$2.tmp"
}
if [ $arm64 = 1 ]; then
	[ -x "$cache/arm64-busybox/bin/busybox" ] ||
		arm64_deb busybox-static "$cache/arm64-busybox"
	[ -x "$cache/arm64-bash/bin/bash-static" ] ||
		arm64_deb bash-static "$cache/arm64-bash"
fi
if [ $promtool = 1 ] && [ ! -x "$cache/promtool/usr/bin/promtool" ]; then
	[ "$(id -u)" = 0 ] || {
		echo "deps.sh: run as root once to fetch promtool (Debian's prometheus)" >&2
		exit 1
	}
	apt_update
	rm -rf "$cache/promtool" "$cache/promtool.tmp"
	mkdir -p "$cache/promtool.tmp"
	(cd "$cache/promtool.tmp" &&
		apt-get download -q prometheus >&2 &&
		dpkg-deb -x prometheus_*.deb root)
	mv "$cache/promtool.tmp/root" "$cache/promtool"
	rm -rf "$cache/promtool.tmp"
fi
exit 0

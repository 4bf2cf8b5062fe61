#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages the given lanes need (as root), or name them.
#
#   scripts/deps.sh LANE...     LANE: lint | x86-debug | arm64-pmu | distro |
#                               bench-smoke
#
# The arm64 lane also needs busybox-static for arm64: that package is
# downloaded (not installed) into $PERFKMOD_CACHE/arm64-busybox/, which
# needs the arm64 architecture in dpkg's list.

set -euo pipefail

cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
pkgs="build-essential flex bison libelf-dev bc libssl-dev cpio kmod xz-utils
      python3 rsync busybox-static linux-source-6.12"
arm64=0

for lane in "$@"; do
	case $lane in
	lint) pkgs="$pkgs sparse linux-headers-amd64 python3-sphinx" ;;
	x86-debug | x86-kcsan) pkgs="$pkgs qemu-system-x86" ;;
	distro | bench-smoke) pkgs="$pkgs qemu-system-x86 linux-headers-amd64" ;;
	arm64-pmu)
		pkgs="$pkgs qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
		arm64=1
		;;
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
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		--no-install-recommends $missing >&2
fi

if [ $arm64 = 1 ] && [ ! -x "$cache/arm64-busybox/bin/busybox" ]; then
	[ "$(id -u)" = 0 ] || {
		echo "deps.sh: run as root once to fetch busybox-static:arm64" >&2
		exit 1
	}
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		updated=0
	fi
	apt_update
	rm -rf "$cache/arm64-busybox"
	mkdir -p "$cache/arm64-busybox.tmp"
	(cd "$cache/arm64-busybox.tmp" &&
		apt-get download -q busybox-static:arm64 >&2 &&
		dpkg-deb -x busybox-static_*_arm64.deb root)
	mv "$cache/arm64-busybox.tmp/root" "$cache/arm64-busybox"
	rm -rf "$cache/arm64-busybox.tmp"
fi
exit 0

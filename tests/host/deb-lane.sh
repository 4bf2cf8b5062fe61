#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/kernel.sh's Debian kernels (deb_lane()) against an archive that
# moves: a private apt source of small made-up packages with the names and
# relations of Debian's arm64 6.1 kernel, served from a directory
# (PERFKMOD_APT_SOURCES), a cache of the test's own (PERFKMOD_CACHE) and a
# dpkg database of its own (DPKG_ADMINDIR) for what is "installed here".
#
#   tests/host/deb-lane.sh
#
# Prints "ok NAME" or "not ok NAME" with the reason, a line a case, and
# exits 1 when a case failed. Needs dpkg-dev (dpkg-scanpackages) and apt;
# no network.

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
repo=$tmp/repo
bad=0
kver=6.1.0-9-arm64

# pkg NAME VERSION ARCH DEPENDS [PATH CONTENT]...: a .deb into the repo
pkg() {
	local name=$1 ver=$2 arch=$3 dep=$4 d=$tmp/build/$1_$2_$3

	shift 4
	mkdir -p "$d/DEBIAN"
	{
		echo "Package: $name"
		echo "Version: $ver"
		echo "Architecture: $arch"
		echo "Maintainer: perfkmod tests <tests@perfkmod.invalid>"
		[ -z "$dep" ] || echo "Depends: $dep"
		echo "Description: made up for tests/host/deb-lane.sh"
	} >"$d/DEBIAN/control"
	while [ $# -ge 2 ]; do
		mkdir -p "$d/$(dirname "$1")"
		echo "$2" >"$d/$1"
		shift 2
	done
	mkdir -p "$repo"
	dpkg-deb -b -Zgzip "$d" "$repo/${name}_${ver}_$arch.deb" >/dev/null
}

# publish: the repo's index, as the archive's lists would show it
publish() {
	(cd "$repo" && dpkg-scanpackages -m . 2>/dev/null >Packages)
}

# lane: kernel.sh distro-arm64 on the private archive; its stdout in
# $tmp/out, its stderr in $tmp/err
lane() {
	PERFKMOD_CACHE=$tmp/cache DPKG_ADMINDIR=$tmp/dpkg \
		PERFKMOD_APT_SOURCES=$tmp/sources.list \
		"$top/scripts/kernel.sh" distro-arm64 >"$tmp/out" 2>"$tmp/err"
}

# case_ NAME CONDITION...: one TAP case (tap.sh)
. "$top/tests/host/tap.sh"

# has FILE TEXT: the extracted tree's FILE holds TEXT
has() {
	local kdir

	kdir=$(sed -n 's/.*KDIR=\([^ ]*\).*/\1/p' "$tmp/out")
	[ -n "$kdir" ] && grep -qxF "$2" "${kdir%/usr/src/*}/$1"
}

mkdir -p "$tmp/dpkg/info" "$tmp/dpkg/updates"
: >"$tmp/dpkg/status"
echo "deb [trusted=yes] file:$repo ./" >"$tmp/sources.list"

# Debian's arm64 6.1 at one point of its archive: the headers at -2 name their common part
# at exactly -2 and kbuild at -2 or later; the image at -2. The common
# part also at -3, which "=" must not take; kbuild at -3 alone, as when
# the security archive replaced it, and at an older -1 that does not fit.
pkg linux-headers-arm64 6.1.9-2 arm64 "linux-headers-$kver (= 6.1.9-2)"
pkg "linux-headers-$kver" 6.1.9-2 arm64 \
	"linux-headers-6.1.0-9-common (= 6.1.9-2), linux-kbuild-6.1 (>= 6.1.9-2), gcc-12" \
	"usr/src/linux-headers-$kver/Makefile" \
	"include /usr/src/linux-headers-6.1.0-9-common/Makefile" \
	"usr/src/linux-headers-$kver/.kernelvariables" 'CC = $(CROSS_COMPILE)gcc'
pkg linux-headers-6.1.0-9-common 6.1.9-2 all "" \
	usr/src/linux-headers-6.1.0-9-common/Makefile "common 6.1.9-2"
pkg linux-headers-6.1.0-9-common 6.1.9-3 all "" \
	usr/src/linux-headers-6.1.0-9-common/Makefile "common 6.1.9-3"
pkg linux-kbuild-6.1 6.1.9-3 amd64 "" usr/lib/linux-kbuild-6.1/version 6.1.9-3
pkg linux-kbuild-6.1 6.1.8-1 amd64 "" usr/lib/linux-kbuild-6.1/version 6.1.8-1
pkg "linux-image-$kver-unsigned" 6.1.9-2 arm64 "" \
	"boot/vmlinuz-$kver" "image 6.1.9-2"
publish

lane
case_ "kbuild at a newer version than the headers', the only one that fits" \
	has usr/lib/linux-kbuild-6.1/version 6.1.9-3
case_ "the headers' common part at exactly their version, not the newer" \
	has usr/src/linux-headers-6.1.0-9-common/Makefile "common 6.1.9-2"
case_ "the headers' Makefile points at the extracted common part" \
	has "usr/src/linux-headers-$kver/Makefile" \
	"include $tmp/cache/deb/distro-arm64/${kver}_6.1.9-2/root/usr/src/linux-headers-6.1.0-9-common/Makefile"
case_ "the image at the headers' version" has "boot/vmlinuz-$kver" "image 6.1.9-2"

# The archive drops kbuild -3, the lists are fetched anew and the tree is
# gone: the .deb kept in the cache serves.
rm "$repo"/linux-kbuild-6.1_6.1.9-3_amd64.deb
publish
rm -rf "$tmp/cache/deb" "$tmp/cache/apt/lists"
lane
case_ "a version the archive dropped, from the .deb kept in the cache" \
	has usr/lib/linux-kbuild-6.1/version 6.1.9-3

# A kbuild installed here that fits is taken as it is (apt keeps what
# is installed when it satisfies the relation): its files, as dpkg lists
# them, copied into the tree under their own paths.
mkdir -p "$tmp/host/usr/lib/linux-kbuild-6.1"
echo "6.1.9-2 installed" >"$tmp/host/usr/lib/linux-kbuild-6.1/version"
cat >"$tmp/dpkg/status" <<EOF
Package: linux-kbuild-6.1
Status: install ok installed
Architecture: amd64
Version: 6.1.9-2
Maintainer: perfkmod tests <tests@perfkmod.invalid>
Description: made up for tests/host/deb-lane.sh

EOF
printf '%s\n' /. "$tmp/host" "$tmp/host/usr/lib/linux-kbuild-6.1" \
	"$tmp/host/usr/lib/linux-kbuild-6.1/version" "$tmp/host/gone" \
	>"$tmp/dpkg/info/linux-kbuild-6.1.list"
rm -rf "$tmp/cache/deb"
lane
case_ "an installed kbuild that fits, rather than the archive's" \
	has "${tmp#/}/host/usr/lib/linux-kbuild-6.1/version" "6.1.9-2 installed"

# Nothing fits: no kbuild installed, only -1 in the archive. The error
# names the package, the relation and what to run.
: >"$tmp/dpkg/status"
rm -f "$tmp/cache/apt/archives"/*.deb
rm -rf "$tmp/cache/deb"
! lane
case_ "no kernel when no kbuild fits" test $? = 0
grep -q 'no linux-kbuild-6.1:amd64 (>= 6.1.9-2) (it has: 6.1.8-1;' "$tmp/err" &&
	grep -q "rm -r $tmp/cache/apt/lists and run again" "$tmp/err"
case_ "the error names the package, its relation, what the archive has and what to run" \
	test $? = 0

# With a kernel of the lane fetched before, a newer one that cannot be
# had leaves the cached one serving.
pkg linux-kbuild-6.1 6.1.9-3 amd64 "" usr/lib/linux-kbuild-6.1/version 6.1.9-3
publish
rm -rf "$tmp/cache/apt/lists"
lane
case_ "kbuild back in the archive: a kernel again" test $? = 0
pkg linux-headers-arm64 6.1.9-4 arm64 "linux-headers-$kver (= 6.1.9-4)"
pkg "linux-headers-$kver" 6.1.9-4 arm64 "linux-kbuild-6.1 (>= 6.1.9-4)" \
	"usr/src/linux-headers-$kver/Makefile" "include /dev/null"
pkg "linux-image-$kver-unsigned" 6.1.9-4 arm64 "" \
	"boot/vmlinuz-$kver" "image 6.1.9-4"
publish
rm -rf "$tmp/cache/apt/lists"
lane
case_ "a newer kernel that cannot be had: the cached one serves" \
	has "boot/vmlinuz-$kver" "image 6.1.9-2"
grep -q "Debian's 6.1.9-4 cannot be had; the cached .* serves" "$tmp/err"
case_ "and says so" test $? = 0

exit $bad

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Find or build the kernel a test lane runs.
#
#   scripts/kernel.sh LANE      LANE: a lane of tests/lanes that boots
#   scripts/kernel.sh LANE prepare
#   scripts/kernel.sh LANE cached
#
# With "prepare", a self-built kernel's tree is only configured and made
# with modules_prepare (a minute or two, not a kernel build): enough to
# build modules against, as scripts/lint.sh's sparse gate does, but no
# vmlinux, no Module.symvers and no IMAGE. A tree already built serves too.
# A later build of the lane goes on in the same directory. With "cached",
# nothing is made or printed: it exits 0 when the self-built kernel of the
# lane is built and cached, 1 when a run would build it.
#
# Prints shell assignments on stdout (ARCH, CROSS_COMPILE, KDIR, IMAGE,
# KVER, TCG_THREAD, the PERFKMOD_TCG_THREAD scripts/vm.sh must boot IMAGE
# with, and KBIN, a directory to put first in PATH for building modules,
# or nothing) for the caller to eval; everything else goes to stderr.
#
# What each lane boots is its KERNEL in tests/lanes (scripts/lanes.sh);
# a lane that boots another's kernel (lane:NAME) gets that one. Self-built
# kernels (config:FRAG,...) come from Debian's linux-source-6.12,
# configured as allnoconfig plus the lane's fragments, tests/config/*.config
# in the table's order, and are cached in
# $PERFKMOD_CACHE (default ~/.cache/perfkmod) under a key made of the
# source package version, the fragments' options (not their comments) and
# the compiler: they are rebuilt only when that key changes. A debian
# kernel is Debian's own amd64 kernel image and the headers package that
# matches it. An archive:GLOB kernel is another Debian release's, or
# arm64's (see deb_lane()), fetched with an apt
# configuration of perfkmod's own and extracted into the cache, never
# installed.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
lane=${1:?usage: kernel.sh LANE [prepare|cached]}
jobs=$(nproc)

log() { echo "kernel.sh: $*" >&2; }
die() { log "$*"; exit 1; }

. "$top/scripts/lanes.sh"
lanes_check || exit 1

query=
case ${2:-} in
"") target=all done=built ;;
prepare) target=modules_prepare done=prepared ;;
cached) target=all done=built query=1 ;;
*) die "unknown target '$2' (prepare, cached)" ;;
esac
# the lane whose kernel this is, and its line
k=$(lane_kernel "$lane") || k=
if [ -z "$k" ]; then
	booting=
	for l in $(lane_names ""); do
		[ -z "$(lane_kernel "$l")" ] || booting+=" $l"
	done
	die "unknown lane '$lane', or one that boots nothing" \
		"(those that boot:$booting)"
fi
lane=$k
lane_get "$lane"
case $LANE_KERNEL in
config:*) ;;
*) [ -z "$query" ] || die "$lane: only a self-built kernel is cached or not" ;;
esac

# One kernel.sh per lane at a time: two test runs (or a run and a demo)
# would otherwise build or fetch into the same directory at once. The
# source tree all lanes share has a lock of its own (source_tree).
# The query takes none: a tree is marked built only once it is, and
# prune() removes the markers first.
if [ -z "$query" ]; then
	mkdir -p "$cache"
	exec 9>"$cache/.lock-$lane"
	if ! flock -n 9; then
		log "$lane: waiting for the kernel another kernel.sh is making"
		flock 9
	fi
fi

# Extract the kernel source once per Debian source package version.
source_tree() {
	local ver dir

	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	dir=$cache/src/linux-source-6.12_${ver//[^A-Za-z0-9.+-]/_}
	exec 8>"$cache/.lock-src"
	flock 8
	# (called in $(...), where set -e does not hold: each step checks)
	if [ ! -f "$dir/.perfkmod-extracted" ]; then
		log "extracting linux-source-6.12 $ver into $dir"
		{ rm -rf "$dir" "$dir.tmp" && mkdir -p "$dir.tmp" &&
			tar -xf /usr/src/linux-source-6.12.tar.xz -C "$dir.tmp" &&
			mv "$dir.tmp/linux-source-6.12" "$dir" &&
			rmdir "$dir.tmp" && touch "$dir/.perfkmod-extracted"; } ||
			die "cannot extract linux-source-6.12 into $dir"
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

# prune USED OTHER...: mark USED as used now; remove each OTHER (other
# configurations or versions of a lane: other checkouts, other branches
# sharing this cache) unused for a week. Two checkouts would otherwise
# delete each other's kernels on every run.
prune() {
	local used=$1 old

	shift
	touch "$used/.perfkmod-used"
	for old in "$@"; do
		[ "$old" = "$used" ] ||
			[ -n "$(find "$old/.perfkmod-used" -mtime -7 2>/dev/null)" ] ||
			# the markers first: a removal cut short leaves no
			# tree that looks built
			{ rm -f "$old"/.perfkmod-* && rm -rf "$old"; }
	done
}

build_lane() {
	local arch=$1 cross=$2 image=$3 src ver key out frag frags f thread=

	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	frags=
	for f in ${4//,/ }; do
		[ -f "$top/tests/config/$f.config" ] ||
			die "$lane: no tests/config/$f.config"
		frags="$frags $top/tests/config/$f.config"
	done
	# shellcheck disable=SC2086 # a list of paths without spaces
	key=$(grep -hv -e '^[[:space:]]*#' -e '^[[:space:]]*$' $frags |
		sha256sum | cut -c1-12)
	key=$key-$(echo "$("${cross}gcc" --version | head -1)" | sha256sum | cut -c1-6)
	out=$cache/build/$lane-${ver//[^A-Za-z0-9.+-]/_}-$key
	frag=$out/perfkmod.fragment
	if [ -n "$query" ]; then
		[ -f "$out/.perfkmod-built" ] && exit 0
		exit 1
	fi
	# a built tree's Makefile points into it
	src=$(source_tree)

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
	prune "$out" "$cache/build/$lane"-*
	# x86 kernels with JUMP_LABEL: one host thread (see distro_lane())
	[ "$arch" != x86_64 ] || thread=single
	echo "ARCH=$arch CROSS_COMPILE=$cross KDIR=$out IMAGE=$out/$image" \
		"KVER=$(cat "$out/include/config/kernel.release") TCG_THREAD=$thread" \
		"KBIN="
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
		mkdir -p "$dir/root"
		if (cd "$dir" && apt-get download -q \
			"linux-image-$kver-unsigned=$pkgver" >&2); then
			dpkg-deb -x "$dir"/linux-image-*.deb "$dir/root"
			rm -f "$dir"/linux-image-*.deb
		else
			# the archive moved on: the newest image of the same
			# ABI, which modules built against these headers load
			# into, as deb_lane() takes one
			exec 7>"$cache/.lock-apt"
			flock 7
			apt_private
			fetch "$dir/root" "linux-image-$kver-unsigned:amd64" ""
			exec 7>&-
		fi
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
		"IMAGE=$dir/root/boot/vmlinuz-$kver KVER=$kver TCG_THREAD=single KBIN="
}

# apt-get and apt-cache on perfkmod's own list of Debian's suites, for
# both architectures, in $cache/apt: the machine's sources and package
# state are left alone. The lists are fetched again once a day, or now
# with "apt_private now". PERFKMOD_APT_SOURCES, a sources.list, replaces
# Debian's suites (the harness's own test of deb_lane() serves its
# packages from a directory).
apt_private() {
	local dir=$cache/apt suite url

	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	: >"$dir/sources.list.tmp"
	if [ -n "${PERFKMOD_APT_SOURCES:-}" ]; then
		cat "$PERFKMOD_APT_SOURCES" >"$dir/sources.list.tmp"
	else
		for suite in bullseye bullseye-security bookworm bookworm-security \
			bookworm-backports; do
			url=http://deb.debian.org/debian
			[ "${suite%-security}" = "$suite" ] || url=$url-security
			echo "deb [arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $url $suite main" \
				>>"$dir/sources.list.tmp"
		done
	fi
	if [ "${1:-}" = now ] || ! cmp -s "$dir/sources.list.tmp" "$dir/sources.list" ||
		[ -z "$(find "$dir/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
		mv "$dir/sources.list.tmp" "$dir/sources.list"
		log "apt-get update of perfkmod's own suite list ($dir)"
		apt-get "${apt_opts[@]}" update -q >&2 ||
			die "$lane: apt-get update of $dir/sources.list failed"
	fi
	rm -f "$dir/sources.list.tmp"
}
apt_opts=(-o "Dir::Etc::sourcelist=$cache/apt/sources.list"
	-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$cache/apt/lists"
	-o "Dir::Cache=$cache/apt" -o "Dir::Cache::archives=$cache/apt/archives"
	-o APT::Architectures::=amd64 -o APT::Architectures::=arm64
	-o APT::Sandbox::User=root)

# depends PACKAGE=VERSION: its Depends line (apt-cache shows a package
# once per suite that has it: the first)
depends() {
	apt-cache "${apt_opts[@]}" show "$1" |
		awk '/^Depends: / && !n++ { sub(/^Depends: /, ""); print }'
}

# versions PACKAGE: the versions Debian's archive has of PACKAGE (NAME or
# NAME:ARCH), newest first
versions() {
	apt-cache "${apt_opts[@]}" madison "$1" |
		awk -F' *[|] *' '{ print $2 }' | sort -rVu
}

# satisfies VERSION RELATION: VERSION meets RELATION ("" or "OP VERSION")
satisfies() {
	[ -z "$2" ] || dpkg --compare-versions "$1" $2
}

# installed PACKAGE RELATION: the version of PACKAGE (NAME or NAME:ARCH)
# installed on this machine when it meets RELATION
installed() {
	local v

	v=$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$1" 2>/dev/null) ||
		return 1
	[ "${v%% *}" = installed ] && satisfies "${v#* }" "$2" && echo "${v#* }"
}

# kept PACKAGE [VERSION]: the .debs of PACKAGE (NAME or NAME:ARCH; at
# VERSION, or any) that $cache/apt/archives keeps, by apt's file name
# NAME_VERSION_ARCH.deb (the epoch's colon %3a), "all" for any ARCH
kept() {
	local name=${1%%:*} arch=${1#*:} v=${2:-*} a f

	[ "$arch" != "$1" ] || arch='*'
	v=${v//:/%3a}
	for a in "$arch" all; do
		for f in "$cache/apt/archives/${name}_"${v}_$a.deb; do
			[ -f "$f" ] && echo "$f"
		done
	done
}

# fetch ROOT PACKAGE RELATION: PACKAGE (NAME or NAME:ARCH) at the version
# apt would take for "PACKAGE (RELATION)" into the tree ROOT: the one
# installed here when it meets RELATION (its files, as dpkg lists them),
# else the newest that does of Debian's archive and of the .debs fetched
# before. Each .deb fetched is kept in $cache/apt/archives, where a later
# fetch finds it: the archive, and the lists after it, may have dropped
# that version by then. Lists that name a version the archive no longer
# gives are fetched again, once. Fails saying what the archive lacks and
# what to run.
fetch() {
	local root=$1 pkg=$2 rel=$3 v f have kept

	if v=$(installed "$pkg" "$rel"); then
		log "$pkg $v: this machine's"
		# its files, not its directories: those come as the files'
		# parents (a path dpkg lists may be gone: path-exclude)
		dpkg-query -L "$pkg" | while IFS= read -r f; do
			if [ -L "$f" ] || { [ -e "$f" ] && [ ! -d "$f" ]; }; then
				echo "${f#/}"
			fi
		done | tar -C / -c --verbatim-files-from -T - | tar -C "$root" -x ||
			die "$lane: cannot copy this machine's $pkg $v into $root"
		return
	fi
	have=$(versions "$pkg" | paste -sd' ')
	kept=$(kept "$pkg" | while read -r f; do
		dpkg-deb -f "$f" Version
	done | sort -rVu | paste -sd' ')
	# shellcheck disable=SC2086 # the words of both lists
	for v in $(printf '%s\n' $have $kept | sort -rVu); do
		satisfies "$v" "$rel" || continue
		f=$(kept "$pkg" "$v" | head -1)
		if [ -z "$f" ]; then
			log "fetching $pkg $v"
			if ! (cd "$cache/apt/archives" &&
				apt-get "${apt_opts[@]}" download -q "$pkg=$v" >&2); then
				# lists older than the archive: once more on new ones
				[ -z "${fresh_lists:-}" ] ||
					die "$lane: Debian's archive lists $pkg $v but does not give it"
				fresh_lists=1
				apt_private now
				fetch "$@"
				return
			fi
			f=$(kept "$pkg" "$v" | head -1)
		fi
		dpkg-deb -x "$f" "$root" || die "$lane: cannot extract $f"
		return
	done
	die "$lane: Debian's archive has no $pkg${rel:+ ($rel)}" \
		"(it has: ${have:-none}; kept in $cache/apt/archives: ${kept:-none};" \
		"installed here: none that fits)." \
		"Its lists are fetched again once a day; to do so now:" \
		"rm -r $cache/apt/lists and run again"
}

# deb_lane DEBARCH VERSION-GLOB: the newest kernel of the suites in
# apt_private() for DEBARCH whose version matches the glob (the
# linux-headers-DEBARCH meta package says which): its unsigned image, its
# headers, and what the headers depend on of the headers' common part and
# the kbuild programs (this machine's architecture: amd64), each at the
# version apt would take (fetch()), extracted into the cache as a root
# tree. The image is the headers' version where the archive has it, else
# its newest of the same ABI, which modules built against the headers
# load into. The headers' Makefile names the common part by its absolute
# /usr/src path: pointed at the extracted one. A compiler the headers name
# that this Debian lacks (5.10 is built with gcc-10, gone from Debian 12)
# is given by a directory for PATH with the name linked to this Debian's
# gcc: modules built by a newer gcc load and run (perf's and the module
# ABI do not depend on it), and DKMS builds through the same PATH.
deb_lane() {
	local arch=$1 glob=$2 ver kver dir hdr rel name v image cc qarch old
	local cross='' bin=''

	# one apt at a time on $cache/apt: two lanes fetch at once
	exec 7>"$cache/.lock-apt"
	flock 7
	apt_private
	ver=$(versions "linux-headers-$arch:$arch" | while read -r v; do
		# shellcheck disable=SC2053 # a glob on purpose
		if [[ $v == $glob ]]; then echo "$v"; fi
	done | sed -n 1p)
	[ -n "$ver" ] || die "$lane: no linux-headers-$arch $glob in Debian's archive"
	kver=$(depends "linux-headers-$arch:$arch=$ver" |
		sed -n 's/^linux-headers-\([^ ]*\) .*/\1/p')
	[ -n "$kver" ] || die "$lane: which kernel linux-headers-$arch $ver is"
	dir=$cache/deb/$lane/${kver}_${ver//[^A-Za-z0-9.+-]/_}
	hdr=$dir/root/usr/src/linux-headers-$kver
	if [ ! -f "$dir/.perfkmod-extracted" ] && ! (
		log "fetching Debian's linux-image-$kver-unsigned $ver ($arch)"
		rm -rf "$dir" && mkdir -p "$dir/root" || exit 1
		v="= $ver"
		versions "linux-image-$kver-unsigned:$arch" | grep -qxF "$ver" || v=
		fetch "$dir/root" "linux-image-$kver-unsigned:$arch" "$v"
		fetch "$dir/root" "linux-headers-$kver:$arch" "= $ver"
		# the headers' common part and kbuild, as the headers name them
		depends "linux-headers-$kver:$arch=$ver" | tr ',' '\n' |
			sed -n 's/^ *\(linux-\(headers\|kbuild\)-[^ ]*\) *\(([^)]*)\)\{0,1\} *$/\1 \3/p' |
			while read -r name rel; do
				rel=${rel#(}
				rel=${rel%)}
				case $name in linux-kbuild-*) name=$name:amd64 ;; esac
				fetch "$dir/root" "$name" "$rel"
			done || exit 1
		# (set -e does not hold in this condition: each step checks)
		sed -i "s#^include /usr/src/#include $dir/root/usr/src/#" \
			"$hdr/Makefile" && touch "$dir/.perfkmod-extracted"
	); then
		# a kernel of this lane fetched before serves while the archive
		# cannot give the newest
		old=$(ls -d "$cache/deb/$lane"/*/.perfkmod-extracted 2>/dev/null |
			sort -V | tail -1) || true
		[ -n "$old" ] || die "$lane: no kernel (see above)"
		rm -rf "$dir"
		dir=${old%/.perfkmod-extracted}
		kver=${dir##*/}
		kver=${kver%%_*}
		hdr=$dir/root/usr/src/linux-headers-$kver
		log "$lane: Debian's $ver cannot be had; the cached $dir serves"
	fi
	exec 7>&-
	prune "$dir" "$cache/deb/$lane"/*
	image=$dir/root/boot/vmlinuz-$kver
	if [ ! -f "$image" ] || [ ! -f "$hdr/Makefile" ]; then
		die "$lane: $dir is incomplete"
	fi
	case $arch in
	amd64) qarch=x86_64 ;;
	arm64) qarch=arm64 cross=aarch64-linux-gnu- ;;
	esac
	cc=$(sed -n 's/^CC = .*(CROSS_COMPILE)\(gcc-[0-9]*\)$/\1/p' "$hdr/.kernelvariables")
	if [ -n "$cc" ] && ! command -v "$cross$cc" >/dev/null; then
		bin=$dir/bin
		mkdir -p "$bin"
		ln -sf "$(command -v "${cross}gcc")" "$bin/$cross$cc"
	fi
	# x86: one host thread (see distro_lane()); arm64 patches without INT3
	echo "ARCH=$qarch CROSS_COMPILE=$cross KDIR=$hdr IMAGE=$image" \
		"KVER=$kver TCG_THREAD=$([ "$qarch" = x86_64 ] && echo single)" \
		"KBIN=$bin"
}

case $LANE_KERNEL:$LANE_ARCH in
config:*:x86_64)
	build_lane x86_64 "" arch/x86/boot/bzImage "${LANE_KERNEL#config:}" ;;
config:*:arm64)
	build_lane arm64 aarch64-linux-gnu- arch/arm64/boot/Image \
		"${LANE_KERNEL#config:}" ;;
debian:x86_64) distro_lane ;;
archive:*:x86_64) deb_lane amd64 "${LANE_KERNEL#archive:}" ;;
archive:*:arm64) deb_lane arm64 "${LANE_KERNEL#archive:}" ;;
*) die "$lane: no kernel $LANE_KERNEL for $LANE_ARCH (tests/lanes)" ;;
esac

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The fresh lane: the README's commands run as a new user runs them, on a
# new Debian 12 machine, so that a package missing from scripts/deps.sh
# (or a file only some earlier run left behind) fails here and not for
# the user.
#
#   scripts/fresh.sh            the fresh lane
#   scripts/fresh.sh --whole    the whole of make check in the root instead
#                               (fresh-check): how long a new machine's first,
#                               cold make check takes; not part of make check
#
# As root: a new root made by "debootstrap --variant=minbase bookworm" with
# only build-essential git python3 curl bc xz-utils ca-certificates added
# (no recommends), from this machine's Debian mirror and security suite
# (its /etc/apt/sources.list.d/debian.sources), /proc, /sys and /dev bound
# in; there a git clone of this checkout's committed HEAD, and in the clone,
# as root, with PERFKMOD_CACHE empty inside the root:
#
#   fresh-demo    make demo, which must show its counters
#   fresh-shell   make shell with a client module, typed into, and with
#                 RUN= (tests/fresh/make-shell.sh)
#   fresh-deb     the Debian packages built (make deb), installed with
#                 Debian's kernel and its headers, built by DKMS, with the
#                 example client DKMS builds against them (tests/fresh/deb.sh
#                 install)
#   fresh-deb-boot  the root booted in QEMU (its kernel; its file system
#                 over 9p): the packaged module, the example modprobe
#                 configuration's counters, perfkstat, the client, the
#                 exporter's file scraped from node_exporter and queried
#                 from Prometheus (run on the host: tests/fresh/deb-boot.sh)
#   fresh-deb-purge  the packages purged without a trace (tests/fresh/deb.sh
#                 purge)
#   fresh-lint    make lint, every gate green
#   fresh-distro  make check LANE=distro, nothing failed, with the guest
#                 scripts whose checks need the host's tools (promtool,
#                 Python's json) and DKMS: the rest of the lane is the
#                 host's distro lane, which counts its tests one by one
#                 (the inner counts are printed; it is one test here)
#
# and fresh-root, the making of the root itself. Only the debootstrap
# tarball of minbase's packages is cached ($PERFKMOD_CACHE/fresh/; made
# again after 30 days or for another mirror); everything else is fetched
# and built anew each run. Each step has a time limit, 5 to 10 times what
# it takes here (a minute or two each), so that a hang fails the lane in
# minutes, not at CI's limit. The root is .build/fresh/root, removed at
# the end (PERFKMOD_FRESH_KEEP=1 keeps it after a failure); the steps'
# logs stay in .build/fresh/*.log.
#
# Prints "PERFKMOD-FRESH ok|not ok NAME[ - why]" lines (scripts/check.sh
# counts them), naming the missing command when a step failed for want of
# one, and exits 1 when a step failed.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
dir=$top/.build/fresh
root=$dir/root
suite=bookworm
extra="build-essential git python3 curl bc xz-utils ca-certificates"
sources=/etc/apt/sources.list.d/debian.sources
bad=0

result() {
	echo "PERFKMOD-FRESH $*"
	case $1 in not) bad=1 ;; esac
}

# Anything left inside the root: processes (a QEMU a timeout missed) are
# ended by their PID, then the mounts go, innermost first. rm stays on the
# root's own file system, so that it never reaches the host's /dev.
cleanup() {
	local p m

	[ -d "$root" ] || return 0
	for p in /proc/[0-9]*; do
		# and a root made inside it (make check's own fresh lane)
		case $(readlink "$p/root" 2>/dev/null) in
		"$root" | "$root"/*) kill -9 "${p#/proc/}" 2>/dev/null ;;
		esac
	done
	for m in $(findmnt -rn -o TARGET | grep "^$root/" | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
	if findmnt -rn -o TARGET | grep -q "^$root/"; then
		echo "fresh: still mounted under $root; not removed" >&2
	elif [ "${PERFKMOD_FRESH_KEEP:-0}" = 1 ] && [ $bad = 1 ]; then
		echo "fresh: the root is kept in $root" >&2
	else
		rm -rf --one-file-system "$root"
	fi
}

# why LOG: the commands, Python modules or Perl modules a step missed, or
# else the end of its log.
why() {
	local m

	m=$(grep -E "command not found|: not found|No module named|Can't locate .* in @INC|env: .*: No such file or directory" \
		"$1" | sort -u | head -5 | tr '\n' ';' | sed 's/;$//; s/;/; /g')
	[ -n "$m" ] || m=$(tail -3 "$1" | tr '\n' ' ')
	echo "$m (log: $1)"
}

# step NAME TIMEOUT COMMAND: run COMMAND with bash in the clone, in the
# root, with nothing from the host's environment.
step() {
	local name=$1 limit=$2 rc=0 start=$SECONDS

	echo "fresh: $name: $3"
	timeout -k 30 "$limit" chroot "$root" /usr/bin/env -i HOME=/root \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		PERFKMOD_CACHE=/root/.cache/perfkmod \
		/bin/bash -c "cd /root/perfkmod && $3" >"$dir/$name.log" 2>&1 || rc=$?
	echo "fresh: $name: exit $rc, $((SECONDS - start)) s"
	[ $rc != 124 ] && [ $rc != 137 ] && return $rc
	echo "fresh: $name: stopped after ${limit}s" >>"$dir/$name.log"
	return $rc
}

# check_step NAME TIMEOUT COMMAND: a make check in the root as one test,
# passed when it exits 0 and ends with its counts (which are printed).
check_step() {
	local rc=0 counts

	step "$1" "$2" "$3" || rc=$?
	counts=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' \
		"$dir/$1.log" | tail -1) || true
	if [ $rc = 0 ] && [ -n "$counts" ]; then
		result ok "fresh-$1 - inside: $counts"
	else
		result not ok "fresh-$1 - ${counts:+inside: $counts; }$(why "$dir/$1.log")"
	fi
}

# The debootstrap tarball of minbase's packages from MIRROR, made once.
tarball() {
	local mirror=$1 tar

	tar=$cache/fresh/minbase-$suite-$(echo "$mirror" | sha256sum | cut -c1-8).tgz
	mkdir -p "$cache/fresh"
	exec 7>"$cache/fresh/.lock"
	flock 7
	[ -z "$(find "$tar" -mtime +30 2>/dev/null)" ] || rm -f "$tar"
	if [ ! -f "$tar" ]; then
		rm -rf "$dir/tarball"
		timeout 600 debootstrap --variant=minbase --make-tarball="$tar.tmp" \
			"$suite" "$dir/tarball" "$mirror" >&2
		mv "$tar.tmp" "$tar"
		rm -rf "$dir/tarball"
	fi
	exec 7>&-
	echo "$tar"
}

# Prints why it failed on stdout; its commands' output goes to stderr.
# (Called in a condition, where set -e does not stop it: each step checks.)
make_root() {
	local mirror tar rev

	# the machine's own Debian mirror: the stanza whose Suites has $suite
	mirror=$(awk -v RS= -v s="$suite" '
		$0 ~ "Suites:[^\n]*[ \t]" s "([ \t]|\n|$)" {
			sub(/.*URIs:[ \t]*/, ""); sub(/[ \t\n].*/, ""); print; exit
		}' "$sources")
	[ -n "$mirror" ] || { echo "no $suite mirror in $sources"; return 1; }
	tar=$(tarball "$mirror") || { echo "debootstrap --make-tarball failed"; return 1; }
	timeout 600 debootstrap --variant=minbase --unpack-tarball="$tar" \
		"$suite" "$root" "$mirror" >&2 ||
		{ echo "debootstrap --unpack-tarball failed"; return 1; }
	# the machine's sources, main and security, and nothing else
	{ rm -f "$root/etc/apt/sources.list" &&
		cp "$sources" "$root$sources" &&
		cp -L /etc/resolv.conf "$root/etc/resolv.conf"; } ||
		{ echo "cannot copy the apt sources in"; return 1; }
	{ mount --bind /proc "$root/proc" &&
		mount --bind /sys "$root/sys" &&
		mount --bind /dev "$root/dev" &&
		# what is mounted under it stays there, off the host's /dev
		mount --make-slave "$root/dev" &&
		mount --bind /dev/pts "$root/dev/pts"; } ||
		{ echo "cannot bind /proc, /sys, /dev in"; return 1; }
	{ rev=$(git -C "$top" rev-parse HEAD) &&
		git clone -q "$top" "$root/root/perfkmod" &&
		git -C "$root/root/perfkmod" checkout -q --detach "$rev"; } ||
		{ echo "git clone failed"; return 1; }
	step root-packages 600 "apt-get update -q && apt-get install -y -q \
--no-install-recommends $extra" >&2 ||
		{ why "$dir/root-packages.log"; return 1; }
}

mkdir -p "$dir"
rm -f "$dir"/*.log
# Output is piped (make check tees it): when the reader is gone, as when
# make check is stopped, a write must not end this script before cleanup
# has taken the root's mounts away. SIGPIPE is caught, not ignored, so
# that the steps' programs keep its default.
trap cleanup EXIT
trap 'trap "" PIPE; exit 130' INT TERM
trap 'trap "" PIPE; exit 141' PIPE
cleanup
[ "$(id -u)" = 0 ] || {
	for t in root demo shell deb deb-boot deb-purge lint distro; do
		result not ok "fresh-$t - needs root (debootstrap, mount, chroot)"
	done
	exit 1
}
echo "fresh: testing $(git -C "$top" log --oneline -1 HEAD)"
git -C "$top" diff --quiet HEAD 2>/dev/null ||
	echo "fresh: uncommitted changes are not tested: the clone is of HEAD"

start=$SECONDS
if ! msg=$(make_root 2>"$dir/root.log"); then
	result not ok "fresh-root - $msg (log: $dir/root.log)"
	for t in demo shell deb deb-boot deb-purge lint distro; do
		result not ok "fresh-$t - no root"
	done
	exit 1
fi
result ok fresh-root
echo "fresh: the root took $((SECONDS - start)) s"

if [ "${1:-}" = --whole ]; then
	# CI's limit and a little: the time is what this is for
	check_step check 6000 "make check"
	echo "fresh: $((SECONDS - start)) s in all"
	exit $bad
fi

if step demo 600 "make demo" &&
	grep -q 'perfkmod_events_total{name="pf"' "$dir/demo.log"; then
	result ok fresh-demo
else
	result not ok "fresh-demo - $(why "$dir/demo.log")"
fi

if step shell 900 tests/fresh/make-shell.sh; then
	result ok fresh-shell
else
	result not ok "fresh-shell - $(why "$dir/shell.log")"
fi

if step deb 900 "tests/fresh/deb.sh install"; then
	result ok fresh-deb
	# on the host: QEMU boots the root, node_exporter runs in it
	boot=$SECONDS rc=0
	echo "fresh: deb-boot: tests/fresh/deb-boot.sh"
	timeout -k 30 900 "$top/tests/fresh/deb-boot.sh" "$root" "$dir" \
		>"$dir/deb-boot.log" 2>&1 || rc=$?
	echo "fresh: deb-boot: exit $rc, $((SECONDS - boot)) s"
	if [ $rc = 0 ]; then
		result ok fresh-deb-boot
	else
		result not ok "fresh-deb-boot - $(why "$dir/deb-boot.log")"
	fi
	if step deb-purge 300 "tests/fresh/deb.sh purge"; then
		result ok fresh-deb-purge
	else
		result not ok "fresh-deb-purge - $(why "$dir/deb-purge.log")"
	fi
else
	result not ok "fresh-deb - $(why "$dir/deb.log")"
	result not ok "fresh-deb-boot - no packages installed"
	result not ok "fresh-deb-purge - no packages installed"
fi

if step lint 900 "make lint"; then
	result ok fresh-lint
else
	result not ok "fresh-lint - $(why "$dir/lint.log")"
fi

scripts="test-module.sh test-debugfs.sh test-tool.sh test-dkms.sh test-perf-stat.sh"
check_step distro 1200 \
	"PERFKMOD_GUEST_ARGS='perfkmod_scripts=\"$scripts\"' make check LANE=distro"

echo "fresh: $((SECONDS - start)) s in all"
exit $bad

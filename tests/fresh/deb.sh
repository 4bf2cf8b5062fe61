#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as a user installs them. The fresh lane runs this in
# its new Debian 12 root, as root:
#
#   tests/fresh/deb.sh install
#                          with Debian's kernel and its headers: make deb
#                          from the clone, apt-get install of both packages;
#                          DKMS built perfkmod of the packages' version for
#                          that kernel and kept its Module.symvers and
#                          perfkmod.h; the example client of perfkmod-dkms
#                          built by DKMS against them; the example modprobe
#                          configuration, uncommented; node_exporter and
#                          Prometheus for what perfkmod-prom.service writes
#   tests/fresh/deb.sh purge
#                          the client removed, then both packages purged:
#                          no module, DKMS tree or source is left
#
# Between the two, tests/fresh/deb-boot.sh boots the root. Prints what failed
# and exits 1 at the first failure.

set -euo pipefail

fail() { echo "deb: $*" >&2; exit 1; }
conf_version() { sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$1"; }

ver=$(conf_version dkms.conf)
cver=$(conf_version samples/dkms.conf)
examples=/usr/share/doc/perfkmod-dkms/examples

install() {
	local kvers k kept f m

	# no initrd: tests/fresh/deb-boot.sh boots the kernel with its own
	INITRD=No apt-get install -y -q --no-install-recommends debhelper dh-dkms \
		linux-image-amd64 linux-headers-amd64 prometheus-node-exporter \
		prometheus
	make deb
	apt-get install -y -q --no-install-recommends \
		./.build/deb/perfkmod-dkms_*.deb ./.build/deb/perfkmod-tools_*.deb

	kvers=$(cd /lib/modules && ls -d */build | sed 's,/build$,,')
	[ -n "$kvers" ] || fail "no kernel headers installed"
	for k in $kvers; do
		ko=/lib/modules/$k/updates/dkms/perfkmod.ko
		kept=/var/lib/dkms/perfkmod/kernel-$k-$(uname -m)
		dkms status "perfkmod/$ver" -k "$k" | grep -q ": installed" ||
			fail "dkms does not list perfkmod/$ver as installed for $k"
		[ "$(modinfo -F version "$ko")" = "$ver" ] ||
			fail "$ko: version $(modinfo -F version "$ko"), not $ver"
		for f in Module.symvers perfkmod.h perfkmod_callback.h perfkmod_series.h; do
			[ -s "$kept/$f" ] || fail "DKMS's perfkmod build kept no $kept/$f"
		done
		echo "deb: perfkmod $ver built by DKMS for $k"
	done

	# the example client, as a client's author installs one; then a
	# kernel's upgrade, as DKMS's kernel hook runs it: autoinstall builds
	# perfkmod first (the client's BUILD_DEPENDS), then the client
	cp -r "$examples" "/usr/src/perfkmod-client-$cver"
	dkms add "perfkmod-client/$cver"
	for k in $kvers; do
		dkms unbuild "perfkmod/$ver" -k "$k"
		dkms autoinstall -k "$k"
		for m in "perfkmod/$ver" "perfkmod-client/$cver"; do
			dkms status "$m" -k "$k" | grep -q ": installed" ||
				fail "dkms autoinstall did not install $m for $k"
		done
		modinfo -F depends "/lib/modules/$k/updates/dkms/perfkmod_client.ko" |
			grep -qx perfkmod ||
			fail "DKMS's perfkmod_client.ko for $k does not depend on perfkmod"
	done

	sed 's/^#options perfkmod /options perfkmod /' \
		/usr/share/doc/perfkmod-tools/examples/perfkmod.conf \
		>/etc/modprobe.d/perfkmod.conf
	grep -q "^options perfkmod counters=" /etc/modprobe.d/perfkmod.conf ||
		fail "no options line to uncomment in the example perfkmod.conf"
	# the process whose page faults the client counts in the guest
	cc -O2 -o /usr/local/bin/touchpages tests/helpers/touchpages.c

	perfkstat help | grep -q '^usage: perfkstat stat ' || fail "perfkstat help"
	[ -e /usr/share/man/man1/perfkstat.1.gz ] || fail "no perfkstat(1)"
	[ -e /lib/systemd/system/perfkmod-prom.timer ] || fail "no perfkmod-prom.timer"
	echo "deb: installed"
}

purge() {
	local left

	dkms remove "perfkmod-client/$cver" --all
	rm -r "/usr/src/perfkmod-client-$cver" /etc/modprobe.d/perfkmod.conf
	apt-get remove --purge -y -q perfkmod-dkms perfkmod-tools
	left=$(ls -d /lib/modules/*/updates/dkms/perfkmod*.ko /var/lib/dkms/perfkmod* \
		/usr/src/perfkmod-* /usr/bin/perfkstat /usr/share/doc/perfkmod-* \
		/lib/systemd/system/perfkmod-* /var/lib/prometheus/node-exporter/perfkmod.prom \
		2>/dev/null || true)
	[ -z "$left" ] || fail "left after the purge: $left"
	echo "deb: purged without a trace"
}

case ${1:-} in
install | purge) "$1" ;;
*) fail "usage: tests/fresh/deb.sh install|purge" ;;
esac

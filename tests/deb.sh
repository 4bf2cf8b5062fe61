#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as a user installs them (the fresh lane runs this in
# its new Debian 12 root, as root): make deb from the clone; apt-get
# install of both packages with Debian's kernel headers; DKMS built
# perfkmod for that kernel, of the packages' version; perfkstat and its
# man page there; and a purge leaves no module, DKMS tree or source.
# Prints what failed and exits 1 at the first failure.

set -euo pipefail

fail() { echo "deb: $*" >&2; exit 1; }

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
apt-get install -y -q --no-install-recommends debhelper dh-dkms \
	linux-headers-amd64
make deb
apt-get install -y -q --no-install-recommends ./.build/deb/perfkmod-dkms_*.deb \
	./.build/deb/perfkmod-tools_*.deb

kvers=$(cd /lib/modules && ls -d */build | sed 's,/build$,,')
[ -n "$kvers" ] || fail "no kernel headers installed"
for k in $kvers; do
	ko=/lib/modules/$k/updates/dkms/perfkmod.ko
	dkms status "perfkmod/$ver" -k "$k" | grep -q ": installed" ||
		fail "dkms does not list perfkmod/$ver as installed for $k"
	[ "$(modinfo -F version "$ko")" = "$ver" ] ||
		fail "$ko: version $(modinfo -F version "$ko"), not $ver"
	echo "deb: perfkmod $ver built by DKMS for $k"
done
perfkstat help | grep -q '^usage: perfkstat stat ' || fail "perfkstat help"
[ -e /usr/share/man/man1/perfkstat.1.gz ] || fail "no perfkstat(1)"
[ -e /lib/systemd/system/perfkmod-prom.timer ] || fail "no perfkmod-prom.timer"

apt-get remove --purge -y -q perfkmod-dkms perfkmod-tools
left=$(ls -d /lib/modules/*/updates/dkms/perfkmod.ko /var/lib/dkms/perfkmod \
	/usr/src/perfkmod-* /usr/bin/perfkstat 2>/dev/null || true)
[ -z "$left" ] || fail "left after the purge: $left"
echo "deb: installed, built by DKMS, purged without a trace"

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install perfkmod with DKMS, as a user installing it would
# (dkms add, build, install), for one kernel, in scratch trees so that the
# host's DKMS state is left alone.
#
#   scripts/dkms.sh KVER OUTDIR [KDIR]
#
# KVER's headers must be installed (/lib/modules/KVER/build), or be in
# KDIR (Debian's headers extracted by scripts/kernel.sh). ARCH and
# CROSS_COMPILE in the environment reach the module's make, as a user
# cross-building with DKMS would set them. Then the example client,
# samples/ with its dkms.conf, is built and installed by DKMS against the
# Module.symvers and perfkmod.h that perfkmod's build kept. The modules
# DKMS installed are copied to OUTDIR (perfkmod.ko, perfkmod_client.ko)
# for the VM to load.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:?usage: dkms.sh KVER OUTDIR [KDIR]}
out=${2:?usage: dkms.sh KVER OUTDIR [KDIR]}
conf_version() { sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$1"; }
ver=$(conf_version "$top/dkms.conf")
cver=$(conf_version "$top/samples/dkms.conf")
tree=$top/.build/dkms-$kver
opts=(--sourcetree "$tree/src" --dkmstree "$tree/dkms" --installtree "$tree/install")
# Extracted, not installed: the host has no /lib/modules/KVER for depmod,
# which DKMS would run on it after installing (and fail).
[ -z "${3:-}" ] || opts+=(--kernelsourcedir "$3" --no-depmod)

[ -n "$ver" ] || { echo "dkms.sh: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
fail() { echo "dkms.sh: $*" >&2; exit 1; }

# dkms_install NAME VERSION: dkms add, build, install from $tree/src/NAME-VERSION
dkms_install() {
	dkms add "$1/$2" "${opts[@]}"
	dkms build "$1/$2" -k "$kver" "${opts[@]}"
	dkms install "$1/$2" -k "$kver" "${opts[@]}"
	dkms status "$1/$2" -k "$kver" "${opts[@]}" | grep -q ": installed" ||
		fail "dkms does not list $1/$2 as installed"
}

rm -rf "$tree"
mkdir -p "$tree/src/perfkmod-$ver" "$tree/src/perfkmod-client-$cver" \
	"$tree/dkms" "$tree/install/$kver"
rsync -a --exclude=.git --exclude=.build "$top/" "$tree/src/perfkmod-$ver/"
# what perfkmod-dkms ships as the example, not what make samples built
cp "$top"/samples/{Kbuild,dkms.conf,perfkmod_client.c} "$tree/src/perfkmod-client-$cver/"
dkms_install perfkmod "$ver"
kept=$tree/dkms/perfkmod/kernel-$kver-$(uname -m)
for f in Module.symvers perfkmod.h perfkmod_*.h; do
	[ -s "$kept/$f" ] || fail "DKMS's perfkmod build kept no $kept/$f"
done
dkms_install perfkmod-client "$cver"
mkdir -p "$out"
cp "$tree/install/$kver/updates/dkms/perfkmod.ko" \
	"$tree/install/$kver/updates/dkms/perfkmod_client.ko" "$out/"

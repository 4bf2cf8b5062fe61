#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install perfkmod with DKMS, as a user installing it would
# (dkms add, build, install), for one kernel, in scratch trees so that the
# host's DKMS state is left alone.
#
#   scripts/dkms.sh KVER OUTDIR
#
# KVER's headers must be installed (/lib/modules/KVER/build). The module
# DKMS installed is copied to OUTDIR/perfkmod.ko for the VM to load.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:?usage: dkms.sh KVER OUTDIR}
out=${2:?usage: dkms.sh KVER OUTDIR}
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
tree=$top/.build/dkms-$kver
opts=(--sourcetree "$tree/src" --dkmstree "$tree/dkms" --installtree "$tree/install")

[ -n "$ver" ] || { echo "dkms.sh: no PACKAGE_VERSION in dkms.conf" >&2; exit 1; }
rm -rf "$tree"
mkdir -p "$tree/src/perfkmod-$ver" "$tree/dkms" "$tree/install/$kver"
rsync -a --exclude=.git --exclude=.build "$top/" "$tree/src/perfkmod-$ver/"
dkms add "perfkmod/$ver" "${opts[@]}"
dkms build "perfkmod/$ver" -k "$kver" "${opts[@]}"
dkms install "perfkmod/$ver" -k "$kver" "${opts[@]}"
dkms status "perfkmod/$ver" -k "$kver" "${opts[@]}" | grep -q ": installed" ||
	{ echo "dkms.sh: dkms does not list perfkmod/$ver as installed" >&2; exit 1; }
mkdir -p "$out"
cp "$tree/install/$kver/updates/dkms/perfkmod.ko" "$out/perfkmod.ko"

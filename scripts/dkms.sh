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
# cross-building with DKMS would set them. The module DKMS installed is
# copied to OUTDIR/perfkmod.ko for the VM to load.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
kver=${1:?usage: dkms.sh KVER OUTDIR [KDIR]}
out=${2:?usage: dkms.sh KVER OUTDIR [KDIR]}
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
tree=$top/.build/dkms-$kver
opts=(--sourcetree "$tree/src" --dkmstree "$tree/dkms" --installtree "$tree/install")
# Extracted, not installed: the host has no /lib/modules/KVER for depmod,
# which DKMS would run on it after installing (and fail).
[ -z "${3:-}" ] || opts+=(--kernelsourcedir "$3" --no-depmod)

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

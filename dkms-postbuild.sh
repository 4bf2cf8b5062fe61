#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# DKMS's POST_BUILD (dkms.conf): keep the Module.symvers of the perfkmod.ko
# just built, and the public headers it was built from (perfkmod.h and
# the perfkmod_*.h it includes), beside DKMS's copy of the module, so that
# a client module builds against the very perfkmod that is loaded
# (Debian's kernels check symbol versions):
#
#   /var/lib/dkms/perfkmod/VERSION/KERNELRELEASE/ARCH/{Module.symvers,perfkmod*.h}
#
# reached by DKMS's own link /var/lib/dkms/perfkmod/kernel-KERNELRELEASE-ARCH
# once installed, and removed with the rest by "dkms remove".
#
#   dkms-postbuild.sh DIR    (DKMS runs it in its build directory)

set -eu

dir=${1:?usage: dkms-postbuild.sh DIR}
mkdir -p "$dir"
cp Module.symvers perfkmod.h perfkmod_*.h "$dir/"

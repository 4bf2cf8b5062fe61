#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a test kernel with an initramfs under QEMU's TCG and capture its
# console. The guest ends the VM itself (reboot -f with -no-reboot); a
# guest that hangs is killed after TIMEOUT seconds.
#
#   scripts/vm.sh ARCH IMAGE INITRD LOG TIMEOUT [KERNEL ARGS...]
#
# ARCH is x86_64 or arm64. LOG - puts the console on this terminal, for
# as long as the guest runs (TIMEOUT is then ignored). On arm64 the machine is virt with GICv3 and
# -cpu max, whose emulated PMUv3 raises overflows as pseudo-NMIs when the
# kernel is booted with irqchip.gicv3_pseudo_nmi=1 (added here).
#
# Environment: PERFKMOD_SMP, the number of CPUs (default 2);
# PERFKMOD_TCG_THREAD, single to run every vCPU in turn on one host thread
# (scripts/kernel.sh says which kernels need it, and why), else QEMU's
# default: a host thread per vCPU, so that the guest's CPUs really run at
# once (single anyway with -icount);
# PERFKMOD_QEMU_EXTRA, more QEMU options, split at spaces (e.g.
# "-icount shift=0", which scripts/bench.sh uses).

set -euo pipefail

arch=${1:?usage: vm.sh ARCH IMAGE INITRD LOG TIMEOUT [ARGS...]}
image=$2
initrd=$3
log=$4
timeout=$5
shift 5
tcg=tcg${PERFKMOD_TCG_THREAD:+,thread=$PERFKMOD_TCG_THREAD}

# oops=panic and panic=-1: a crashed guest ends at once instead of hanging.
# slab_nomerge: perf_event gets a slab cache of its own, so that the guest
# can count live perf events in /proc/slabinfo.
args="panic=-1 oops=panic printk.devkmsg=on kunit.stats_enabled=2 slab_nomerge $*"

case $arch in
x86_64)
	qemu=(qemu-system-x86_64 -accel "$tcg" -cpu max -smp "${PERFKMOD_SMP:-2}"
	      -m 2G)
	# TCG's TSC follows the host clock; without this the clocksource
	# watchdog distrusts it and the guest falls back to jiffies.
	args="console=ttyS0 tsc=reliable $args"
	;;
arm64)
	# pauth-impdef: pointer authentication with a cheap hash under TCG.
	qemu=(qemu-system-aarch64 -accel "$tcg" -M virt,gic-version=3
	      -cpu max,pauth-impdef=on -smp "${PERFKMOD_SMP:-2}" -m 2G)
	args="console=ttyAMA0 irqchip.gicv3_pseudo_nmi=1 $args"
	;;
*)
	echo "vm.sh: unknown arch '$arch'" >&2
	exit 1
	;;
esac

# shellcheck disable=SC2206 # split on purpose: a list of options
qemu+=(${PERFKMOD_QEMU_EXTRA:-})

if [ "$log" = - ]; then
	# the console on this terminal, QEMU's monitor behind Ctrl-A C
	exec "${qemu[@]}" -kernel "$image" -initrd "$initrd" -append "$args" \
		-display none -serial mon:stdio -no-reboot
fi
rc=0
timeout -k 10 "$timeout" "${qemu[@]}" -kernel "$image" -initrd "$initrd" \
	-append "$args" -display none -serial stdio -monitor none -no-reboot \
	</dev/null >"$log" 2>&1 || rc=$?
[ $rc = 124 ] && echo "vm.sh: the VM did not end within ${timeout}s" >>"$log"
exit 0

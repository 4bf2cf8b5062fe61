#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# 100,000 inputs to the control file (tests/helpers/fuzzctl.c; fewer on
# the debug kernels, where every command path is what counts): random
# bytes, mutations of valid commands, overlong names and specs, NULs,
# partial writes, writes at offsets. After every 1,000 the counter list must
# be exactly what the accepted commands made, and a new counter must work.

. /tests/lib.sh

n=100000
# the debug kernels (tests/lanes' debug) are several times slower: KASAN's
# and lockdep's checks see every command path in a quarter of the inputs,
# KCSAN's in a fifth
if lane_has kcsan; then
	n=20000
elif lane_has debug; then
	n=25000
fi
seed=${perfkmod_seed:-1}

check fuzz-load insmod $MODDIR/perfkmod.ko
out=$(fuzzctl $n $seed 2>&1)
rc=$?
note "fuzz seed $seed: $out"
if [ $rc = 0 ]; then
	pass fuzz-control-$n-inputs
else
	fail fuzz-control-$n-inputs "$(echo "$out" | tail -2 | tr '\n' ' ')"
fi
check fuzz-unload rmmod perfkmod

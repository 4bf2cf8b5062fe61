#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A user who is not root can neither read nor write anything of perfkmod's,
# nor load it; the module parameters have the modes the README documents.

. /tests/lib.sh

user() { runas 1000 1000 "$@"; }

check user-is-not-root sh -c '[ "$(runas 1000 1000 id -u)" = 1000 ]'
check_fails user-cannot-insmod user insmod $MODDIR/perfkmod.ko
check load insmod $MODDIR/perfkmod.ko
params=/sys/module/perfkmod/parameters
check param-max-counters-mode-0400 \
	sh -c "[ \"\$(stat -c %a $params/max_counters)\" = 400 ]"
check param-ring-size-mode-0600 \
	sh -c "[ \"\$(stat -c %a $params/ring_size)\" = 600 ]"
check_fails user-cannot-read-max-counters user cat $params/max_counters
check_fails user-cannot-read-ring-size user cat $params/ring_size
check_fails user-cannot-write-ring-size user sh -c "echo 128 >$params/ring_size"
check_fails user-cannot-write-series-max-mb \
	user sh -c "echo 4096 >$params/series_max_mb"
check params-owner-only \
	sh -c "[ -z \"\$(find $params -type f -perm /077)\" ]"
check_fails user-cannot-list-debugfs user ls $DBG
check_fails user-cannot-reach-debugfs user ls /sys/kernel/debug
check user-cannot-find-debugfs-files \
	sh -c "[ -z \"\$(user find $DBG 2>/dev/null)\" ]"
# no file of perfkmod's in debugfs is open to group or others
check debugfs-files-owner-only \
	sh -c "[ -z \"\$(find $DBG -type f -perm /077)\" ]"
check_fails user-cannot-rmmod user rmmod perfkmod
check unload rmmod perfkmod

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What "make shell" runs in the guest: perfkmod loaded, then the user's
# script (/tests/user.sh) or a shell on the console.

. /tests/lib.sh

insmod $MODDIR/perfkmod.ko
echo "perfkmod is loaded: its files are in $DBG, the modules in $MODDIR:"
ls $MODDIR
if [ -e /tests/user.sh ]; then
	sh /tests/user.sh
	echo "make shell: the script exited $?"
else
	echo "exit ends the VM."
	# a controlling terminal: Ctrl-C stops a command, not the shell
	setsid cttyhack sh -l
fi

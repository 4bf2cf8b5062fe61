#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make shell as a client module's author uses it (the fresh lane runs this
# in the clone): a copy of samples/ built in a directory of its own, then
# the shell, typed into, loading and unloading that module; then a script
# run with RUN= in its place. What the guest printed is shown as it comes;
# exits 1, saying what was missing or where it waited, when the output
# lacks what the commands print or the guest does not get there in time.

set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill -- -"$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/client"
cp "$top/samples/perfkmod_client.c" "$tmp/client/my_client.c"
sed 's/perfkmod_client\.o/my_client.o/' "$top/samples/Kbuild" >"$tmp/client/Kbuild"

# want WHAT LOG: LOG has the line WHAT.
want() {
	grep -qx "$1" "$2" || { echo "make shell: no '$1' in the output"; exit 1; }
}

# upto SECONDS [TEXT]: the VM's lines, shown and kept in $tmp/shell.log,
# until one has TEXT (else until the VM ends); fails after SECONDS.
upto() {
	local end=$((SECONDS + $1)) line

	while [ $SECONDS -lt $end ]; do
		IFS= read -r -t $((end - SECONDS)) line <&"$out" || {
			[ $? -gt 128 ] && break	# timed out
			[ -z "${2:-}" ] && return 0
			echo "make shell: ended before '$2'"
			exit 1
		}
		line=${line%$'\r'}
		echo "$line" | tee -a "$tmp/shell.log"
		[ -z "${2:-}" ] || [[ $line != *"$2"* ]] || return 0
	done
	if [ -n "${2:-}" ]; then
		echo "make shell: no \"$2\" in $1 s"
	else
		echo "make shell: not ended in $1 s"
	fi
	exit 1
}

cd "$top"
# The shell, in a process group of its own (killed if it hangs): typed
# into once it is up; its exit ends the VM.
coproc vm { exec setsid make shell CLIENT="$tmp/client" 2>&1; }
# (bash drops vm's descriptors and PID when it ends)
exec {out}<&"${vm[0]}" {in}>&"${vm[1]}"
# shellcheck disable=SC2154 # set by coproc
pid=$vm_PID
upto 400 "exit ends the VM."
# shellcheck disable=SC2016 # expanded in the guest
printf '%s\n' 'insmod /modules/my_client.ko && echo "loaded $((6 * 7))"' \
	'rmmod my_client && echo unloaded' exit >&"$in"
upto 120
wait "$pid"
pid=
want "loaded 42" "$tmp/shell.log"
want unloaded "$tmp/shell.log"

# A script instead of the shell; make shell fails when it does.
printf '%s\n' 'grep -q "^# NAME " /sys/kernel/debug/perfkmod/list &&' \
	'echo "list read"' 'exit 3' >"$tmp/run.sh"
rc=0
timeout -k 10 300 make shell RUN="$tmp/run.sh" </dev/null >"$tmp/run.log" 2>&1 ||
	rc=$?
tr -d '\r' <"$tmp/run.log"
tr -d '\r' <"$tmp/run.log" >"$tmp/shell.log"
[ $rc != 124 ] || { echo "make shell: RUN= not ended in 300 s"; exit 1; }
want "list read" "$tmp/shell.log"
want "make shell: the script exited 3" "$tmp/shell.log"
[ $rc != 0 ] || { echo "make shell: exit 3 in RUN= and make succeeded"; exit 1; }
echo "make shell: the shell and RUN= both ran"

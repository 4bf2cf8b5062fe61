#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make shell as a client module's author uses it (the fresh lane runs this
# in the clone): a copy of samples/ built in a directory of its own, then
# the shell, typed into, loading and unloading that module; then a script
# run with RUN= in its place. Exits 1, saying what was missing, when the
# guest's output lacks what the commands print.

set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/client"
cp "$top/samples/perfkmod_client.c" "$tmp/client/my_client.c"
printf 'obj-m := my_client.o\nccflags-y := -I%s\n' "$top" >"$tmp/client/Kbuild"

# want WHAT LOG: LOG has the line WHAT.
want() {
	grep -qx "$1" "$2" || { echo "make shell: no '$1' in $2:"; tail -20 "$2"; exit 1; }
}

cd "$top"
# The shell: typed into once it is up; its exit ends the VM.
coproc vm { make shell CLIENT="$tmp/client" 2>&1; }
# (bash drops vm's descriptors and PID when it ends)
exec {out}<&"${vm[0]}" {in}>&"${vm[1]}"
# shellcheck disable=SC2154 # set by coproc
pid=$vm_PID
while IFS= read -r -t 600 line <&$out; do
	echo "${line%$'\r'}" >>"$tmp/shell.log"
	[[ $line != *"exit ends the VM."* ]] || break
done
# shellcheck disable=SC2016 # expanded in the guest
printf '%s\n' 'insmod /modules/my_client.ko && echo "loaded $((6 * 7))"' \
	'rmmod my_client && echo unloaded' exit >&$in
while IFS= read -r -t 600 line <&$out; do
	echo "${line%$'\r'}" >>"$tmp/shell.log"
done
wait "$pid"
want "loaded 42" "$tmp/shell.log"
want unloaded "$tmp/shell.log"

# A script instead of the shell.
printf '%s\n' 'cat /sys/kernel/debug/perfkmod/summary >/dev/null &&' \
	'echo "summary read"' >"$tmp/run.sh"
make shell RUN="$tmp/run.sh" </dev/null 2>&1 | tr -d '\r' >"$tmp/run.log"
want "summary read" "$tmp/run.log"
echo "make shell: the shell and RUN= both ran"

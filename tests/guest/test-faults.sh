#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Allocation failures inside control commands: each command is run with
# its 1st, then 2nd, then 3rd... slab allocation failing (fail-nth with
# failslab) until it runs without reaching the injected failure. Every
# run that fails must leave the counters as they were; KASAN, lockdep and
# the kmemleak scan after the scripts catch what it would leave behind.
# Needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS (x86-debug).

. /tests/lib.sh

C=$DBG/control
FS=/sys/kernel/debug/failslab

if [ ! -e /proc/self/fail-nth ] || [ ! -d $FS ]; then
	skip faults "this kernel has no failslab and fail-nth"
	exit 0
fi
echo N >$FS/ignore-gfp-wait
echo 0 >$FS/verbose

state() { cat $C; ls $DBG/counters $DBG/series $DBG/regions; }
NL='
'

# inject NAME COMMAND UNDO [WANT]: fail each allocation of COMMAND in
# turn, until it runs without reaching the failure and answers WANT (ok,
# the default, or an errno name). A run that succeeds although an
# allocation failed (debugfs files are best effort) is undone with UNDO,
# which must give back control's listing to the byte; a run that fails
# must have changed nothing. A run that succeeds where WANT is an errno
# fails the test. (As few processes a run as can be: each allocation of
# a command is a run.)
inject() {
	_name=$1 _cmd=$2 _undo=$3 _want=${4:-ok} _n=1 _failed=0
	_before=$(state)
	while [ $_n -le 400 ]; do
		_out=$(kwrite -f $_n $C "$_cmd")
		_res=${_out%%"$NL"*}
		_inj=${_out##*"$NL"}
		case $_inj in
		injected | not-injected) ;;
		*) fail "$_name" "kwrite -f: $_out"; return ;;
		esac
		if [ "$_inj" = not-injected ]; then
			case $_res in
			"$_want" | "$_want "*)
				if [ "$_want" = ok ] && [ -n "$_undo" ] &&
					{ ! kwrite $C "$_undo" >/dev/null ||
						[ "$(state)" != "$_before" ]; }; then
					fail "$_name" "undo '$_undo' did not give back the state"
					return
				fi
				note "faults: $_cmd: $((_n - 1)) allocations failed" \
					"in turn, $_failed runs failed and left nothing"
				pass "$_name"
				;;
			*) fail "$_name" "'$_cmd' answered $_res, not $_want" ;;
			esac
			return
		fi
		case $_res in
		ok*)
			if [ "$_want" != ok ]; then
				fail "$_name" "allocation $_n failed and '$_cmd' answered $_res, not $_want"
				return
			elif [ -z "$_undo" ]; then
				_before=$(state)
			else
				kwrite $C "$_undo" >/dev/null ||
					{ fail "$_name" "undo '$_undo' failed"; return; }
			fi
			;;
		*)
			if [ "$(state)" != "$_before" ]; then
				fail "$_name" \
					"allocation $_n failed ($_res); '$_cmd' left a change"
				return
			fi
			_failed=$((_failed + 1))
			;;
		esac
		_n=$((_n + 1))
	done
	fail "$_name" "'$_cmd' still allocates after 400 allocations"
}

insmod $MODDIR/perfkmod.ko
kwrite $C "add keep cpu-clock,period=10000000" >/dev/null
inject faults-add-all-cpus "add fa page-faults" "del fa"
inject faults-add-cpu "add fc context-switches,cpu=0" "del fc"
inject faults-add-sampling "add fs cpu-clock,period=1000000" "del fs"
inject faults-add-task "add ft page-faults,pid=1" "del ft"
inject faults-period "period keep 20000000" ""
kwrite $C "add fd dummy" >/dev/null
inject faults-del "del fd" "add fd dummy"
inject faults-error-path "add keep dummy" "" EEXIST
inject faults-series "series fts 10ms keep" "del fts"
inject faults-series-every "series fte every=keep keep" "del fte"
inject faults-region "region fr func=iterate_dir keep" "del fr"
check faults-module-still-works sh -c "echo 'add after page-faults' >$C &&
	[ \$(cat $DBG/counters/after/value) -ge 0 ]"
check faults-unload rmmod perfkmod

echo Y >$FS/ignore-gfp-wait
echo 2 >$FS/verbose

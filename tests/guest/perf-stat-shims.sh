#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The commands perf's perf stat output tests run that the guest lacks, for
# tests/guest/test-perf-stat.sh, which links each name to this file in a
# directory first in their PATH; what it does is chosen by the name it is
# run by:
#
#   perf stat ARGS...   perfkstat stat ARGS..., the arguments exactly as
#                       given: perfkstat is to take perf stat's syntax
#                       ($PERF_STAT_TOOL instead of perfkstat, if set)
#   python3 LINT ARGS   LINT being perf_json_output_lint.py: its input (the
#                       file of --file F, or standard input) and its other
#                       arguments are kept in $PERF_STAT_SPOOL, numbered in
#                       order, for the host, which runs the real linter on
#                       them with its own Python (scripts/judge.py); exits
#                       0, for "handed over"
#   python3 --version   says what it is and exits 0: what lib/setup_python.sh
#                       asks before it runs the JSON test at all
#   mktemp TEMPLATE     busybox's mktemp with TEMPLATE's trailing X made six:
#                       it takes six (mkstemp's) where GNU's takes three or
#                       more, and perf's tests give five

case ${0##*/} in
perf)
	if [ "$1" != stat ]; then
		echo "perf: a shim of perfkstat here: perf stat alone" >&2
		exit 1
	fi
	shift
	exec "${PERF_STAT_TOOL:-perfkstat}" stat "$@"
	;;
python3 | python)
	case $1 in
	--version | -V)
		echo "Python 3 (a shim: perf_json_output_lint.py runs on the host)"
		exit 0
		;;
	*/perf_json_output_lint.py | perf_json_output_lint.py) shift ;;
	*)
		echo "python3: the guest has no Python; this shim hands only perf_json_output_lint.py's input to the host" >&2
		exit 1
		;;
	esac
	spool=${PERF_STAT_SPOOL:?no PERF_STAT_SPOOL}
	n=0
	for f in "$spool"/*.args; do
		[ -e "$f" ] && n=$((n + 1))
	done
	args='' file=-
	while [ $# -gt 0 ]; do
		case $1 in
		--file) file=$2; shift ;;
		--file=*) file=${1#--file=} ;;
		*) args="$args${args:+ }$1" ;;
		esac
		shift
	done
	if [ "$file" = - ]; then
		cat >"$spool/$n.in"
	else
		cp "$file" "$spool/$n.in"
	fi || exit 1
	# the arguments last: the entry is whole once they are there
	echo "$args" >"$spool/$n.args"
	;;
mktemp)
	t=${1:-}
	case $#:$t in
	1:*XXXXXX) ;;
	1:*XXX)
		until case $t in *XXXXXX) true ;; *) false ;; esac; do
			t=${t}X
		done
		set -- "$t"
		;;
	esac
	exec busybox mktemp "$@"
	;;
*)
	echo "perf-stat-shims.sh: run as perf, python3 or mktemp, not ${0##*/}" >&2
	exit 1
	;;
esac

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The reader of tests/lanes, the table of test lanes, for the scripts that
# source it (check.sh, kernel.sh, shell.sh): $top must name the tree.
#
#   lane_names [SET]   the lanes of SET (all, quick), or every lane, in
#                      the table's order, a line each
#   lane_get LANE      sets LANE_IN, LANE_KERNEL, LANE_ARCH, LANE_TIMEOUT
#                      and LANE_RUNS (a word each, RUNS its words) from
#                      LANE's line; returns 1 when there is no such lane
#   lane_runs WORD     whether LANE_RUNS has WORD (or WORD:...)
#   lane_kernel LANE   the lane whose kernel LANE boots (lane:NAME
#                      followed), or nothing when it boots none

lanes_file=${top:?}/tests/lanes

# The table's lines, each lane's continuation lines joined to it (with
# nothing between where the line before ends in a comma, the middle of a
# list), without the comments.
lanes_table() {
	awk '/^[ \t]*#/ || /^[ \t]*$/ { next }
		/^[ \t]/ {
			sub(/^[ \t]+/, "")
			line = line (line ~ /,$/ ? "" : " ") $0
			next
		}
		{ if (line != "") print line; line = $0 }
		END { if (line != "") print line }' "$lanes_file"
}

lane_names() {
	lanes_table | awk -v set="${1:-}" \
		'set == "" || index("," $2 ",", "," set ",") { print $1 }'
}

lane_get() {
	# no globbing of the line's words (archive:6.12.*), in here only
	local l -

	set -f
	l=$(lanes_table | awk -v lane="$1" '$1 == lane') && [ -n "$l" ] ||
		return 1
	# shellcheck disable=SC2086 # the line's words
	set -- $l
	LANE_IN=$2 LANE_KERNEL=$3 LANE_ARCH=$4 LANE_TIMEOUT=$5
	shift 5
	LANE_RUNS="$*"
}

lane_runs() {
	case " $LANE_RUNS " in *" $1 "* | *" $1:"*) return 0 ;; esac
	return 1
}

lane_kernel() {
	# shellcheck disable=SC2034 # lane_get's, kept from the caller's
	local LANE_IN LANE_KERNEL LANE_ARCH LANE_TIMEOUT LANE_RUNS

	lane_get "$1" || return 1
	case $LANE_KERNEL in
	-) ;;
	lane:*) lane_kernel "${LANE_KERNEL#lane:}" ;;
	*) echo "$1" ;;
	esac
}

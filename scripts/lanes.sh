# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The reader of tests/lanes, the table of test lanes, for the scripts that
# source it (check.sh, kernel.sh, shell.sh): $top must name the tree. Each
# of them calls lanes_check once, before anything else reads the table.
#
#   lanes_check        fails, with a line on stderr for each fault
#                      ("tests/lanes:LINE: LANE: WHY"), unless every
#                      lane's line has its six columns of known words and
#                      a name no other line has
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

# the words RUNS may have besides guest:A,B,... (lanes_check)
lanes_runs_words="kunit pmu debug kcsan guest dkms host lint bench fresh"

lanes_check() {
	awk -v runs=" $lanes_runs_words " '
		function bad(why) {
			printf "tests/lanes:%d: %s: %s\n", start, name, why
			errs++
		}
		function check(  f, n, i, w, in_) {
			sub(/[ \t]+$/, "", line)
			n = split(line, f, /[ \t]+/)
			name = f[1]
			if (n < 6) {
				bad(n " columns, not LANE IN KERNEL ARCH TIMEOUT RUNS...")
				return
			}
			if (name in seen)
				bad("a second line of this lane (the first: line " seen[name] ")")
			else
				seen[name] = start
			if (f[2] != "-") {
				split(f[2], in_, ",")
				for (i in in_)
					if (in_[i] != "all" && in_[i] != "quick")
						bad("IN: unknown word \"" in_[i] "\" (all, quick, all,quick or -)")
			}
			if (f[3] ~ /^lane:./)
				ref[name] = substr(f[3], 6) SUBSEP start
			else if (f[3] !~ /^(config:.|archive:.|debian$|-$)/)
				bad("KERNEL: unknown \"" f[3] "\" (config:FRAG,..., debian, archive:GLOB, lane:NAME or -)")
			if (f[4] !~ /^(x86_64|arm64|-)$/)
				bad("ARCH: unknown \"" f[4] "\" (x86_64, arm64 or -)")
			if (f[5] !~ /^([0-9]+|-)$/)
				bad("TIMEOUT: \"" f[5] "\" is no number of seconds (or -)")
			for (i = 6; i <= n; i++) {
				w = f[i]
				if (w ~ /^guest:[a-z0-9-]/)
					continue
				if (index(runs, " " w " ") == 0)
					bad("RUNS: unknown word \"" w "\" (" substr(runs, 2) "guest:A,B,...)")
			}
		}
		/^[ \t]*#/ || /^[ \t]*$/ { next }
		/^[ \t]/ {
			if (line == "") {
				start = NR; name = "?"
				bad("a continued line with no lane line before it")
				next
			}
			sub(/^[ \t]+/, "")
			line = line (line ~ /,$/ ? "" : " ") $0
			next
		}
		{ if (line != "") check(); line = $0; start = NR }
		END {
			if (line != "") check()
			for (name in ref) {
				split(ref[name], r, SUBSEP)
				start = r[2]
				if (!(r[1] in seen))
					bad("KERNEL: lane:" r[1] ", no such lane")
			}
			exit errs > 0
		}' "$lanes_file" >&2
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

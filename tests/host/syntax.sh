#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# perfkstat's reading of perf's event syntax, against perf's own: for each
# form this host can express (software, hardware and cache names,
# modifiers, raw, TYPE:CONFIG, tracepoints, breakpoints, the msr and power
# PMUs, lists and groups), the attr that perf stat -vv -e FORM true prints
# and the one perfkmod_parse() (parse.c built for the host against
# tests/host/shim/, by tests/host/spec_attr.c) makes of perfkstat's spec
# of FORM (perfkstat events -e FORM), field by field: type, config,
# config1/config2 (a breakpoint's bp_addr/bp_len), bp_type, the exclude_*
# bits perfkmod has, pinned, exclusive, precise_ip. A form perf refuses,
# or one of a PMU this host lacks, is a skip that says so; without perf,
# or when it cannot run, every case is.
#
# exclude_guest and exclude_host are not compared: perfkmod's counters set
# neither (its grammar has no field for them), where perf sets
# exclude_guest by default; a comment line says so where perf set it.
#
#   tests/host/syntax.sh [OUT]    builds in OUT (.build/host), prints TAP

set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/.build/host}/syntax
n=0
bad=0

ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; bad=1; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

forms=(
	page-faults cs faults task-clock cpu-clock minor-faults major-faults
	cpu-migrations alignment-faults emulation-faults dummy
	cycles instructions branch-misses L1-dcache-load-misses dTLB-loads
	page-faults:u cs:k faults:uk page-faults:h page-faults:D cs:I cs:uI
	page-faults:e instructions:u cycles:kH cycles:ppp
	r1c2 r1c2:u rc0:kD
	1:2 1:0x3
	sched:sched_switch irq:irq_handler_entry sched:sched_switch:D
	'irq:irq_handler_*' 'sched:sched_switch*'
	mem:0x1000 mem:0x1000:w mem:0x1000:r mem:0x1000:x mem:0x1000/8:w
	mem:0x1000/2:rw
	msr/tsc/ msr/smi/ msr/event=0x4/ msr/tsc/D tsc power/energy-psys/
	'page-faults,cs' '{page-faults,cs}' '{page-faults,cs}:u'
)

rm -rf "$out"
mkdir -p "$out"
if ! make -s -C "$top/tools/perfkstat" OUTPUT="$out/perfkstat/" WERROR=1 \
	>"$out/build.log" 2>&1; then
	sed 's/^/# /' "$out/build.log"
	not_ok "perfkstat builds"
	echo "1..$n"
	exit 1
fi
cp "$top/parse.c" "$out/"
if ! gcc -std=gnu11 -O2 -Wall -Werror -include "$top/tests/host/shim/linux/kernel.h" \
	-I "$top/tests/host/shim" -I "$top" -o "$out/spec_attr" "$out/parse.c" \
	"$top/tests/host/spec_attr.c" >"$out/build.log" 2>&1; then
	sed 's/^/# /' "$out/build.log"
	not_ok "parse.c builds for the host"
	echo "1..$n"
	exit 1
fi

# perf_attrs FORM: perf stat -vv's perf_event_attr blocks, the fields
# compared, in spec_attr's form; "syntax" when perf refuses FORM
perf_attrs() {
	perf stat -vv -e "$1" true 2>&1 | awk '
		/event syntax error/ { print "syntax"; exit }
		/^perf_event_attr:/ { if (blocks++) print "--"; inb = 1; next }
		/^-+$/ { inb = 0; next }
		!inb { next }
		{
			line = $0
			sub(/^ +/, "", line)
			if (line ~ /^\{ bp_addr, config1 \}/) { k = "config1"; v = $NF }
			else if (line ~ /^\{ bp_len, config2 \}/) { k = "config2"; v = $NF }
			else { k = $1; v = $2 }
			if (k ~ /^(type|config|config1|config2|bp_type|exclude_user|exclude_kernel|exclude_hv|exclude_idle|exclude_guest|exclude_host|pinned|exclusive|precise_ip)$/)
				print k, v
		}'
}

# first_blocks N: the first N blocks of standard input, a line a block,
# its fields sorted and joined by "; ", the lines sorted (the order of
# perf's fields, and of the tracepoints a pattern matches, is not ours)
first_blocks() {
	awk -v n="$1" '/^--$/ { if (++b >= n) exit; next } { print "b" b "\t" $0 }' |
		sort | awk -F'\t' '
			$1 != last { if (NR > 1) print line; line = $2; last = $1; next }
			{ line = line "; " $2 }
			END { if (NR) print line }' | sort
}

if ! command -v perf >/dev/null; then
	for f in "${forms[@]}"; do skip "$f" "no perf on this host"; done
	echo "1..$n"
	exit 0
fi
if ! perf_attrs page-faults | grep -qx 'type 1'; then
	why=$(perf stat -vv -e page-faults true 2>&1 | tail -1)
	for f in "${forms[@]}"; do skip "$f" "perf stat cannot run here: $why"; done
	echo "1..$n"
	exit 0
fi
perf_version=$(perf --version 2>/dev/null)

for f in "${forms[@]}"; do
	theirs=$(perf_attrs "$f")
	if [ "$theirs" = syntax ]; then
		skip "$f" "$perf_version does not take it"
		continue
	fi
	if [ -z "$theirs" ]; then
		skip "$f" "perf printed no attr (a PMU or tracepoint this host lacks?)"
		continue
	fi
	if ! specs=$("$out/perfkstat/perfkstat" events -e "$f" 2>"$out/err"); then
		not_ok "$f: perfkstat refuses it: $(cat "$out/err")"
		continue
	fi
	mapfile -t list < <(printf '%s\n' "$specs" | cut -f2)
	ours=$("$out/spec_attr" "${list[@]}" | first_blocks "${#list[@]}")
	want=$(printf '%s\n' "$theirs" | grep -v '^exclude_\(guest\|host\) ' |
		first_blocks "${#list[@]}")
	if [ "$ours" = "$want" ]; then
		ok "$f: perfkmod's attr of $(printf '%s ' "${list[@]}")is perf's"
	else
		not_ok "$f: perfkmod's attr of $(printf '%s ' "${list[@]}")is not perf's"
		diff <(echo "$want") <(echo "$ours") | sed 's/^/# perf < > perfkmod: /'
	fi
	if printf '%s\n' "$theirs" | grep -q '^exclude_guest 1'; then
		echo "# $f: perf sets exclude_guest, which perfkmod's counters cannot"
	fi
	case $f in
	*'}'*)
		if grep -q 'cannot be grouped' "$out/err"; then
			ok "$f: one note says the group's events count independently"
		else
			not_ok "$f: no note that the group's events count independently"
		fi ;;
	*:*H*)
		if grep -q ':H' "$out/err"; then
			ok "$f: a note says perfkmod's counters count guests too"
		else
			not_ok "$f: no note of :H"
		fi ;;
	esac
done
echo "1..$n"
exit $bad

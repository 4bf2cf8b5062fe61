#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own style gates over perfkmod's kernel code and its tool
# (tools/perfkstat, kernel style as the kernel's own tools/ are), with the
# tools of the kernel source scripts/kernel.sh extracts:
#
#   scripts/lint.sh KDIR...
#
#   checkpatch   checkpatch.pl --strict --no-tree -f on every .c and .h
#                (not tests/helpers/, small test programs), knowing
#                perfkstat's u128 and s128 (tools/perfkstat/typedefs)
#   perfkstat    tools/perfkstat builds with -Wall -Wextra -Werror
#                (WERROR=1), also statically
#   kernel-doc   kernel-doc -none -Wall on every file, and every exported
#                function documented in perfkmod.h with Context:, and
#                Return: unless it returns void
#   sparse       make C=2 W=1 against each KDIR: no warning of sparse
#                or the compiler
#   spdx         an SPDX-License-Identifier line in every file
#   dkms-version dkms.conf, debian/changelog, the DKMS commands of the
#                docs and perfkmod.h's PERFKMOD_VERSION name one version
#   docs         Documentation/perfkmod.rst builds with Sphinx, no warning
#   plot         perfkstat plot of tests/host/fixtures/record.csv, and
#                of tests/host/fixtures/record-every.csv against cycles
#                (the tool of the perfkstat gate): gnuplot's SVG is
#                well-formed XML, with a line drawn per event, titled by
#                it; the CSVs read by Python's strict csv reader
#   acyclic      scripts/object-cycles.py on each KDIR's build of the
#                module: no object file calls into another that calls
#                back, directly or through others (through the exported
#                API too); names each cycle
#   control-includes
#                control/, the root interface, is a client of perfkmod.h:
#                its files include perfkmod.h, control/'s own headers and
#                <linux/...> headers, nothing else (not internal.h)
#
# Prints "PERFKMOD-LINT ok|not ok NAME" lines (scripts/check.sh counts
# them) with the offending output, and exits 1 when a gate fails.

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
[ $# -ge 1 ] || { echo "usage: lint.sh KDIR..." >&2; exit 1; }
kdirs=("$@")
src=$(ls -d "$cache"/src/linux-source-6.12_* 2>/dev/null | head -1)
work=$top/.build/lint
bad=0

[ -n "$src" ] || { echo "lint.sh: no kernel source in $cache/src" >&2; exit 1; }
cd "$top" || exit 1
kfiles=$(git ls-files '*.c' '*.h' 2>/dev/null | grep -v '^tests/helpers/') ||
	kfiles=$(find . -name '*.[ch]' -not -path './.build/*' \
		-not -path './tests/helpers/*' | sed 's|^\./||')

# gate NAME OUTPUT: the gate passes when OUTPUT is empty.
gate() {
	if [ -z "$2" ]; then
		echo "PERFKMOD-LINT ok $1"
	else
		echo "PERFKMOD-LINT not ok $1"
		echo "$2" | sed 's/^/    /'
		bad=1
	fi
}

out=
for f in $kfiles; do
	r=$(perl "$src/scripts/checkpatch.pl" --strict --no-tree --quiet \
		--show-types --typedefsfile tools/perfkstat/typedefs -f "$f" 2>&1)
	[ -z "$r" ] || out+=$r$'\n'
done
gate checkpatch "$out"

# perfkstat, with its Makefile's warnings as errors, dynamic and static
rm -rf "$work/perfkstat" "$work/perfkstat-static"
out=$(make -s -C tools/perfkstat WERROR=1 OUTPUT="$work/perfkstat/" 2>&1 &&
	make -s -C tools/perfkstat WERROR=1 OUTPUT="$work/perfkstat-static/" \
		static 2>&1)
gate perfkstat "$out"

out=
for f in $kfiles; do
	r=$(perl "$src/scripts/kernel-doc" -none -Wall "$f" 2>&1)
	[ -z "$r" ] || out+=$r$'\n'
done
gate kernel-doc "$out"

# Every EXPORT_SYMBOL_GPL(name) has a kernel-doc comment in perfkmod.h or
# a public header it includes, under its own name or, for __name(), the
# macro that passes THIS_MODULE.
out=$(python3 - perfkmod.h $kfiles <<'EOF'
import re, sys
header = open(sys.argv[1]).read()
for sub in re.findall(r'^#include "([^"]+)"', header, re.M):
    header += open(sub).read()
docs = {}
for m in re.finditer(r"/\*\*\n \* (\w+)\(\) - (.*?)\*/\n(.*?)(?=\n\n|/\*\*)",
                     header, re.S):
    docs[m.group(1)] = (m.group(2), m.group(3))
for path in sys.argv[2:]:
    for sym in re.findall(r"EXPORT_SYMBOL_GPL\((\w+)\)", open(path).read()):
        name = sym[2:] if sym.startswith("__") else sym
        if name not in docs:
            print(f"{path}: {sym} has no kernel-doc in perfkmod.h")
            continue
        text, decl = docs[name]
        if "Context:" not in text:
            print(f"perfkmod.h: {name}() documents no Context:")
        if decl.startswith("#define"):
            ret = re.search(r"(\w[\w\s*]*?)\s*\b__%s\(" % name, header)
            void = ret and ret.group(1).strip() == "void"
        else:
            bare = re.sub(r"^((static|inline|__always_inline)\s+)+", "", decl)
            void = bare.startswith("void")
        if not void and "Return:" not in text:
            print(f"perfkmod.h: {name}() documents no Return:")
EOF
)
gate exported-api-documented "$out"

out=
for f in $(git ls-files 2>/dev/null || find . -type f -not -path './.build/*'); do
	case $f in
	*.c | *.h | *.sh | *.py | Kbuild | */Kbuild | Makefile | */Makefile | *.config | \
	dkms.conf | */dkms.conf | \
	tests/guest/* | .ci/* | scripts/*)
		head -3 "$f" | grep -q "SPDX-License-Identifier: GPL-2.0" ||
			out+="$f: no SPDX line"$'\n'
		;;
	esac
done
gate spdx "$out"

dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)
mod=$(awk '$1 == "#define" && $2 == "PERFKMOD_VERSION_MAJOR" { M = $3 }
	$1 == "#define" && $2 == "PERFKMOD_VERSION_MINOR" { m = $3 }
	END { if (M != "" && m != "") print M "." m }' perfkmod.h)
deb=$(sed -n '1s/^perfkmod (\([^)]*\)).*/\1/p' debian/changelog)
out=
[ -n "$dkms" ] && [ "$dkms" = "$mod" ] ||
	out="dkms.conf PACKAGE_VERSION '$dkms' is not perfkmod.h's PERFKMOD_VERSION '$mod'"
[ "$deb" = "$mod" ] ||
	out+="${out:+$'\n'}debian/changelog's version '$deb' is not perfkmod.h's PERFKMOD_VERSION '$mod'"
# the DKMS commands of the docs name it too
for f in README Documentation/perfkmod.rst; do
	for v in $(grep -oE 'perfkmod[-/][0-9]+\.[0-9]+' "$f" | sort -u); do
		[ "${v#perfkmod?}" = "$mod" ] ||
			out+="${out:+$'\n'}$f names $v, not perfkmod's version '$mod'"
	done
done
gate dkms-version "$out"

# The reST page, with the API pulled in by the kernel's kernel-doc
# extension: Sphinx warnings are errors.
out=$(PERFKMOD_KSRC=$src sphinx-build -W --keep-going -q -b html \
	Documentation "$work/docs" 2>&1)
gate docs "$out"

# perfkstat plot, with gnuplot: a panel per event, stacked. Each plot of
# its SVG is a group gnuplot_plot_N with the path of its line, after its
# panel's border (a rectangle) and y label (rotated text, the event). By
# time, every event of tests/host/fixtures/record.csv; against cycles
# (-x), every event of tests/host/fixtures/record-every.csv (an --every
# recording) but cycles, and none of its ip,pid,tid,mode,symbol columns,
# which a strict CSV reader finds in every row. Each panel is its own: a
# border of its own, below the one before, at the same left and right
# (one x axis); its line through every bucket inside it, its highest
# point in the panel's upper half (its own y scale: a clock's millions do
# not flatten a count of tens). plot says where it wrote, and nothing
# else, on standard error.
mkdir -p "$work"
plot_check() {
	local csv=$1 svg said
	svg=$work/$(basename "$1" .csv).svg
	shift
	rm -f "$svg"
	said=$("$work/perfkstat/perfkstat" plot "$csv" -o "$svg" "$@" 2>&1) || {
		echo "$said"
		return
	}
	python3 - "$svg" "$csv" "${2:-}" "$said" 2>&1 <<'EOF'
import csv
import re
import sys
import xml.etree.ElementTree as ET

svg = "{http://www.w3.org/2000/svg}"
with open(sys.argv[2], newline="") as f:
    r = csv.reader(f, strict=True)
    header = next(r)
    rows = list(r)
events = header[2:]
if "ip" in events:
    events = events[:events.index("ip")]
    where = ["ip", "pid", "tid", "mode", "symbol"][:len(header) - 2 - len(events)]
    if header[2 + len(events):] != where or any(len(x) != len(header) for x in rows):
        print(f"{sys.argv[2]}: not what record --every writes")
events = [e for e in events if e != sys.argv[3]]
n = len(events)
said = f"perfkstat: wrote {sys.argv[1]}: {n} event{'s' if n != 1 else ''}, a panel each"
if sys.argv[4] != said:
    print(f"plot said {sys.argv[4]!r}, not {said!r}")
try:
    root = ET.parse(sys.argv[1]).getroot()
except ET.ParseError as e:
    print(f"{sys.argv[1]}: not well-formed XML: {e}")
    sys.exit(1)
num = r"(-?[0-9.]+)"
rect = re.compile(rf"M{num},{num} L{num},{num} L{num},{num} L{num},{num} L{num},{num} Z")
border, label, panels = None, None, []
for el in root.iter():
    if el.tag == svg + "path":
        m = rect.fullmatch(el.get("d", "").strip())
        if m:
            x = [float(m.group(i)) for i in (1, 3, 5, 7)]
            y = [float(m.group(i)) for i in (2, 4, 6, 8)]
            border = (min(x), min(y), max(x), max(y))
    elif el.tag == svg + "g" and "rotate(270)" in el.get("transform", ""):
        label = " ".join(t.text or "" for t in el.iter(svg + "text"))
    elif el.tag == svg + "g" and re.fullmatch(r"gnuplot_plot_\d+[a-z]*", el.get("id", "")):
        pts = [(float(a), float(b)) for p in el.iter(svg + "path")
               for a, b in re.findall(rf"[ML]{num},{num}", p.get("d", ""))]
        panels.append((label, border, pts))
drawn = [p[0] for p in panels]
if drawn != events:
    print(f"{sys.argv[1]}: panels labelled {drawn}, not the events {events}")
for i, (label, b, pts) in enumerate(panels):
    if b is None or len(pts) <= 10:
        print(f"{sys.argv[1]}: {label}: no border, or no line through the buckets")
        continue
    if i and not (b[0] == panels[i - 1][1][0] and b[2] == panels[i - 1][1][2] and
                  b[1] >= panels[i - 1][1][3]):
        print(f"{sys.argv[1]}: {label}: its panel {b} is not under the one before")
    if any(not (b[0] - 0.5 <= x <= b[2] + 0.5 and b[1] - 0.5 <= y <= b[3] + 0.5)
           for x, y in pts):
        print(f"{sys.argv[1]}: {label}: its line leaves its panel {b}")
    if b[3] - min(y for x, y in pts) < (b[3] - b[1]) / 2:
        print(f"{sys.argv[1]}: {label}: its line stays in the lower half of its panel")
EOF
}
fixtures=tests/host/fixtures
out=$(plot_check $fixtures/record.csv
	plot_check $fixtures/record-every.csv -x cycles)
gate plot "$out"

# sparse, against each kernel: a build of its own, so that every file is
# checked; the KUnit suites where the kernel has KUnit.
for kdir in "${kdirs[@]}"; do
	name=sparse-$(basename "$kdir")
	tests='' modpost=''
	grep -qx CONFIG_KUNIT=y "$kdir/.config" 2>/dev/null && tests=PERFKMOD_TESTS=m
	# A tree made only with modules_prepare (kernel.sh LANE prepare) has
	# no Module.symvers: modpost cannot resolve the kernel's exports and
	# would stop the build at the first module. Let it warn, and forgive
	# exactly those warnings: sparse checks the compiled code, and every
	# lane that boots a kernel links the modules against its full symbol
	# list. Any other modpost warning still fails the gate.
	[ -f "$kdir/Module.symvers" ] || modpost=KBUILD_MODPOST_WARN=1
	mkdir -p "$work/$name"
	rsync -a --delete --exclude=.git --exclude=.build "$top/" "$work/$name/src/"
	if make -C "$work/$name/src" KDIR="$kdir" C=2 CHECK=sparse W=1 $tests \
		$modpost module samples bench-module clients >"$work/$name/sparse.log" 2>&1; then
		out=$(grep -E "warning:|error:|WARNING:|ERROR:" "$work/$name/sparse.log")
		[ -z "$modpost" ] || out=$(echo "$out" | grep -vE \
			'^WARNING: (Module.symvers is missing|modpost: ("\w+" \[[^]]*\] undefined!|suppressed [0-9]+ unresolved symbol))')
	else
		out=$(tail -20 "$work/$name/sparse.log")
	fi
	gate "$name" "$out"
done

# control-includes: each #include of a file under control/ names
# "perfkmod.h", a header of control/ itself ("name.h") or <linux/...>.
out=
for f in $(echo "$kfiles" | grep '^control/'); do
	while IFS=: read -r n line; do
		h=$(echo "$line" | sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//')
		case $h in
		'"perfkmod.h"'* | '<linux/'*) continue ;;
		'"'*)
			h=${h#\"}
			h=${h%%\"*}
			[[ $h == */* || ! -f control/$h ]] || continue
			;;
		esac
		out+="$f:$n: $line"$'\n'
	done < <(grep -nE '^[[:space:]]*#[[:space:]]*include' "$f")
done
gate control-includes "$out"

# The module's object files call one another one way: each cycle of
# "A has an undefined symbol B defines", in each build above.
out=
for kdir in "${kdirs[@]}"; do
	mod=$work/sparse-$(basename "$kdir")/src/perfkmod.mod
	if [ -f "$mod" ]; then
		r=$(scripts/object-cycles.py "$mod" 2>&1) ||
			out+=${out:+$'\n'}$(echo "$r" | sed "s|^|$(basename "$kdir"): |")
	else
		out+="${out:+$'\n'}$(basename "$kdir"): no perfkmod.mod (the build failed)"
	fi
done
gate acyclic "$out"

exit $bad

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run perfkmod's tests, most of them in QEMU: "make check" runs this.
#
#   scripts/check.sh [LANE...]    default: the lanes of tests/lanes in
#                                 the "all" set
#   scripts/check.sh --quick      make check QUICK=1: the "quick" set (the
#                                 host tests, the KUnit suites on the
#                                 x86-debug kernel and the guest scripts on
#                                 Debian's), for a change checked in
#                                 minutes before the full run
#   scripts/check.sh --test=NAME [LANE]
#                                 make check T=NAME: one guest script
#                                 (test-NAME or NAME; on LANE, default
#                                 distro), one KUnit suite (perfkmod_NAME,
#                                 or SUITE.CASE, a glob; default x86-kunit)
#                                 or one host test (the host lane)
#
# What each lane boots and runs is its line of tests/lanes
# (scripts/lanes.sh reads it). The host lane runs tests/host/run.sh: each
# case it prints is one test. The lint lane runs the kernel's style gates
# (scripts/lint.sh) against the 6.12 test tree and Debian's 6.1 headers:
# each gate is one test. For each lane that boots: find or build its
# kernel (scripts/kernel.sh), build the module, the client modules of
# samples/ and tests/clients/ and, where the lane runs KUnit, the KUnit
# suites, warning-free with W=1, in a directory of the lane's own
# (.build/LANE); make an initramfs; boot it; judge the console log
# (scripts/judge.py). Ends with the line
# "N passed, N failed, N skipped" over all lanes and exits 1 when
# anything failed, any kernel report included. The bench-smoke lane runs
# "make bench SMOKE=1" (scripts/bench.sh --smoke): the benchmarks with tiny
# counts on Debian's kernel; each table row produced is one test passed,
# each missing one a test failed, the scale rows of 1024 and 4096 counters
# (not run in the smoke) skips; no timing is judged. The fresh lane
# (scripts/fresh.sh) runs make demo, make lint and make check LANE=distro
# in a new Debian 12 root with nothing but build-essential and git added:
# each of them is one test, and the making of the root one more.
#
# For a developer's runs: PERFKMOD_GUEST_ARGS, more kernel command line
# for the lanes that boot, after what --test gives
# ("perfkmod_scripts=A.sh,B.sh", only those guest scripts, "none" for
# none; "kunit.filter_glob=GLOB", only those KUnit cases);
# PERFKMOD_GUEST_BIN, static programs (paths) for the guest's /bin/;
# PERFKMOD_PERF_TESTS, another tools/perf/tests/shell for the guests'
# perf stat tests (tests/guest/test-perf-stat.sh).

set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${PERFKMOD_CACHE:-$HOME/.cache/perfkmod}
. "$top/scripts/lanes.sh"
lanes_check || exit 1

# guest_scripts, kunit_suites, host_tests: the names make check T= takes
guest_scripts() {
	local f

	for f in "$top"/tests/guest/test-*.sh; do
		f=${f##*/}
		echo "${f%.sh}"
	done
}
kunit_suites() {
	awk '/struct kunit_suite .* = \{/ { s = 1 }
		s && /\.name = "/ { sub(/.*\.name = "/, ""); sub(/".*/, ""); print; s = 0 }' \
		"$top"/tests/kunit/*_test.c
}
host_tests() { "$top/tests/host/run.sh" --list; }

# test_lane NAME [LANE]: the lane to run test NAME on and the kernel
# command line that runs only it, into $lanes and $test_args; fails,
# listing the names, for an unknown one.
test_lane() {
	local t=${1%.sh} lane=${2:-}

	if guest_scripts | grep -qx -e "$t" -e "test-$t"; then
		t=${t#test-}
		test_kind=guest
		lanes=${lane:-distro}
		test_args="perfkmod_scripts=test-$t.sh perfkmod_kunit=none"
	elif kunit_suites | grep -qx "${t%%.*}"; then
		test_kind=kunit
		lanes=${lane:-x86-kunit}
		test_args="perfkmod_scripts=none kunit.filter_glob=$t"
	elif host_tests | grep -qx "$t"; then
		test_kind=host
		lanes=${lane:-host}
		PERFKMOD_HOST_TEST=$t
		export PERFKMOD_HOST_TEST
	else
		echo "check.sh: no test '$t'. The tests, by where they run:"
		echo "guest scripts (lane distro): $(guest_scripts | paste -sd" ")"
		echo "KUnit suites (lane x86-kunit; SUITE.CASE for one case):" \
			"$(kunit_suites | paste -sd" ")"
		echo "host tests (lane host): $(host_tests | paste -sd" ")"
		return 1
	fi
}

test_args= test_kind=
case ${1:-} in
--quick) lanes=$(lane_names quick) ;;
--test=*) test_lane "${1#--test=}" "${*:2}" || exit 1 ;;
*) lanes=${*:-$(lane_names all)} ;;
esac
lanes=$(echo "$lanes" | xargs)
for lane in $lanes; do
	lane_get "$lane" || {
		echo "check.sh: no lane '$lane' in tests/lanes: $(lane_names | xargs)"
		exit 1
	}
	# a T= run on a lane that cannot run that kind of test would pass
	# having run nothing of it
	if [ -n "$test_kind" ] && ! lane_runs "$test_kind"; then
		echo "check.sh: lane '$lane' runs no $test_kind test; these do:" \
			"$(for l in $(lane_names); do
				lane_get "$l" && lane_runs "$test_kind" && echo "$l"
			done | xargs)"
		exit 1
	fi
done
passed=0 failed=0 skipped=0
# every failure's line, printed again at the end: CI shows only the tail
failures=()
# where each lane's time went, a line a lane, printed at the end
timing=()

"$top/scripts/deps.sh" $lanes || exit 1

# Two lanes at a time (PERFKMOD_JOBS), each printed whole once it ends:
# QEMU runs an x86 guest on one host thread. The lanes start in the order
# of tests/lanes, the longest first, so that the two end together; one lane
# at a time while the 6.12 kernels build in the background, which then
# have the other core.
queue=()
for lane in $(lane_names); do
	case " $lanes " in *" $lane "*) queue+=("$lane") ;; esac
done

# self_built LANE: whether LANE boots a kernel built here (config:); its
# answer is its status alone: lane_get's variables stay its own, those of
# the lane the caller read are left as they were
self_built() {
	# shellcheck disable=SC2034 # lane_get's
	local k LANE_IN LANE_KERNEL LANE_ARCH LANE_TIMEOUT LANE_RUNS

	k=$(lane_kernel "$1") && [ -n "$k" ] && lane_get "$k" &&
		case $LANE_KERNEL in config:*) true ;; *) false ;; esac
}

# Build the 6.12 kernels the lanes will boot and the cache lacks in the
# background, at the lowest priority, in the order the queue needs them,
# each once.
# The x86 lanes' QEMU runs on one host thread (scripts/kernel.sh), so a
# build goes on beside a lane on the other core instead of after it; a lane
# whose kernel is not built yet waits for it on kernel.sh's lock. A build
# that fails here is made again by its lane, which reports the failure.
# Nothing is left running when check.sh ends.
prebuild=()
for lane in "${queue[@]}"; do
	self_built "$lane" || continue
	k=$(lane_kernel "$lane")
	case " ${prebuild[*]} " in *" $k "*) continue ;; esac
	"$top/scripts/kernel.sh" "$k" cached 2>/dev/null || prebuild+=("$k")
done
if [ ${#prebuild[@]} != 0 ]; then
	mkdir -p "$top/.build"
	# its own process group (setsid), all of it killed at the end; not on
	# check.sh's stdout, which a pipe may wait on
	setsid bash -c 'for lane in "${@:2}"; do
		nice -n 19 "$1" "$lane" || true
	done' kernel.sh "$top/scripts/kernel.sh" "${prebuild[@]}" \
		>/dev/null 2>"$top/.build/prebuild.log" &
	prebuild_pid=$!
	# shellcheck disable=SC2064 # this pid, now
	trap "kill -- -$prebuild_pid 2>/dev/null" EXIT
fi

# kernel_tools: what the lanes take from Debian's linux-source-6.12
# besides a kernel: tools/testing/kunit, the kernel's KUnit tool, for
# judge.py to read the lanes' KTAP with its kunit.py parse
# (PERFKMOD_KUNIT_TOOL), and tools/perf/tests/shell, perf's own tests, for
# the guests to run the perf stat output tests against perfkstat and
# judge.py to run their JSON linter (PERFKMOD_PERF_TESTS;
# tests/guest/test-perf-stat.sh). Both come from the whole tree when
# scripts/kernel.sh has extracted it, or else are extracted alone, in one
# pass over the tarball, once. Each variable already set is kept: another
# kernel's perf tests, for one.
kernel_tools() {
	local ver dir

	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
		return 1
	ver=${ver//[^A-Za-z0-9.+-]/_}
	dir=$cache/src/linux-source-6.12_$ver
	if [ ! -f "$dir/.perfkmod-extracted" ]; then
		dir=$cache/src/kernel-tools_$ver
		mkdir -p "$cache/src"
		(
			flock 8
			[ -f "$dir/.perfkmod-extracted" ] && exit 0
			rm -rf "$dir" && mkdir -p "$dir" &&
				tar -xf /usr/src/linux-source-6.12.tar.xz -C "$dir" \
					--strip-components=1 \
					linux-source-6.12/tools/testing/kunit \
					linux-source-6.12/tools/perf/tests/shell &&
				touch "$dir/.perfkmod-extracted"
		) 8>"$cache/.lock-kernel-tools" || return 1
	fi
	# (kunit.py runs only from a path ending in tools/testing/kunit)
	PERFKMOD_KUNIT_TOOL=${PERFKMOD_KUNIT_TOOL:-$dir/tools/testing/kunit/kunit.py}
	PERFKMOD_PERF_TESTS=${PERFKMOD_PERF_TESTS:-$dir/tools/perf/tests/shell}
}

lane_failed() {
	echo "$lane: FAIL $*"
	failures+=("$lane: FAIL $*")
	failed=$((failed + 1))
}

# judge.py reads the KTAP of every lane that boots with KUnit's kunit.py;
# those lanes' guests run perf's perf stat tests
for lane in $lanes; do
	if [ -n "$(lane_kernel "$lane")" ]; then
		kernel_tools || true
		export PERFKMOD_KUNIT_TOOL PERFKMOD_PERF_TESTS
		break
	fi
done

# build_modules TARGET...: build into .build/$lane/src; fail on any warning.
build_modules() {
	local dir=$top/.build/$lane src=$top/.build/$lane/src

	mkdir -p "$src"
	rsync -a --delete --exclude=.git --exclude=.build "$top/" "$src/"
	if ! PATH=${KBIN:+$KBIN:}$PATH make -C "$src" KDIR="$KDIR" ARCH="$ARCH" \
		CROSS_COMPILE="$CROSS_COMPILE" W=1 "$@" >"$dir/build.log" 2>&1; then
		lane_failed "module build failed:"
		tail -20 "$dir/build.log"
		return 1
	fi
	if grep -E "warning:|error:" "$dir/build.log"; then
		lane_failed "the module build warns (W=1)"
	fi
	return 0
}

# build_helpers: the guest's static programs: the helpers,
# tests/helpers/*.c, perfkstat (tools/perfkstat, its objects in
# helpers/.perfkstat/, which initramfs.sh leaves out) and Debian's static
# bash (scripts/deps.sh), for perf's #!/bin/bash tests.
build_helpers() {
	local out=$top/.build/$lane/helpers f bash=/bin/bash-static

	rm -rf "$out"
	mkdir -p "$out"
	for f in "$top"/tests/helpers/*.c; do
		"${CROSS_COMPILE}gcc" -static -O2 -Wall -Werror \
			-o "$out/$(basename "$f" .c)" "$f" ||
			{ lane_failed "helper $f does not build"; return 1; }
	done
	make -s -C "$top/tools/perfkstat" OUTPUT="$out/.perfkstat/" WERROR=1 \
		CROSS_COMPILE="$CROSS_COMPILE" static >/dev/null &&
		cp "$out/.perfkstat/perfkstat" "$out/" ||
		{ lane_failed "perfkstat does not build"; return 1; }
	[ -z "$CROSS_COMPILE" ] || bash=$cache/arm64-bash/bin/bash-static
	cp "$bash" "$out/bash" || { lane_failed "no $bash"; return 1; }
	# a developer's static programs for the guest
	for f in ${PERFKMOD_GUEST_BIN:-}; do
		cp "$f" "$out/" || { lane_failed "no $f (PERFKMOD_GUEST_BIN)"; return 1; }
	done
}

# perf_tests: perf's tests the guest runs (tests/guest/test-perf-stat.sh),
# the perf stat output tests, its CSV summary test and stat.sh, and their
# lib/, from PERFKMOD_PERF_TESTS
# (kernel_tools) into the module directory, for initramfs.sh's
# /tests/perf/. Without them that guest test fails, saying so.
perf_tests() {
	local out=$top/.build/$lane/src/perf-tests dir=${PERFKMOD_PERF_TESTS:-}

	rm -rf "$out"
	[ -n "$dir" ] && [ -d "$dir/lib" ] || return 0
	mkdir -p "$out"
	cp "$dir"/stat+*_output.sh "$dir/stat+csv_summary.sh" "$dir/stat.sh" \
		"$out/" && cp -r "$dir/lib" "$out/" ||
		lane_failed "cannot copy perf's tests from $dir"
}

# time_lane START WHAT: note the lane's seconds since START and WHAT they
# were spent on, for the table at the end.
time_lane() {
	timing+=("$(printf '%-12s %5d s  %s' "$lane" $((SECONDS - $1)) "$2")")
}

# guest_args: the kernel command line that picks the lane's guest scripts
# (tests/lanes' guest:A,B,...; none without guest).
guest_args() {
	local w

	for w in $LANE_RUNS; do
		case $w in
		guest) return ;;
		guest:*) echo "perfkmod_scripts=test-${w#guest:}.sh" |
			sed 's/,/.sh,test-/g'; return ;;
		esac
	done
	echo perfkmod_scripts=none
}

run_lane() {
	local lane=$1 dir=$top/.build/$1 busybox=/bin/busybox arch target=module
	local timeout counts env start=$SECONDS t kernel build guest parts only

	echo "== $lane"
	mkdir -p "$dir"
	# (eval "$(kernel.sh)" would succeed when kernel.sh fails)
	env=$("$top/scripts/kernel.sh" "$lane") || {
		lane_failed "no kernel"
		return
	}
	eval "$env"
	kernel=$((SECONDS - start)) t=$SECONDS
	lane_get "$lane"
	arch=$LANE_ARCH timeout=$LANE_TIMEOUT only=$(guest_args)
	# what the guest is told of the lane (tests/guest/lib.sh's lane_has)
	! lane_runs pmu || only+=" perfkmod_require_pmu=1"
	for w in debug kcsan dkms; do
		! lane_runs $w || only+=" perfkmod_$w=1"
	done
	[ "$arch" = x86_64 ] || busybox=$cache/arm64-busybox/bin/busybox
	! lane_runs kunit || target=tests
	build_modules $target samples clients || return
	build_helpers || return
	perf_tests
	# the kernel's modules the guest loads itself: KUnit, a module here
	if [ -e "$KDIR/lib/kunit/kunit.ko" ]; then
		mkdir -p "$dir/src/kernel"
		cp "$KDIR/lib/kunit/kunit.ko" "$dir/src/kernel/"
	fi
	# the module as DKMS builds and installs it
	if lane_runs dkms &&
		! PATH=${KBIN:+$KBIN:}$PATH ARCH=$ARCH CROSS_COMPILE=$CROSS_COMPILE \
			"$top/scripts/dkms.sh" "$KVER" "$dir/src/dkms" "$KDIR" \
			>"$dir/dkms.log" 2>&1; then
		tail -20 "$dir/dkms.log"
		lane_failed "dkms add/build/install failed (log: $dir/dkms.log)"
	fi
	"$top/scripts/initramfs.sh" "$dir/initramfs.cpio" "$busybox" \
		"$dir/src" "$dir/helpers" || { lane_failed "initramfs"; return; }
	build=$((SECONDS - t)) t=$SECONDS
	PERFKMOD_TCG_THREAD=$TCG_THREAD "$top/scripts/vm.sh" "$arch" "$IMAGE" \
		"$dir/initramfs.cpio" "$dir/console.log" "$timeout" \
		"perfkmod_lane=$lane" $only $test_args ${PERFKMOD_GUEST_ARGS:-}
	guest=$((SECONDS - t))
	"$top/scripts/judge.py" "$lane" "$dir/console.log" | tee "$dir/judge.log" |
		grep -Ev '^(counts|time) '
	# each failure with why: the indented lines after it
	mapfile -t -O ${#failures[@]} failures < <(awk -v p="^$lane: FAIL " \
		'$0 ~ p { on = 1; print; next } on && /^    / { print; next }
		{ on = 0 }' "$dir/judge.log")
	counts=$(sed -n 's/^counts //p' "$dir/judge.log")
	set -- $counts
	passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
	echo "$lane: $KVER, $((SECONDS - start)) s, console log in $dir/console.log"
	# the guest's slowest parts, by its own clock
	parts=$(sed -n 's/^time //p' "$dir/judge.log" | sort -k2,2nr | head -5 |
		awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $1, $2 }')
	time_lane "$start" "kernel $kernel, build $build, guest $guest: $parts"
}

# The style gates: each PERFKMOD-LINT line is one test.
run_lint() {
	local lane=lint kdirs=() out rc=0 p f env start=$SECONDS

	echo "== lint"
	# sparse needs a configured 6.12 tree, not a built kernel: a fresh
	# machine's make lint should not wait for a kernel build
	env=$("$top/scripts/kernel.sh" x86-debug prepare) &&
		eval "$env" && kdirs+=("$KDIR")
	env=$("$top/scripts/kernel.sh" distro) && eval "$env" && kdirs+=("$KDIR")
	[ ${#kdirs[@]} = 2 ] || { lane_failed "no kernel"; return; }
	# under the lane's lock: a background build of x86-debug (prebuild)
	# must not start in the tree sparse is reading
	out=$(flock "$cache/.lock-x86-debug" \
		"$top/scripts/lint.sh" "${kdirs[@]}" 2>&1) || rc=$?
	echo "$out" | grep -v "^PERFKMOD-LINT ok "
	p=$(echo "$out" | grep -c "^PERFKMOD-LINT ok ")
	f=$(echo "$out" | grep -c "^PERFKMOD-LINT not ok ")
	# lint.sh failing without naming a gate still fails the lane
	[ $rc = 0 ] || [ "$f" != 0 ] || f=1
	mapfile -t -O ${#failures[@]} failures < <(echo "$out" | grep "^PERFKMOD-LINT not ok ")
	echo "lint: $p passed, $f failed"
	passed=$((passed + p)) failed=$((failed + f))
	time_lane "$start" "checkpatch, kernel-doc, sparse, W=1 and the rest"
}

# The host tests (tests/host/run.sh): each "ok", "not ok" or "skip" line
# is one test, the reason of a failure the indented lines about it.
run_host() {
	local lane=host out rc=0 p f s start=$SECONDS

	echo "== host"
	out=$("$top/tests/host/run.sh" ${PERFKMOD_HOST_TEST:-} 2>&1) || rc=$?
	echo "$out" | grep -v -e "^ok " -e "^# time "
	p=$(echo "$out" | grep -c "^ok ")
	f=$(echo "$out" | grep -c "^not ok ")
	s=$(echo "$out" | grep -c "^skip ")
	# run.sh failing without a failed case still fails the lane
	[ $rc = 0 ] || [ "$f" != 0 ] || f=1
	mapfile -t -O ${#failures[@]} failures < <(echo "$out" |
		sed -n 's/^not ok /host: FAIL /p')
	echo "host: $p passed, $f failed, $s skipped, $((SECONDS - start)) s"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	time_lane "$start" "$(echo "$out" | sed -n 's/^# time //p' | paste -sd, |
		sed 's/,/, /g')"
}

# The benchmarks, smoke-sized: every row of the table must be produced.
run_bench_smoke() {
	local lane=bench-smoke out rc=0 p s m start=$SECONDS

	echo "== bench-smoke"
	out=$("$top/scripts/bench.sh" --smoke 2>&1) || rc=$?
	echo "$out" | grep -E "^(bench|error)" | grep -v "^bench: booting"
	p=$(echo "$out" | sed -n 's/^bench-smoke: \([0-9]*\) rows produced.*/\1/p')
	s=$(echo "$out" | sed -n 's/^bench-smoke: .*, \([0-9]*\) skipped.*/\1/p')
	m=$(echo "$out" | sed -n 's/^bench-smoke: .*, \([0-9]*\) missing.*/\1/p')
	p=${p:-0} s=${s:-0} m=${m:-0}
	mapfile -t -O ${#failures[@]} failures < <(echo "$out" | grep -E "^error|, [1-9][0-9]* missing")
	# bench.sh failing without a missing row (a build, a boot, a splat)
	# still fails the lane
	[ $rc = 0 ] || [ "$m" != 0 ] || m=1
	passed=$((passed + p)) failed=$((failed + m)) skipped=$((skipped + s))
	echo "bench-smoke: $((SECONDS - start)) s, table in $top/.build/bench-smoke/table.txt"
	time_lane "$start" "two boots of Debian's kernel"
}

# The README's commands on a new Debian machine: each PERFKMOD-FRESH line
# is one test.
run_fresh() {
	local lane=fresh out=$top/.build/fresh.out rc=0 p f start=$SECONDS

	echo "== fresh"
	mkdir -p "$top/.build"
	# shown as it goes: the lane takes minutes
	"$top/scripts/fresh.sh" 2>&1 | tee "$out" || rc=$?
	p=$(grep -c "^PERFKMOD-FRESH ok " "$out")
	f=$(grep -c "^PERFKMOD-FRESH not ok " "$out")
	# fresh.sh failing without naming a step still fails the lane
	[ $rc = 0 ] || [ "$f" != 0 ] || f=1
	mapfile -t -O ${#failures[@]} failures < <(grep "^PERFKMOD-FRESH not ok " "$out")
	echo "fresh: $p passed, $f failed, $((SECONDS - start)) s, logs in $top/.build/fresh/"
	passed=$((passed + p)) failed=$((failed + f))
	# each step's "fresh: NAME: exit RC, N s"
	time_lane "$start" "$(sed -n 's/^fresh: \([^:]*\): exit [0-9]*, \([0-9]*\) s$/\1 \2/p' \
		"$out" | paste -sd, | sed 's/,/, /g')"
}

# run_one LANE: one lane, in a subshell of its own: what it prints to
# .build/LANE.out, then its counts, its time and its failures to
# .build/LANE.result, for finish() to add up.
run_one() {
	local lane=$1 out=$top/.build/$1.out res=$top/.build/$1.result

	passed=0 failed=0 skipped=0 failures=() timing=()
	rm -f "$res"
	lane_get "$lane"
	if lane_runs lint; then
		run_lint
	elif lane_runs bench; then
		run_bench_smoke
	elif lane_runs fresh; then
		run_fresh
	elif lane_runs host; then
		run_host
	else
		run_lane "$lane"
	fi >"$out" 2>&1
	{
		echo "counts $passed $failed $skipped"
		printf 'timing %s\n' "${timing[@]}"
		[ ${#failures[@]} = 0 ] || printf 'failure %s\n' "${failures[@]}"
	} >"$res"
}

# finish LANE: print what a finished lane printed; add up its result.
finish() {
	local lane=$1 l

	cat "$top/.build/$lane.out"
	if [ ! -f "$top/.build/$lane.result" ]; then
		lane_failed "ended without a result (see $top/.build/$lane.out)"
		return
	fi
	while IFS= read -r l; do
		case $l in
		counts\ *)
			set -- $l
			passed=$((passed + $2)) failed=$((failed + $3))
			skipped=$((skipped + $4))
			;;
		timing\ *) timing+=("${l#timing }") ;;
		failure\ *) failures+=("${l#failure }") ;;
		esac
	done <"$top/.build/$lane.result"
}

building() { [ -n "${prebuild_pid:-}" ] && kill -0 "$prebuild_pid" 2>/dev/null; }

# pick: take the next lane to start off the queue, into $lane: the first
# one, but while the 6.12 kernels build, the first that needs none of them.
pick() {
	local i=0 j

	if building; then
		for j in "${!queue[@]}"; do
			# lint's sparse reads the x86-debug tree
			self_built "${queue[$j]}" || [ "${queue[$j]}" = lint ] ||
				{ i=$j; break; }
		done
	fi
	lane=${queue[$i]}
	unset "queue[$i]"
	queue=("${queue[@]}")
}

mkdir -p "$top/.build"
declare -A running=()
while [ ${#queue[@]} != 0 ] || [ ${#running[@]} != 0 ]; do
	limit=${PERFKMOD_JOBS:-2}
	! building || limit=1
	if [ ${#queue[@]} != 0 ] && [ ${#running[@]} -lt "$limit" ]; then
		pick
		# a line as each lane starts: its output comes when it ends
		echo "-- $lane starts, at $((SECONDS / 60)) min"
		run_one "$lane" &
		running[$!]=$lane
		continue
	fi
	# a lane ended, or the background build (not a lane)
	wait -n -p pid
	[ -n "${running[$pid]:-}" ] || continue
	finish "${running[$pid]}"
	unset "running[$pid]"
done

echo "== where the time went (seconds; guest parts by the guest's clock)"
printf '%s\n' "${timing[@]}"
echo "all          $(printf '%5d' $SECONDS) s"
if [ ${#failures[@]} != 0 ]; then
	echo "== what failed"
	printf '%s\n' "${failures[@]}"
	# each failure's first line again, last: what a short tail shows
	echo "== what failed, a line each"
	printf '%s\n' "${failures[@]}" | grep -v '^    ' | cut -c1-500
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]

# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the guest tests. Results are KTAP (the format of KUnit and
# kselftest, Documentation/dev-tools/ktap.rst), written to the kernel log
# through /dev/kmsg (the kernel is booted with printk.devkmsg=on), so that
# they reach the console whole and in order with KUnit's results and any
# kernel report. run.sh opens the lane's document and a subtest for each
# script; the cases of a script, numbered in $KTAP_COUNT, are:
#	    ok 1 NAME
#	    # NAME: WHY
#	    not ok 2 NAME
#	    ok 3 NAME # SKIP WHY
# The kernel's tools/testing/kunit/kunit.py parse reads the console log
# (scripts/judge.py).

MODDIR=/modules
DBG=/sys/kernel/debug/perfkmod
KTAP_COUNT=${KTAP_COUNT:-/tmp/ktap-count}

# lane_has WORD: the lane's RUNS in tests/lanes has WORD: pmu (a PMU whose
# hardware cases must pass), debug (a debug kernel: fewer load cycles),
# kcsan (KCSAN must be watching), dkms (DKMS installed the module).
# scripts/check.sh gives each as perfkmod_WORD=1 on the kernel command
# line (pmu as perfkmod_require_pmu=1), which init has as environment.
lane_has() {
	case $1 in
	pmu) [ "${perfkmod_require_pmu:-}" = 1 ] ;;
	debug) [ "${perfkmod_debug:-}" = 1 ] ;;
	kcsan) [ "${perfkmod_kcsan:-}" = 1 ] ;;
	dkms) [ "${perfkmod_dkms:-}" = 1 ] ;;
	*) return 1 ;;
	esac
}

# log TEXT: a line to the kernel log, cut to 900 bytes (the kernel refuses
# a longer write to /dev/kmsg).
log() { printf '%.900s\n' "$*" >/dev/kmsg; }

# note TEXT: a diagnostic line of the script's subtest, a line of TEXT each.
note() {
	printf '%s\n' "$*" | while IFS= read -r _l; do log "    # $_l"; done
}

# ktap_result VERDICT NAME [DIRECTIVE]: the next case. Shell builtins
# only (the hotplug watchdog reports through it while the system may be
# stuck); the count is in a file, as cases are also reported from
# subshells. A failure leaves $KTAP_COUNT.failed for run.sh.
ktap_result() {
	_k=0
	[ -e "$KTAP_COUNT" ] && read -r _k <"$KTAP_COUNT"
	_k=$((_k + 1))
	echo $_k >"$KTAP_COUNT"
	[ "$1" = ok ] || : >"$KTAP_COUNT.failed"
	log "    $1 $_k $2${3:+ # $3}"
}
pass() { ktap_result ok "$1"; }
fail() { note "$1: $2"; ktap_result "not ok" "$1"; }
skip() { ktap_result ok "$1" "SKIP $2"; }

# check NAME COMMAND...: one test, passed when COMMAND succeeds. What the
# command printed is logged when it fails.
check() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		pass "$_name"
	else
		fail "$_name" "exit $? from: $* ${_out:+: $(echo "$_out" | tail -3 | tr '\n' ' ')}"
	fi
}

# check_fails NAME COMMAND...: passed when COMMAND fails.
check_fails() {
	_name=$1
	shift
	if _out=$("$@" 2>&1); then
		fail "$_name" "succeeded but should fail: $*"
	else
		pass "$_name"
	fi
}

loaded() { grep -q "^$1 " /proc/modules; }

# host_case KIND NAME FILE: a case the host decides: each line of FILE as
# a diagnostic line "# PERFKMOD-KIND NAME LINE", then "# PERFKMOD-HOST NAME
# N" (N lines sent), then the case NAME, which passes here; scripts/judge.py
# has the last word (JSON: Python's json; PROM: Prometheus's own promtool
# check metrics). An empty FILE fails here.
host_case() {
	if [ ! -s "$3" ]; then
		fail "$2" "$3 is empty"
		return
	fi
	_n=0
	while IFS= read -r _l || [ -n "$_l" ]; do
		log "    # PERFKMOD-$1 $2 $_l"
		_n=$((_n + 1))
	done <"$3"
	log "    # PERFKMOD-HOST $2 $_n"
	pass "$2"
}

# prom_out NAME FILE: FILE, Prometheus metrics, checked by promtool on the
# host: the case promtool-NAME.
prom_out() { host_case PROM "promtool-$1" "$2"; }

# await SECONDS WHAT COMMAND...: run COMMAND every tenth of a second until
# it succeeds, SECONDS at most: a test waits for the event it needs (a
# file, a count, a record), never for a time, which TCG on a loaded host
# stretches. When COMMAND never succeeds, says so (WHAT: the event) and
# returns 1, for a check built on it to fail with that message.
await() {
	_n=$(($1 * 10)) _what=$2
	shift 2
	until "$@" >/dev/null 2>&1; do
		if [ $_n -le 0 ]; then
			echo "waited in vain for $_what"
			return 1
		fi
		sleep 0.1
		_n=$((_n - 1))
	done
}

# wait_file FILE: wait up to 60 s for FILE to exist (a helper's signal that
# it reached a point of its run); the test's own checks then say whether it
# did.
wait_file() { await 60 "$1" test -e "$1" >/dev/null; }

# waiter TAG: the text of a command (for sh -c) that writes its pid to
# /tmp/TAG.pid, then waits for /tmp/TAG.go, which the test makes once it
# has signalled it and its runner, and then writes /tmp/TAG.done
waiter() {
	echo ". /tests/lib.sh; echo \$\$ >/tmp/$1.pid;
		await 120 /tmp/$1.go test -e /tmp/$1.go && echo done >/tmp/$1.done"
}

# kw WANT TEXT [FILE]: one write(2) of TEXT to FILE (control) answers
# WANT: "ok" (all written) or an errno name (tests/helpers/kwrite).
kw() {
	_got=$(kwrite "${3:-$DBG/control}" "$2")
	case $_got in
	"$1" | "$1 "*) return 0 ;;
	esac
	echo "wrote '$2': got '$_got', want '$1'"
	return 1
}

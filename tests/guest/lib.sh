# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the guest tests. Results go to the kernel log through
# /dev/kmsg (the kernel is booted with printk.devkmsg=on), so they reach the
# console whole and in order with any kernel report; scripts/judge.py reads
# them from there:
#	PERFKMOD-TEST ok NAME
#	PERFKMOD-TEST not ok NAME - WHY
#	PERFKMOD-TEST skip NAME - WHY

MODDIR=/modules
DBG=/sys/kernel/debug/perfkmod

log() { echo "$*" >/dev/kmsg; }
pass() { log "PERFKMOD-TEST ok $1"; }
fail() { log "PERFKMOD-TEST not ok $1 - $2"; }
skip() { log "PERFKMOD-TEST skip $1 - $2"; }

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

# prom_out NAME FILE: FILE, Prometheus metrics, on the console, a line a
# record (PERFKMOD-PROM NAME LINE, then PERFKMOD-PROM-END NAME):
# scripts/judge.py hands it to Prometheus's own promtool on the host.
prom_out() {
	while IFS= read -r _l; do
		log "PERFKMOD-PROM $1 $_l"
	done <"$2"
	log "PERFKMOD-PROM-END $1"
}

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

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one test VM's console log.

    scripts/judge.py LANE LOG

Counts the KUnit results (the KTAP each suite prints, cross-checked against
its own "# Totals:" line), the guest integration results (PERFKMOD-TEST
lines, see tests/guest/lib.sh; the Prometheus metrics a guest printed as
PERFKMOD-PROM lines are one test each, passed when Prometheus's promtool
check metrics accepts them) and every kernel report (BUG, WARNING, Oops,
KASAN, lockdep, kmemleak, stalls), each report counting as one failure. A
KCSAN data race counts only when perfkmod's code makes one of its accesses,
or runs in the context of each (kcsan_in_perfkmod); the kernel's own races
are listed, not counted.
Prints what failed or was skipped, then "LANE: N passed, N failed,
N skipped", then for scripts/check.sh the guest's time in each part of
the run ("time PART SECONDS": the boot, each guest script, each KUnit
module, the checks at the end), and last a line "counts P F S". Exits 1
when anything failed.

A guest that ends without PERFKMOD-DONE counts as one more failure. A
guest watchdog that stops a hung test says why first (PERFKMOD-ABORT WHY,
after the test's "not ok" line and before it dumps the blocked tasks and
ends the VM): that reason and the tasks the dump shows blocked are then
what the failure reports.
"""

import json
import os
import re
import subprocess
import sys

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")
# What the kernel prints when something is wrong. Each match is a failure.
REPORTS = re.compile(
    r"BUG:|WARNING:|Oops|Kernel panic|kernel BUG at|general protection fault"
    r"|Unable to handle kernel|KASAN|UBSAN|possible (circular|recursive) locking"
    r"|inconsistent lock state|lock held when returning to user space"
    r"|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|ODEBUG:|list_(add|del) corruption"
    r"|INFO: task .* blocked for more than|rcu: INFO: .*stall|self-detected stall"
    r"|soft lockup|hard LOCKUP|unreferenced object 0x|suspected memory leak"
)
KUNIT_SUITE = re.compile(r"^    # Subtest: (\S+)")
KTAP_STRUCTURE = re.compile(r"^\s*(KTAP version|\d+\.\.\d+$|# Subtest:)")
KUNIT_CASE = re.compile(r"^( {4,})(ok|not ok) \d+ (.*?)(?: # SKIP ?(.*))?$")
KUNIT_TOTALS = re.compile(
    r"^\s*# Totals: pass:(\d+) fail:(\d+) skip:(\d+) total:(\d+)")
GUEST = re.compile(r"PERFKMOD-TEST (ok|not ok|skip) (\S+)(?: - (.*))?")
# A guest watchdog ending the run early, and the blocked tasks that sysrq w
# (or the hung task detector) then lists.
GUEST_ABORT = re.compile(r"PERFKMOD-ABORT (.*)$")
BLOCKED_TASK = re.compile(
    r"^task:(\S+)\s+state:D|^INFO: task (\S+):\d+ blocked")
# A JSON line a guest test wants parsed by a real parser (perfkstat -j):
# one object with perf stat's keys.
GUEST_JSON = re.compile(r"PERFKMOD-JSON (\S+) (.*)$")
# Prometheus metrics a guest printed, a line a record, for promtool.
GUEST_PROM = re.compile(r"PERFKMOD-PROM (\S+)(?: (.*))?$")
GUEST_PROM_END = re.compile(r"PERFKMOD-PROM-END (\S+)$")
JSON_KEYS = {"counter-value", "unit", "event", "event-runtime", "pcnt-running"}


# The line that opens one access of a KCSAN report, its stack after it:
# "write to 0x... of 8 bytes by interrupt on cpu 1:", "read (marked) to
# ...", "race at unknown origin, with read to ...".
KCSAN_ACCESS = re.compile(r"\bto 0x[0-9a-f]+ of \d+ bytes by .*:$")
# The first frame of an interrupt or exception entry: the frames below it
# are the interrupted context's, not the access's.
ENTRY_FRAME = re.compile(r"^\s*(asm_|el1h_64_|el0t_64_)")


def kcsan_in_perfkmod(block):
    """Whether a KCSAN report (its lines) is a data race of perfkmod's.

    It is when a perfkmod module's function makes one of the accesses
    (its top frame: inlined helpers count as the caller), or when each
    access's own context (its frames up to an interrupt entry) runs
    perfkmod code. A race inside the kernel that perfkmod's code merely
    called into on one side is the kernel's (e.g. hrtimer_wakeup in an
    interrupt against schedule_hrtimeout in a KUnit thread's
    usleep_range: the interrupt is no context of perfkmod's).
    """
    stacks, frames = [], None
    for b in block:
        if KCSAN_ACCESS.search(b):
            frames = []
            stacks.append(frames)
        elif frames is not None:
            if not b.strip():
                frames = None
            elif ENTRY_FRAME.match(b):
                frames.append(b)
                frames = None
            else:
                frames.append(b)
    if not stacks:
        # a report this parser does not know: perfkmod anywhere in it
        return any("[perfkmod" in b for b in block)
    if any(f and "[perfkmod" in f[0] for f in stacks):
        return True
    return all(any("[perfkmod" in x for x in f) for f in stacks)


def check_json(text):
    """Why a perfkstat -j line is not what it should be, or None."""
    try:
        obj = json.loads(text)
    except ValueError as e:
        return f"not JSON: {e}"
    if not isinstance(obj, dict):
        return "not a JSON object"
    missing = JSON_KEYS - obj.keys()
    if missing:
        return f"keys missing: {sorted(missing)}"
    if not isinstance(obj["event-runtime"], int):
        return "event-runtime is not an integer"
    if not isinstance(obj["pcnt-running"], (int, float)):
        return "pcnt-running is not a number"
    if "interval" in obj and not isinstance(obj["interval"], (int, float)):
        return "interval is not a number"
    value = obj["counter-value"]
    if value not in ("<not counted>", "<not supported>"):
        try:
            float(value)
        except (TypeError, ValueError):
            return f"counter-value {value!r} is not a number"
    return None


def check_prom(text):
    """Why Prometheus's promtool rejects metrics TEXT, or None.

    promtool is the binary in Debian's prometheus package, which
    scripts/deps.sh downloads (not installs) into the cache.
    """
    cache = os.environ.get("PERFKMOD_CACHE") or \
        os.path.expanduser("~/.cache/perfkmod")
    tool = os.environ.get("PERFKMOD_PROMTOOL") or \
        os.path.join(cache, "promtool/usr/bin/promtool")
    if not os.access(tool, os.X_OK):
        return f"no promtool at {tool} (scripts/deps.sh fetches it)"
    try:
        r = subprocess.run([tool, "check", "metrics"], input=text,
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"promtool did not run: {e}"
    if r.returncode != 0:
        out = "; ".join((r.stdout + r.stderr).split("\n")).strip("; ")
        return f"promtool check metrics: exit {r.returncode}: {out}"
    return None


def judge(lane, lines):
    passed = failed = skipped = 0
    problems, skips = [], []
    suites, totals, announced = [], 0, []
    # lines since the last KUnit result, shown with a failure; the indent
    # of that result (a result after deeper ones is the parent of
    # parameterised cases, repeating its children's verdicts)
    diag, last_indent = [], 0
    leaks, races = [], []
    done = False
    aborted, blocked = None, []
    prom = {}

    for i, raw in enumerate(lines):
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        if "PERFKMOD-DONE" in line:
            done = True
        m = GUEST_JSON.search(line)
        if m:
            name, text = m.groups()
            why = check_json(text)
            if why:
                failed += 1
                problems.append(f"integration test {name}: {why}: {text}")
            else:
                passed += 1
            continue
        m = GUEST_PROM.search(line)
        if m:
            prom.setdefault(m.group(1), []).append(m.group(2) or "")
            continue
        m = GUEST_PROM_END.search(line)
        if m:
            name = m.group(1)
            why = check_prom("".join(l + "\n" for l in prom.pop(name, [])))
            if why:
                failed += 1
                problems.append(f"integration test promtool-{name}: {why}")
            else:
                passed += 1
            continue
        m = GUEST.search(line)
        if m:
            verdict, name, why = m.groups()
            if verdict == "ok":
                passed += 1
            elif verdict == "skip":
                skipped += 1
                skips.append(f"{name}: {why}")
            else:
                failed += 1
                problems.append(f"integration test {name}: {why}")
            continue
        if "PERFKMOD-KUNIT-MODULE" in line:
            announced.append((line.split()[-1], len(suites)))
            continue
        m = GUEST_ABORT.search(line)
        if m:
            aborted = aborted or m.group(1)
            continue
        m = BLOCKED_TASK.match(line)
        if m and aborted:
            task = m.group(1) or m.group(2)
            if task not in blocked:
                blocked.append(task)
        if line.startswith("PERFKMOD-KMEMLEAK "):
            leaks.append(line[len("PERFKMOD-KMEMLEAK "):])
            continue
        if line.startswith("PERFKMOD-"):
            continue
        m = KUNIT_SUITE.match(line)
        if m:
            suites.append(m.group(1))
            continue
        m = KUNIT_CASE.match(line)
        if m and suites:
            indent, verdict, name, why = m.groups()
            where = f"{suites[-1]}.{name}"
            parent = last_indent > len(indent)
            last_indent = len(indent)
            if parent:
                pass
            elif why is not None:
                skips.append(f"{where}: {why}")
            elif verdict == "not ok":
                problems.append(f"KUnit {where}:\n    " +
                                "\n    ".join(diag[-12:]))
            diag = []
            continue
        if suites and line.strip() and not KTAP_STRUCTURE.match(line):
            diag.append(line.strip())
        m = KUNIT_TOTALS.match(line)
        if m:
            p, f, s, t = map(int, m.groups())
            if p + f + s != t:
                problems.append(f"KUnit totals do not add up: {line}")
                failed += 1
            passed, failed, skipped = passed + p, failed + f, skipped + s
            totals += 1
            continue
        if "BUG: KCSAN:" in line:
            # a data race counts against perfkmod when perfkmod's code
            # makes one of the accesses, or both sides are perfkmod's
            # (kcsan_in_perfkmod); others are the kernel's, only listed
            block = []
            for raw_next in lines[i:i + 60]:
                block.append(TIMESTAMP.sub("", raw_next.rstrip()))
                if len(block) > 1 and block[-1].startswith("====="):
                    break
            if kcsan_in_perfkmod(block):
                failed += 1
                problems.append("KCSAN report in perfkmod:\n    " +
                                "\n    ".join(block))
            else:
                races.append(line.strip())
            continue
        if REPORTS.search(line):
            failed += 1
            context = [TIMESTAMP.sub("", l.rstrip()) for l in lines[i:i + 25]]
            problems.append("kernel report:\n    " + "\n    ".join(context))

    for name in prom:
        failed += 1
        problems.append(f"integration test promtool-{name}: the metrics"
                        " ended before PERFKMOD-PROM-END")
    if leaks:
        problems.append("kmemleak report:\n    " + "\n    ".join(leaks[:60]))
    for name, first_suite in announced:
        if first_suite == len(suites):
            failed += 1
            problems.append(f"KUnit module {name} ran no suite")
    if totals != len(suites):
        failed += 1
        problems.append(f"{len(suites)} KUnit suites started but "
                        f"{totals} printed their totals (a crash?)")
    if not done and aborted:
        failed += 1
        problems.append("a guest watchdog stopped the tests early (those"
                        f" after it did not run): {aborted}" +
                        (f"; blocked tasks: {' '.join(blocked)}"
                         if blocked else "") +
                        "; the log ends with:\n    " +
                        "\n    ".join(l.rstrip() for l in lines[-15:]))
    elif not done:
        failed += 1
        problems.append("the guest did not finish its tests (crash or timeout);"
                        " the log ends with:\n    " +
                        "\n    ".join(l.rstrip() for l in lines[-15:]))
    return passed, failed, skipped, problems, skips, races


# The guest's marks of where its run is (tests/guest/run.sh, init).
PART = re.compile(r"PERFKMOD-(LANE|SCRIPT|KUNIT-MODULE|CHECKS|DONE)\b ?(\S*)")
STAMP = re.compile(r"^\[\s*(\d+\.\d+)\]")


def timings(lines):
    """The guest's seconds in each part of its run, by the kernel's
    timestamps: from boot to the first test, each script and KUnit module
    to the next mark, the leak checks after the last one to the end."""
    parts, name, start, now = [], "boot", 0.0, 0.0
    for raw in lines:
        m = STAMP.match(raw)
        if not m:
            continue
        now = float(m.group(1))
        m = PART.search(raw)
        if not m:
            continue
        parts.append((name, now - start))
        kind, what = m.groups()
        name = {"LANE": "setup", "CHECKS": "leak-checks",
                "DONE": None}.get(kind, what)
        if name is None:
            return parts
        start = now
    parts.append((name, now - start))
    return parts


def main():
    lane, path = sys.argv[1], sys.argv[2]
    with open(path, errors="replace") as f:
        lines = f.readlines()
    passed, failed, skipped, problems, skips, races = judge(lane, lines)
    for s in skips:
        print(f"{lane}: SKIP {s}")
    for r in races:
        print(f"{lane}: NOTE a data race outside perfkmod: {r}")
    for p in problems:
        print(f"{lane}: FAIL {p}")
    print(f"{lane}: {passed} passed, {failed} failed, {skipped} skipped")
    for name, secs in timings(lines):
        print(f"time {name} {secs:.0f}")
    print(f"counts {passed} {failed} {skipped}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

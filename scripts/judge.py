#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one test VM's console log.

    scripts/judge.py LANE LOG

The guest's results are one KTAP document on the console (tests/guest/
run.sh): its scripts' cases and KUnit's suites. The kernel's own
tools/testing/kunit/kunit.py parse (PERFKMOD_KUNIT_TOOL) reads it and gives
the counts; a test it counts as crashed (a result missing from a plan, a
guest that died) is a failure, and so is a document it finds malformed.
What only perfkmod needs is judged here on top:
- the host's last word on the cases whose text the guest printed for it:
  "# PERFKMOD-JSON NAME TEXT" (perfkstat -j, Python's json) and
  "# PERFKMOD-PROM NAME LINE" (Prometheus metrics, promtool check metrics,
  case promtool-NAME): a case the host rejects is failed, not passed;
- every kernel report (BUG, WARNING, Oops, KASAN, lockdep, kmemleak,
  stalls), each one more failure. A KCSAN data race counts only when
  perfkmod's code makes one of its accesses, or runs in the context of
  each (kcsan_in_perfkmod); the kernel's own races are listed, not counted;
- a guest watchdog that stops a hung test says why ("# PERFKMOD-ABORT
  WHY", before it dumps the blocked tasks and ends the VM): that reason and
  the tasks the dump shows blocked are what the crash reports.
Prints what failed or was skipped, then "LANE: N passed, N failed,
N skipped", then for scripts/check.sh the guest's time in each part of
the run ("time PART SECONDS": the boot, each script and KUnit suite, the
checks at the end), and last a line "counts P F S". Exits 1 when anything
failed. kunit.py's own report goes to LOG.kunit.
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
# kunit.py parse's last line: "Testing complete. Ran N tests: passed: N,
# failed: N, ..." (only the counts that are not 0).
KUNIT_SUMMARY = re.compile(r"Testing complete\. Ran \d+ tests:?(.*)$", re.M)
# The KTAP lines (Documentation/dev-tools/ktap.rst) read here for what to
# show of a failure and a skip; kunit.py counts them.
KTAP_SUBTEST = re.compile(r"^(\s*)# Subtest: (.*)$")
KTAP_RESULT = re.compile(r"^(\s*)(ok|not ok) \d+ (?:- )?([^#]*?)(?: # (.*))?$")
KTAP_DIAG = re.compile(r"^\s*#")
# A guest watchdog ending the run early, and the blocked tasks that sysrq w
# (or the hung task detector) then lists.
GUEST_ABORT = re.compile(r"# PERFKMOD-ABORT (.*)$")
BLOCKED_TASK = re.compile(
    r"^task:(\S+)\s+state:D|^INFO: task (\S+):\d+ blocked")
# The text of a case the host judges: a JSON line (perfkstat -j) a guest
# test wants parsed by a real parser, one object with perf stat's keys; a
# line of Prometheus metrics, for promtool.
HOST_CHECK = re.compile(r"^\s*# PERFKMOD-(JSON|PROM) (\S+)(?: (.*))?$")
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


def kunit_parse(path):
    """kunit.py parse's counts of the KTAP in the log at PATH (passed,
    failed, crashed, skipped, errors), its report saved as PATH.kunit;
    or a string saying why there are none."""
    tool = os.environ.get("PERFKMOD_KUNIT_TOOL", "")
    if not os.path.isfile(tool):
        return f"no kunit.py at '{tool}' (PERFKMOD_KUNIT_TOOL)"
    try:
        r = subprocess.run([sys.executable, tool, "parse",
                            os.path.abspath(path)],
                           capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"kunit.py parse did not run: {e}"
    with open(path + ".kunit", "w") as f:
        f.write(r.stdout + r.stderr)
    m = KUNIT_SUMMARY.search(r.stdout)
    if not m:
        return f"kunit.py parse gave no summary (exit {r.returncode})"
    counts = {}
    for key, value in re.findall(r"(passed|failed|crashed|skipped|errors):"
                                 r" (\d+)", m.group(1)):
        counts[key] = int(value)
    return tuple(counts.get(k, 0) for k in
                 ("passed", "failed", "crashed", "skipped", "errors"))


def judge(lane, lines, counts):
    """The verdict on one console log (its LINES), given kunit.py's
    COUNTS of its KTAP: (passed, failed, skipped, problems, skips,
    races)."""
    problems, skips, races = [], [], []
    if isinstance(counts, str):
        return 0, 1, 0, [counts], skips, races
    passed, failed, crashed, skipped, errors = counts
    failed += crashed
    if errors and not failed:
        failed += 1
        problems.append(f"kunit.py parse found {errors} errors in the KTAP"
                        f" (its report: LOG.kunit)")
    # the subtests open now, their names by the indent of their header;
    # the diagnostic lines since the last result, shown with a failure;
    # the text of each case the host judges, with its check
    groups, diag = {}, []
    aborted, blocked = None, []
    host = {}

    for i, raw in enumerate(lines):
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        m = HOST_CHECK.match(line)
        if m:
            kind, name, text = m.groups()
            if kind == "PROM":
                name = "promtool-" + name
            check = check_json if kind == "JSON" else check_prom
            host.setdefault(name, (check, []))[1].append(text or "")
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
        m = KTAP_SUBTEST.match(line)
        if m:
            groups[len(m.group(1))] = m.group(2)
            diag = []
            continue
        m = KTAP_RESULT.match(line)
        if m:
            indent, verdict, name, directive = m.groups()
            depth = len(indent)
            # the result of a subtest, whose cases are one level deeper;
            # its "not ok" repeats theirs
            parent = depth + 4 in groups
            where = ".".join([groups[k] for k in sorted(groups)
                              if k <= depth] + [name])
            skip = (directive or "").startswith("SKIP")
            if name in host and verdict == "ok" and not skip:
                check, text = host.pop(name)
                why = check("".join(t + "\n" for t in text))
                if why:
                    passed, failed = passed - 1, failed + 1
                    problems.append(f"{where}: {why}")
            elif skip and not parent:
                skips.append(f"{where}: {directive[4:].strip()}")
            elif verdict == "not ok" and not parent:
                problems.append(f"{where}:\n    " + "\n    ".join(diag[-12:]))
            for k in [k for k in groups if k > depth]:
                del groups[k]
            diag = []
            continue
        if KTAP_DIAG.match(line):
            diag.append(line.strip())
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
        elif line.strip():
            diag.append(line.strip())

    for name in host:
        failed += 1
        problems.append(f"{name}: its text reached the host, its result"
                        " did not")
    if crashed:
        problems.append(f"{crashed} tests crashed or are missing from the "
                        "KTAP plans (kunit.py parse)" +
                        (f"; the guest stopped in {groups[4]}"
                         if 4 in groups else "") +
                        (f": a guest watchdog stopped the tests: {aborted}"
                         if aborted else "") +
                        (f"; blocked tasks: {' '.join(blocked)}"
                         if blocked else "") +
                        "; the log ends with:\n    " +
                        "\n    ".join(l.rstrip() for l in lines[-15:]))
    return passed, failed, skipped, problems, skips, races


# The start of each top-level subtest of the lane's document: a script, a
# KUnit suite, the checks; the document's own start ends the boot.
PART = re.compile(r"^(KTAP version 1|    # Subtest: (\S+))$")
STAMP = re.compile(r"^\[\s*(\d+\.\d+)\]")


def timings(lines):
    """The guest's seconds in each part of its run, by the kernel's
    timestamps: from boot to the lane's document, then each top-level
    subtest (a script, a KUnit suite, the checks) to the next one, the
    last one to the end of the log."""
    parts, name, start, now, begun = [], "boot", 0.0, 0.0, False
    for raw in lines:
        m = STAMP.match(raw)
        if not m:
            continue
        now = float(m.group(1))
        m = PART.match(TIMESTAMP.sub("", raw.rstrip()))
        if not m or (begun and not m.group(2)):
            continue
        begun = True
        if name is not None:
            parts.append((name, now - start))
        name, start = m.group(2), now
    if name is not None:
        parts.append((name, now - start))
    return parts


def main():
    lane, path = sys.argv[1], sys.argv[2]
    with open(path, errors="replace") as f:
        lines = f.readlines()
    passed, failed, skipped, problems, skips, races = judge(
        lane, lines, kunit_parse(path))
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

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
  case promtool-NAME) and "# PERFKMOD-PERFJSON NAME BASE64" (what perf's
  stat+json_output.sh gave its linter, perf_json_output_lint.py, which
  runs here, from PERFKMOD_PERF_TESTS) and "# PERFKMOD-PERFDATA NAME
  BASE64" (a perfkstat recording as perf.data and CSV, which the host's
  perf must read alike: scripts/perfdata-check.py): a case the host
  rejects is failed, not passed, and one it cannot judge (no perf) is
  skipped;
- every kernel report (BUG, WARNING, Oops, KASAN, lockdep, kmemleak,
  stalls), each one more failure. A KCSAN data race counts only when one
  of its accesses is perfkmod's code or the memory is perfkmod's
  (kcsan_in_perfkmod); a race between two accesses of the kernel's own
  code is listed with its stacks, not counted;
- a guest watchdog that stops a hung test says why ("# PERFKMOD-ABORT
  WHY", before it dumps the blocked tasks and ends the VM): that reason and
  the tasks the dump shows blocked are what the crash reports.
Prints what failed or was skipped, then "LANE: N passed, N failed,
N skipped", then for scripts/check.sh the guest's time in each part of
the run ("time PART SECONDS": the boot, each script and KUnit suite, the
checks at the end), and last a line "counts P F S". Exits 1 when anything
failed. kunit.py's own report goes to LOG.kunit.
"""

import base64
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\]\s?")
# What the kernel prints when something is wrong. Each match is a failure.
REPORTS = re.compile(
    r"BUG:|WARNING:|Oops|Kernel panic|kernel BUG at|general protection fault"
    r"|Unable to handle kernel|KASAN|UBSAN|possible (circular|recursive) locking"
    r"|inconsistent lock state|lock held when returning to user space"
    r"|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|ODEBUG:|list_(add|del) corruption"
    r"|INFO: task .* blocked for more than|rcu: INFO: .*stall|self-detected stall"
    r"|soft lockup|hard LOCKUP|unreferenced object 0x|suspected memory leak"
    r"|printk messages dropped"
)
# Where a report says the CPU was: arm64's "pc : SYMBOL+OFF/LEN", x86's
# "RIP: 0010:SYMBOL+OFF/LEN", each with " [MODULE]" for a module's code.
REPORT_PC = re.compile(r"^(?:pc : |RIP: [0-9a-f]{4}:)(\S+(?: \[\S+\])?)")


def report_summary(block):
    """One line of a kernel report's BLOCK (its lines, the report's
    first): the report and, where it says before its call trace, the
    function it stopped in."""
    where = None
    for line in block[1:40]:
        if line.lower().startswith("call trace:"):
            break
        m = REPORT_PC.match(line)
        if m:
            where = m.group(1)
            break
    return block[0] + (f" (in {where})" if where else "")


# kunit.py parse's last line: "Testing complete. Ran N tests: passed: N,
# failed: N, ..." (only the counts that are not 0).
KUNIT_SUMMARY = re.compile(r"Testing complete\. Ran \d+ tests:?(.*)$", re.M)
# The KTAP lines (Documentation/dev-tools/ktap.rst) read here for what to
# show of a failure and a skip; kunit.py counts them.
KTAP_SUBTEST = re.compile(r"^(\s*)# Subtest: (.*)$")
KTAP_RESULT = re.compile(r"^(\s*)(ok|not ok) \d+ (?:- )?(.*?)(?: # (.*))?$")
KTAP_DIAG = re.compile(r"^\s*#")
# run.sh's account of a KUnit module from KUnit's debugfs, before its result
KUNIT_DEBUGFS = re.compile(
    r"^# KUnit debugfs totals: pass:(\d+) fail:(\d+) skip:(\d+)$")
# A guest watchdog ending the run early, and the blocked tasks that sysrq w
# (or the hung task detector) then lists.
GUEST_ABORT = re.compile(r"# PERFKMOD-ABORT (.*)$")
BLOCKED_TASK = re.compile(
    r"^task:(\S+)\s+state:D|^INFO: task (\S+):\d+ blocked")
# The text of a case the host judges: a JSON line (perfkstat -j) a guest
# test wants parsed by a real parser, one object with perf stat's keys; a
# line of Prometheus metrics, for promtool.
HOST_CHECK = re.compile(
    r"^\s*# PERFKMOD-(JSON|PROM|PERFJSON|PERFDATA|HOST) (\S+)(?: (.*))?$")
JSON_KEYS = {"counter-value", "unit", "event", "event-runtime", "pcnt-running"}
# A test that misuses perfkmod on purpose announces the warning it is due
# ("PERFKMOD-EXPECT-WARN TEXT", in a KUnit diagnostic or a kernel message;
# TEXT of 16 characters at least): one WARNING whose message (the line
# before it) holds TEXT is then expected, not a failure, for each time
# TEXT was announced; an announced warning that never comes is one (a
# warning that warns once a boot may come for the first announcement
# only).
EXPECT_WARN = re.compile(r"PERFKMOD-EXPECT-WARN (.+)$")


# The line that opens one access of a KCSAN report, its stack after it:
# "write to 0x... of 8 bytes by interrupt on cpu 1:", "read (marked) to
# ...", "race at unknown origin, with read to ...".
KCSAN_ACCESS = re.compile(r"\bto (0x[0-9a-f]+) of \d+ bytes by .*:$")
# The first frame of an interrupt or exception entry: the frames below it
# are the interrupted context's, not the access's.
ENTRY_FRAME = re.compile(r"^\s*(asm_|el1h_64_|el0t_64_)")
# The kernel's library functions that act on the memory their caller
# passes and nothing else (out of line, as inlined helpers are not): the
# access is their caller's.
LIBRARY_FRAME = re.compile(
    r"^\s*(mem(set|cpy|move|cmp|chr)|str\w+|__list_\w+|__hlist_\w+"
    r"|__?bitmap_\w+|_?find_\w*bit\w*|v?s?n?printf|kstrto\w+|sort\w*)\+0x")
# The kernel functions through which perfkmod's code reaches the VFS's own
# objects (dentries, inodes, open files): its debugfs files, their removal
# and their reads. A race of the VFS there, between two such entries, is
# the kernel's.
VFS_ENTRY = re.compile(r"^(debugfs_\w+|simple_\w+|d_\w+|dput|full_proxy_\w+"
                       r"|vfs_\w+|seq_\w+|simple_read_from_buffer)$")
# x86_64's module area (MODULES_VADDR, the end of the kernel image's 512
# MiB or 1 GiB, up to MODULES_END): a module's static memory. In the
# guests the modules there are perfkmod's, its tests' and its clients'
# (and KUnit's).
MODULE_AREA = (0xffffffffa0000000, 0xffffffffff000000)


def perfkmod_frame(frame):
    return "[perfkmod" in frame


def kcsan_in_perfkmod(block):
    """Whether a KCSAN report (its lines) is a data race of perfkmod's.

    It is when either access is perfkmod's: its function is a perfkmod
    module's (inlined helpers count as the caller, and so do the kernel's
    library functions that act on the memory the caller passes, such as
    memcpy or list debugging); or when the memory is perfkmod's (a
    module's static memory); or when each access's own context (its
    frames up to an interrupt entry) runs perfkmod code: perfkmod drove
    both, through kernel functions, at memory it may own (two
    hrtimer_start() of one timer at once, an hrtimer_start() against an
    hrtimer_cancel()). Except where both reach the VFS's own objects
    through it (VFS_ENTRY): d_invalidate() in a debugfs_remove() of
    perfkmod's against debugfs_file_get() in a read of the file is the
    VFS's race. A race between accesses of the kernel's own code that
    perfkmod's code did not drive on both sides is the kernel's (e.g.
    hrtimer_wakeup in an interrupt against schedule_hrtimeout in a KUnit
    thread's usleep_range: the interrupt is no context of perfkmod's).
    """
    stacks, frames, addrs = [], None, []
    for b in block:
        m = KCSAN_ACCESS.search(b)
        if m:
            frames = []
            stacks.append(frames)
            addrs.append(int(m.group(1), 16))
        elif frames is not None:
            if not b.strip():
                frames = None
            elif ENTRY_FRAME.match(b):
                frames = None
            else:
                frames.append(b)
    if not stacks:
        # a report this parser does not know: perfkmod anywhere in it
        return any(perfkmod_frame(b) for b in block)
    if any(MODULE_AREA[0] <= a < MODULE_AREA[1] for a in addrs):
        return True
    entered = []
    for f in stacks:
        own = [x for x in f if not LIBRARY_FRAME.match(x)]
        if own and perfkmod_frame(own[0]):
            return True
        # the kernel function perfkmod's code called on this side
        i = next((i for i, x in enumerate(f) if perfkmod_frame(x)), None)
        entered.append(f[i - 1].split("+")[0].strip() if i else None)
    if None in entered:
        return False
    return not all(VFS_ENTRY.match(e) for e in entered)


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


def check_perf_json(text):
    """Why perf's JSON linter rejects what a guest's perf stat gave it, or
    None.

    TEXT is base64 (tests/guest/test-perf-stat.sh): the linter's arguments
    on a first line, then its input, which it reads here from standard
    input; the linter is perf_json_output_lint.py of the perf tests the
    guest ran (PERFKMOD_PERF_TESTS, scripts/check.sh), run with the host's
    Python.
    """
    tests = os.environ.get("PERFKMOD_PERF_TESTS", "")
    lint = os.path.join(tests, "lib", "perf_json_output_lint.py")
    if not tests or not os.path.isfile(lint):
        return f"no perf_json_output_lint.py in '{tests}' (PERFKMOD_PERF_TESTS)"
    try:
        data = base64.b64decode(text)
    except ValueError as e:
        return f"not base64: {e}"
    args, _, data = data.partition(b"\n")
    args = args.decode(errors="replace").split()
    try:
        r = subprocess.run([sys.executable, lint] + args, input=data,
                           capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"perf_json_output_lint.py did not run: {e}"
    if r.returncode != 0:
        # the exception, last on stderr, then the start of the input it
        # prints (with a blank line after each line)
        err = r.stderr.decode(errors="replace").strip().splitlines()
        out = [l for l in r.stdout.decode(errors="replace").splitlines()
               if l.strip()]
        return (f"perf_json_output_lint.py {' '.join(args)}: exit "
                f"{r.returncode}: {err[-1] if err else ''}\n    " +
                "\n    ".join(out[:6]))
    return None


def check_perf_data(text):
    """Why the host's perf does not read a guest's recording as its CSV,
    or None; ("skip", WHY) when there is no perf to ask.

    TEXT is base64 of a gzipped tar (tests/guest/test-perfdata.sh):
    perf.data, samples.csv and kallsyms, which scripts/perfdata-check.py
    compares.
    """
    check = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         "perfdata-check.py")
    try:
        data = base64.b64decode(text)
        with tempfile.TemporaryDirectory() as d:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
                for m in t.getmembers():
                    if not m.isfile() or "/" in m.name:
                        return f"an unexpected member in the tar: {m.name}"
                    with open(os.path.join(d, m.name), "wb") as f:
                        f.write(t.extractfile(m).read())
            r = subprocess.run([sys.executable, check, d], capture_output=True,
                               text=True, timeout=900)
    except (ValueError, OSError, tarfile.TarError,
            subprocess.TimeoutExpired) as e:
        return f"the recording did not reach perf: {type(e).__name__}: {e}"
    out = (r.stdout + r.stderr).strip()
    if r.returncode == 0 and out.startswith("SKIP "):
        return ("skip", out[5:])
    if r.returncode != 0:
        return "perfdata-check.py: " + "\n    ".join(out.splitlines()[:20])
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
    notes)."""
    problems, skips, notes = [], [], []
    tail = "; the log ends with:\n    " + \
        "\n    ".join(l.rstrip() for l in lines[-15:])
    if isinstance(counts, str):
        return 0, 1, 0, [counts + tail], skips, notes
    passed, failed, crashed, skipped, errors = counts
    failed += crashed
    # Read here too, for what to show and as a check on kunit.py's
    # reading: the subtests open now, their names by the indent of their
    # header; the lines since the last result, shown with a failure; the
    # leaves' verdicts; the failures counted when each subtest opened.
    groups, diag = {}, []
    leaves = {"ok": 0, "not ok": 0, "skip": 0}
    opened = {}
    # The leaves counted when a KUnit module's own document began inside
    # the lane's (its lines at column 0); KUnit's debugfs totals for the
    # module, which run.sh gives before the module's result.
    started, nested, debugfs = False, None, None
    aborted, blocked = None, []
    host, sent = {}, {}
    warns = {}
    extra = 0
    # the first kernel report's one line: a crashed guest's likely cause
    first_report = None

    for i, raw in enumerate(lines):
        line = TIMESTAMP.sub("", raw.rstrip("\r\n"))
        m = EXPECT_WARN.search(line)
        if m and len(m.group(1).strip()) >= 16:
            w = warns.setdefault(m.group(1).strip(), [0, 0])
            w[0] += 1
        m = HOST_CHECK.match(line)
        if m:
            kind, name, text = m.groups()
            if kind == "HOST":
                sent[name] = int(text or 0)
            else:
                check = {"JSON": check_json, "PROM": check_prom,
                         "PERFJSON": check_perf_json,
                         "PERFDATA": check_perf_data}[kind]
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
        m = KUNIT_DEBUGFS.match(line)
        if m:
            debugfs = tuple(map(int, m.groups()))
            continue
        if line.startswith("KTAP version"):
            if started:
                nested = dict(leaves)
            started = True
            continue
        m = KTAP_SUBTEST.match(line)
        if m:
            groups[len(m.group(1))] = m.group(2)
            opened[len(m.group(1))] = leaves["not ok"]
            diag = []
            continue
        m = KTAP_RESULT.match(line)
        if m:
            indent, verdict, name, directive = m.groups()
            depth = len(indent)
            name = name.strip()
            # the result of a subtest, whose cases are one level deeper
            # (or of a KUnit module, whose document is at column 0)
            parent = depth + 4 in groups
            since = opened.get(depth + 4, leaves["not ok"])
            if depth == 0 and debugfs is not None:
                # a KUnit module's result, after its document, if any
                mark = nested or dict(leaves)
                parent, since = nested is not None, mark["not ok"]
                got = tuple(leaves[k] - mark[k]
                            for k in ("ok", "not ok", "skip"))
                if got != debugfs:
                    extra += 1
                    problems.append(
                        f"{name}: KUnit's debugfs has {debugfs[0]} passed, "
                        f"{debugfs[1]} failed, {debugfs[2]} skipped; the "
                        f"console {got[0]}, {got[1]}, {got[2]}")
                nested, debugfs = None, None
            where = ".".join([groups[k] for k in sorted(groups)
                              if k <= depth] + [name])
            skip = (directive or "").startswith("SKIP")
            if parent:
                if verdict == "not ok" and leaves["not ok"] == since:
                    # "not ok" with none of its cases failed: a case the
                    # readers missed, or the subtest's own failure
                    extra += 1
                    problems.append(f"{where}: not ok, but none of its "
                                    "cases failed:\n    " +
                                    "\n    ".join(diag[-12:]))
            elif skip:
                leaves["skip"] += 1
                skips.append(f"{where}: {directive[4:].strip()}")
            else:
                leaves[verdict] += 1
                if verdict == "not ok":
                    problems.append(f"{where}:\n    " +
                                    "\n    ".join(diag[-12:]))
            if name in host or name in sent:
                check, text = host.pop(name, (None, []))
                want = sent.pop(name, None)
                if want is None or want != len(text):
                    why = f"{want} lines sent, {len(text)} arrived"
                else:
                    why = check("".join(t + "\n" for t in text))
                if isinstance(why, tuple):
                    # the host cannot judge it: a skip, with why
                    if verdict == "ok" and not parent and not skip:
                        passed, skipped = passed - 1, skipped + 1
                        skips.append(f"{where}: {why[1]}")
                    why = None
                if why and verdict == "ok" and not parent and not skip:
                    passed, failed = passed - 1, failed + 1
                    problems.append(f"{where}: {why}")
            for k in [k for k in groups if k > depth]:
                del groups[k]
            diag = []
            continue
        if KTAP_DIAG.match(line):
            diag.append(line.strip())
            continue
        if "BUG: KCSAN:" in line:
            # a data race counts against perfkmod when one access or the
            # memory is perfkmod's (kcsan_in_perfkmod); others are the
            # kernel's, listed with their stacks
            block = []
            for raw_next in lines[i:i + 60]:
                block.append(TIMESTAMP.sub("", raw_next.rstrip()))
                if len(block) > 1 and block[-1].startswith("====="):
                    break
            if kcsan_in_perfkmod(block):
                extra += 1
                problems.append("KCSAN report in perfkmod:\n    " +
                                "\n    ".join(block))
            else:
                notes.append("a data race outside perfkmod: " +
                             "\n    ".join(block))
            continue
        if REPORTS.search(line):
            prev = TIMESTAMP.sub("", lines[i - 1].rstrip()) if i else ""
            want = [w for w, (asked, came) in warns.items()
                    if w in prev and came < asked]
            if line.startswith("WARNING:") and want:
                warns[want[0]][1] += 1
                notes.append(f"a warning a test asked for: {prev}")
                continue
            extra += 1
            block = [TIMESTAMP.sub("", l.rstrip()) for l in lines[i:i + 40]]
            first_report = first_report or report_summary(block)
            problems.append("kernel report: " + report_summary(block) +
                            "\n    " + "\n    ".join(block[:25]))
        elif line.strip() and started:
            diag.append(line.strip())

    for name in set(host) | set(sent):
        extra += 1
        problems.append(f"{name}: its text reached the host, its case did not")
    for w in [w for w, (asked, came) in warns.items() if not came]:
        extra += 1
        problems.append(f"the warning a test announced never came: {w}")
    # what this reading finds and kunit.py does not (a result it could not
    # parse, or one outside the document's plan) fails too
    ours = (leaves["ok"], leaves["not ok"], leaves["skip"])
    if ours != (counts[0], counts[1], counts[3]) and not crashed:
        extra += 1
        problems.append(f"the console has {ours[0]} passed, {ours[1]} failed,"
                        f" {ours[2]} skipped cases; kunit.py parse read "
                        f"{counts[0]}, {counts[1]}, {counts[3]}")
    failed = max(failed, leaves["not ok"]) + extra
    if crashed or errors:
        why = f"kunit.py parse: {crashed} tests crashed or missing from the" \
            f" KTAP plans, {errors} errors (its report: LOG.kunit)"
        if aborted:
            why += f"; a guest watchdog stopped the tests: {aborted}"
        if blocked:
            why += f"; blocked tasks: {' '.join(blocked)}"
        if 4 in groups:
            why += f"; the guest stopped in {groups[4]}"
        if first_report:
            why += f"; its first kernel report: {first_report}"
        problems.append(why + tail)
        if not failed:
            failed = 1
    if problems and not failed:
        failed = len(problems)
    return passed, failed, skipped, problems, skips, notes


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
    passed, failed, skipped, problems, skips, notes = judge(
        lane, lines, kunit_parse(path))
    for s in skips:
        print(f"{lane}: SKIP {s}")
    for n in notes:
        print(f"{lane}: NOTE {n}")
    for p in problems:
        print(f"{lane}: FAIL {p}")
    print(f"{lane}: {passed} passed, {failed} failed, {skipped} skipped")
    for name, secs in timings(lines):
        print(f"time {name} {secs:.0f}")
    print(f"counts {passed} {failed} {skipped}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Whether the host's perf reads a guest's perfkstat recording as its CSV.

    scripts/perfdata-check.py DIR

DIR holds what tests/guest/test-perfdata.sh sent: perf.data and
samples.csv, one recording of perfkstat record --every --symbols
--perf-data, and kallsyms, the guest's /proc/kallsyms lines that name its
kernel IPs (perf report --kallsyms, as for a recording of another
machine). perf (PERFKMOD_PERF, or perf in PATH: Debian's linux-perf) must
show, of the trigger (the CSV's first event):
- in perf script, a sample a row: the same number, and the same IPs,
  pids, tids, CPUs and times (seconds since the first, as the CSV rounds
  them), as sorted lists;
- each event's count: what perf script gives its samples (the group
  read's differences) sums to the CSV's column;
- in perf report, the trigger's samples as many as the rows, and the same
  top kernel symbols: each of the five most frequent on either side, by
  the CSV's symbol column and by perf report's [k] lines, has the same
  number of samples on the other (a symbol's aliases, names at its
  address, count as one).
Prints what differs and exits 1; prints "SKIP WHY" and exits 0 when there
is no perf to ask; prints nothing and exits 0 when all agree.
"""

import collections
import csv
import os
import re
import shutil
import subprocess
import sys

SCRIPT = re.compile(r"^\s*(\d+)/(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\d+)\s+"
                    r"(.+?):\s+([0-9a-f]+)\s*$")
SECTION = re.compile(r"^# Samples: (\d+\S*)\s+of event '(.*)'$")
REPORT_LINE = re.compile(r"^\s*(\d+)\s+\[k\]\s+(\S+)")
TOP = 5


def perf_cmd():
    perf = os.environ.get("PERFKMOD_PERF") or shutil.which("perf")
    if perf and os.access(perf, os.X_OK):
        return perf
    return None


def run(args):
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: exit {r.returncode}: "
                           f"{r.stderr.strip()[-400:]}")
    return r.stdout


def canon(kallsyms):
    """A function from a symbol's name to one name for its address."""
    names = {}
    by_addr = collections.defaultdict(list)
    with open(kallsyms) as f:
        for line in f:
            w = line.split()
            if len(w) >= 3:
                by_addr[w[0]].append(w[2])
                names.setdefault(w[2], w[0])
    return lambda n: min(by_addr[names[n]]) if n in names else n


def check(d):
    perf = perf_cmd()
    if not perf:
        return "SKIP no perf on the host (Debian's linux-perf; scripts/deps.sh)"
    data, ks = os.path.join(d, "perf.data"), os.path.join(d, "kallsyms")
    with open(os.path.join(d, "samples.csv"), newline="") as f:
        rows = list(csv.reader(f))
    head, rows = rows[0], rows[1:]
    events = head[2:head.index("ip")]
    trigger = events[0]
    col = {h: i for i, h in enumerate(head)}
    problems = []

    # perf script: the trigger's samples, and every event's counts
    out = run([perf, "script", "-i", data, "--kallsyms", ks, "--ns",
               "-F", "event,pid,tid,cpu,time,period,ip"])
    got, sums = [], collections.Counter()
    for line in out.splitlines():
        m = SCRIPT.match(line)
        if not m:
            problems.append(f"perf script: a line not understood: {line}")
            continue
        pid, tid, cpu, sec, nsec, period, event, ip = m.groups()
        sums[event] += int(period)
        if event == trigger:
            got.append((int(sec) * 10**9 + int(nsec), int(cpu), int(pid),
                        int(tid), hex(int(ip, 16))))
    if got:
        t0 = min(g[0] for g in got)
        got = sorted(("%.6f" % ((t - t0) / 1e9), c, p, t_, ip)
                     for t, c, p, t_, ip in got)
    want = sorted((r[0], int(r[1]), int(r[col["pid"]]), int(r[col["tid"]]),
                   hex(int(r[col["ip"]], 16))) for r in rows)
    if len(got) != len(want):
        problems.append(f"perf script: {len(got)} samples of {trigger}, "
                        f"the CSV {len(want)} rows")
    diff = [(g, w) for g, w in zip(got, want) if g != w]
    if diff:
        problems.append(f"perf script: {len(diff)} samples differ from the "
                        "CSV's rows (time, cpu, pid, tid, ip), the first: "
                        f"{diff[0][0]} and {diff[0][1]}")
    for i, e in enumerate(events):
        total = sum(int(r[2 + i] or 0) for r in rows)
        if sums[e] != total:
            problems.append(f"perf script: {e}'s samples count {sums[e]}, "
                            f"the CSV's column {total}")

    # perf report: the trigger's samples and their kernel symbols
    out = run([perf, "report", "-i", data, "--kallsyms", ks, "--stdio",
               "-n", "--sort", "sym", "-F", "sample,sym"])
    name = canon(ks)
    section, nsamples, perf_syms = None, None, collections.Counter()
    for line in out.splitlines():
        m = SECTION.match(line)
        if m:
            section = m.group(2)
            if section == trigger:
                nsamples = m.group(1)
            continue
        m = REPORT_LINE.match(line)
        if m and section == trigger:
            sym = m.group(2)
            perf_syms[name(sym) if not sym.startswith("0x") else "?"] += \
                int(m.group(1))
    if nsamples != str(len(rows)):
        problems.append(f"perf report: {nsamples} samples of {trigger}, "
                        f"the CSV {len(rows)} rows")
    csv_syms = collections.Counter(
        name(r[col["symbol"]].split("+")[0]) if r[col["symbol"]] else "?"
        for r in rows if r[col["mode"]] == "kernel")
    top = [s for s, _ in csv_syms.most_common(TOP)] + \
        [s for s, _ in perf_syms.most_common(TOP)]
    for s in dict.fromkeys(top):
        if csv_syms[s] != perf_syms[s]:
            problems.append(f"perf report: {s}: {perf_syms[s]} samples, the "
                            f"CSV {csv_syms[s]}")
    if not csv_syms:
        problems.append("the CSV has no kernel row")
    if problems:
        problems.append("the CSV's top symbols: " + ", ".join(
            f"{s} {n}" for s, n in csv_syms.most_common(TOP)))
    return "\n".join(problems)


def main():
    try:
        why = check(sys.argv[1])
    except (OSError, RuntimeError, ValueError, IndexError,
            subprocess.TimeoutExpired) as e:
        why = f"{type(e).__name__}: {e}"
    if why:
        print(why)
    return 1 if why and not why.startswith("SKIP ") else 0


if __name__ == "__main__":
    sys.exit(main())

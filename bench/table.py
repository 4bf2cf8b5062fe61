#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print perfkmod's benchmark table from the two console logs of make bench.

    bench/table.py [--smoke] [--kconfig CONFIG --lane LANE] ICOUNT_LOG WALL_LOG

WALL_LOG "-": no wall boot (scripts/bench.sh --only); ICOUNT_LOG "-": no
icount boot (scripts/bench.sh --lane arm64-pmu). --kconfig: the .config of
the kernel the logs come from (a test lane's, LANE), whose debug options
are printed beside the figures.
Reads the "PERFKMOD-BENCH KEY VALUE" lines that bench/perfkmod_bench.c and
bench/guest/bench.sh log (several values of one key: their median). Each
row is perfkmod's figure next to its raw-perf anchor from the same boot:
in the icount boot as guest instructions per operation, in the wall boot as
nanoseconds, and the ratio perfkmod / anchor of each boot.

--smoke: print the table, then check only that every row was produced in
both boots ("bench-smoke: N rows produced, S skipped, M missing": the
smoke run skips the scale rows above 64 counters); exit 1 if a row is
missing, or if a boot reported an error or a kernel splat. Nothing is
timed; the one row that is a check (a series' records per interval under
-icount, where guest time is instructions and no timer is late) counts as
missing when below its bound, and an event-driven series' row as missing
when a record was dropped or malformed (without --smoke such a row fails
the table too: a dropped record costs less than a kept one).
"""
import re
import statistics
import sys

LINE = re.compile(r"PERFKMOD-BENCH (\S+) (\S+)")
SPLAT = re.compile(r"\b(BUG|WARNING|Oops|Call Trace|RCU stall|soft lockup|"
                   r"hung_task|blocked for more than)\b")


def parse(path):
    vals, errors = {}, []
    text = open(path, errors="replace").read()
    for line in text.splitlines():
        m = LINE.search(line)
        if m:
            try:
                vals.setdefault(m.group(1), []).append(float(m.group(2)))
            except ValueError:
                pass
        if "PERFKMOD-BENCH-ERROR" in line or SPLAT.search(line):
            errors.append(line.strip())
        m = re.search(r"PERFKMOD-BENCH-SECTION (\S+) (-?\d+)", line)
        if m and m.group(2) != "0":
            errors.append(line.strip())
    if "PERFKMOD-BENCH-END" not in text:
        errors.append(f"{path}: the guest did not reach the end")
    return {k: statistics.median(v) for k, v in vals.items()}, errors


def get(v, key):
    """A figure: per-op keys (.ns) are in thousandths of a nanosecond."""
    if key is None or key not in v:
        return None
    return v[key] / 1000 if key.endswith(".ns") else v[key]


def fmt(x, unit=""):
    if x is None:
        return "-"
    if abs(x) >= 1e7:
        return f"{x / 1e6:,.1f}M{unit}"
    if abs(x) >= 100:
        return f"{x:,.0f}{unit}"
    return f"{x:,.2f}{unit}"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "-"
    return f"{a / b:.2f}x"


class Row:
    """One line: perfkmod's key against the anchor's, or a derived value."""

    def __init__(self, label, key, anchor=None, target="", derive=None,
                 note=None, needs=None, modes=("icount", "wall"), skip=None,
                 min_icount_ratio=None, fail=None):
        self.label, self.key, self.anchor = label, key, anchor
        # a boot's figures -> why the row's figure cannot stand, or None
        self.fail = fail
        # a check, not a benchmark: below this icount ratio the row fails
        self.min_icount_ratio = min_icount_ratio
        self.target, self.derive, self.note = target, derive, note
        self.modes = modes
        # a key the guest logs when it did not run this row (smoke runs)
        self.skip = skip
        # keys that must exist for the row to count as produced
        self.needs = needs if needs is not None else [k for k in (key, anchor) if k]

    def values(self, v):
        if self.derive:
            return self.derive(v), None
        return get(v, self.key), get(v, self.anchor)


def disp(src, targets=True):
    """The dispatch rows of a source; targets=False: no instruction targets
    (a wall-only lane has no instruction counts)."""
    k = f"dispatch.{src}."
    rows = [
        Row("raw perf event, bare handler (anchor)", k + "raw.ns"),
        Row("perfkmod trampoline, 0 callbacks", k + "pk0.ns", k + "raw.ns"),
        Row("perfkmod, 1 direct callback", k + "pk1.ns", k + "raw.ns",
            "<= 1.08x" if src == "bp" else "<= 1.05x"),
        Row("perfkmod, 8 direct callbacks", k + "pk8.ns", k + "raw.ns"),
        Row("perfkmod, 64 direct callbacks", k + "pk64.ns", k + "raw.ns"),
        Row("perfkmod, 1 deferred (IRQ) callback, delivery included",
            k + "pkdefer.ns", k + "raw.ns"),
        Row("deferred (IRQ) delivery over a direct callback", None,
            derive=lambda v: None if get(v, k + "pkdefer.ns") is None else
            get(v, k + "pkdefer.ns") - get(v, k + "pk1.ns"),
            target="<= 250", needs=[k + "pkdefer.ns", k + "pk1.ns"]),
        Row("each direct callback beyond the first", None,
            derive=lambda v: None if get(v, k + "pk64.ns") is None else
            (get(v, k + "pk64.ns") - get(v, k + "pk1.ns")) / 63,
            target="<= 15", needs=[k + "pk64.ns", k + "pk1.ns"]),
    ] + ([
        Row("of which local_clock(), timed alone in a loop",
            "dispatch.local_clock.ns"),
    ] if src == "bp" else []) + [
        Row("trampoline alone, derived: 0 callbacks - raw", None,
            derive=lambda v: None if get(v, k + "pk0.ns") is None else
            get(v, k + "pk0.ns") - get(v, k + "raw.ns"),
            needs=[k + "pk0.ns", k + "raw.ns"]),
    ]
    if not targets:
        for r in rows:
            if not r.target.endswith("x"):
                r.target = ""
    for r in rows:
        # the source found no PMU for its event (cycles in x86 guests)
        r.skip = k + "skipped"
    return rows


def dispatch_note(v, src):
    k = f"dispatch.{src}."
    if k + "raw.ns" not in v:
        return []  # not run in this boot (breakpoints on arm64)
    ov = [int(v.get(k + c + ".overflows", -1))
          for c in ("raw", "pk1", "pkdefer")]
    return [f"overflows raw/pk1/deferred {ov[0]}/{ov[1]}/{ov[2]}, throttled "
            f"raw {int(v.get(k + 'raw.throttled', -1))} "
            f"pk {int(v.get(k + 'pk.throttled', -1))}, deferred dropped "
            f"{int(v.get(k + 'pkdefer.dropped', -1))}"]


def cycles_note(v):
    k = "dispatch.cycles."
    if k + "raw.nmi" not in v:
        return []
    none, raw = v.get(k + "none.run"), v.get(k + "raw.overflows")
    reps = v.get("dispatch.reps")

    def of(nmi, total):
        return f"{int(v.get(k + nmi, -1))} of {int(v.get(k + total, -1))}"

    per = ""
    if none and raw and reps:
        per = (f", raw {raw / reps:,.0f} overflows a run: one per "
               f"{none / (raw / reps) / 1000:,.0f} us of it")
    return [f"the loop without an event: {fmt(none and none / 1e6)} ms a run{per}",
            f"in NMI (in_nmi() in the handler): raw handler {of('raw.nmi', 'raw.calls')} "
            f"calls; direct callbacks {of('pk.nmi', 'pk.calls')} calls; "
            f"deferred (IRQ) callback {of('pkdefer.nmi', 'pkdefer.calls')} calls"]


def mem_note(v):
    out = []
    for kind in ("raw", "perfkmod"):
        pre = f"mem.{kind}.cache."
        caches = sorted(((k[len(pre):], int(x)) for k, x in v.items()
                         if k.startswith(pre)), key=lambda c: -c[1])
        out.append(f"slab caches that grew, bytes per counter, {kind}: " +
                   (", ".join(f"{n} {b}" for n, b in caches) or "-"))
    return out


def trig(src):
    """The rows of an event-driven series triggered by src: a record of 1, 4
    and 8 counters against a bare callback making the same reads."""
    k = f"trigger.{src}."

    def diff(a, b):
        return lambda v: None if get(v, k + a) is None or \
            get(v, k + b) is None else get(v, k + a) - get(v, k + b)

    rows = [Row("trigger, no callback (perf's overflow and the trampoline)",
                k + "pk0.ns")]
    for n in (1, 4, 8):
        rows += [
            Row(f"bare direct callback, {n} perfkmod_counter_read_local"
                f"{'s' if n > 1 else ''} (anchor)", k + f"bare{n}.ns"),
            Row(f"series record, {n} counter{'s' if n > 1 else ''}, vs the "
                "bare callback", k + f"series{n}.ns", k + f"bare{n}.ns",
                "<= 1.2x", fail=lambda v: trigger_fail(v, src)),
        ]
    rows += [
        Row("a record beyond the bare callback, 1 counter, derived", None,
            derive=diff("series1.ns", "bare1.ns"),
            needs=[k + "series1.ns", k + "bare1.ns"]),
        Row("a record beyond the bare callback, 8 counters, derived", None,
            derive=diff("series8.ns", "bare8.ns"),
            needs=[k + "series8.ns", k + "bare8.ns"]),
        Row("of which ktime_get_mono_fast_ns(), timed alone in a loop",
            k + "mono_clock.ns"),
        Row("the 8 reads alone, derived: bare 8 - no callback", None,
            derive=diff("bare8.ns", "pk0.ns"),
            needs=[k + "bare8.ns", k + "pk0.ns"]),
    ]
    for r in rows:
        r.skip = k + "skipped"
    return rows


def trigger_fail(v, src):
    """A series row cannot stand if a record was dropped (cheaper than one
    kept), malformed, or missing from the rings."""
    k = f"trigger.{src}."
    if k + "series1.ns" not in v:
        return None
    dropped, bad = int(v.get(k + "dropped", -1)), int(v.get(k + "bad", -1))
    records = int(v.get(k + "records", -1))
    overflows = sum(int(v.get(k + f"series{n}.overflows", 0))
                    for n in (1, 4, 8))
    if dropped or bad:
        return f"{dropped} records dropped, {bad} malformed"
    if records < overflows:
        return f"{records} records for {overflows} overflows"
    return None


def trigger_note(v, src):
    k = f"trigger.{src}."
    if k + "series1.ns" not in v:
        return []
    cases = ("pk0", "bare1", "series1", "bare4", "series4", "bare8", "series8")
    ov = "/".join(str(int(v.get(k + c + ".overflows", -1))) for c in cases)
    out = [f"overflows {'/'.join(cases)} {ov}; throttled "
           f"{int(v.get(k + 'throttled', -1))}",
           f"series: {int(v.get(k + 'records', -1))} records taken, "
           f"{int(v.get(k + 'dropped', -1))} dropped, "
           f"{int(v.get(k + 'bad', -1))} malformed; rings of "
           f"{int(v.get(k + 'ring', -1))} records a CPU, drained after "
           "each run"]
    if src == "cycles" and k + "check.calls" in v:
        out.append("in NMI: a counting callback beside a series of 8, "
                   f"untimed: {int(v[k + 'check.nmi'])} of "
                   f"{int(v[k + 'check.calls'])} calls, "
                   f"{int(v.get(k + 'check.dropped', -1))} records dropped")
    return out


def work_rows():
    rows = []
    for f in (100, 1000, 10000):
        k = f"work.{f}."
        rows.append(Row(f"{f} Hz: no counter (the runs of the overheads below)",
                        k + "none.run"))
        rows.append(Row(f"{f} Hz: perfkmod 1 direct callback vs raw no-op",
                        k + "pk.run", k + "raw.run",
                        "<= 1.01x" if f == 10000 else ""))
        rows.append(Row(f"{f} Hz: perfkmod asked freq={f} vs raw",
                        k + "pkfreq.run", k + "raw.run"))
    return rows


def work_note(v, f):
    k = f"work.{f}."
    none = v.get(k + "none.run")

    def ovh(c):
        r = v.get(k + c + ".run")
        return "-" if r is None or not none else f"{(r - none) / none * 100:+.1f}%"

    def n(c, what):
        return int(v.get(k + c + "." + what, -1))

    return (f"{f} Hz: over no counter: raw {ovh('raw')}, pk {ovh('pk')}, "
            f"pk freq= {ovh('pkfreq')}; overflows per run raw {n('raw', 'overflows')}, "
            f"pk {n('pk', 'overflows')}, pk freq= {n('pkfreq', 'overflows')}; "
            f"throttled raw {n('raw', 'throttled')}, pk {n('pk', 'throttled')}, "
            f"pk freq= {n('pkfreq', 'throttled')}")


def record_note(v):
    """What each rate of section 8 kept and dropped, both ways."""
    out = []
    for how in ("poll", "clock"):
        parts = []
        for rate in (10000, 20000, 50000, 100000):
            k = f"record.{how}.{rate}."
            if k + "records" in v:
                parts.append(f"{rate // 1000}k: {int(v[k + 'records'])} kept, "
                             f"{int(v[k + 'dropped'])} dropped")
        if parts:
            out.append(f"{how}: " + "; ".join(parts))
    return out


def region_note(v):
    """The calls each region counted, and those it did not."""
    parts = []
    for name in ("pk1", "pk4", "pk8", "fn"):
        c, n = v.get(f"region.{name}.calls"), v.get(f"region.{name}.lost")
        if c is not None:
            parts.append(f"{name} {int(c)}, {int(n or 0)} not")
    if not parts:
        return []
    return ["region calls counted: " + "; ".join(parts) +
            f"; bare kretprobe missed {int(v.get('region.kret.missed', 0))}"]


SECTIONS = [
    ("1a. Overflow dispatch: write breakpoint, period 1 (per overflow)",
     disp("bp"), lambda v: dispatch_note(v, "bp")),
    ("1b. Overflow dispatch: cpu-clock, period 10 us (per overflow)",
     disp("clock"), lambda v: dispatch_note(v, "clock")),
    ("1c. Overflow dispatch: cycles (PMU), pseudo-NMI, arm64-pmu lane "
     "(period 100,000 cycles; per overflow)",
     disp("cycles", targets=False),
     lambda v: dispatch_note(v, "cycles") + cycles_note(v)),
    ("2. In-kernel read (per read)", [
        Row("one-CPU counter: perfkmod_counter_read vs perf_event_read_value",
            "read.cpu.pk.ns", "read.cpu.raw.ns", "<= 1.05x"),
        Row("one-CPU context-switches: perfkmod_counter_read_local vs the PMU "
            "read with IRQs off",
            "read.local.cs.pk.ns", "read.local.cs.raw.ns", "<= 100 instr."),
        Row("one-CPU cpu-clock: perfkmod_counter_read_local vs the same",
            "read.local.clock.pk.ns", "read.local.clock.raw.ns"),
        Row("all-CPUs counter, 1 CPU (the icount boot has 1 CPU)",
            "read.all1.pk.ns", "read.all1.raw.ns", modes=("icount",)),
        Row("all-CPUs counter, 2 CPUs online (raw: one event per CPU)",
            "read.all2.pk.ns", "read.all2.raw.ns", modes=("wall",)),
        Row("all-CPUs counter, 4 CPUs online (raw: one event per CPU)",
            "read.all4.pk.ns", "read.all4.raw.ns", modes=("wall",)),
    ], None),
    ("3. Userspace read (per read)", [
        Row("perf_event_open fd read() (anchor)", "uread.perf.ns"),
        Row("debugfs value, held open, pread() vs perf fd read()",
            "uread.debugfs.ns", "uread.perf.ns", "<= 1.3x"),
        Row("list of 64 counters, one read vs 64 value reads",
            "uread.list64.ns", "uread.single64.ns", "<= 0.60x"),
    ], lambda v: [f"list of 64 counters {int(v.get('uread.list64.bytes', -1))} bytes"]),
    ("4. Scale: per counter created / released (one-CPU cpu-clock, counting)",
     [Row(f"{what} {n}", f"scale.{n}.pk.{what}.ns", f"scale.{n}.raw.{what}.ns",
          "4096 work" if n == 4096 and what == "create" else
          "<= 1.3x" if n == 1 else "",
          skip=f"scale.{n}.skipped")
      for n in (1, 64, 1024, 4096) for what in ("create", "release")] + [
        Row("kernel memory per counter, bytes (slab + percpu)",
            "mem.perfkmod.bytes", "mem.raw.bytes"),
        Row("of which slab objects (slabinfo: objects in use x size)",
            "mem.perfkmod.slabobj.bytes", "mem.raw.slabobj.bytes"),
        Row("slab beyond perf's own event, bytes (+ per-CPU: see text)", None,
            derive=lambda v: None if "mem.perfkmod.slabobj.bytes" not in v else
            v["mem.perfkmod.slabobj.bytes"] - v.get("mem.raw.slabobj.bytes", 0),
            target="<= 512", needs=["mem.perfkmod.slabobj.bytes",
                                    "mem.raw.slabobj.bytes"]),
    ], mem_note),
    ("5. Workload overhead: whole run of a fixed loop on CPU 0, cpu-clock on CPU 0",
     work_rows(),
     lambda v: [work_note(v, f) for f in (100, 1000, 10000)]),
    ("6. Time series: a CPU-bound program on CPU 0 (spinwork), 4 all-CPUs software counters", [
        Row("no series (the runs below)", "work.series.none.run"),
        Row("series at 1 kHz vs no series", "work.series.1000.run",
            "work.series.none.run"),
        Row("series at 10 kHz vs no series", "work.series.10000.run",
            "work.series.none.run"),
        Row("perfkstat stat -I 1 polling on CPU 0 vs no series",
            "work.series.poll1000.run", "work.series.none.run"),
        Row("perfkstat stat -I 10 polling on CPU 0 vs no series",
            "work.series.poll100.run", "work.series.none.run"),
        Row("series at 1 kHz vs perfkstat stat -I 1", "work.series.1000.run",
            "work.series.poll1000.run"),
        Row("series at 1 kHz: CPU 0's records vs the intervals they span",
            "series.interval.records", "series.interval.spanned",
            ">= 0.98x icount", min_icount_ratio=0.98),
    ], lambda v: [f"records dropped in the last run: {int(v.get('work.series.1000.dropped', -1))} "
                  f"at 1 kHz, {int(v.get('work.series.10000.dropped', -1))} at "
                  "10 kHz (nobody reads during the run)"]),
    ("7a. Event-driven series: write breakpoint trigger of the task, period 1 "
     "(per record)", trig("bp"), lambda v: trigger_note(v, "bp")),
    ("7b. Event-driven series: cycles trigger of the task, pseudo-NMI, "
     "arm64-pmu lane (period 100,000 cycles; per record)", trig("cycles"),
     lambda v: trigger_note(v, "cycles")),
    ("8. perfkstat record --every cpu-clock:PERIOD -- spinwork, the default "
     "ring: records a second per CPU kept without a drop", [
        Row("highest rate without a drop: poll() + records.bin vs the text "
            "every 0.2 s", "record.poll.rate", "record.clock.rate",
            ">= 10x icount", modes=("icount",)),
    ], record_note),
    ("9. Regions: a call, all-CPUs software counters (per call)", [
        Row("begin/end at a marker, 1 counter, vs 2 bare PMU reads",
            "region.pk1.ns", "region.bare1.ns", "<= 1.3x"),
        Row("begin/end at a marker, 4 counters, vs 8 bare PMU reads",
            "region.pk4.ns", "region.bare4.ns", "<= 1.3x"),
        Row("begin/end at a marker, 8 counters, vs 16 bare PMU reads",
            "region.pk8.ns", "region.bare8.ns", "<= 1.3x"),
        Row("marker of a region turned off vs the loop without a marker",
            "region.off.ns", "region.plain.ns", "few instr."),
        Row("a region turned off, over no marker, derived", None,
            derive=lambda v: None if get(v, "region.off.ns") is None else
            get(v, "region.off.ns") - get(v, "region.plain.ns"),
            needs=["region.off.ns", "region.plain.ns"]),
        Row("function region, 1 counter, vs a bare kretprobe's 2 reads",
            "region.fn.ns", "region.kret.ns", "<= 1.2x"),
    ], region_note),
]


# What the kernel of a lane's figures has beside a distribution's: its
# debug options (tests/config/common.config), and the options that change
# how an overflow is taken or how code runs.
DEBUG_OPTS = re.compile(r"^CONFIG_(DEBUG_(?!INFO|FS|BUGVERBOSE)\w+|KASAN\w*|"
                        r"PROVE_\w+|LOCKDEP|KCSAN|UBSAN|KMSAN|FAILSLAB|"
                        r"FAULT_INJECTION\w*|KUNIT|SOFTLOCKUP_DETECTOR|"
                        r"DETECT_HUNG_TASK|TRACE_IRQFLAGS|LOCK_STAT)=y$")
OTHER_OPTS = re.compile(r"^CONFIG_(PREEMPT|PREEMPT_DYNAMIC|NO_HZ_FULL|HZ|"
                        r"JUMP_LABEL|FUNCTION_TRACER|ARM64_PSEUDO_NMI|"
                        r"ARM_PMUV3|ARM64_PTR_AUTH_KERNEL|ARM64_BTI|"
                        r"UNMAP_KERNEL_AT_EL0|MITIGATE_SPECTRE_BRANCH_HISTORY)"
                        r"=(\S+)$")


def kernel_notes(lane, kconfig, logs):
    """The kernel the figures come from: its release, command line, PMU
    line and debug options."""
    text = ""
    for path in logs:
        text += open(path, errors="replace").read()

    def first(pattern):
        m = re.search(pattern, text, re.M)
        return m.group(1).strip() if m else "-"

    debug, other = [], []
    for line in open(kconfig):
        line = line.strip()
        if DEBUG_OPTS.match(line):
            debug.append(line[len("CONFIG_"):-2])
        m = OTHER_OPTS.match(line)
        if m:
            other.append(m.group(1) + ("" if m.group(2) == "y" else
                                       "=" + m.group(2)))
    wrap = 96
    release = first(r"Linux version (\S+)")
    cmdline = first(r"Kernel command line: (.*)$")
    pmu = first(r"hw perfevents: (.*)$")
    out = [f"kernel: the {lane} lane's {release}, allnoconfig + "
           f"tests/config/common.config + {lane}.config: {kconfig}",
           f"command line: {cmdline}", f"PMU: {pmu}"]
    for title, opts in (("debug options", debug), ("also", other)):
        line = title + ":"
        for o in opts:
            if len(line) + len(o) + 1 > wrap:
                out.append(line)
                line = "   "
            line += " " + o
        out.append(line)
    return out


def main():
    args = sys.argv[1:]
    smoke = "--smoke" in args
    args = [a for a in args if a != "--smoke"]
    kconfig = lane = None
    while len(args) > 2 and args[0] in ("--kconfig", "--lane"):
        if args[0] == "--kconfig":
            kconfig = args[1]
        else:
            lane = args[1]
        args = args[2:]
    if len(args) != 2 or args == ["-", "-"]:
        sys.exit(__doc__)
    ic, ic_err = parse(args[0]) if args[0] != "-" else ({}, [])
    wl, wl_err = parse(args[1]) if args[1] != "-" else ({}, [])
    present = tuple((m, v) for m, v, p in (("icount", ic, args[0]),
                                           ("wall", wl, args[1])) if p != "-")
    # one boot only: rows it did not produce are left out
    partial = len(present) == 1
    main_v = present[0][1]
    na = "uread.debugfs.na" in ic or "uread.debugfs.na" in wl

    head = ("", "icount: perfkmod", "anchor", "ratio", "wall ns: perfkmod",
            "anchor", "ratio", "target")
    widths = (64, 17, 12, 7, 18, 12, 7, 14)
    line = " ".join(h.rjust(w) if i else h.ljust(w)
                    for i, (h, w) in enumerate(zip(head, widths)))
    print("perfkmod benchmarks: icount figures are guest instructions "
          "(-icount shift=0), wall figures nanoseconds")
    produced, skipped, missing = 0, 0, []
    failed, nfailed, kernel_printed = [], 0, False
    for title, rows, notes in SECTIONS:
        if partial and not any(r.values(main_v)[0] is not None or
                               (r.skip and r.skip in main_v) for r in rows):
            continue
        print()
        print(title)
        print(line)
        if rows[0].skip and all(rows[0].skip in v for _, v in present) and \
                rows[0].skip.startswith(("dispatch.", "trigger.")):
            # a source without a PMU: one line for the section
            err = int(main_v[rows[0].skip])
            print(f"not run: no PMU for this event in this guest "
                  f"({'-ENOENT' if err == 2 else '-EOPNOTSUPP' if err == 95 else -err}); "
                  f"scripts/bench.sh --lane arm64-pmu runs it")
            skipped += 1
            continue
        for r in rows:
            a, b = r.values(ic)
            c, d = r.values(wl)
            if partial and r.values(main_v)[0] is None:
                continue
            debugfs = r.key and r.key.startswith("uread.") and \
                r.key != "uread.perf.ns"
            if debugfs and na:
                cells = ["n/a (no debugfs counters yet)", "", "", "", "", ""]
                produced += 1
            elif r.skip and (r.skip in ic or r.skip in wl):
                cells = ["not run (smoke: scale_max)" if
                         r.skip.startswith("scale.") else "not run (no PMU)",
                         "", "", "", "", ""]
                skipped += 1
            else:
                cells = []
                for m, x, y in (("icount", a, b), ("wall", c, d)):
                    if m not in r.modes:
                        cells += ["", "", ""]
                    elif r.anchor:
                        cells += [fmt(x), fmt(y), ratio(x, y)]
                    else:
                        cells += [fmt(x), "", ""]
                boots = [v for m, v in present if m in r.modes]
                why = [f"{m}: {r.label}: {r.fail(v)}" for m, v in present
                       if r.fail and r.fail(v)]
                failed += why
                if not all(k in v for k in r.needs for v in boots):
                    missing.append(r.label)
                elif r.min_icount_ratio and (not a or not b or
                                             a / b < r.min_icount_ratio):
                    missing.append(f"{r.label}: {a} of {b}, below "
                                   f"{r.min_icount_ratio}")
                elif why and smoke:
                    missing += why
                else:
                    produced += 1
            out = [r.label] + cells + [r.target]
            print(" ".join(str(x).rjust(w) if i else str(x).ljust(w)
                           for i, (x, w) in enumerate(zip(out, widths))))
            for f in failed[nfailed:]:
                print(f"    FAILED {f}")
            nfailed = len(failed)
        if notes:
            for mode, v in present:
                for n in notes(v):
                    print(f"    {mode}: {n}")
        # the kernel's options under the first section of its figures
        if kconfig and not kernel_printed:
            kernel_printed = True
            for n in kernel_notes(lane, kconfig,
                                  [p for p in args if p != "-"]):
                print(f"    {n}")
    print()
    for mode, v in present:
        print(f"{mode}: {int(v.get('cpus', 0))} CPUs, perf_event_max_sample_rate "
              f"{int(v.get('max_sample_rate.before', 0))} before the workload runs, "
              f"{int(v.get('max_sample_rate.after', 0))} after")
    # a row whose figure cannot stand fails the run (in the smoke run it
    # is missing)
    errors = ic_err + wl_err + ([] if smoke else failed)
    for e in errors:
        print("error:", e)
    if smoke:
        print(f"bench-smoke: {produced} rows produced, {skipped} skipped, "
              f"{len(missing)} missing"
              + (": " + "; ".join(missing) if missing else ""))
    sys.exit(1 if errors or (smoke and missing) else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/judge.py's reading of kernel reports a test did not ask for.

    tests/host/judge.py

KCSAN: each case is a report as 6.12's KCSAN prints it
(kernel/kcsan/report.c) and whether the x86-kcsan lane must count it
against perfkmod. Warnings: a console log with a WARNING that a test
announced ("PERFKMOD-EXPECT-WARN TEXT") or did not, and whether the lane
fails. A recording sent to the host's perf ("PERFKMOD-PERFDATA"): not
base64, a failure; with no perf to read it, a skip. A guest that
crashed: the failure says its first kernel report and where it was. Prints "ok NAME" or "not ok NAME", a line a case, and exits 1 when
one failed.
"""

import base64
import io
import os
import sys
import tarfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "scripts"))
import judge  # noqa: E402

BAR = "=" * 66
TAIL = f"""
Reported by Kernel Concurrency Sanitizer on:
CPU: 0 UID: 0 PID: 215 Comm: cat Not tainted 6.12.57 #1
Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)
{BAR}"""

CASES = [
    # del's debugfs_remove() against a reader's open of the same file:
    # both accesses are the VFS's, each entered from another function
    ("the VFS's race under a del and a read of its file", False, f"""{BAR}
BUG: KCSAN: data-race in d_invalidate / debugfs_file_get

write to 0xffff888006f4a0c0 of 4 bytes by task 212 on cpu 1:
 d_invalidate+0x4c/0x170
 simple_recursive_removal+0x25c/0x310
 debugfs_remove+0x52/0x80
 perfkmod_debugfs_del+0x99/0x1c0 [perfkmod]
 control_write+0x3d1/0x5a0 [perfkmod]
 full_proxy_write+0x8b/0xc0
 vfs_write+0x1a3/0x6e0
 ksys_write+0x8d/0x110
 do_syscall_64+0x9e/0x1a0
 entry_SYSCALL_64_after_hwframe+0x77/0x7f

read to 0xffff888006f4a0c0 of 4 bytes by task 215 on cpu 0:
 debugfs_file_get+0x3c/0x1f0
 value_read+0x2e/0x140 [perfkmod]
 full_proxy_read+0x6b/0xb0
 vfs_read+0x11c/0x590
 ksys_read+0x8d/0x110
 do_syscall_64+0x9e/0x1a0
 entry_SYSCALL_64_after_hwframe+0x77/0x7f

value changed: 0x00200008 -> 0x00000000
{TAIL}"""),
    # hrtimer expiry against a sleeper's hrtimer set-up: the kernel's
    ("the timers' own race under a KUnit thread", False, f"""{BAR}
BUG: KCSAN: data-race in hrtimer_wakeup / schedule_hrtimeout_range_clock

write to 0xffffc90000a8bd28 of 8 bytes by interrupt on cpu 1:
 hrtimer_wakeup+0x1c/0x40
 __hrtimer_run_queues+0x1d2/0x4a0
 hrtimer_interrupt+0x1a0/0x3f0
 __sysvec_apic_timer_interrupt+0x63/0x1c0
 sysvec_apic_timer_interrupt+0x6b/0x80
 asm_sysvec_apic_timer_interrupt+0x1a/0x20
 test_await+0x52/0x90 [perfkmod_kunit]

read to 0xffffc90000a8bd28 of 8 bytes by task 98 on cpu 0:
 schedule_hrtimeout_range_clock+0xf6/0x1e0
 usleep_range_state+0x6a/0xa0
 test_await+0x52/0x90 [perfkmod_kunit]
 kunit_try_run_case+0x81/0x1a0 [kunit]
 kthread+0x174/0x1b0
 ret_from_fork+0x34/0x50
 ret_from_fork_asm+0x1a/0x30
{TAIL}"""),
    # perfkmod's own code on one side: its race
    ("perfkmod's function makes one access", True, f"""{BAR}
BUG: KCSAN: data-race in perfkmod_counter_read_local [perfkmod] / perfkmod_sync_cpus [perfkmod]

write to 0xffff888004bd2c58 of 8 bytes by task 221 on cpu 1:
 perfkmod_sync_cpus+0x21c/0x640 [perfkmod]
 perfkmod_counter_enable+0x4a/0x90 [perfkmod]
 control_write+0x3d1/0x5a0 [perfkmod]
 full_proxy_write+0x8b/0xc0
 vfs_write+0x1a3/0x6e0

read to 0xffff888004bd2c58 of 8 bytes by interrupt on cpu 0:
 perfkmod_counter_read_local+0x6e/0x1b0 [perfkmod]
 series_tick+0x91/0x200 [perfkmod]
 __hrtimer_run_queues+0x1d2/0x4a0
 hrtimer_interrupt+0x1a0/0x3f0
 asm_sysvec_apic_timer_interrupt+0x1a/0x20
{TAIL}"""),
    # a library function acting on perfkmod's buffer is perfkmod's access
    ("a memcpy() perfkmod called on its own memory", True, f"""{BAR}
BUG: KCSAN: data-race in _copy_from_user / memcpy

read to 0xffff888004a01140 of 8 bytes by task 230 on cpu 0:
 memcpy+0x2e/0x60
 ring_drain+0x83/0x1f0 [perfkmod]
 process_one_work+0x2b9/0x6a0
 worker_thread+0x3a1/0x5a0

write to 0xffff888004a01140 of 8 bytes by task 231 on cpu 1:
 _copy_from_user+0x4e/0x90
 simple_write_to_buffer+0x7c/0xc0
 vfs_write+0x1a3/0x6e0
{TAIL}"""),
    # the kernel's code on both sides, at perfkmod's static memory
    ("the kernel's code at a module's static memory", True, f"""{BAR}
BUG: KCSAN: data-race in __wake_up_common / prepare_to_wait_event

read to 0xffffffffc0341a48 of 8 bytes by task 233 on cpu 1:
 __wake_up_common+0x3e/0x130
 __wake_up+0x3c/0x60
 vfs_write+0x1a3/0x6e0

write to 0xffffffffc0341a48 of 8 bytes by task 240 on cpu 0:
 prepare_to_wait_event+0x9a/0x190
 vfs_read+0x11c/0x590
{TAIL}"""),
    # perfkmod driving one kernel API at one object from two sides at once
    ("perfkmod entering one kernel function on both sides", True, f"""{BAR}
BUG: KCSAN: data-race in hrtimer_start_range_ns / hrtimer_start_range_ns

write to 0xffff888004bd2e10 of 8 bytes by task 221 on cpu 1:
 enqueue_hrtimer+0x4c/0xf0
 hrtimer_start_range_ns+0x2a1/0x540
 series_start+0x6a/0x120 [perfkmod]
 control_write+0x3d1/0x5a0 [perfkmod]

read to 0xffff888004bd2e10 of 8 bytes by task 225 on cpu 0:
 hrtimer_start_range_ns+0x1b2/0x540
 series_start+0x6a/0x120 [perfkmod]
 control_write+0x3d1/0x5a0 [perfkmod]
{TAIL}"""),
    # perfkmod driving two kernel functions at its own memory: its race
    ("perfkmod entering two timer functions on one timer", True, f"""{BAR}
BUG: KCSAN: data-race in hrtimer_cancel / hrtimer_start_range_ns

write to 0xffff888004bd2e10 of 8 bytes by task 221 on cpu 1:
 hrtimer_start_range_ns+0x2a1/0x540
 series_start+0x6a/0x120 [perfkmod]
 control_write+0x3d1/0x5a0 [perfkmod]

read to 0xffff888004bd2e10 of 8 bytes by task 225 on cpu 0:
 hrtimer_try_to_cancel+0x1b2/0x540
 hrtimer_cancel+0x22/0x40
 series_stop+0x3a/0x120 [perfkmod]
 control_write+0x3d1/0x5a0 [perfkmod]
{TAIL}"""),
    # a report whose accesses this reader does not parse: perfkmod in it
    ("an unknown shape of report naming perfkmod", True, f"""{BAR}
BUG: KCSAN: data-race in perfkmod_counter_read_local [perfkmod]
 perfkmod_counter_read_local+0x6e/0x1b0 [perfkmod]
{TAIL}"""),
]


# A WARN_ONCE() as 6.12 prints it, with the message line before it.
WARN = """[   12.500000] ------------[ cut here ]------------
[   12.500001] perfkmod: perfkmod_callback_unregister() may sleep: not in a direct or IRQ callback, nor atomic
[   12.500002] WARNING: CPU: 0 PID: 9 at overflow.c:640 perfkmod_callback_unregister+0x5a/0x1c0 [perfkmod]
[   12.500003] Modules linked in: perfkmod_kunit perfkmod kunit
[   12.500004] Call Trace:
[   12.500005]  <IRQ>
[   12.500006] ---[ end trace 0000000000000000 ]---"""
ASK = "    # misuse: PERFKMOD-EXPECT-WARN perfkmod_callback_unregister() may sleep"
OTHER = WARN.replace("perfkmod_callback_unregister() may sleep",
                     "perfkmod_counter_release() may sleep")

WARN_CASES = [
    ("a warning a test announced", False, [ASK, WARN]),
    ("a warning nobody announced", True, [WARN]),
    ("an announced warning that never came", True, [ASK]),
    ("another warning than the one announced", True, [ASK, OTHER]),
    ("a warning before its announcement", True, [WARN, ASK]),
    ("two warnings for one announcement", True, [ASK, WARN, WARN]),
    ("two warnings for two announcements", False, [ASK, WARN, ASK, WARN]),
    ("an empty announcement", True,
     ["    # misuse: PERFKMOD-EXPECT-WARN  ", WARN]),
]


# An arm64 oops that ends the guest in a script (trimmed): the crash line
# says which report, where, and in which script.
OOPS = """    KTAP version 1
    # Subtest: test-tool
    ok 1 tool-add
[ 1073.740000] Unable to handle kernel paging request at virtual address dfff80000000001a
[ 1073.740001] KASAN: null-ptr-deref in range [0x00000000000000d0-0x00000000000000d7]
[ 1073.740002] Internal error: Oops: 0000000096000005 [#1] PREEMPT SMP
[ 1073.740003] pc : perf_ctx_sched_task_cb+0x3c/0x1a0
[ 1073.740004] lr : perf_event_context_sched_in+0x2d0/0x4a8
[ 1073.740005] Call trace:
[ 1073.740006]  perf_ctx_sched_task_cb+0x3c/0x1a0
[ 1073.740007]  kernel_wait4+0xe4/0x1a8
[ 1073.745060] Kernel panic - not syncing: Oops: Fatal exception"""
OOPS_WHY = ("the guest stopped in test-tool; its first kernel report: "
            "Unable to handle kernel paging request at virtual address "
            "dfff80000000001a (in perf_ctx_sched_task_cb+0x3c/0x1a0)")


# x86's: a report whose own lines have no RIP before its call trace (a
# KASAN report) is not given the RIP of the oops after it.
X86 = """[   20.000000] BUG: KASAN: slab-use-after-free in region_end+0x1c/0x90 [perfkmod]
[   20.000001] Call Trace:
[   20.000002]  <TASK>
[   20.000003] BUG: kernel NULL pointer dereference, address: 0000000000000010
[   20.000004] Oops: 0000 [#1] PREEMPT SMP KASAN NOPTI
[   20.000005] RIP: 0010:region_end+0x1c/0x90 [perfkmod]
[   20.000006] Call Trace:"""


def reports(text):
    """The first lines of the kernel reports judge finds in TEXT."""
    lines = [x + "\n" for x in text.splitlines()]
    return [p.splitlines()[0] for p in judge.judge("test", lines,
                                                    (1, 0, 1, 0, 0))[3]]


def oops_cases():
    """(NAME, OK) of the crash line's and the reports' reading of OOPS and
    X86."""
    got = reports("KTAP version 1\n1..2\n" + OOPS)
    crash = [p for p in got if p.startswith("kunit.py parse:")]
    first = [p for p in got if p.startswith("kernel report: Unable")]
    x86 = reports(X86)
    return [("a crash says its first report and where",
             len(crash) == 1 and OOPS_WHY in crash[0]),
            ("a report says the function it stopped in",
             len(first) == 1 and first[0].endswith(
                 "(in perf_ctx_sched_task_cb+0x3c/0x1a0)")),
            ("x86: a report says the function and module it stopped in",
             "kernel report: BUG: kernel NULL pointer dereference, address: "
             "0000000000000010 (in region_end+0x1c/0x90 [perfkmod])" in x86),
            ("a report without its own pc is given none",
             "kernel report: BUG: KASAN: slab-use-after-free in "
             "region_end+0x1c/0x90 [perfkmod]" in x86)]


def perfdata_lines(text):
    """A guest's case perfdata-perf-reads, TEXT sent for the host."""
    return [f"    # PERFKMOD-PERFDATA perfdata-perf-reads {text}\n",
            "    # PERFKMOD-HOST perfdata-perf-reads 1\n",
            "    ok 1 perfdata-perf-reads\n"]


def empty_tar():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz"):
        pass
    return base64.b64encode(buf.getvalue()).decode()


def perfdata_cases():
    """(NAME, PASSED, FAILED, SKIPPED) of each case's verdict."""
    out = []
    os.environ["PERFKMOD_PERF"] = "/nonexistent/perf"
    got = judge.judge("test", perfdata_lines("not*base64"), (1, 0, 0, 0, 0))
    out.append(("a recording that is not base64", got[:3], (0, 1, 0)))
    got = judge.judge("test", perfdata_lines(empty_tar()), (1, 0, 0, 0, 0))
    out.append(("a recording with no perf to read it", got[:3], (0, 0, 1)))
    del os.environ["PERFKMOD_PERF"]
    return out


def main():
    bad = 0
    for name, got, want in perfdata_cases():
        if got == want:
            print(f"ok {name}")
        else:
            print(f"not ok {name}: passed, failed, skipped {got}, should be "
                  f"{want}")
            bad = 1
    for name, ok in oops_cases():
        print(f"{'ok' if ok else 'not ok'} {name}")
        bad |= not ok
    for name, counts, report in CASES:
        got = judge.kcsan_in_perfkmod(report.splitlines())
        if got == counts:
            print(f"ok {name}")
        else:
            print(f"not ok {name}: counted {got}, should be {counts}")
            bad = 1
    for name, fails, parts in WARN_CASES:
        lines = [x + "\n" for p in parts for x in p.splitlines()]
        got = judge.judge("test", lines, (0, 0, 0, 0, 0))[1] > 0
        if got == fails:
            print(f"ok {name}")
        else:
            print(f"not ok {name}: failed {got}, should be {fails}")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())

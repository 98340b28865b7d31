#!/usr/bin/python3
"""Lab, holders: lruscope itself in the 6.1 guest (binary, its libraries and
the loader packed into the initramfs), where fentry loads: `report --holders -f json` over a
heavy and a light memcg whose readers are pinned round the CPUs of both nodes, exact mode on.
Asserts that the collector's BPF loads on 6.1, that exact mode is named and sees
acquisitions, that lruvec contention of the test memcgs is attributed on both nodes
(memcg@N0 and memcg@N1), that the heavy memcg is among the holders, and that the estimate
puts at least 90% of its hold time on the right memcg (the exact holders of the same waits;
LRS_HOLDERS_MIN_ACCURACY changes the bound). The share per rule is printed.

Why the guest has 4 vCPUs and no "hypervisor" CPUID bit (docs/holders.md, "Lab status"; docs/kernel-notes.md):
on 6.1 x86, a kernel that sees X86_FEATURE_HYPERVISOR without paravirt spinlocks (TCG has
none) takes spinlocks by test-and-set in virt_spin_lock(), before the queued slow path where
lock:contention_begin fires: no spinlock contention event at all. Without the bit the native
queued path runs, but 6.1 fires the tracepoint only after the pending-bit path: the first
waiter (one holder, one waiter: all a 2-CPU guest can make) is never traced, only waiters
that queue behind it. Measured in this guest, 4 s of this workload: 0 contention_begin with
2 vCPUs and the bit, 31 with 2 vCPUs without it, 2,460 with 4 vCPUs without it."""

import json
import os
import re
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import checks as ck  # noqa: E402

# Accuracy measured in this guest (docs/holders.md): right memcg for 97.7% to 100%
# of estimated hold time in 17 runs since rule 2 looks at who runs (sched_switch); before it,
# 57% to 99%. The issue aims at 90%.
MIN_ACCURACY = float(os.environ.get("LRS_HOLDERS_MIN_ACCURACY", "0.9"))


RUNS = int(os.environ.get("LRS_HOLDERS_RUNS", "3"))


def one_run(tap, kdir, binary, work, first):
    """Boot the guest, run lruscope there; returns (snapshot, failed). The checks that do
    not depend on traced contention are made on the first run."""
    os.makedirs(work)
    # A 4-vCPU guest on this 2-core host stalls whole in some boots (3 of 6 measured:
    # no heartbeat, QEMU at 2 cores; cause not found): a stalled boot is reported and
    # retried once; a second stall fails.
    for attempt in (1, 2):
        boot = os.path.join(work, str(attempt))
        os.makedirs(boot)
        g = lab.Guest(kdir, boot, append="lrs_dur=10 lrs_v", init=os.path.join(lab.HERE, "guest-holders.sh"),
                      extra=lab.binary_files(binary), disk="256M", timeout=240,
                      cpus_per_node=2, cpu="qemu64,-hypervisor")
        try:
            lines = g.wait_for("LRS-HOLDERS-DONE")
            break
        except lab.LabError as e:
            if attempt == 2:
                tap.check("guest ran lruscope (second boot)", [str(e)])
                return None, True
            print("# guest stalled, booting again: %s" % str(e)[-300:])
        finally:
            g.stop()
    rc = [l.split()[2] for l in lines if l.startswith("LRS report_rc")]
    err = (lab.read_guest_file(g.disk_path(), "/report.err") or b"").decode()
    raw = lab.read_guest_file(g.disk_path(), "/holders.json")
    if os.environ.get("LRS_HOLDERS_KEEP"):	# the guest's report, for a closer look
        with open(os.environ["LRS_HOLDERS_KEEP"], "wb") as f:
            f.write(raw or b"")
    try:
        snap = json.loads(raw)
    except (TypeError, ValueError):
        # the guest's second run was -v: the verifier's log says why a load failed
        log = (lab.read_guest_file(g.disk_path(), "/holders.txt") or b"").decode(errors="replace")
        for line in [l for l in log.splitlines() if " relo #" not in l][-40:]:
            print("#   guest -v: " + line)
        tap.check("the report is JSON", ["rc %s: %s; unreadable: %r" % (rc, err.strip()[-300:],
                                                                          (raw or b"")[:200])])
        return None, True
    if first:
        tap.check("report --holders runs in the 6.1 guest (the collector's BPF loads)",
                  [] if rc == ["0"] else ["rc %s: %s" % (rc, err.strip()[-300:])])
        h = snap.get("holders") or {}
        tap.check("exact mode is on and named", [] if h.get("mode") == "exact (fentry)"
                  else ["mode %r" % h.get("mode")])
        acq = (h.get("compare") or {}).get("acquisitions", 0)
        tap.check("exact mode's fentry/fexit hooks see lruvec lock acquisitions (%d)" % acq,
                  [] if acq > 0 else ["no acquisition seen"])
        # the guest's second report is text: exact mode's comparison line and its split by rule
        text = (lab.read_guest_file(g.disk_path(), "/holders.txt") or b"").decode(errors="replace")
        tap.check("the text report names exact mode's comparison and splits it by rule",
                  [] if re.search(r"^exact \(fentry\): \d+ acquisitions; estimated hold on the right "
                                  r"memcg .*\n  by rule:", text, re.M) else
                  ["not in the text report: " + " | ".join(
                      l for l in text.splitlines() if not l.startswith("libbpf"))[-400:]])
    return snap, bool(tap.failed)


def on_signal(signum, frame):
    raise SystemExit(128 + signum)


def main():
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, on_signal)
    tap = ck.Tap()
    missing = [t for t in lab.missing_tools() if t != "python3-drgn"]
    if missing or not shutil.which("debugfs"):
        tap.skip("lab holders", "missing tools: %s" % " ".join(missing + ["debugfs"]))
        return 0
    binary = os.environ.get("LRS_BIN", os.path.join(lab.ROOT, "build", "lruscope"))
    work = tempfile.mkdtemp(prefix="lrs-lab-holders.")
    try:
        kdir = lab.kernel_dir()
        # 6.1 traces only waits queued two deep (see above): on a 2-core host the TCG guest
        # makes such queues only when the host preempts a lock holder, so a run can see no
        # traced lruvec contention at all (2 runs in 3 on a busy host, 3 in 3 on a quiet one;
        # pinning QEMU to one host CPU did not help, measured). Up to RUNS guest runs
        # until one saw contention on both nodes; the checks of traced contention need one.
        for run in range(1, RUNS + 1):
            snap, failed = one_run(tap, kdir, binary, os.path.join(work, str(run)), run == 1)
            if failed:
                return 1
            h = snap.get("holders") or {}
            cmp_ = h.get("compare") or {}
            busy = [lv for lv in snap["lruvecs"]
                    if lv["memcg"].startswith("/lrs-test-lab") and lv["contended"]]
            nodes = sorted({lv["node"] for lv in busy})
            acc = cmp_.get("accuracy_memcg", -1)
            task = cmp_["right_task_ns"] / cmp_["est_ns"] if cmp_.get("est_ns") else -1
            print("# run %d: %s; accuracy: %.1f%% of estimated hold time on the right memcg,"
                  " %.1f%% on the right task; %d waits without an exact holder" % (
                      run, ", ".join("%s@N%d %d waits" % (lv["memcg"], lv["node"], lv["contended"])
                                     for lv in busy) or "no test lruvec contention traced",
                      100 * acc, 100 * task, cmp_.get("no_exact", 0)))
            basis = cmp_.get("by_basis") or {}
            print("# run %d: waits charged by rule: %s; drops %s" % (run, h.get("counters"),
                                                                     snap.get("drops")))
            print("# run %d by rule: %s" % (run, ", ".join(
                "%s %.1f%% of %.3f s" % (k, 100 * v["right_memcg_ns"] / v["est_ns"], v["est_ns"] / 1e9)
                for k, v in basis.items() if v.get("est_ns")) or "none"))
            if nodes == [0, 1] and acc >= 0:
                break
        if nodes != [0, 1] or acc < 0:
            why = ("%d guest runs traced no lruvec contention on both nodes: 6.1 traces only "
                   "waits queued two deep (qspinlock's pv_queue), which a TCG guest on a "
                   "2-core host makes only when the host preempts a holder" % RUNS)
            names = ["lruvec contention of the test memcgs on both nodes",
                     "estimate vs exact: compared on the same waits",
                     "the heavy memcg's tasks are among the holders"]
            if MIN_ACCURACY:
                names.insert(2, "estimate vs exact: right memcg for >= %.0f%% of hold time" % (
                    100 * MIN_ACCURACY))
            for name in names:
                tap.skip(name, why)
            return 0
        tap.check("lruvec contention of the test memcgs on both nodes (memcg@N0 and memcg@N1)",
                  [])
        est_ns = (h.get("compare") or {}).get("est_ns", 0)
        tap.check("estimate vs exact: compared on the same waits (%.3f s of estimated hold; "
                  "%.1f%% on the right memcg)" % (est_ns / 1e9, 100 * acc),
                  [] if est_ns > 0 and 0 <= acc <= 1 else ["est_ns %r, accuracy %r" % (est_ns, acc)])
        if MIN_ACCURACY:
            tap.check("estimate vs exact: right memcg for >= %.0f%% of hold time (%.1f%%)" % (
                100 * MIN_ACCURACY, 100 * acc), [] if acc >= MIN_ACCURACY else ["%.3f" % acc])
        heavy = [r for r in h.get("rows", []) if (r.get("memcg") or "").startswith(
            "/lrs-test-labh")]
        tap.check("the heavy memcg's tasks are among the holders", [] if heavy else
                  ["no holder row of /lrs-test-labh-*"])
        return 1 if tap.failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)

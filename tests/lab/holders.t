#!/usr/bin/python3
"""Lab, holders: lruscope itself in the 6.1 guest (binary, its libraries and
the loader packed into the initramfs), where fentry loads: `report --holders -f json` over a
heavy and a light memcg whose readers are pinned round the CPUs of both nodes, exact mode on.
Asserts that the collector's BPF loads on 6.1, that exact mode is named and sees
acquisitions, that lruvec contention of the test memcgs is traced on both nodes
(memcg@N0 and memcg@N1: a boot without it fails), that the heavy memcg is among the holders,
and that the estimate puts at least 90% of its hold time on the right memcg (the exact holders
of the same waits; LRS_HOLDERS_MIN_ACCURACY changes the bound). The share per rule is printed.

The guest is lab.CONTENDED (6 vCPUs, 3 per node, single-threaded TCG, no "hypervisor" CPUID
bit): why is there. 20 boots of it traced lruvec contention on both nodes in every one
(docs/holders.md, "Lab status")."""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import checks as ck  # noqa: E402
import labtest  # noqa: E402

# Accuracy measured in this guest (docs/holders.md): right memcg for 97.7% to 100%
# of estimated hold time in 17 runs since rule 2 looks at who runs (sched_switch); before it,
# 57% to 99%. The issue aims at 90%.
MIN_ACCURACY = float(os.environ.get("LRS_HOLDERS_MIN_ACCURACY", "0.9"))


def one_run(tap, kdir, binary, work):
    """Boot the guest, run lruscope there; returns (snapshot, failed)."""
    try:
        lines, disk = lab.run_lruscope_guest(kdir, work, os.path.join(lab.HERE, "guest-holders.sh"),
                                             "LRS-HOLDERS-DONE", binary, append="lrs_dur=10 lrs_v",
                                             timeout=300)
    except lab.LabError as e:
        tap.check("guest ran lruscope (second boot)", [str(e)])
        return None, True
    rc = [l.split()[2] for l in lines if l.startswith("LRS report_rc")]
    err = (lab.read_guest_file(disk, "/report.err") or b"").decode()
    raw = lab.read_guest_file(disk, "/holders.json")
    if os.environ.get("LRS_HOLDERS_KEEP"):	# the guest's report, for a closer look
        with open(os.environ["LRS_HOLDERS_KEEP"], "wb") as f:
            f.write(raw or b"")
    try:
        snap = json.loads(raw)
    except (TypeError, ValueError):
        # the guest's second run was -v: the verifier's log says why a load failed
        log = (lab.read_guest_file(disk, "/holders.txt") or b"").decode(errors="replace")
        for line in [l for l in log.splitlines() if " relo #" not in l][-40:]:
            print("#   guest -v: " + line)
        tap.check("the report is JSON", ["rc %s: %s; unreadable: %r" % (rc, err.strip()[-300:],
                                                                          (raw or b"")[:200])])
        return None, True
    tap.check("report --holders runs in the 6.1 guest (the collector's BPF loads)",
              [] if rc == ["0"] else ["rc %s: %s" % (rc, err.strip()[-300:])])
    h = snap.get("holders") or {}
    tap.check("exact mode is on and named", [] if h.get("mode") == "exact (fentry)"
              else ["mode %r" % h.get("mode")])
    acq = (h.get("compare") or {}).get("acquisitions", 0)
    tap.check("exact mode's fentry/fexit hooks see lruvec lock acquisitions (%d)" % acq,
              [] if acq > 0 else ["no acquisition seen"])
    # the guest's second report is text: exact mode's comparison line and its split by rule
    text = (lab.read_guest_file(disk, "/holders.txt") or b"").decode(errors="replace")
    tap.check("the text report names exact mode's comparison and splits it by rule",
              [] if re.search(r"^exact \(fentry\): \d+ acquisitions; estimated hold on the right "
                              r"memcg .*\n  by rule:", text, re.M) else
              ["not in the text report: " + " | ".join(
                  l for l in text.splitlines() if not l.startswith("libbpf"))[-400:]])
    return snap, bool(tap.failed)


def run(tap, kdir, work):
    snap, failed = one_run(tap, kdir, labtest.binary(), work)
    if failed:
        return
    h = snap.get("holders") or {}
    cmp_ = h.get("compare") or {}
    busy = [lv for lv in snap["lruvecs"]
            if lv["memcg"].startswith("/lrs-test-lab") and lv["contended"]]
    nodes = sorted({lv["node"] for lv in busy})
    acc = cmp_.get("accuracy_memcg", -1)
    task = cmp_["right_task_ns"] / cmp_["est_ns"] if cmp_.get("est_ns") else -1
    # "# run 1" lines: tests/bench/holders_accuracy.sh and make lab-bench read them
    print("# run 1: %s; accuracy: %.1f%% of estimated hold time on the right memcg,"
          " %.1f%% on the right task; %d waits without an exact holder" % (
              ", ".join("%s@N%d %d waits" % (lv["memcg"], lv["node"], lv["contended"])
                        for lv in busy) or "no test lruvec contention traced",
              100 * acc, 100 * task, cmp_.get("no_exact", 0)))
    basis = cmp_.get("by_basis") or {}
    print("# run 1: waits charged by rule: %s; drops %s" % (h.get("counters"),
                                                          snap.get("drops")))
    print("# run 1 by rule: %s" % (", ".join(
        "%s %.1f%% of %.3f s" % (k, 100 * v["right_memcg_ns"] / v["est_ns"], v["est_ns"] / 1e9)
        for k, v in basis.items() if v.get("est_ns")) or "none"))
    # no skip: this guest queues lruvec waiters in every boot (lab.CONTENDED), so a boot
    # without them means the set-up or the collector broke
    tap.check("lruvec contention of the test memcgs traced on both nodes (memcg@N0 and "
              "memcg@N1)", [] if nodes == [0, 1] else
              ["traced on nodes %s only: %s" % (nodes, ", ".join(
                  "%s@N%d %d" % (lv["memcg"], lv["node"], lv["contended"]) for lv in busy)
                  or "no wait")])
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


if __name__ == "__main__":
    labtest.main("holders", run)

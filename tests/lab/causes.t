#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the paths, three recordings; a first run also fetches the kernel)
"""Lab, causes: the kernel paths that take lruvec locks, driven on purpose in the 6.1 guest,
land in the cause model/causes.c names for them; and the demo's two layouts, recorded and
diffed there. One boot (tests/lab/lib/guest-causes.sh).

Part 1: each path in a memcg of its own (lrs-test-c-PATH), driven by a static helper
(tests/lab/lib/lrs-paths.c, built here with gcc -static, packed into the initramfs), under one
`lruscope record --stack-every 1 --stack-rate 200 --stack-cpu 0 --stack-cost 0`; `report -i` of
the recording gives each memcg's causes,
summed over its lruvecs on both nodes. Six tasks pinned one per vCPU: limit reclaim (reads
through an 8 MiB memory.max), MADV_PAGEOUT (a file each), mlock/munlock, move_pages(2) to
the other node, compact_memory (while one task keeps fragmented memory there); activation:
one task loads a range and drops it, alone, and in between a thread on each vCPU reads it
again at once. Asserted per path (EXPECT): the memcg's lruvec wait was sampled and the
expected cause has the largest share and at least MIN_SHARE of it, or a stated share where
the same loop also adds folios back to the lists through the per-CPU batches (an lru-add
drain about as large): limit reclaim (each read adds the folio it reads: reclaim and the
lru-add drain take about half each, either one the larger), MADV_PAGEOUT (the pages faulted
back in) and migration (the folios moved: isolation from a quarter to a half of the sampled
wait, as the guest's timing splits it). MADV_PAGEOUT's isolation is most of its sampled
wait (about four fifths, the rest the faults' lru-add drain); reclaim, activation and mlock
show no isolation at all. Compaction is measured and printed, not asserted: its contention comes
only when three compactors reach one lruvec at once, which some boots never see. Removing memcgs with pages is a skip that prints what was
measured where the kernel has no LRU reparenting (6.1 leaves a removed memcg's folios on its
own lruvecs), and asserted where it has.

Part 2: `lruscope workload` in the shared and in the isolated layout, twelve readers pinned
so that both readers of a file share a node, each recorded for LRS_CAUSES_IVALS intervals of
1 s once every memcg reclaims and 10 s more; `lruscope diff shared isolated -f json` in the
guest must report the total lruvec change significant and down, and the shared recording's
hottest lruvec must have its causes named (a cause other than unclassified on top). At 60
intervals a complete separation of the two layouts' interval rates is significant even with
the variance widened the most diff's test widens it for correlated intervals (p 0.0017 at
most).

Two more windows of the same shared load, LRS_CAUSES_SAME_IVALS intervals each
(LRS_CAUSES_SAME=0 leaves them out), for the false-alarm check: `diff shared shared2` and
`diff shared2 shared3` each count as a false alarm when a memcg's wait/s (its sum over its
nodes, or its lruvec where it waited on one node only) or the total lruvec wait/s is
significant (diff's own test: p < 0.01 and a change of 10% or more), and at most one of the
two may have one. Each lruvec's own row is printed with its p, not asserted: one memcg's wait
splits between its two nodes' lruvecs, and that split wanders within one load (readers on
either node reclaim both), so an lruvec's mean can halve between two windows while the
memcg's sum holds, a real change that diff reports as significant. Contentions/s is printed:
the count drifts within one load while the wait holds.

The guest is lab.CONTENDED: it traces lruvec waits in every boot, so a path without any is a
failure, not a skip. LRS_CAUSES_KEEP=DIR keeps the guest's files there."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import labtest  # noqa: E402

PHASE_S = int(os.environ.get("LRS_CAUSES_PHASE", "8"))
IVALS = int(os.environ.get("LRS_CAUSES_IVALS", "60"))
SAME_IVALS = int(os.environ.get("LRS_CAUSES_SAME_IVALS", "30"))
SAME = os.environ.get("LRS_CAUSES_SAME", "1")
MIN_SHARE = 0.4
# memcg (lrs-test-c-NAME), the cause its path must land in (model/causes.c's keys), and the
# share of the memcg's sampled wait it must have: None is the largest share and >= MIN_SHARE
EXPECT = [("reclaim", "reclaim", 0.35), ("activation", "activation", None),
          ("pageout", "isolation", 0.35), ("mlock", "mlock", None),
          ("migrate", "isolation", 0.2)]
MEASURED = ["compact"]	# printed, not asserted (see above)
FILES = ("causes.rec", "causes.json", "causes.err", "causes-report.err", "paths.out",
         "shared.rec", "isolated.rec", "shared2.rec", "shared3.rec", "diff.json", "diff.err",
         "same.json", "same.err", "same2.json", "same2.err", "shared.json", "shared.err",
         "isolated.err", "shared2.err", "shared3.err")


def build_helper(work):
    """tests/lab/lib/lrs-paths.c as a static binary in work; None (said in a TAP line) when
    it does not build."""
    out = os.path.join(work, "lrs-paths")
    r = subprocess.run(["gcc", "-static", "-O2", "-Wall", "-o", out,
                        os.path.join(lab.HERE, "lrs-paths.c")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return out if r.returncode == 0 else r.stdout.strip()[-300:]


def causes_of(snap, memcg):
    """{cause: wait_ns} summed over memcg's lruvecs (and those of memcgs under it), the
    lruvecs' own wait and contentions."""
    by, wait, cont = {}, 0, 0
    for lv in snap.get("lruvecs", []):
        if lv["memcg"] != memcg and not lv["memcg"].startswith(memcg + "/"):
            continue
        wait += lv["wait_ns"]
        cont += lv["contended"]
        for c in lv.get("causes") or []:
            by[c["cause"]] = by.get(c["cause"], 0) + c["wait_ns"]
    return by, wait, cont


def shares_text(by):
    total = sum(by.values())
    return ", ".join("%s %.1f%%" % (k, 100.0 * v / total)
                     for k, v in sorted(by.items(), key=lambda kv: -kv[1])) or "no sampled stack"


def check_path(tap, snap, name, cause, at_least):
    memcg = "/lrs-test-c-" + name
    by, wait, cont = causes_of(snap, memcg)
    total = sum(by.values())
    share = by.get(cause, 0) / total if total else 0
    print("# %s: %d waits, %.1f ms; sampled: %.1f ms: %s" % (
        memcg, cont, wait / 1e6, total / 1e6, shares_text(by)))
    top = max(by, key=by.get) if by else None
    if at_least is None:
        tap.check("%s: lruvec wait sampled, the largest share is %s and >= %.0f%% (%.1f%%)" % (
            memcg, cause, 100 * MIN_SHARE, 100 * share),
            [] if top == cause and share >= MIN_SHARE else
            ["largest: %s; %s" % (top, shares_text(by))])
    else:
        tap.check("%s: lruvec wait sampled, %s has >= %.0f%% of it (%.1f%%)" % (
            memcg, cause, 100 * at_least, 100 * share),
            [] if share >= at_least else [shares_text(by)])


def check_reparent(tap, snap, has_lru_reparent):
    memcg = "/lrs-test-c-reparent"
    by, wait, cont = causes_of(snap, memcg)
    total = sum(by.values())
    share = by.get("memcg_move", 0) / total if total else 0
    print("# %s (children removed with their pages): %d waits, %.1f ms; sampled: %s" % (
        memcg, cont, wait / 1e6, shares_text(by)))
    name = "%s: memcg removal lands in memcg_move (%.1f%% of the sampled wait)" % (
        memcg, 100 * share)
    if has_lru_reparent:
        tap.check(name, [] if share >= MIN_SHARE else [shares_text(by)])
    else:
        tap.skip(name, "this kernel does not reparent a removed memcg's LRU folios (no "
                 "lru_reparent_memcg): no lruvec lock is taken by the removal")


def load(disk, name):
    raw = lab.read_guest_file(disk, "/" + name)
    try:
        return json.loads(raw), ""
    except (TypeError, ValueError):
        err = (lab.read_guest_file(disk, "/" + name.replace(".json", ".err")) or b"")
        return None, "unreadable %r; %s" % ((raw or b"")[:120], err.decode(errors="replace")
                                            .strip()[-300:])


def lruvec_total(diff):
    return next((r for r in diff.get("totals", []) if r.get("name") == "lruvec locks"), None)


def check_diff(tap, disk, rc):
    diff, err = load(disk, "diff.json")
    tap.check("diff shared isolated -f json runs in the guest", [] if diff and
              rc.get("diff") == "0" else ["rc %s: %s" % (rc.get("diff"), err)])
    shared, err2 = load(disk, "shared.json")
    if diff:
        t = lruvec_total(diff) or {}
        w = t.get("wait_ns_per_s") or {}
        print("# diff shared -> isolated: lruvec wait %.1f -> %.1f ms/s, ratio %s, p %s; %d and "
              "%d intervals; significant rows %s" % (
                  (w.get("a") or 0) / 1e6, (w.get("b") or 0) / 1e6, w.get("ratio"), w.get("p"),
                  diff["a"]["samples"], diff["b"]["samples"], diff.get("significant")))
        c = t.get("contended_per_s") or {}
        tap.check("diff: the total lruvec wait change is reported significant, down in the "
                  "isolated layout (ratio %s; p %s for wait/s, %s for contentions/s)" % (
                      w.get("ratio"), w.get("p"), c.get("p")),
                  [] if t.get("significant") and (w.get("ratio") if w.get("ratio") is not None
                                                  else 1) < 1 else ["totals row %s" % t])
    if not shared:
        tap.check("report -i shared.rec -f json runs in the guest", [err2])
        return
    rows = [lv for lv in shared["lruvecs"] if lv["memcg"].startswith("/lrs-test-lshared-")]
    hot = max(rows, key=lambda lv: lv["wait_ns"]) if rows else None
    causes = (hot or {}).get("causes") or []
    if hot:
        print("# shared layout's hot lruvec %s@N%d: %d waits, %.1f ms; causes: %s" % (
            hot["memcg"], hot["node"], hot["contended"], hot["wait_ns"] / 1e6, ", ".join(
                "%s %.1f%%" % (c["cause"], 100 * c["share"]) for c in causes)))
    tap.check("the shared layout's hot lruvec has its causes named (a named cause on top)",
              [] if causes and causes[0]["cause"] != "unclassified" else
              ["hot lruvec %s, causes %s" % (hot and hot["memcg"], causes)])


def false_alarms(tap, disk, rc, name, a, b):
    """(the memcgs diff a b (name.json) summed over their nodes, its false alarms), its rows
    printed; the alarms are the memcgs whose wait/s is significant, and the total lruvec wait/s
    if it is. None when the diff did not run (a failed check says why)."""
    same, err = load(disk, name + ".json")
    if not same:
        tap.check("diff %s %s -f json runs in the guest" % (a, b), ["rc %s: %s" % (
            rc.get(name), err)])
        return None
    t = lruvec_total(same) or {}
    w = t.get("wait_ns_per_s") or {}
    c = t.get("contended_per_s") or {}
    print("# diff %s -> %s: lruvec wait %.1f -> %.1f ms/s, ratio %s, p %s; contentions "
          "%.0f -> %.0f /s, p %s (significant: p < %s and a change of %g%% or more)" % (
              a, b, (w.get("a") or 0) / 1e6, (w.get("b") or 0) / 1e6, w.get("ratio"), w.get("p"),
              c.get("a") or 0, c.get("b") or 0, c.get("p"), same.get("alpha"),
              100 * (same.get("min_change") or 0)))
    summed = {r["memcg"] for r in same.get("memcgs", [])}
    for r in same.get("memcgs", []):
        m = r.get("wait_ns_per_s") or {}
        print("#   %s (all nodes): wait %.1f -> %.1f ms/s, ratio %s, p %s%s" % (
            r["memcg"], (m.get("a") or 0) / 1e6, (m.get("b") or 0) / 1e6, m.get("ratio"),
            m.get("p"), ", significant" if m.get("significant") else ""))
    for r in same.get("lruvecs", []):
        m = r.get("wait_ns_per_s") or {}
        print("#   %s@N%s: wait %.1f -> %.1f ms/s, ratio %s, p %s%s" % (
            r["memcg"], r["node"], (m.get("a") or 0) / 1e6, (m.get("b") or 0) / 1e6,
            m.get("ratio"), m.get("p"), ", significant" if m.get("significant") else ""))
    # per memcg: its sum over the nodes, or its one lruvec; wait/s only: the guest's
    # contention count drifts within one load (fewer, longer waits or more, shorter ones)
    # while its wait holds, and diff reports that as it is
    rows = same.get("memcgs", []) + [r for r in same.get("lruvecs", [])
                                     if r["memcg"] not in summed]
    return summed, (["%s wait/s %.1f -> %.1f ms/s" % (
        r["memcg"], (r["wait_ns_per_s"].get("a") or 0) / 1e6,
        (r["wait_ns_per_s"].get("b") or 0) / 1e6) for r in rows
             if (r.get("wait_ns_per_s") or {}).get("significant")] +
            (["total lruvec wait/s ratio %s, p %s" % (w.get("ratio"), w.get("p"))]
             if w.get("significant") else []))


def check_same(tap, disk, rc):
    diffs = [false_alarms(tap, disk, rc, "same", "shared", "shared2"),
             false_alarms(tap, disk, rc, "same2", "shared2", "shared3")]
    if None in diffs:
        return
    memcg = "/lrs-test-lshared-shared"
    tap.check("both diffs sum the shared memcg's wait over its two nodes' lruvecs",
              [] if all(memcg in summed for summed, _ in diffs) else
              ["memcgs summed: %s" % [sorted(summed) for summed, _ in diffs]])
    alarms = [a for _, a in diffs]
    tap.check("two diffs of windows of the same shared load: at most one has a false alarm, "
              "a memcg's or the total lruvec wait/s significant (%d do)" % sum(
                  1 for a in alarms if a),
              [] if sum(1 for a in alarms if a) <= 1 else
              ["shared -> shared2: %s; shared2 -> shared3: %s" % (
                  "; ".join(alarms[0]), "; ".join(alarms[1]))])


def run(tap, kdir, work):
    helper = build_helper(work)
    if not os.path.isabs(helper):
        tap.check("tests/lab/lib/lrs-paths.c builds with gcc -static", [helper])
        return
    try:
        lines, disk = lab.run_lruscope_guest(
            kdir, work, os.path.join(lab.HERE, "guest-causes.sh"), "LRS-CAUSES-DONE",
            labtest.binary(), append="lrs_phase=%d lrs_ivals=%d lrs_same_ivals=%d lrs_same=%s" % (
                PHASE_S, IVALS, SAME_IVALS, SAME),
            timeout=600, extra={"/lrs-paths": helper})
    except lab.LabError as e:
        tap.check("the guest ran the paths and the layouts under lruscope (second boot)",
                  [str(e)])
        return
    for line in lines:
        if line.startswith("LRS ") and not line.startswith("LRS numa_stat"):
            print("# guest: " + line[4:])
    keep = os.environ.get("LRS_CAUSES_KEEP")
    for name in FILES if keep else ():
        with open(os.path.join(keep, name), "wb") as f:
            f.write(lab.read_guest_file(disk, "/" + name) or b"")
    rc = {l.split()[2]: l.split()[3] for l in lines
          if l.startswith("LRS report_rc ") or l.startswith("LRS diff_rc ")}
    snap, err = load(disk, "causes.json")
    tap.check("record --stack-every 1 --stack-rate 200 --stack-cpu 0 --stack-cost 0 over the paths, "
              "report -i of it -f json", [] if snap and
              rc.get("causes") == "0" else ["rc %s: %s" % (rc.get("causes"), err)])
    if snap:
        for name, cause, at_least in EXPECT:
            check_path(tap, snap, name, cause, at_least)
        for name in MEASURED:
            by, wait, cont = causes_of(snap, "/lrs-test-c-" + name)
            print("# /lrs-test-c-%s (measured, not asserted): %d waits, %.1f ms; sampled: %s" % (
                name, cont, wait / 1e6, shares_text(by)))
        check_reparent(tap, snap, any(l.strip() == "LRS lru_reparent 1" for l in lines))
    check_diff(tap, disk, rc)
    if SAME == "1":
        check_same(tap, disk, rc)


if __name__ == "__main__":
    # the record's 1, the 5 paths, the removal, diff's 3; the same load's 2 (LRS_CAUSES_SAME)
    labtest.main("causes", run, plan=10 + (2 if SAME == "1" else 0))

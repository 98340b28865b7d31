#!/usr/bin/python3
# time-limit: 2400  (four TCG guests, one of them under load for three minutes; a first run
# also fetches the kernels)
# guest: shared  (counts, no timing: its guests may run beside the live guest)
"""Lab, spin sources: where lock:contention_begin is blind, the slowpath source sees.

On the host: `report -f json` names its spinlock source, and it is the one the host's kind
calls for (tests/lib.sh's verdict: a host that traces every spinlock wait keeps the
tracepoint; one that traces none takes the slow path, or says it sees none).

In Debian's 6.1 guest (tests/lab/lib/guest-spin.sh), readers of one memcg pinned round the
CPUs, `report --spin-source slowpath` with `report --spin-source tracepoint` inside its window:
- test-and-set spinlocks ("hypervisor" CPUID bit, no paravirt spinlocks: virt_spin_lock()):
  the tracepoint counts no lruvec wait and says it sees none, the slowpath counts them, and
  the loaded memcg holds at least 95% of the lruvec wait; auto picks the slow path, sure of
  the kind through virt_spin_lock_key;
- native queued spinlocks (no hypervisor bit), 2 vCPUs: the slowpath counts more lruvec waits
  than the tracepoint (the first waiters), and every lruvec the tracepoint saw wait has at
  least as many waits in the slowpath's count; auto picks the slow path;
- Debian bullseye's 5.10 (one pgdat->lru_lock per node, no contention tracepoint, no cgroup
  iterator), one memcg per container: the report counts from the slow path, names the node
  lock ("N0 (node lock)") and lists the containers' memcgs among its waiters;
- a stress run: the slowpath hooks attached for three minutes on 6 vCPUs, readers on all of
  them: the recording counts lruvec waits in every interval (no hook lost), the guest ends
  (no lockup, no stall in the kernel log), drops are counted, not silent.
LRS_SPIN_KEEP=DIR keeps the guests' reports there."""

import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import labtest  # noqa: E402
sys.path.insert(0, os.path.join(lab.ROOT, "tests", "integration"))
import gui_png  # noqa: E402
from spinlab import (LOADED, boot, compare, lruvec_waits, lruvec_wait_ns, source,  # noqa: E402
                     tui_first_frame)

MIN_SHARE = 0.95
STRESS_SECS = 180
TAS = dict(cpus_per_node=3, cpu="qemu64", accel="tcg,thread=single")
NATIVE = dict(cpus_per_node=1, cpu="qemu64,-hypervisor", accel="tcg")
STRESS = lab.CONTENDED
PLAN = 15
# One host thread for its vCPUs: under multi-threaded TCG the 5.10 guest could stall
# (RCU stalls for minutes, one vCPU at the int3 that live-patches the slow path's entry for
# the report's fentry hook, the others spinning on a lock with interrupts off), its vCPU
# threads busy on the host until its time limit; its checks need waiters, not parallel
# vCPUs, and single-threaded TCG queues them (lab.CONTENDED).
K510 = dict(cpus_per_node=2, cpu="qemu64,-hypervisor", accel="tcg,thread=single")


def host_part(tap):
    """The host's own report names its source, the one its kind calls for: the host's real
    kind, also where LRS_ASSUME_UNTRACED=1 sent the live tests to the lab guest (the report
    does not assume: on a host that traces spinlock waits it keeps the tracepoint)."""
    env = {k: v for k, v in os.environ.items() if k != "LRS_ASSUME_UNTRACED"}
    verdict = subprocess.run(["bash", "-c", ". %s/tests/lib.sh && lrs_spin_verdict" % lab.ROOT],
                             stdout=subprocess.PIPE, text=True, env=env).stdout.strip()
    r = subprocess.run([labtest.binary(), "report", "-d", "1", "-f", "json"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        src = source(json.loads(r.stdout))
    except ValueError:
        src = {}
    want = {"traced": ("tracepoint",), "untraced": ("slowpath", "none")}.get(verdict.split(":")[0])
    probs = [] if src.get("name") in (want or ()) and src.get("why") else [
        "host verdict %r, report rc %d, spin_source %r: %s" % (verdict, r.returncode, src,
                                                               r.stderr.strip()[-200:])]
    if src.get("name") == "tracepoint" and not src.get("first_waiter"):
        probs.append("the tracepoint was kept where it misses first waiters: %r" % src)
    tap.check("host: report -f json names its spinlock source, the one the host's kind calls for "
              "(%s)" % verdict.split(":")[0], probs)


def tas_part(tap, kdir, work):
    # the reports in lab-bench's floor-last order (tracepoint first): the checks here do not
    # depend on it, and lab-bench's odd rounds take the other order's path of guest-spin.sh
    got = compare(tap, kdir, work, "test-and-set", TAS, "lrs_dur=20 lrs_floor_last=1")
    if not got:
        tap.skip_n(1, "test-and-set views", "the guest did not end (above)")
        return
    sp, tp, auto, blind = got
    print("# test-and-set: lruvec waits: tracepoint %d, slowpath %d (%d ns); sources %r / %r"
          % (lruvec_waits(tp), lruvec_waits(sp), lruvec_wait_ns(sp), source(tp).get("name"),
             source(sp).get("name")))
    tap.check("test-and-set: the tracepoint counts no lruvec wait, and says it sees none",
              [] if tp and lruvec_waits(tp) == 0 and source(tp).get("name") == "none" else
              ["tracepoint: %d lruvec waits, spin_source %r" % (lruvec_waits(tp), source(tp))])
    total, mine = lruvec_wait_ns(sp), lruvec_wait_ns(sp, LOADED)
    tap.check("test-and-set: the slowpath counts the lruvec waits, %d%%+ of their wait on %s"
              % (MIN_SHARE * 100, LOADED),
              [] if source(sp).get("name") == "slowpath" and source(sp).get("first_waiter") and
              lruvec_waits(sp) >= 100 and total and mine >= MIN_SHARE * total else
              ["slowpath: %d waits, %d of %d ns on %s, spin_source %r" % (
                  lruvec_waits(sp), mine, total, LOADED, source(sp))])
    why = source(auto).get("why", "")
    tap.check("test-and-set: auto takes the slow path, sure of the kind (virt_spin_lock_key)",
              [] if source(auto).get("name") == "slowpath" and "virt_spin_lock_key is on" in why
              else ["auto: %r" % source(auto)])
    views_part(tap, work, blind)


def warn_pixels(png):
    """Pixels of the GUI's warning colour (255, 170, 60, anti-aliased) on the header's second
    line, where the unavailable note is drawn (the first holds "PAUSED" in that colour)."""
    w, h, rows = gui_png.read_png(png)
    n = 0
    for y in range(19, min(36, h)):
        for x in range(w // 2, w):
            r, g, b = gui_png.px(rows, x, y)
            n += r > 200 and 120 < g < 200 and b < 110
    return n


def views_part(tap, work, blind):
    """The blind tracepoint's recording, replayed in the views here: each says so."""
    rec = os.path.join(work, "tracepoint.jsonl")
    with open(rec, "wb") as f:
        f.write(blind or b"")
    screen = tui_first_frame(labtest.binary(), rec, work)
    text = subprocess.run([labtest.binary(), "report", "-i", rec], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True).stdout
    png = os.path.join(work, "blind.png")
    gui = subprocess.run([labtest.binary(), "replay", rec, "--gui", "--screenshot", png],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    keep_dir = os.environ.get("LRS_SPIN_KEEP")
    if keep_dir and os.path.exists(png):
        shutil.copy(png, os.path.join(keep_dir, "blind.png"))
    probs = []
    if "unavailable: spinlock waits (lruvec locks too)" not in screen:
        probs.append("TUI first frame: %r" % screen[:800])
    if "spinlock waits from: none" not in text or "unavailable: spinlock waits" not in text:
        probs.append("report -i: %r" % text[:600])
    warn = warn_pixels(png) if gui.returncode == 0 and os.path.exists(png) else -1
    if warn < 50:
        probs.append("gui --screenshot: rc %d, %d warning-coloured pixels on the header's second "
                     "line: %s" % (gui.returncode, warn, gui.stdout[-300:]))
    tap.check("test-and-set: where the source is blind, the TUI's first frame, the report and the "
              "GUI say so (a recording of the guest's tracepoint, replayed here)", probs)


def native_part(tap, kdir, work):
    got = compare(tap, kdir, work, "native", NATIVE, "lrs_dur=20 lrs_readers=4")
    if not got:
        return
    sp, tp, auto, _ = got
    print("# native: lruvec waits: tracepoint %d, slowpath %d" % (lruvec_waits(tp),
                                                                  lruvec_waits(sp)))
    tap.check("native, 2 vCPUs: the slowpath counts more lruvec waits than the tracepoint "
              "(the first waiters)",
              [] if sp and lruvec_waits(sp) > lruvec_waits(tp) and lruvec_waits(sp) >= 100 and
              source(sp).get("name") == "slowpath" else
              ["slowpath %d, tracepoint %d lruvec waits" % (lruvec_waits(sp), lruvec_waits(tp))])
    by = {(lv["memcg"], lv["node"]): lv["contended"] for lv in sp.get("lruvecs", [])}
    short = ["%s@N%d: tracepoint %d, slowpath %d" % (lv["memcg"], lv["node"], lv["contended"],
                                                     by.get((lv["memcg"], lv["node"]), 0))
             for lv in tp.get("lruvecs", [])
             if lv["contended"] > by.get((lv["memcg"], lv["node"]), 0)]
    tap.check("native: every lruvec the tracepoint saw wait has as many waits or more in the "
              "slowpath's count", short if tp else ["no tracepoint report"])
    tap.check("native: auto takes the slow path (native queued spinlocks)",
              [] if source(auto).get("name") == "slowpath" and
              "native" in source(auto).get("why", "") else ["auto: %r" % source(auto)])


def node_lock_part(tap, work):
    try:
        kdir = lab.kernel_dir("5.10")
    except lab.LabError as e:
        tap.check("5.10: the kernel is fetched", [str(e)])
        tap.skip_n(1, "5.10 guest", "no kernel (above)")
        return
    got = boot(tap, kdir, work, "5.10", K510, "lrs_phase=node lrs_dur=15 lrs_readers=8",
               ["node.json", "node.err", "node.txt"])
    if not got:
        tap.skip_n(1, "5.10 guest", "the guest did not end (above)")
        return
    out, rc, _ = got
    snap, probs = {}, []
    try:
        snap = json.loads(out.get("node.json") or b"")
    except ValueError:
        probs.append("unreadable JSON")
    if rc.get("node") != "0":
        probs.append("rc %s: %s" % (rc.get("node"), (out.get("node.err") or b"").decode(
            errors="replace").strip()[-400:]))
    tap.check("5.10: report runs there, counting from the slow path (no contention tracepoint)",
              probs or ([] if source(snap).get("name") == "slowpath" else
                        ["spin_source %r" % source(snap)]))
    rows = [lv for lv in snap.get("lruvecs", []) if lv["memcg"] == "(node lock)"]
    waiters = {w.get("memcg") for lv in rows for w in lv.get("waiters", [])}
    mine = {m for m in waiters if m and m.startswith("/lrs-test-spin-c")}
    print("# 5.10: node lock rows %s; waiter memcgs %s" % (
        [(lv["node"], lv["contended"]) for lv in rows], sorted(m or "?" for m in waiters)))
    text = (out.get("node.txt") or b"").decode(errors="replace")
    tap.check("5.10: the report names the node lock, the containers' memcgs among its waiters",
              [] if rows and sum(lv["contended"] for lv in rows) > 0 and len(mine) >= 2 and
              "N0 (node lock)" in text else
              ["node lock rows %r, waiter memcgs %r; text: %s" % (
                  [(lv["node"], lv["contended"]) for lv in rows], sorted(m or "?" for m in waiters),
                  text[:600])])


def stress_part(tap, kdir, work):
    got = boot(tap, kdir, work, "stress", STRESS,
               "lrs_phase=stress lrs_dur=%d lrs_readers=12" % STRESS_SECS,
               ["stress.rec", "stress.err"], timeout=1500)
    if not got:
        tap.skip_n(2, "stress guest", "the guest did not end (above)")
        return
    out, rc, lines = got
    err = (out.get("stress.err") or b"").decode(errors="replace").strip()[-300:]
    recs = []
    for line in (out.get("stress.rec") or b"").decode(errors="replace").splitlines():
        try:
            recs.append(json.loads(line))
        except ValueError:
            pass
    snaps = [r for r in recs if "t_ns" in r]
    tap.check("stress: record --spin-source slowpath ran %d s on 6 vCPUs" % STRESS_SECS,
              [] if rc.get("stress") == "0" and len(snaps) >= STRESS_SECS // 10 - 1 else
              ["rc %s, %d snapshots: %s" % (rc.get("stress"), len(snaps), err)])
    ids = {lv["memcg_id"] for s in snaps[:1] for lv in s.get("lruvecs", [])
           if lv["memcg"] == LOADED}
    per = [sum(lv.get("contended", 0) for lv in s.get("lruvecs", []) if lv.get("memcg_id") in ids)
           for s in snaps[1:]]
    print("# stress: lruvec waits per 10 s on %s: %s; drops at the end %r" % (
        LOADED, per, snaps[-1].get("drops") if snaps else None))
    tap.check("stress: the hooks counted lruvec waits in every interval (none lost), drops counted",
              [] if per and all(n > 0 for n in per) and snaps and "drops" in snaps[-1]
              and source(snaps[-1]).get("name") == "slowpath" else
              ["per interval %r, spin_source %r" % (per, source(snaps[-1]) if snaps else None)])
    bad = [line for line in lines if line.startswith("LRS kmsg ") and any(
        w in line.lower() for w in ("lockup", "stall", "bug:", "hung"))]
    tap.check("stress: no lockup, stall or BUG in the guest's kernel log", bad)


def body(tap, kdir, work):
    host_part(tap)
    tas_part(tap, kdir, os.path.join(work, "tas"))
    native_part(tap, kdir, os.path.join(work, "native"))
    node_lock_part(tap, os.path.join(work, "5.10"))
    stress_part(tap, kdir, os.path.join(work, "stress"))


if __name__ == "__main__":
    labtest.main("spin", body, plan=PLAN)

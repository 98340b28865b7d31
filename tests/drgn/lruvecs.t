#!/usr/bin/python3
"""lruvecs.py, lru_check.py and walk.py (and `lruscope walk` on walk.py's JSON) against
synthetic kernels (synthetic_lru.py): the multi-gen LRU with lrugen.lists (struct page, 6.1
to 6.2) and with lrugen.folios (6.3+, the 6.1 stable series), and a kernel before 5.11 whose
one lru_lock per node lies in pglist_data. Each lruvec holds a known number of pages per
generation, type and zone; the scripts' counts, walks, checks and lock names must say so."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "drgn-scripts")
sys.path.insert(0, HERE)
sys.path.insert(0, SCRIPTS)  # the lrs package
sys.path.insert(0, os.path.join(HERE, "..", "lib"))

from lrs_tap import check, plan, skip_each  # noqa: E402

# the kernels, and the checks main() runs on each, in this order
KERNELS = (("lists", "multi-gen LRU, lrugen.lists of struct page (6.1-6.2)"),
           ("folios", "multi-gen LRU, lrugen.folios (6.3+, 6.1 stable)"),
           ("pre-5.11", "before 5.11: pgdat->lru_lock, page->mem_cgroup"))
CHECKS = ("pages per list counted and walked", "lru_check finds none, then exactly the moved folio",
          "walk.py's snapshot has the same counts", "lock named", "lruscope walk table",
          "lruscope walk TUI: one held lock, the lock named")
plan(18)	# the 6 CHECKS on each of the 3 KERNELS

try:
    import drgn  # noqa: F401
except ImportError:
    skip_each("python3-drgn is not installed", ["%s: %s" % (what, c) for _, what in KERNELS
                                                  for c in CHECKS])
    sys.exit(0)

from lrs import check as lru_check, locks, lru, snapshot, tables  # noqa: E402
import synthetic_lru as sl  # noqa: E402

BIN = os.environ.get("LRS_BIN", os.path.join(HERE, "..", "..", "build", "lruscope"))


def counts_problems(kern, lvs):
    """Counters, walks and mismatches of every lruvec against what the kernel holds."""
    probs = []
    got = {(e["memcg"], e["node"]): e for e in lvs}
    if set(got) != set(kern.want):
        return ["lruvecs %s, want %s" % (sorted(got), sorted(kern.want))]
    for key, want in kern.want.items():
        e = got[key]
        where = "%s@N%d" % key
        if e["mglru"] != kern.mglru:
            probs.append("%s: mglru %s" % (where, e["mglru"]))
        if e["lru_pages"] != want:
            probs.append("%s: counted %s, want %s" % (where, e["lru_pages"], want))
        walked = {n: w["pages"] for n, w in e["walked"].items()}
        if walked != want:
            probs.append("%s: walked %s, want %s" % (where, walked, want))
        if [n for n, w in e["walked"].items() if not w["complete"]]:
            probs.append("%s: incomplete %s" % (where, e["walked"]))
        if e["mismatch"]:
            probs.append("%s: mismatch %s" % (where, e["mismatch"]))
    if not any(sum(w.values()) for w in kern.want.values()):
        probs.append("the kernel holds no pages: it would prove nothing")
    return probs


def check_problems(kern):
    """lru_check: none on the kernel as built; exactly one after one folio's owner changes."""
    probs = []
    total = sum(len(v) for v in kern.folio_of.values())
    res = lru_check.check(kern.prog, [])
    if res["violations"] or res["folios_checked"] != total:
        probs.append("clean kernel: %d violations %s, %d folios checked of %d" % (
            len(res["violations"]), res["violations"][:2], res["folios_checked"], total))
    # a folio of /a@N1 charged to /b: the one violation, with its memcgs
    folio = kern.folio_of[("/a", 1)][-1]
    old = kern.prog.read_u64(folio + 24)
    kern.k.w64(folio + 24, kern.memcgs["/b"])
    try:
        res = lru_check.check(kern.prog, [])
    finally:
        kern.k.w64(folio + 24, old)
    vs = [(v["folio"], v["lruvec_memcg"], v["folio_memcg"], v["why"]) for v in res["violations"]]
    if vs != [("0x%x" % folio, "/a", "/b", ["memcg"])]:
        probs.append("one folio moved to /b: violations %s" % vs)
    return probs


def lock_problems(kern, lvs):
    probs = []
    scope = "node" if kern.pre511 else "lruvec"
    for e in lvs:
        where = "%s@N%d" % (e["memcg"], e["node"])
        want_lock = "0x%x" % kern.lock_addr(e["memcg"], e["node"])
        if e["lock"] != want_lock or e.get("lock_scope") != scope:
            probs.append("%s: lock %s scope %s, want %s %s" % (
                where, e["lock"], e.get("lock_scope"), want_lock, scope))
        if kern.pre511:
            if e.get("lock_name") != "pgdat->lru_lock (node %d)" % e["node"] or \
                    e.get("lock_shared_by") != len(sl.MEMCGS):
                probs.append("%s: lock_name %r shared by %r" % (
                    where, e.get("lock_name"), e.get("lock_shared_by")))
        elif "lock_name" in e or "lock_shared_by" in e:
            probs.append("%s: a node lock's fields on a lruvec lock" % where)
    return probs


def table_problems(kern, snap):
    text = tables.lruvecs_table(snap)
    lines = [ln for ln in text.splitlines() if ln.startswith("lock ")]
    if not kern.pre511:
        return ["node lock lines on a 5.11+ kernel: %s" % lines] if lines else []
    want = ["lock 0x%x: node %d's pgdat->lru_lock (one lock per node before 5.11), shared "
            "by all %d memcgs on node %d" % (kern.pgdats[n] + 16, n, len(sl.MEMCGS), n)
            for n in range(len(sl.NODES))]
    return [] if lines == want else ["table says %s, want %s" % (lines, want)]


def holders_problems(kern):
    """Node 1's lock taken: one holders entry, the node lock, naming every memcg sharing it
    (tasks are not searched: the synthetic kernel has none)."""
    kern.k.w32(kern.lock_addr("/", 1), 1)
    real = locks.referencing_tasks
    seen = []
    locks.referencing_tasks = lambda prog, ranges, warnings: seen.extend(ranges) or {}
    try:
        _, lvs, _ = lru.collect(kern.prog, [], walk=False)
        res = locks.holders_report(kern.prog, lvs, False, [])
    finally:
        locks.referencing_tasks = real
        kern.k.w32(kern.lock_addr("/", 1), 0)
    got = [(lk["lruvec"], lk.get("lock_scope"), lk.get("memcgs")) for lk in res["locks"]]
    if kern.pre511:
        want = [("pgdat->lru_lock (node 1)", "node", sl.MEMCGS)]
        keys = sorted(set(r[2] for r in seen))
        probs = [] if keys == ["pgdat->lru_lock (node 1)"] else ["ranges keyed %s" % keys]
        if not any(r[0] == kern.lock_addr("/", 1) for r in seen):
            probs.append("the node lock word is not searched for")
        text = tables.holders_table(res)
        if "shared by every memcg on node 1 (/, /a, /b, /b/c)" not in text or \
                not text.startswith("8 lruvecs, 1 node lock(s) (pgdat->lru_lock) held"):
            probs.append("holders table: %r" % text)
    else:
        want = [("/@N1", None, None)]
        probs = []
    if got != want or res["held"] != 1:
        probs.append("held %d, locks %s, want %s" % (res["held"], got, want))
    return probs


WALK_STUB = """#!/usr/bin/python3
import os, sys
sys.path[:0] = [%r, %r]
import synthetic_lru as sl
from lrs import locks, output, snapshot
kern = sl.LruKernel(%r)
if %r:
    kern.k.w32(kern.lock_addr("/b", 0), 1)
    locks.referencing_tasks = lambda prog, ranges, warnings: {}
output.emit_json(snapshot.walk(kern.prog, []))
"""


def lruscope_walk(spelling, held, work):
    """`lruscope walk` (the C table) on a walk.py that walks a synthetic kernel."""
    d = os.path.join(work, spelling + ("-held" if held else ""))
    os.makedirs(d)
    with open(os.path.join(d, "walk.py"), "w") as f:
        f.write(WALK_STUB % (HERE, SCRIPTS, spelling, held))
    env = dict(os.environ, LRS_DRGN_SCRIPTS=d)
    r = subprocess.run([BIN, "walk", "-c", "/dev/null", "-s", "/dev/null"],
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                       timeout=120)
    return r.returncode, r.stdout, r.stderr


def tui_problems(kern, work):
    """`lruscope walk` on a terminal (tmux): the header counts a node lock once, the detail
    pane names the lock."""
    if not shutil.which("tmux"):
        return None
    d = os.path.join(work, kern.spelling + "-held")
    sock = "lrs-test-drgn%d" % os.getpid()
    tm = ["tmux", "-L", sock]
    cmd = "env LRS_DRGN_SCRIPTS=%s TERM=xterm-256color LC_ALL=C.UTF-8 %s walk -c /dev/null " \
          "-s /dev/null; sleep 60" % (d, BIN)
    text = ""
    try:
        subprocess.run(tm + ["new-session", "-d", "-s", "w", "-x", "150", "-y", "30", cmd],
                       check=True)
        deadline = time.time() + 60
        while time.time() < deadline and "one instant" not in text:
            time.sleep(0.25)
            text = subprocess.run(tm + ["capture-pane", "-p", "-t", "w"], capture_output=True,
                                  text=True).stdout
    finally:
        subprocess.run(tm + ["kill-server"], stderr=subprocess.DEVNULL)
        path = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), "tmux-%d" % os.getuid(), sock)
        if os.path.exists(path):
            os.unlink(path)
    probs = []
    if "one instant" not in text:
        return ["no walk on the screen: %r" % text[-300:]]
    if "1 lock held or waited on" not in text:
        probs.append("header does not count one held lock")
    name = r"node \d's pgdat->lru_lock \(every memcg on it\): " if kern.pre511 else \
        r"lock word: "
    if not re.search(r"^ " + name + r"(free|locked)\s", text, re.M):
        probs.append("detail pane does not say %r: %r" % (name, text[-600:]))
    return probs


def c_table_problems(kern, work):
    rc, out, err = lruscope_walk(kern.spelling, False, work)
    if rc != 0:
        return ["lruscope walk: exit %d: %s" % (rc, err.strip()[-300:])]
    probs = []
    rows = {}
    for line in out.splitlines():
        w = line.split()
        if w and "@N" in w[0] and w[1].startswith("0x"):
            # MEMCG@NODE LOCK STATE TOTAL ia aa if af un CHECK
            rows[tuple(w[0].rsplit("@N", 1))] = ([int(x) for x in w[3:9]], w[9:])
    for (path, nid), want in kern.want.items():
        row = rows.get((path, str(nid)))
        nums = [sum(want.values())] + [want[n] for n in sl.LRU_NAMES]
        if row is None or row[0] != nums or row[1] != ["ok"]:
            probs.append("%s@N%d row %s, want %s ok" % (path, nid, row, nums))
    shared = [ln for ln in out.splitlines() if ln.startswith("lock ")]
    want = ["lock 0x%x: node %d's pgdat->lru_lock (one lock per node before 5.11), shared "
            "by all %d memcgs on node %d" % (kern.pgdats[n] + 16, n, len(sl.MEMCGS), n)
            for n in range(len(sl.NODES))] if kern.pre511 else []
    if shared != want:
        probs.append("node lock lines %s, want %s" % (shared, want))
    # /b@N0's lock taken: before 5.11 that is node 0's, which every memcg there shares
    rc, out, err = lruscope_walk(kern.spelling, True, work)
    held = [ln for ln in out.splitlines() if ln.startswith(("held", "1 "))]
    if kern.pre511:
        want = ["1 node lock(s) (pgdat->lru_lock) held or waited on; 0 lruvec(s) whose walk "
                "differs from the counters",
                "held: pgdat->lru_lock (node 0), shared by every memcg on node 0, 0 task(s) "
                "reference it"]
    else:
        want = ["1 lruvec lock(s) held or waited on; 0 lruvec(s) whose walk differs from the "
                "counters", "held: /b@N0, 0 task(s) reference it"]
    if rc != 0 or held != want:
        probs.append("/b@N0's lock taken: exit %d, %s, want %s (%s)" % (
            rc, held, want, err.strip()[-200:]))
    return probs


def guarded(name, problems):
    """check() of problems(), a crash in a walker counting as a failure with its reason."""
    try:
        probs = problems()
    except Exception as e:
        probs = ["%s: %s" % (type(e).__name__, e)]
    if probs is None:
        return check(name + " # SKIP no tmux", True)
    return check(name, not probs, "; ".join(str(p) for p in probs[:6]))


def collected(kern):
    warnings = []
    nodes, lvs, stats = lru.collect(kern.prog, warnings)
    return lvs, lru.snapshot_of(kern.prog, nodes, lvs, stats, warnings)


def walk_problems(kern):
    snap = snapshot.walk(kern.prog, [])
    probs = counts_problems(kern, snap["lruvecs"]) + snap["warnings"]
    if snap["violations_total"]:
        probs.append("walk.py: %d violations" % snap["violations_total"])
    return probs


def main():
    work = tempfile.mkdtemp(prefix="lrs-test-drgn.")
    try:
        for spelling, what in KERNELS:
            kern = sl.LruKernel(spelling)
            guarded("%s: pages per list counted and walked" % what,
                    lambda: (lambda lvs, snap: counts_problems(kern, lvs) + snap["warnings"])(
                        *collected(kern)))
            guarded("%s: lru_check finds none, then exactly the moved folio" % what,
                    lambda: check_problems(kern))
            guarded("%s: walk.py's snapshot has the same counts" % what,
                    lambda: walk_problems(kern))
            guarded("%s: lock named %s" % (what, "per node, shared by every memcg on it"
                                             if kern.pre511 else "per lruvec"),
                    lambda: (lambda lvs, snap: lock_problems(kern, lvs) +
                             table_problems(kern, snap) + holders_problems(kern))(
                                 *collected(kern)))
            if not os.access(BIN, os.X_OK):
                check("%s: lruscope walk table" % what, False, "%s missing (make)" % BIN)
                continue
            guarded("%s: lruscope walk table" % what, lambda: c_table_problems(kern, work))
            guarded("%s: lruscope walk TUI: one held lock, the lock named" % what,
                    lambda: tui_problems(kern, work))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

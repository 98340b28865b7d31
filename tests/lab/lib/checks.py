"""Assertions of the lab tests: the drgn scripts' output against what the guest printed.

Each check returns a list of problems (empty: pass). The .t files print one TAP line each,
after their plan (Tap.plan).
"""

import json
import mmap
import os
import shutil
import subprocess
import sys
import time

from lab import PYTHON, ROOT, log

SCRIPTS = os.path.join(ROOT, "drgn-scripts")
PAGE = 4096
LISTS = ["inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable"]


class Tap:
    def __init__(self):
        self.failed = 0

    def plan(self, n):
        """The plan, before the first check: n check lines follow, skips included."""
        print("1..%d" % n, flush=True)

    def check(self, name, problems):
        if problems:
            self.failed += 1
            print("not ok - %s: %s" % (name, "; ".join(str(p) for p in problems[:8])),
                  flush=True)
        else:
            print("ok - %s" % name, flush=True)

    def skip(self, name, why):
        print("ok - %s # SKIP %s" % (name, why), flush=True)

    def skip_n(self, n, name, why):
        """A section of n checks that cannot run here: one skip line for each."""
        for i in range(n):
            self.skip("%s (%d of %d)" % (name, i + 1, n) if n > 1 else name, why)


def run_script(script, core, vmlinux, *args, want_json=True):
    """-> (exit status, parsed JSON or None, stderr, seconds)."""
    cmd = [PYTHON, os.path.join(SCRIPTS, script)]
    if core is not None:
        cmd += ["-c", core]
    if vmlinux is not None:
        cmd += ["-s", vmlinux]
    if want_json:
        cmd.append("--json")
    cmd += list(args)
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    secs = time.monotonic() - t0
    out = None
    if want_json and r.stdout.strip():
        try:
            out = json.loads(r.stdout)
        except ValueError:
            out = None
    elif not want_json:
        out = r.stdout
    return r.returncode, out, r.stderr, secs


def lruvecs_of(tap, core, vmlinux, name="lruvecs.py runs"):
    """lruvecs.py's snapshot of the dump, its size logged; None, after a failed check name,
    when it did not run."""
    rc, snap, err, secs = run_script("lruvecs.py", core, vmlinux)
    if rc != 0 or snap is None:
        tap.check(name, ["exit %d: %s" % (rc, err.strip()[-300:])])
        return None
    log("lruvecs.py: %d lruvecs, %d folios in %.2f s" % (
        len(snap["lruvecs"]), snap["stats"]["folios_walked"], secs))
    return snap


def subtree(paths, root):
    return [p for p in paths if p == root or p.startswith(root.rstrip("/") + "/")]


def by_memcg_node(lruvecs):
    return {(e["memcg"], e["node"]): e for e in lruvecs}


def check_ids(snap, guest):
    probs = []
    ids = {e["memcg"]: e["memcg_id"] for e in snap["lruvecs"]}
    for path, ino in guest["cgroups"].items():
        if path not in ids:
            probs.append("%s missing from lruvecs.py output" % path)
        elif ids[path] != ino:
            probs.append("%s: memcg_id %d, guest inode %d" % (path, ids[path], ino))
    return probs


def check_walk_vs_counters(snap, guest):
    """Walked list lengths equal the kernel's counters for every lruvec of our memcgs."""
    probs = []
    idx = by_memcg_node(snap["lruvecs"])
    walked_any = 0
    for path in guest["cgroups"]:
        for nid in snap["nodes"]:
            e = idx.get((path, nid))
            if e is None:
                probs.append("no lruvec %s@N%d" % (path, nid))
                continue
            if e.get("mismatch"):
                probs.append("%s@N%d mismatch %s" % (path, nid, e["mismatch"]))
            for name, w in e["walked"].items():
                if name != "unevictable" and not w["complete"]:
                    probs.append("%s@N%d %s not walked completely" % (path, nid, name))
                walked_any += w["pages"]
    if walked_any == 0:
        probs.append("no pages walked at all")
    return probs


def check_counters_vs_guest(snap, guest):
    """LRU sizes per memcg and node against the guest's memory.numa_stat / memory.stat."""
    probs = []
    idx = by_memcg_node(snap["lruvecs"])
    paths = list(guest["cgroups"])
    v2 = guest.get("mode", "v2") == "v2"
    nonzero = 0
    for path in paths:
        ns = guest["numa_stat"].get(path, {})
        for nid in snap["nodes"]:
            # v2 statistics are hierarchical, v1's unprefixed ones are local
            members = subtree(paths, path) if v2 else [path]
            got = {n: 0 for n in LISTS}
            walked = {n: 0 for n in LISTS}
            for p in members:
                e = idx.get((p, nid))
                if e is None:
                    continue
                for n in LISTS:
                    got[n] += (e["lru_pages"] or {}).get(n, 0)
                    walked[n] += e["walked"].get(n, {}).get("pages", 0)
            if v2:
                for n in LISTS:
                    want = ns.get(n, {}).get(nid)
                    if want is None:
                        probs.append("guest printed no %s for %s" % (n, path))
                    elif got[n] * PAGE != want:
                        probs.append("%s@N%d %s: counted %d pages, guest %d bytes"
                                     % (path, nid, n, got[n], want))
                    if n != "unevictable" and walked[n] * PAGE != (want or 0):
                        probs.append("%s@N%d %s: walked %d pages, guest %d bytes"
                                     % (path, nid, n, walked[n], want or 0))
            else:
                pairs = [("file", got["inactive_file"] + got["active_file"]),
                         ("anon", got["inactive_anon"] + got["active_anon"]),
                         ("unevictable", got["unevictable"])]
                for key, val in pairs:
                    want = ns.get(key, {}).get(nid)
                    if want is None:
                        probs.append("guest printed no numa_stat %s for %s" % (key, path))
                    elif val != want:
                        probs.append("%s@N%d %s: counted %d pages, guest %d pages"
                                     % (path, nid, key, val, want))
            nonzero += sum(walked.values())
        if not v2:
            st = guest["stat"].get(path, {})
            for n in LISTS:
                tot = sum((idx[(path, nid)]["lru_pages"] or {}).get(n, 0)
                          for nid in snap["nodes"] if (path, nid) in idx)
                if n in st and tot * PAGE != st[n]:
                    probs.append("%s %s: counted %d pages, memory.stat %d bytes"
                                 % (path, n, tot, st[n]))
    if nonzero == 0:
        probs.append("all our memcgs are empty: the workload did not run")
    # the workload puts file pages of /lrs-a on both nodes: a vacuous pass is impossible
    for nid in snap["nodes"]:
        e = idx.get(("/lrs-a", nid))
        if e and not (e["lru_pages"]["inactive_file"] + e["lru_pages"]["active_file"]):
            probs.append("/lrs-a@N%d has no file pages" % nid)
    return probs


def check_page_owner(res, guest):
    """Pages owned per memcg (and node) against memory.stat / memory.numa_stat."""
    probs = []
    paths = list(guest["cgroups"])
    v2 = guest.get("mode", "v2") == "v2"
    owned = {m["memcg"]: m for m in res["memcgs"]}
    for path in paths:
        if v2:
            ns = guest["numa_stat"].get(path, {})
            for nid in [n["node"] for n in res["nodes"]]:
                got = sum(owned[p]["pages_by_node"].get(str(nid), 0)
                          for p in subtree(paths, path) if p in owned)
                want = (ns.get("anon", {}).get(nid, 0) + ns.get("file", {}).get(nid, 0))
                if got * PAGE != want:
                    probs.append("%s@N%d: %d pages owned, guest anon+file %d bytes"
                                 % (path, nid, got, want))
        else:
            st = guest["stat"].get(path, {})
            got = owned[path]["pages"] if path in owned else 0
            want = st.get("cache", 0) + st.get("rss", 0)
            if got * PAGE != want:
                probs.append("%s: %d pages owned, guest cache+rss %d bytes"
                             % (path, got, want))
    if not any(owned.get(p, {}).get("pages") for p in paths):
        probs.append("no pages owned by our memcgs")
    if res["method"] != "memcg_data":
        probs.append("method %s on a 6.1 kernel" % res["method"])
    return probs


# ---- corrupting a copy of the vmcore --------------------------------------------------------

def copy_core(core, dst):
    shutil.copyfile(core, dst)
    return dst


def patch_bytes(path, old, new, offset_in_pattern=0):
    """Replace the single occurrence of `old` in file path (new at offset_in_pattern)."""
    with open(path, "r+b") as f:
        mm = mmap.mmap(f.fileno(), 0)
        try:
            i = mm.find(old)
            if i < 0:
                raise AssertionError("pattern not found in %s" % path)
            if mm.find(old, i + 1) >= 0:
                raise AssertionError("pattern not unique in %s" % path)
            mm[i + offset_in_pattern:i + offset_in_pattern + len(new)] = new
            mm.flush()
        finally:
            mm.close()


def run_drgn_cli(drgn_cli, script, core, vmlinux, *args):
    """script --json run by the drgn CLI on core: -> (exit status, parsed JSON or None,
    stderr)."""
    cmd = [drgn_cli, "-q", "-c", core, "-s", vmlinux, os.path.join(SCRIPTS, script), "--json"]
    r = subprocess.run(cmd + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    try:
        return r.returncode, json.loads(r.stdout), r.stderr
    except ValueError:
        return r.returncode, None, r.stderr


def open_prog(core, vmlinux):
    sys.path.insert(0, SCRIPTS)
    import drgn
    prog = drgn.Program()
    prog.set_core_dump(core)
    prog.load_debug_info([vmlinux], default=False)
    return prog


def pick_folio(prog, path, nid, list_name, nth=5):
    """(folio address, its struct page bytes, offset of memcg_data, memcg address of path)."""
    from lrs.folio import FolioReader
    from lrs.lru import lru_lists
    from lrs.memcg import memcg_tree
    warnings = []
    memcgs = {m["path"]: m for m in memcg_tree(prog, warnings)}
    lru = dict((n, i) for i, n in lru_lists(prog))
    lruvec = memcgs[path]["obj"].nodeinfo[nid].lruvec
    head = lruvec.lists[lru[list_name]].address_of_().value_()
    reader = FolioReader(prog)
    node = prog.read_u64(head)
    for _ in range(nth):
        node = prog.read_u64(node)
    folio = node - reader.lru_off
    size = prog.type("struct page").size
    addrs = {p: m["addr"] for p, m in memcgs.items()}
    return folio, prog.read(folio, size), reader.memcg_off, addrs


def pick_holder(prog, path, nid, pid):
    """What to patch to make memcg path's lruvec on nid look held by pid: the lruvec's first
    bytes (to find it), the lock's offset and a value (locked, cpu 1 queued), and the task's
    user pt_regs at the top of its kernel stack."""
    from drgn.helpers.linux.pid import find_task
    from lrs.locks import thread_size
    from lrs.kernel import offsetof
    from lrs.memcg import memcg_tree
    memcgs = {m["path"]: m for m in memcg_tree(prog, [])}
    lruvec = memcgs[path]["obj"].nodeinfo[nid].lruvec
    addr = lruvec.address_of_().value_()
    lock_off = offsetof(prog, "struct lruvec", "lru_lock")
    task = find_task(prog, pid)
    tsize = thread_size(prog)
    regs_size = prog.type("struct pt_regs").size
    regs = task.stack.value_() + tsize - regs_size
    return {"lruvec_bytes": prog.read(addr, lock_off + 4), "lock_off": lock_off,
            "lock_val": 0x1 | ((1 + 1) << 18), "lock": addr + lock_off,
            "regs": regs, "regs_bytes": prog.read(regs, regs_size)}

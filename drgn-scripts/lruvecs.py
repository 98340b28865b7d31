#!/usr/bin/python3
"""Every memcg x node lruvec: owner, lock word, LRU lengths walked and counted.

For each memcg (cgroup path and id) and NUMA node: the lruvec's address, its lru_lock word
decoded (locked, pending, queue tail CPU), the length of each LRU list found by walking it
(weighted by folio size in pages, bounded by --max-folios) next to the kernel's own counters
(mem_cgroup_per_node.lru_zone_size), and every list where the two differ.

  lruvecs.py [-c VMCORE -s VMLINUX] [--json] [--max-folios N] [--no-walk]
  drgn [-c VMCORE -s VMLINUX] lruvecs.py [...]
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from drgn import FaultError  # noqa: E402

import lrs_common as lc  # noqa: E402


def parse_args(argv):
    p = lc.base_parser(__doc__.splitlines()[0])
    p.add_argument("--max-folios", type=int, default=1 << 20,
                   help="stop walking a list after N folios (default %(default)s)")
    p.add_argument("--no-walk", action="store_true",
                   help="only enumerate memcgs, lock words and counters")
    p.add_argument("--memcg", metavar="PATH", help="only this memcg (and its descendants)")
    return p.parse_args(argv)


def mismatches(walked, counted):
    """Lists whose walked page count differs from the kernel's counter. Lists not walked
    completely are not compared."""
    out = {}
    if counted is None:
        return out
    for name, w in walked.items():
        if w.get("complete") and name in counted and w["pages"] != counted[name]:
            out[name] = {"walked": w["pages"], "counted": counted[name]}
    return out


def walk_lruvec(prog, lruvec, lru_idx, reader, max_folios, warnings, where, visit=None):
    """{list name: {folios, pages, complete}} of one lruvec."""
    walked = {}
    for name, head in lc.lruvec_heads(lruvec, lru_idx):
        w = walked.setdefault(name, {"folios": 0, "pages": 0, "complete": True})
        try:
            f, p, complete = lc.walk_list(prog, head, reader, max_folios,
                                         visit=(lambda fo, fl, nr, name=name:
                                                visit(name, fo, fl, nr)) if visit else None)
        except lc.ListPoisoned:
            w["complete"] = False
            w["skipped"] = "list head poisoned (not kept on a list by this kernel)"
            continue
        except FaultError as e:
            warnings.append(lc.fault_text("%s %s" % (where, name), e))
            w["complete"] = False
            continue
        w["folios"] += f
        w["pages"] += p
        w["complete"] = w["complete"] and complete
    return walked


def collect(prog, args, warnings, visit_factory=None):
    """The lruvecs array (snapshot schema) plus walk statistics."""
    lru_idx = lc.lru_lists(prog)
    reader = lc.FolioReader(prog)
    nodes = lc.online_nodes(prog)
    t0 = time.monotonic()
    memcgs = lc.memcg_tree(prog, warnings)
    t_enum = time.monotonic() - t0
    if getattr(args, "memcg", None):
        root = args.memcg.rstrip("/") or "/"
        memcgs = [m for m in memcgs
                  if m["path"] == root or m["path"].startswith(root.rstrip("/") + "/")]
    out = []
    nfolios = 0
    t1 = time.monotonic()
    for m in memcgs:
        for nid in nodes:
            where = "%s@N%d" % (m["path"], nid)
            try:
                lruvec, lock, counted = lc.lruvec_info(prog, m["obj"], nid, lru_idx)
                state = lc.decode_qspinlock(prog.read_u32(lock))
                entry = {
                    "memcg": m["path"], "memcg_id": m["memcg_id"], "css_id": m["css_id"],
                    "parent_id": m["parent_id"], "depth": m["depth"], "online": m["online"],
                    "node": nid, "lruvec": lc.fmt_addr(lruvec.address_of_().value_()),
                    "lock": lc.fmt_addr(lock), "lock_state": state,
                    "locked": lc.lock_busy(state),
                    "mglru": lc.mglru_enabled(lruvec),
                    "lru_pages": counted,
                }
                if not args.no_walk:
                    visit = visit_factory(m, nid) if visit_factory else None
                    walked = walk_lruvec(prog, lruvec, lru_idx, reader, args.max_folios,
                                         warnings, where, visit)
                    entry["walked"] = walked
                    entry["mismatch"] = mismatches(walked, counted)
                    nfolios += sum(w["folios"] for w in walked.values())
                    if counted is None:
                        entry["lru_pages"] = {k: w["pages"] for k, w in walked.items()}
                out.append(entry)
            except FaultError as e:
                warnings.append(lc.fault_text(where, e))
    stats = {"memcgs": len(memcgs), "lruvecs": len(out), "folios_walked": nfolios,
             "enumerate_s": round(t_enum, 6), "walk_s": round(time.monotonic() - t1, 6)}
    return nodes, out, stats


def snapshot(prog, args, warnings, visit_factory=None):
    nodes, lruvecs, stats = collect(prog, args, warnings, visit_factory)
    return {"schema": lc.SCHEMA, "source": "drgn", "t_ns": lc.now_ns(), "interval_ns": 0,
            "kernel": lc.kernel_release(prog), "nodes": nodes, "lruvecs": lruvecs,
            "other_locks": [], "stacks": {}, "stats": stats, "warnings": warnings}


LIST_SHORT = [("inactive_anon", "ia"), ("active_anon", "aa"), ("inactive_file", "if"),
              ("active_file", "af"), ("unevictable", "un")]


def format_table(snap):
    lines = ["%-28s %6s %-18s %-9s %s" % ("LRUVEC", "ID", "LOCK", "STATE",
                                           "PAGES walked/counted (ia aa if af un)")]
    for e in snap["lruvecs"]:
        st = e["lock_state"]
        state = "locked" if st["locked"] else ("pending" if st["pending"] else "free")
        if st["tail_cpu"] is not None:
            state += ",q:cpu%d" % st["tail_cpu"]
        cols = []
        for name, _ in LIST_SHORT:
            c = (e.get("lru_pages") or {}).get(name)
            w = (e.get("walked") or {}).get(name)
            ws = "-" if not w or (not w["complete"] and not w["pages"]) else str(w["pages"])
            cols.append("%s/%s" % (ws, "-" if c is None else c))
        flag = " MISMATCH" if e.get("mismatch") else ""
        lines.append("%-28s %6d %-18s %-9s %s%s" % (
            "%s@N%d" % (e["memcg"], e["node"]), e["memcg_id"], e["lock"], state,
            " ".join(cols), flag))
    s = snap["stats"]
    lines.append("%d memcgs, %d lruvecs, %d folios walked in %.3f s" % (
        s["memcgs"], s["lruvecs"], s["folios_walked"], s["walk_s"]))
    for w in snap["warnings"]:
        lines.append("warning: " + w)
    return "\n".join(lines)


def main(prog, argv):
    args = parse_args(argv)
    prog = lc.get_program(prog, args)
    if not lc.memcg_enabled(prog):
        raise lc.LrsError("memory cgroups are disabled or absent in this kernel "
                          "(no root_mem_cgroup)")
    warnings = []
    snap = snapshot(prog, args, warnings)
    if args.json:
        lc.emit_json(snap)
    else:
        print(format_table(snap))
    return 0


if __name__ == "__main__":
    sys.exit(lc.run(main, globals().get("prog")))

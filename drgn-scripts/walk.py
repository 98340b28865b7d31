#!/usr/bin/python3
"""lruscope walk: run the drgn scripts and print one table or one JSON object.

The JSON object is a snapshot (docs/design.md, schema 1: schema, t_ns, kernel, nodes, lruvecs with
memcg, memcg_id, node, lock, lru_pages, plus lock_state and walked/mismatch) with the
results of lru_check (invariant violations) and holders (held lruvec locks) beside it.
`lruscope walk` execs this and imports the lruvecs into its heatmap.

  walk.py [-c VMCORE -s VMLINUX] [--json] [--max-folios N] [--page-owner]
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from drgn import FaultError  # noqa: E402

import lrs_common as lc  # noqa: E402
import lru_check  # noqa: E402
import lruvecs  # noqa: E402
import holders  # noqa: E402
import page_owner  # noqa: E402


def parse_args(argv):
    p = lc.base_parser(__doc__.splitlines()[0])
    p.add_argument("--max-folios", type=int, default=1 << 20,
                   help="stop walking a list after N folios (default %(default)s)")
    p.add_argument("--memcg", metavar="PATH", help="only this memcg (and its descendants)")
    p.add_argument("--no-walk", action="store_true",
                   help="only memcgs, lock words and counters (fast on a live box)")
    p.add_argument("--page-owner", action="store_true",
                   help="add page ownership per memcg (page_owner.py, totals only)")
    return p.parse_args(argv)


def walk(prog, args):
    warnings = []
    t0 = time.monotonic()
    if args.no_walk:
        snap = lruvecs.snapshot(prog, args, warnings)
    else:
        # one walk serves both: lru_check's visitor runs inside lruvecs' walk
        args.limit = 100
        chk = lru_check.check(prog, args, warnings)
        snap = {"schema": lc.SCHEMA, "source": "drgn", "t_ns": lc.now_ns(), "interval_ns": 0,
                "kernel": chk["kernel"], "nodes": chk["_nodes"], "lruvecs": chk["_lruvecs"],
                "other_locks": [], "stacks": {}, "stats": chk["_stats"]}
        snap["violations"] = chk["violations"]
        snap["violations_total"] = len(chk["violations"]) + chk["violations_not_listed"]
    held = [e for e in snap["lruvecs"] if e["locked"]]
    if held:
        args.all = False  # holders.py's option: only the held locks
        h = holders.holders(prog, args, [])
        snap["holders"] = h["locks"]
        warnings.extend(h["warnings"])
    else:
        snap["holders"] = []
    if args.page_owner:
        args.no_buckets = True
        args.bucket = 512
        args.section_size_bits = None
        try:
            po = page_owner.page_owner(prog, args, [])
            snap["page_owner"] = {"method": po["method"], "memcgs": po["memcgs"]}
            warnings.extend(po["warnings"])
        except lc.LrsError as e:
            warnings.append("page_owner: %s" % e)
    snap["stats"]["total_s"] = round(time.monotonic() - t0, 6)
    snap["warnings"] = warnings
    return snap


def format_table(snap):
    lines = [lruvecs.format_table(snap)]
    if "violations_total" in snap:
        lines.append("lru_check: %d violations" % snap["violations_total"])
        for v in snap["violations"][:20]:
            lines.append("  folio %s on %s@N%d: %s" % (v["folio"], v["lruvec_memcg"],
                                                      v["lruvec_node"], ", ".join(v["why"])))
    for h in snap["holders"]:
        lines.append("held: %s lock %s, %d task(s) reference it: %s" % (
            h["lruvec"], h["lock"], len(h["tasks"]),
            ", ".join("%d %s" % (t["pid"], t["comm"]) for t in h["tasks"])))
    if "page_owner" in snap:
        lines.append("page owner (%s):" % snap["page_owner"]["method"])
        for m in snap["page_owner"]["memcgs"]:
            lines.append("  %-30s %d pages" % (m["memcg"], m["pages"]))
    return "\n".join(lines)


def main(prog, argv):
    args = parse_args(argv)
    prog = lc.get_program(prog, args)
    if not lc.memcg_enabled(prog):
        raise lc.LrsError("memory cgroups are disabled or absent in this kernel")
    snap = walk(prog, args)
    if args.json:
        lc.emit_json(snap)
    else:
        print(format_table(snap))
    return 0


if __name__ == "__main__":
    sys.exit(lc.run(main, globals().get("prog")))

#!/usr/bin/python3
"""Check the LRU invariant the per-memcg lru_lock patchset had to keep.

"A page's memcg is stable while it is on an LRU": every folio on memcg M's lruvec for node N
has folio_memcg() == M, lives on node N, has PG_lru set, and sits on the list its flags say
(folio_lru_list()). Prints each violation with the folio, its flags and both memcgs.
Exit status: 0 when none are found, 1 when any are (or on a fatal error).

  lru_check.py [-c VMCORE -s VMLINUX] [--json] [--max-folios N] [--memcg PATH]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from drgn import FaultError  # noqa: E402

import lrs_common as lc  # noqa: E402
import lruvecs  # noqa: E402


def parse_args(argv):
    p = lc.base_parser(__doc__.splitlines()[0])
    p.add_argument("--max-folios", type=int, default=1 << 20,
                   help="stop walking a list after N folios (default %(default)s)")
    p.add_argument("--memcg", metavar="PATH", help="only this memcg (and its descendants)")
    p.add_argument("--limit", type=int, default=1000,
                   help="report at most N violations (default %(default)s)")
    return p.parse_args(argv)


def flag_names(flags, bits):
    return [n for n, b in sorted(bits.items(), key=lambda kv: kv[1]) if flags & (1 << b)]


def check_folio(flags, memcg_found, node_found, list_name, memcg_want, node_want, bits,
                lru_index, mglru):
    """Reasons this folio breaks the invariant (pure)."""
    why = []
    if memcg_found != memcg_want:
        why.append("memcg")
    if node_found != node_want:
        why.append("node")
    if not flags & (1 << bits["PG_lru"]):
        why.append("PG_lru clear")
    if not mglru:
        # with the multi-gen LRU, PG_active is not used: the generation is in the flags
        names = dict((i, n) for n, i in lru_index.items())
        want = names[lc.folio_lru(flags, bits, lru_index)]
        if want != list_name:
            why.append("on %s, flags say %s" % (list_name, want))
    elif bool(flags & (1 << bits["PG_swapbacked"])) != list_name.endswith("anon"):
        why.append("on %s, PG_swapbacked says otherwise" % list_name)
    return why


def check(prog, args, warnings):
    reader = lc.FolioReader(prog)
    mm = lc.MemMap(prog)
    bits = reader.bits
    lru_index = dict((n, i) for i, n in lc.lru_lists(prog))
    violations = []
    memcg_names = {}
    counts = {"folios": 0}

    def factory(m, nid):
        memcg_names[m["addr"]] = m["path"]
        try:
            mglru = lc.mglru_enabled(m["obj"].nodeinfo[nid].lruvec)
        except FaultError:
            mglru = False

        def visit(list_name, folio, flags, nr):
            counts["folios"] += 1
            try:
                found = reader.memcg_of(folio)
                node = mm.node_of_pfn(mm.pfn_of(folio))
            except FaultError as e:
                warnings.append(lc.fault_text("folio %#x" % folio, e))
                return
            why = check_folio(flags, found, node, list_name, m["addr"], nid, bits,
                              lru_index, mglru)
            if why and len(violations) < args.limit:
                violations.append({
                    "folio": lc.fmt_addr(folio), "pfn": mm.pfn_of(folio),
                    "flags": "0x%x" % flags, "flag_names": flag_names(flags, bits),
                    "nr_pages": nr, "list": list_name,
                    "lruvec_memcg": m["path"], "lruvec_memcg_addr": lc.fmt_addr(m["addr"]),
                    "folio_memcg_addr": lc.fmt_addr(found),
                    "memcg_data": "0x%x" % reader.memcg_data(folio),
                    "lruvec_node": nid, "folio_node": node, "why": why})
            elif why:
                counts["dropped"] = counts.get("dropped", 0) + 1
        return visit

    args.no_walk = False
    nodes, lvs, stats = lruvecs.collect(prog, args, warnings, factory)
    for v in violations:
        v["folio_memcg"] = memcg_names.get(int(v["folio_memcg_addr"], 16),
                                           "?" if v["folio_memcg_addr"] != "0x0" else "none")
    return {"schema": lc.SCHEMA, "kernel": lc.kernel_release(prog), "nodes": nodes,
            "lruvecs_checked": len(lvs), "folios_checked": counts["folios"],
            "violations": violations, "violations_not_listed": counts.get("dropped", 0),
            "warnings": warnings, "_nodes": nodes, "_lruvecs": lvs, "_stats": stats}


def public(res):
    return {k: v for k, v in res.items() if not k.startswith("_")}


def format_table(res):
    lines = []
    for v in res["violations"]:
        lines.append("folio %s pfn %d on %s@N%d %s: %s; flags %s [%s]; folio memcg %s (%s), "
                     "node %s" % (v["folio"], v["pfn"], v["lruvec_memcg"], v["lruvec_node"],
                                  v["list"], ", ".join(v["why"]), v["flags"],
                                  "|".join(v["flag_names"]), v["folio_memcg"],
                                  v["folio_memcg_addr"], v["folio_node"]))
    lines.append("%d violations in %d folios on %d lruvecs" % (
        len(res["violations"]) + res["violations_not_listed"], res["folios_checked"],
        res["lruvecs_checked"]))
    for w in res["warnings"]:
        lines.append("warning: " + w)
    return "\n".join(lines)


def main(prog, argv):
    args = parse_args(argv)
    prog = lc.get_program(prog, args)
    if not lc.memcg_enabled(prog):
        raise lc.LrsError("memory cgroups are disabled or absent in this kernel")
    res = check(prog, args, [])
    if args.json:
        lc.emit_json(public(res))
    else:
        print(format_table(res))
    return 1 if res["violations"] else 0


if __name__ == "__main__":
    sys.exit(lc.run(main, globals().get("prog")))

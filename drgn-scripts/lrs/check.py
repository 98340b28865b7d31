"""The LRU invariant the per-memcg lru_lock patchset had to keep: "a page's memcg is stable
while it is on an LRU". Every folio on memcg M's lruvec for node N has folio_memcg() == M,
lives on node N, has PG_lru set, and sits on the list its flags say (folio_lru_list())."""

from drgn import FaultError

from lrs import SCHEMA
from lrs.folio import FolioReader, flag_names, folio_lru
from lrs.kernel import MemMap, kernel_release
from lrs.lru import collect, lru_lists
from lrs.output import fault_text, fmt_addr


def check_folio(flags, memcg_found, node_found, list_name, memcg_want, node_want, bits,
                lru_index, multigen):
    """Reasons this folio breaks the invariant (pure). multigen: it was found on a multi-gen
    LRU generation list, where PG_active means nothing (the generation is in the flags)."""
    why = []
    if memcg_found != memcg_want:
        why.append("memcg")
    if node_found != node_want:
        why.append("node")
    if not flags & (1 << bits["PG_lru"]):
        why.append("PG_lru clear")
    if not multigen:
        names = dict((i, n) for n, i in lru_index.items())
        want = names[folio_lru(flags, bits, lru_index)]
        if want != list_name:
            why.append("on %s, flags say %s" % (list_name, want))
    # 6.1 "mm: multi-gen LRU": PG_active is not used, the generation is in the flags;
    # lru_gen_add_folio() keeps unevictable folios off the generation lists
    elif flags & (1 << bits["PG_unevictable"]):
        why.append("on %s, flags say unevictable" % list_name)
    elif bool(flags & (1 << bits["PG_swapbacked"])) != list_name.endswith("anon"):
        why.append("on %s, PG_swapbacked says otherwise" % list_name)
    return why


def check(prog, warnings, max_folios=1 << 20, memcg=None, limit=1000):
    """Walk every lruvec under memcg and check each folio. -> the result (JSON form) plus
    the walk's nodes, lruvecs and stats under _nodes, _lruvecs, _stats."""
    reader = FolioReader(prog)
    mm = MemMap(prog)
    bits = reader.bits
    lru_index = dict((n, i) for i, n in lru_lists(prog))
    violations = []
    memcg_names = {}
    counts = {"folios": 0, "dropped": 0}

    def factory(m, nid):
        memcg_names[m["addr"]] = m["path"]

        def visit(list_name, folio, flags, nr, multigen):
            counts["folios"] += 1
            try:
                found = reader.memcg_of(folio)
                node = mm.node_of_pfn(mm.pfn_of(folio))
            except FaultError as e:
                warnings.append(fault_text("folio %#x" % folio, e))
                return
            why = check_folio(flags, found, node, list_name, m["addr"], nid, bits,
                              lru_index, multigen)
            if why and len(violations) < limit:
                violations.append({
                    "folio": fmt_addr(folio), "pfn": mm.pfn_of(folio),
                    "flags": "0x%x" % flags, "flag_names": flag_names(flags, bits),
                    "nr_pages": nr, "list": list_name,
                    "lruvec_memcg": m["path"], "lruvec_memcg_addr": fmt_addr(m["addr"]),
                    "folio_memcg_addr": fmt_addr(found),
                    "memcg_data": "0x%x" % reader.memcg_data(folio),
                    "lruvec_node": nid, "folio_node": node, "why": why})
            elif why:
                counts["dropped"] += 1
        return visit

    nodes, lvs, stats = collect(prog, warnings, max_folios, memcg, True, factory)
    for v in violations:
        v["folio_memcg"] = memcg_names.get(int(v["folio_memcg_addr"], 16),
                                           "?" if v["folio_memcg_addr"] != "0x0" else "none")
    return {"schema": SCHEMA, "kernel": kernel_release(prog), "nodes": nodes,
            "lruvecs_checked": len(lvs), "folios_checked": counts["folios"],
            "violations": violations, "violations_not_listed": counts["dropped"],
            "warnings": warnings, "_nodes": nodes, "_lruvecs": lvs, "_stats": stats}


def public(res):
    """check()'s result without the walk it carries for walk.py."""
    return {k: v for k, v in res.items() if not k.startswith("_")}

"""lruvecs and their LRU lists: counters, list walks, the multi-gen LRU, the lruvecs array of
a snapshot."""

import time

from drgn import FaultError

from lrs import SCHEMA
from lrs.folio import FolioReader
from lrs.kernel import has_member, kernel_release, online_nodes
from lrs.locks import decode_qspinlock, lock_busy, lru_lock_addr, lru_lock_scope, \
    mark_shared_locks
from lrs.memcg import memcg_tree, under
from lrs.mglru import mglru_counters, mglru_enabled, mglru_heads
from lrs.output import fault_text, fmt_addr, now_ns

LIST_POISON1 = 0xdead000000000100  # list_del() poison (x86_64 POISON_POINTER_DELTA)
LRU_NAMES = ("inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable")


class ListPoisoned(Exception):
    """The list head was list_del()ed: 6.1's lruvec_init() poisons the unevictable list
    (unevictable folios are not kept on a list since 5.x "mm/munlock: ..."; 6.1 uses it for
    mlock_count)."""


def lru_lists(prog):
    """[(index, name)] of enum lru_list."""
    out = []
    for n in LRU_NAMES:
        try:
            out.append((prog.constant("LRU_" + n.upper()).value_(), n))
        except LookupError:
            pass
    return out


def lru_counters(pn, lru_idx):
    """{list name: pages} the kernel counts for mem_cgroup_per_node pn, None if it doesn't."""
    if has_member(pn.type_, "lru_zone_size"):
        zs = pn.lru_zone_size
        nzones = len(zs)
        return {name: sum(zs[z][i].value_() for z in range(nzones)) for i, name in lru_idx}
    if has_member(pn.type_, "lru_size"):
        return {name: pn.lru_size[i].value_() for i, name in lru_idx}
    return None


def lruvec_counters(pn, lru_idx):
    """{list name: pages} the kernel counts for mem_cgroup_per_node pn (None if it counts
    none): lru_zone_size for lruvec->lists, plus the multi-gen LRU's nr_pages when it is on."""
    counted = lru_counters(pn, lru_idx)
    lruvec = pn.lruvec
    if not mglru_enabled(lruvec):
        return counted
    counted = dict(counted or {})
    for name, pages in mglru_counters(lruvec).items():
        counted[name] = counted.get(name, 0) + pages
    return counted


def lruvec_info(prog, memcg, nid, lru_idx):
    """(lruvec object, lock address, counters {list name: pages} or None) of memcg on nid."""
    pn = memcg.nodeinfo[nid]
    lruvec = pn.lruvec
    return lruvec, lru_lock_addr(prog, lruvec, nid), lruvec_counters(pn, lru_idx)


def walk_list(prog, head, reader, max_folios, visit=None):
    """Walk one LRU list: (folios, pages, complete). visit(folio, flags, nr) is called for
    each folio. A FaultError propagates: the caller records it."""
    if prog.read_u64(head) == LIST_POISON1:
        raise ListPoisoned()
    node = prog.read_u64(head)
    folios = pages = 0
    while node != head:
        if folios >= max_folios:
            return folios, pages, False
        folio = node - reader.lru_off
        flags = reader.flags(folio)
        nr = reader.nr_pages(folio, flags)
        if visit is not None:
            visit(folio, flags, nr)
        folios += 1
        pages += nr
        node = prog.read_u64(node)
    return folios, pages, True


def lruvec_heads(lruvec, lru_idx):
    """[(list name, head address, a multi-gen list?)] to walk for one lruvec: lruvec->lists,
    and with the multi-gen LRU on its generation lists too (lruvec->lists then holds the
    unevictable folios, and evictable ones only while the switch moves them)."""
    heads = [(name, lruvec.lists[i].address_of_().value_(), False) for i, name in lru_idx]
    if mglru_enabled(lruvec):
        heads += [(name, head, True) for name, head in mglru_heads(lruvec)]
    return heads


def mismatches(walked, counted):
    """Lists whose walked page count differs from the kernel's counter. Lists not walked
    completely are not compared (pure)."""
    out = {}
    if counted is None:
        return out
    for name, w in walked.items():
        if w.get("complete") and name in counted and w["pages"] != counted[name]:
            out[name] = {"walked": w["pages"], "counted": counted[name]}
    return out


def walk_lruvec(prog, lruvec, lru_idx, reader, max_folios, warnings, where, visit=None):
    """{list name: {folios, pages, complete}} of one lruvec. visit(list name, folio, flags,
    nr, multigen) is called for each folio; multigen: found on a multi-gen LRU list."""
    walked = {}
    for name, head, multigen in lruvec_heads(lruvec, lru_idx):
        w = walked.setdefault(name, {"folios": 0, "pages": 0, "complete": True})
        each = (lambda fo, fl, nr, name=name, mg=multigen: visit(name, fo, fl, nr, mg)) \
            if visit else None
        try:
            f, p, complete = walk_list(prog, head, reader, max_folios, visit=each)
        except ListPoisoned:
            w["complete"] = False
            w["skipped"] = "list head poisoned (not kept on a list by this kernel)"
            continue
        except FaultError as e:
            warnings.append(fault_text("%s %s" % (where, name), e))
            w["complete"] = False
            continue
        w["folios"] += f
        w["pages"] += p
        w["complete"] = w["complete"] and complete
    return walked


def lruvec_entry(prog, m, nid, lru_idx):
    """The snapshot's entry of memcg m's lruvec on nid, without walking; and the lruvec."""
    lruvec, lock, counted = lruvec_info(prog, m["obj"], nid, lru_idx)
    state = decode_qspinlock(prog.read_u32(lock))
    return {"memcg": m["path"], "memcg_id": m["memcg_id"], "css_id": m["css_id"],
            "parent_id": m["parent_id"], "depth": m["depth"], "online": m["online"],
            "node": nid, "lruvec": fmt_addr(lruvec.address_of_().value_()),
            "lock": fmt_addr(lock), "lock_scope": lru_lock_scope(lruvec),
            "lock_state": state, "locked": lock_busy(state),
            "mglru": mglru_enabled(lruvec), "lru_pages": counted}, lruvec


def collect(prog, warnings, max_folios=1 << 20, memcg=None, walk=True, visit_factory=None):
    """(nodes, lruvecs array of the snapshot schema, walk statistics). Every memcg under the
    path memcg (all: None); walk=False reads lock words and counters only. visit_factory(m,
    nid) gives the visitor of the folios of memcg m's lruvec on nid."""
    lru_idx = lru_lists(prog)
    reader = FolioReader(prog)
    nodes = online_nodes(prog)
    t0 = time.monotonic()
    memcgs = under(memcg_tree(prog, warnings), memcg)
    t_enum = time.monotonic() - t0
    out = []
    nfolios = 0
    t1 = time.monotonic()
    for m in memcgs:
        for nid in nodes:
            where = "%s@N%d" % (m["path"], nid)
            try:
                entry, lruvec = lruvec_entry(prog, m, nid, lru_idx)
                if walk:
                    visit = visit_factory(m, nid) if visit_factory else None
                    walked = walk_lruvec(prog, lruvec, lru_idx, reader, max_folios,
                                         warnings, where, visit)
                    entry["walked"] = walked
                    entry["mismatch"] = mismatches(walked, entry["lru_pages"])
                    nfolios += sum(w["folios"] for w in walked.values())
                    if entry["lru_pages"] is None:
                        entry["lru_pages"] = {k: w["pages"] for k, w in walked.items()}
                out.append(entry)
            except FaultError as e:
                warnings.append(fault_text(where, e))
    mark_shared_locks(out)
    stats = {"memcgs": len(memcgs), "lruvecs": len(out), "folios_walked": nfolios,
             "enumerate_s": round(t_enum, 6), "walk_s": round(time.monotonic() - t1, 6)}
    return nodes, out, stats


def snapshot_of(prog, nodes, lvs, stats, warnings):
    """A snapshot (schema SCHEMA) around collect()'s answer."""
    return {"schema": SCHEMA, "source": "drgn", "t_ns": now_ns(), "interval_ns": 0,
            "kernel": kernel_release(prog), "nodes": nodes, "lruvecs": lvs,
            "other_locks": [], "stacks": {}, "stats": stats, "warnings": warnings}

"""The text forms of the scripts' answers (without --json)."""


def with_warnings(lines, warnings):
    return "\n".join(lines + ["warning: " + w for w in warnings])


LIST_SHORT = [("inactive_anon", "ia"), ("active_anon", "aa"), ("inactive_file", "if"),
              ("active_file", "af"), ("unevictable", "un")]


def lruvecs_table(snap):
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
    lines += node_lock_lines(snap["lruvecs"])
    return with_warnings(lines, snap["warnings"])


def node_lock_lines(lruvecs):
    """Before 5.11 a LOCK is the node's: say so once per node lock."""
    lines = []
    seen = set()
    for e in lruvecs:
        if e.get("lock_scope") == "node" and e["lock"] not in seen:
            seen.add(e["lock"])
            lines.append("lock %s: node %d's pgdat->lru_lock (one lock per node before 5.11), "
                         "shared by all %d memcgs on node %d" % (
                             e["lock"], e["node"], e["lock_shared_by"], e["node"]))
    return lines


def shared_text(lk):
    """ " shared by /a, /b" for a node lock's holders entry, else ""."""
    if lk.get("lock_scope") != "node":
        return ""
    return ", shared by every memcg on node %d (%s)" % (lk["node"], ", ".join(lk["memcgs"]))


def check_table(res):
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
    return with_warnings(lines, res["warnings"])


def holders_table(res):
    node = any(lk.get("lock_scope") == "node" for lk in res["locks"])
    lines = ["%d lruvecs, %d %s held or waited on" % (
        res["lruvecs_checked"], res["held"],
        "node lock(s) (pgdat->lru_lock)" if node else "with the lock")]
    for lk in res["locks"]:
        st = lk["lock_state"]
        lines.append("%s lock %s locked=%d pending=%d%s%s" % (
            lk["lruvec"], lk["lock"], st["locked"], st["pending"],
            (" queue tail cpu%d" % st["tail_cpu"]) if st["tail_cpu"] is not None else "",
            shared_text(lk)))
        if not lk["tasks"]:
            lines.append("  no task stack references it")
        for t in lk["tasks"]:
            lines.append("  pid %d %s cpu %s state %s:" % (t["pid"], t["comm"], t["cpu"],
                                                           t["state"]))
            for r in t["refs"]:
                lines.append("    %s = %s in frame #%s %s" % (r["at"], r["value"], r["frame"],
                                                              r["function"]))
            for s in t["stack"]:
                lines.append("      " + s)
    return with_warnings(lines, res["warnings"])


def owner_table(res):
    lines = ["method: %s, %d-page buckets" % (res["method"], res["bucket_pages"]),
             "%-32s %8s %10s %s" % ("MEMCG", "ID", "KMEM", "PAGES (by node)")]
    for m in res["memcgs"]:
        lines.append("%-32s %8s %10d %d (%s)" % (
            m["memcg"], "-" if m["memcg_id"] is None else m["memcg_id"], m["kmem_pages"],
            m["pages"], " ".join("N%s=%d" % kv for kv in m["pages_by_node"].items())))
    if res["unreadable_pages"]:
        lines.append("%d pages unreadable" % res["unreadable_pages"])
    return with_warnings(lines, res["warnings"])


def walk_table(snap):
    lines = [lruvecs_table(snap)]
    if "violations_total" in snap:
        lines.append("lru_check: %d violations" % snap["violations_total"])
        for v in snap["violations"][:20]:
            lines.append("  folio %s on %s@N%d: %s" % (v["folio"], v["lruvec_memcg"],
                                                       v["lruvec_node"], ", ".join(v["why"])))
    for h in snap["holders"]:
        lines.append("held: %s lock %s%s, %d task(s) reference it: %s" % (
            h["lruvec"], h["lock"], shared_text(h), len(h["tasks"]),
            ", ".join("%d %s" % (t["pid"], t["comm"]) for t in h["tasks"])))
    if "page_owner" in snap:
        lines.append("page owner (%s):" % snap["page_owner"]["method"])
        for m in snap["page_owner"]["memcgs"]:
            lines.append("  %-30s %d pages" % (m["memcg"], m["pages"]))
    return "\n".join(lines)

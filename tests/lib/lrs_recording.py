"""Recordings made up for tests that need no root and no load (see
docs/recording-format.md): a header and full snapshot lines, every counter
computed from the rates the test asks for, so what a replay or `report -i`
must show is known exactly.

    write(path, ["/lrs-a", "/lrs-b"], frames=10,
          wait=lambda i, memcg, node: 2e6 if memcg == "/lrs-a" else 0)

wait(i, memcg, node) is the wait in ns per second of the interval that ends
at snapshot i (1 .. frames - 1); snapshot 0 holds zeros. Each wait counts as
2 us (contended = wait / 2000, all in that histogram bucket, 1.0 us .. 2.0 us).
The root memcg "/" is added, never contended; parents of nested paths too.
others(i) lists other locks as (name, wait ns per second); holders(i) is a
snapshot's "holders" object, or None. id_offset moves every memcg's id but
the root's (another boot, another machine: the same paths, other ids).
stacks(i, memcg, node) lists the lruvec's sampled waiting stacks as (frames,
wait ns per second): frames innermost first ("sym+0x1a"), ids given in order
of first use, the same 2 us per wait; they need not add up to the lruvec's.
"""
import json

WAIT_EACH_NS = 2000
BUCKET = WAIT_EACH_NS.bit_length() - 1  # log2 buckets: 2000 ns is in 1024 .. 2047


def _memcg_tree(memcgs, id_offset=0):
    """Every path with its parents, in tree order, as {path: (id, parent_id, depth)}."""
    paths = {"/"}
    for m in memcgs:
        parts = m.strip("/").split("/")
        paths.update("/" + "/".join(parts[:k]) for k in range(1, len(parts) + 1))
    tree = {}
    for n, p in enumerate(sorted(paths, key=lambda p: p.strip("/").split("/") if p != "/" else [])):
        parent = p.rsplit("/", 1)[0] or "/"
        depth = 0 if p == "/" else p.count("/")
        if p == "/":
            tree[p] = (n + 1, 0, depth)
        else:
            tree[p] = (n + 1 + id_offset, tree[parent][0], depth)
    return tree


def _counters(wait_ns):
    contended = int(wait_ns // WAIT_EACH_NS)
    hist = [0] * (BUCKET + 1)
    hist[BUCKET] = contended
    return {"contended": contended, "wait_ns": contended * WAIT_EACH_NS,
            "wait_max_ns": WAIT_EACH_NS if contended else 0, "hist": hist if contended else []}


def _stack_uses(i, p, node, stacks, interval_s, total, ids):
    """The lruvec's "stacks" uses at snapshot i; new frames get the next id in ids."""
    if i:
        for frames, rate in stacks(i, p, node):
            sid = ids.setdefault(tuple(frames), len(ids) + 1)
            total[(p, node, sid)] = total.get((p, node, sid), 0) + rate * interval_s
    uses = []
    for sid in sorted(ids.values()):
        c = _counters(total.get((p, node, sid), 0))
        if c["contended"]:
            uses.append({"id": sid, "contended": c["contended"], "wait_ns": c["wait_ns"]})
    return uses


def write(path, memcgs, frames, wait, nodes=(0,), interval_s=1.0, others=None, holders=None,
          kernel="6.18.0-lrs-test", id_offset=0, stacks=None):
    tree = _memcg_tree(memcgs, id_offset)
    interval_ns = int(interval_s * 1e9)
    total = {}  # (path, node), (path, node, stack id) or lock name: cumulative wait ns
    ids = {}  # frames -> stack id
    with open(path, "w") as f:
        f.write(json.dumps({"lruscope_recording": 1, "schema": 1, "kernel": kernel,
                            "host": "lrs-test", "nodes": list(nodes),
                            "interval_ns": interval_ns}) + "\n")
        for i in range(frames):
            lruvecs, other_locks = [], []
            for p, (mid, parent, depth) in tree.items():
                for node in nodes:
                    if i and p in memcgs:
                        total[(p, node)] = total.get((p, node), 0) + wait(i, p, node) * interval_s
                    lock = 0xffff888100000000 + mid * 0x1000 + node * 0x100
                    lv = {"memcg": p, "memcg_id": mid, "parent_id": parent, "depth": depth,
                          "node": node, "lock": "0x%x" % lock}
                    lv.update(_counters(total.get((p, node), 0)))
                    uses = _stack_uses(i, p, node, stacks, interval_s, total, ids) \
                        if stacks and p in memcgs else []
                    lv.update({"waiters": [], "stacks": uses,
                               "lru_pages": {"inactive_anon": 0, "active_anon": 0,
                                             "inactive_file": 1000 * mid, "active_file": 0,
                                             "unevictable": 0}})
                    lruvecs.append(lv)
            for k, (name, rate) in enumerate(others(i) if others else []):
                if i:
                    total[name] = total.get(name, 0) + rate * interval_s
                ol = {"name": name, "lock": "0x%x" % (0xffffffff82000000 + k * 0x40), "flags": 1}
                ol.update(_counters(total.get(name, 0)))
                ol["stacks"] = []
                other_locks.append(ol)
            snap = {"schema": 1, "t_ns": (i + 1) * interval_ns, "interval_ns": interval_ns,
                    "kernel": kernel, "nodes": list(nodes), "lruvecs": lruvecs,
                    "other_locks": other_locks,
                    "stacks": {str(sid): list(fr) for fr, sid in ids.items()},
                    "drops": {"task": 0, "stack": 0, "stats_full": 0, "negative_time": 0}}
            h = holders(i) if holders else None
            if h is not None:
                snap["holders"] = h
            f.write(json.dumps(snap) + "\n")
    return tree

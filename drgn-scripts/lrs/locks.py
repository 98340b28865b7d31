"""lru_lock words and the tasks whose kernel stacks reference a lruvec (holders)."""

import bisect
import struct

from drgn import FaultError

from lrs import SCHEMA
from lrs.kernel import has_member, kernel_release, node_data, offsetof
from lrs.output import fault_text, fmt_addr


def lru_lock_addr(prog, lruvec, nid):
    """Address of the spinlock that guards lruvec (memcg's lruvec on node nid)."""
    if has_member(lruvec.type_, "lru_lock"):
        return lruvec.lru_lock.address_of_().value_()  # 5.11+: per memcg per node
    # before 5.11 ("mm/lru: replace pgdat lru_lock with lruvec lock") one lock per node
    return node_data(prog, nid).lru_lock.address_of_().value_()


def lru_lock_scope(lruvec):
    """"lruvec": the lock is this lruvec's own (5.11+); "node": it is the node's
    pgdat->lru_lock, shared by every memcg's lruvec on that node."""
    return "lruvec" if has_member(lruvec.type_, "lru_lock") else "node"


def node_lock_name(nid):
    return "pgdat->lru_lock (node %d)" % nid


def mark_shared_locks(entries):
    """Name the node locks of a snapshot's lruvec entries (lock_scope "node"): lock_name and
    lock_shared_by, the memcgs of these entries on that node, which all take that lock."""
    sharers = {}
    for e in entries:
        if e.get("lock_scope") == "node":
            sharers.setdefault(e["lock"], []).append(e["memcg"])
    for e in entries:
        if e.get("lock_scope") == "node":
            e["lock_name"] = node_lock_name(e["node"])
            e["lock_shared_by"] = len(sharers[e["lock"]])


def decode_qspinlock(val):
    """A queued spinlock word (NR_CPUS < 16K layout): locked byte, pending byte, tail
    (index in bits 16-17, cpu + 1 in bits 18-31)."""
    tail = (val >> 16) & 0xffff
    return {"raw": val & 0xffffffff, "locked": (val & 0xff) != 0,
            "pending": ((val >> 8) & 0xff) != 0,
            "tail_cpu": ((tail >> 2) - 1) if tail else None,
            "tail_idx": (tail & 3) if tail else None}


def lock_busy(state):
    return bool(state["locked"] or state["pending"] or state["tail_cpu"] is not None)


# ---- who references a lruvec ----------------------------------------------------------------

def thread_size(prog):
    try:
        return prog.type("union thread_union").size
    except LookupError:
        return 16384  # x86_64 THREAD_SIZE without KASAN


def find_refs(raw, base, ranges):
    """Words of raw (read at address base) that point into one of ranges, a sorted list of
    (lo, hi, key). -> [(address of the word, value, key)] (pure)."""
    los = [r[0] for r in ranges]
    out = []
    for i in range(0, len(raw) - 7, 8):
        v, = struct.unpack_from("<Q", raw, i)
        j = bisect.bisect_right(los, v) - 1
        if j >= 0 and v < ranges[j][1]:
            out.append((base + i, v, ranges[j][2]))
    return out


def frame_of(addr, sps):
    """Index of the frame whose stack area [sp_i, sp_i+1) holds addr (pure)."""
    return max(bisect.bisect_right(sps, addr) - 1, 0)


def tasks(prog):
    from drgn.helpers.linux.pid import for_each_task
    seen = set()
    for t in for_each_task(prog):
        seen.add(t.value_())
        yield t
    # idle tasks are not on the task list
    try:
        from drgn.helpers.linux.cpumask import for_each_online_cpu
        from drgn.helpers.linux.sched import idle_task
        for cpu in for_each_online_cpu(prog):
            t = idle_task(prog, cpu)
            if t.value_() not in seen:
                yield t
    except (ImportError, LookupError, FaultError):
        pass


def task_cpu_of(task):
    try:
        from drgn.helpers.linux.sched import task_cpu
        return task_cpu(task)
    except (ImportError, LookupError, AttributeError):
        return None


def task_state(task):
    try:
        from drgn.helpers.linux.sched import task_state_to_char
        return task_state_to_char(task)
    except (ImportError, LookupError, FaultError, ValueError):
        return "?"


def stack_frames(prog, task, warnings):
    """[(sp or None, function name)] of task's stack, innermost first."""
    frames = []
    try:
        for f in prog.stack_trace(task):
            try:
                sp = f.sp
            except (LookupError, ValueError):
                sp = None
            try:
                name = f.name or f.symbol().name
            except LookupError:
                name = "0x%x" % f.pc
            frames.append((sp, name))
    except (ValueError, FaultError, LookupError) as e:
        warnings.append(fault_text("stack of pid %d" % task.pid.value_(), e))
    return frames


def scan_task(prog, task, ranges, tsize, warnings):
    """References of one task's live kernel stack to the ranges: a dict, or None."""
    stack_lo = task.stack.value_()
    stack_hi = stack_lo + tsize
    frames = stack_frames(prog, task, warnings)
    sps = [sp for sp, _ in frames if sp is not None and stack_lo <= sp < stack_hi]
    start = min(sps) if sps else task.thread.sp.value_()
    if not stack_lo <= start < stack_hi:
        start = stack_lo  # running without a saved sp we trust: scan it all
    refs = find_refs(prog.read(start, stack_hi - start), start, ranges)
    if not refs:
        return None
    # frames run innermost first; their sp grow toward the stack's top
    fsps = [sp if sp is not None else 0 for sp, _ in frames]
    out = []
    for addr, value, key in refs:
        k = frame_of(addr, fsps) if frames else None
        out.append({"key": key, "at": fmt_addr(addr), "value": fmt_addr(value),
                    "frame": k, "function": frames[k][1] if k is not None else None})
    return {"pid": task.pid.value_(), "comm": task.comm.string_().decode("utf-8", "replace"),
            "cpu": task_cpu_of(task), "on_cpu": bool(getattr(task, "on_cpu", 0)),
            "state": task_state(task), "refs": out,
            "stack": ["#%d %s" % (i, name) for i, (_, name) in enumerate(frames)]}


def lruvec_key(e):
    return "%s@N%d" % (e["memcg"], e["node"])


def lock_key(e):
    """What holders are listed under: the lruvec, or the node lock all its memcgs share."""
    return node_lock_name(e["node"]) if e.get("lock_scope") == "node" else lruvec_key(e)


def lruvec_ranges(prog, entries):
    """Sorted (lo, hi, key) of the mem_cgroup_per_node around each lruvec entry, and of each
    node lock word (before 5.11 it lies in pglist_data, outside every lruvec)."""
    pn_size = prog.type("struct mem_cgroup_per_node").size
    lruvec_off = offsetof(prog, "struct mem_cgroup_per_node", "lruvec")
    ranges = []
    node_locks = {}
    for e in entries:
        pn = int(e["lruvec"], 16) - lruvec_off
        ranges.append((pn, pn + pn_size, lock_key(e)))
        if e.get("lock_scope") == "node":
            node_locks[int(e["lock"], 16)] = lock_key(e)
    ranges += [(lock, lock + 8, key) for lock, key in node_locks.items()]
    return sorted(ranges)


def referencing_tasks(prog, ranges, warnings):
    """{lruvec key: [task dicts whose stack references it]}."""
    found = {}
    if not ranges:
        return found
    tsize = thread_size(prog)
    for t in tasks(prog):
        try:
            r = scan_task(prog, t, ranges, tsize, warnings)
        except FaultError as e:
            warnings.append(fault_text("task %#x" % t.value_(), e))
            continue
        if r:
            for key in sorted(set(x["key"] for x in r["refs"])):
                found.setdefault(key, []).append(dict(r, refs=[x for x in r["refs"]
                                                               if x["key"] == key]))
    return found


def holders(prog, lvs, every, warnings):
    """The lruvec entries lvs (lru.collect()) whose lock is held or waited on (every: all of
    them), each with the tasks whose stacks reference it."""
    wanted = [e for e in lvs if every or e["locked"]]
    found = referencing_tasks(prog, lruvec_ranges(prog, wanted), warnings)
    locks = []
    by_key = {}
    for e in wanted:
        st = e["lock_state"]
        key = lock_key(e)
        if key in by_key:  # a node lock: one entry names every memcg sharing it
            by_key[key]["memcgs"].append(e["memcg"])
            continue
        lk = {"lruvec": key, "memcg": e["memcg"], "memcg_id": e["memcg_id"],
              "node": e["node"], "lock": e["lock"], "lock_state": st,
              "waiter_cpus": [st["tail_cpu"]] if st["tail_cpu"] is not None else [],
              "tasks": found.get(key, [])}
        if e.get("lock_scope") == "node":
            lk.update(lock_scope="node", memcg=None, memcg_id=None, memcgs=[e["memcg"]])
        by_key[key] = lk
        locks.append(lk)
    return locks


def holders_report(prog, lvs, every, warnings):
    """holders.py's answer: holders() with the counts of the lruvecs it looked at."""
    return {"schema": SCHEMA, "kernel": kernel_release(prog), "lruvecs_checked": len(lvs),
            "held": len(set(e["lock"] for e in lvs if e["locked"])),
            "locks": holders(prog, lvs, every, warnings), "warnings": warnings}

#!/usr/bin/python3
"""Who holds the lruvec lock this box is stuck on (vmcore).

For each lruvec whose lru_lock is found held or with waiters, the CPUs and tasks whose
kernel stacks reference that lruvec (a word pointing into the struct lruvec or its
mem_cgroup_per_node), with the frame the reference sits in and the whole stack. The
queue tail CPU of the lock word is a waiter. --all looks for references to every lruvec.

  holders.py [-c VMCORE -s VMLINUX] [--json] [--all] [--memcg PATH]
"""

import bisect
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import drgn  # noqa: E402
from drgn import FaultError  # noqa: E402

import lrs_common as lc  # noqa: E402
import lruvecs  # noqa: E402


def parse_args(argv):
    p = lc.base_parser(__doc__.splitlines()[0])
    p.add_argument("--all", action="store_true",
                   help="look for references to every lruvec, held or not")
    p.add_argument("--memcg", metavar="PATH", help="only this memcg (and its descendants)")
    return p.parse_args(argv)


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


def scan_task(prog, task, ranges, tsize, warnings):
    """References of one task's live kernel stack to the ranges: list of dicts."""
    pid = task.pid.value_()
    comm = task.comm.string_().decode("utf-8", "replace")
    stack_lo = task.stack.value_()
    stack_hi = stack_lo + tsize
    frames = []
    try:
        trace = prog.stack_trace(task)
        for f in trace:
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
        warnings.append(lc.fault_text("stack of pid %d" % pid, e))
    sps = [sp for sp, _ in frames if sp is not None and stack_lo <= sp < stack_hi]
    start = min(sps) if sps else task.thread.sp.value_()
    if not stack_lo <= start < stack_hi:
        start = stack_lo  # running without a saved sp we trust: scan it all
    raw = prog.read(start, stack_hi - start)
    refs = find_refs(raw, start, ranges)
    if not refs:
        return None
    fsps = [sp if sp is not None else 0 for sp, _ in frames]
    # frames run innermost first; their sp grow toward the stack's top
    out = []
    for addr, value, key in refs:
        k = frame_of(addr, fsps) if frames else None
        out.append({"key": key, "at": lc.fmt_addr(addr), "value": lc.fmt_addr(value),
                    "frame": k, "function": frames[k][1] if k is not None else None})
    return {"pid": pid, "comm": comm, "cpu": task_cpu_of(task),
            "on_cpu": bool(getattr(task, "on_cpu", 0)),
            "state": task_state(task), "refs": out,
            "stack": ["#%d %s" % (i, name) for i, (_, name) in enumerate(frames)]}


def task_state(task):
    try:
        from drgn.helpers.linux.sched import task_state_to_char
        return task_state_to_char(task)
    except (ImportError, LookupError, FaultError, ValueError):
        return "?"


def holders(prog, args, warnings):
    args.no_walk = True
    args.max_folios = 0
    nodes, lvs, _ = lruvecs.collect(prog, args, warnings)
    wanted = [e for e in lvs if args.all or e["locked"]]
    pn_size = prog.type("struct mem_cgroup_per_node").size
    lruvec_off = lc.offsetof(prog, "struct mem_cgroup_per_node", "lruvec")
    ranges = []
    for e in wanted:
        lv = int(e["lruvec"], 16)
        pn = lv - lruvec_off
        ranges.append((pn, pn + pn_size, "%s@N%d" % (e["memcg"], e["node"])))
    ranges.sort()
    found = {}
    if ranges:
        tsize = thread_size(prog)
        for t in tasks(prog):
            try:
                r = scan_task(prog, t, ranges, tsize, warnings)
            except FaultError as e:
                warnings.append(lc.fault_text("task %#x" % t.value_(), e))
                continue
            if r:
                for key in sorted(set(x["key"] for x in r["refs"])):
                    found.setdefault(key, []).append(dict(r, refs=[x for x in r["refs"]
                                                                   if x["key"] == key]))
    locks = []
    for e in wanted:
        key = "%s@N%d" % (e["memcg"], e["node"])
        st = e["lock_state"]
        locks.append({"lruvec": key, "memcg": e["memcg"], "memcg_id": e["memcg_id"],
                      "node": e["node"], "lock": e["lock"], "lock_state": st,
                      "waiter_cpus": [st["tail_cpu"]] if st["tail_cpu"] is not None else [],
                      "tasks": found.get(key, [])})
    return {"schema": lc.SCHEMA, "kernel": lc.kernel_release(prog),
            "lruvecs_checked": len(lvs), "held": sum(1 for e in lvs if e["locked"]),
            "locks": locks, "warnings": warnings}


def format_table(res):
    lines = ["%d lruvecs, %d with the lock held or waited on" % (res["lruvecs_checked"],
                                                                 res["held"])]
    for lk in res["locks"]:
        st = lk["lock_state"]
        lines.append("%s lock %s locked=%d pending=%d%s" % (
            lk["lruvec"], lk["lock"], st["locked"], st["pending"],
            (" queue tail cpu%d" % st["tail_cpu"]) if st["tail_cpu"] is not None else ""))
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
    for w in res["warnings"]:
        lines.append("warning: " + w)
    return "\n".join(lines)


def main(prog, argv):
    args = parse_args(argv)
    prog = lc.get_program(prog, args)
    if not lc.memcg_enabled(prog):
        raise lc.LrsError("memory cgroups are disabled or absent in this kernel")
    res = holders(prog, args, [])
    if args.json:
        lc.emit_json(res)
    else:
        print(format_table(res))
    return 0


if __name__ == "__main__":
    sys.exit(lc.run(main, globals().get("prog")))

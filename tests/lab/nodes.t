#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the workload, a dump; a first run also fetches the kernel)
# guest: shared  (counts and names, no timing: its guest may run beside the live guest)
"""Lab, per-node attribution live: lruscope's collector in the 6.1 guest with two NUMA nodes,
once with the memory controller on cgroup v2 only (booted with cgroup_no_v1=all) and once on
a v1 hierarchy. One memcg's readers run only on node 1's CPUs, another's only on node 0's
(tests/lab/lib/guest-nodes.sh); `lruscope report -f json` must name each memcg on its own
node with contention, LRU pages and its own tasks making the waits (90% of those listed: a
kworker draining a per-CPU batch may wait there too), and show the other node quiet for it
(no page, under 5% of the waits on its own node). The guest's taskset masks and memory.numa_stat say where the
readers and their pages really were. The guest is lab.CONTENDED, where 6.1 traces lruvec
waits in every boot: no contention is a failure, not a skip."""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import checks as ck  # noqa: E402
import labtest  # noqa: E402

OWN_WAITS = 0.9	# the share of memcg@node's listed waits its own tasks must make
MODES = {"v2": "lrs_cg=v2 cgroup_no_v1=all", "v1": "lrs_cg=v1"}


def memcg_of(node):
    return "/lrs-test-node%d-shared" % node


def cpu_mask(cpulist):
    """'3-5' or '0,2' -> the taskset mask, as hex without 0x."""
    mask = 0
    for part in cpulist.split(","):
        lo, _, hi = part.partition("-")
        for c in range(int(lo), int(hi or lo) + 1):
            mask |= 1 << c
    return "%x" % mask


def guest_facts(lines):
    """What the guest printed: parse_guest's view plus cgroup mounts and reader masks."""
    g = lab.parse_guest(lines)
    g["mounts"], g["affinity"], g["rc"] = [], {}, None
    for line in lines:
        w = line.split()
        if line.startswith("LRS mode "):
            g["mounts"] = w[3:]
        elif line.startswith("LRS affinity "):
            g["affinity"][w[2]] = w[3:]
        elif line.startswith("LRS report_rc "):
            g["rc"] = w[2]
        elif line.startswith("LRS window "):
            print("# " + line)
    return g


def check_mode(mode, g):
    """The guest's cgroup mounts: v2 alone, or memory on a v1 hierarchy."""
    v1 = [m for m in g["mounts"] if m.startswith("cgroup:")]
    if mode == "v2":
        return [] if g["mounts"] == ["cgroup2:/sys/fs/cgroup"] else ["mounts %s" % g["mounts"]]
    return [] if "cgroup:/sys/fs/cgroup/memory" in v1 else ["mounts %s" % g["mounts"]]


def check_ground_truth(g):
    """Each memcg's readers were bound to its node's CPUs and its pages are on that node."""
    probs = []
    for node in (0, 1):
        m, other = memcg_of(node), 1 - node
        want = cpu_mask(g["node_cpus"].get(node, "0"))
        if g["affinity"].get(m) != [want]:
            probs.append("%s readers' masks %s, node %d's CPUs %s" % (
                m, g["affinity"].get(m), node, want))
        f = g["numa_stat"].get(m, {}).get("file", {})
        if not f.get(node) or f.get(other, 0):
            probs.append("%s file pages by node (memory.numa_stat): %s" % (m, f))
    return probs


def pages(lv):
    return sum((lv or {}).get("lru_pages", {}).values())


def check_named(snap, g, node):
    """memcg@N<node>: contended, with LRU pages, its id, its own tasks making the waits."""
    m = memcg_of(node)
    lv = ck.by_memcg_node(snap["lruvecs"]).get((m, node))
    if not lv:
        return ["%s@N%d not in the report" % (m, node)]
    probs = []
    if not lv["contended"] or not lv["wait_ns"]:
        probs.append("contended %d, wait %d ns" % (lv["contended"], lv["wait_ns"]))
    if not pages(lv):
        probs.append("no LRU page: %s" % lv.get("lru_pages"))
    if lv["memcg_id"] != g["cgroups"].get(m):
        probs.append("memcg_id %s, the guest's cgroup inode %s" % (lv["memcg_id"],
                                                                   g["cgroups"].get(m)))
    # a kworker draining a per-CPU LRU batch may wait there too: the memcg's own readers
    # must make nearly all of the waits
    waiters = lv.get("waiters", [])
    own = sum(w["contended"] for w in waiters if w.get("memcg") == m)
    if not waiters or own < OWN_WAITS * sum(w["contended"] for w in waiters):
        probs.append("%d of the listed waits by tasks of %s: %s" % (
            own, m, ["%s %s %d" % (w["comm"], w.get("memcg"), w["contended"]) for w in waiters]))
    return probs


def check_quiet(snap, node, other):
    """memcg@N<other> of the memcg pinned to node: no LRU page, and at most 5% of the waits
    on its own node (absent is quiet too). Not no wait at all: paths that take every lruvec
    of a memcg (reclaim's cost note, drains) lock empty ones too. Counted in waits, not wait
    time: in a TCG guest a few waits behind a descheduled vCPU last long, so a handful of
    waits on the empty lruvec can hold a tenth of the own node's wait time."""
    m = memcg_of(node)
    by = ck.by_memcg_node(snap["lruvecs"])
    lv, own = by.get((m, other)), by.get((m, node)) or {}
    if lv and (pages(lv) or lv["contended"] > 0.05 * own.get("contended", 0)):
        return ["contended %d (own node: %d), wait %d ns (own node: %d ns), %d LRU pages" % (
            lv["contended"], own.get("contended", 0), lv["wait_ns"], own.get("wait_ns", 0),
            pages(lv))]
    return []


def one_mode(tap, kdir, work, mode):
    try:
        lines, disk = lab.run_lruscope_guest(
            kdir, os.path.join(work, mode), os.path.join(lab.HERE, "guest-nodes.sh"),
            "LRS-NODES-DONE", labtest.binary(), append="lrs_dur=8 " + MODES[mode])
    except lab.LabError as e:
        tap.check("%s guest ran lruscope (second boot)" % mode, [str(e)])
        return
    g = guest_facts(lines)
    tap.check("%s guest: %s" % (mode, "memory controller on cgroup2, no v1 hierarchy" if mode == "v2"
                                else "memory controller on a v1 hierarchy, cgroup2 beside it"),
              check_mode(mode, g) + g["warn"])
    tap.check("%s guest: each memcg's readers on its node's CPUs, its file pages on that node"
              % mode, check_ground_truth(g))
    raw = lab.read_guest_file(disk, "/nodes.json")
    try:
        snap = json.loads(raw)
    except (TypeError, ValueError):
        err = (lab.read_guest_file(disk, "/report.err") or b"").decode(errors="replace")
        tap.check("%s report -f json runs" % mode, ["rc %s: %s; output %r" % (
            g["rc"], err.strip()[-300:], (raw or b"")[:200])])
        return
    tap.check("%s report -f json runs" % mode, [] if g["rc"] == "0" else ["rc %s" % g["rc"]])
    for node in (1, 0):
        m, other = memcg_of(node), 1 - node
        lv = ck.by_memcg_node(snap["lruvecs"]).get((m, node)) or {}
        tap.check("%s: %s@N%d named with contention (%d waits), LRU pages (%d), its own tasks "
                  "waiting" % (mode, m, node, lv.get("contended", 0), pages(lv)),
                  check_named(snap, g, node))
        tap.check("%s: %s@N%d quiet (no LRU page, under 5%% of the own node's waits)" % (mode, m, other),
                  check_quiet(snap, node, other))


def run(tap, kdir, work):
    for mode in ("v2", "v1"):
        one_mode(tap, kdir, work, mode)


if __name__ == "__main__":
    labtest.main("nodes", run, plan=14)	# 7 in each mode

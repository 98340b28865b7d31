#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the workload, a dump; a first run also fetches the kernel)
# guest: shared  (counts and names, no timing: its guest may run beside the live guest)
"""Lab, cgroup v1: the second boot. The memory controller on a v1 hierarchy, flat and
nested memcgs (the nested parent holds pages of its own: v1 allows it), readers pinned to
each node; the scripts' answers against the guest's v1 memory.numa_stat and memory.stat."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import checks as ck  # noqa: E402
import labtest  # noqa: E402


def run(tap, guest, core, vmlinux, work):
    probs = list(guest["warn"])
    if guest.get("mode") != "v1" or len(guest["cgroups"]) != 5:
        probs.append("guest mode %s with %d cgroups" % (guest.get("mode"),
                                                         len(guest["cgroups"])))
    tap.check("v1 guest ran the workload", probs)
    snap = ck.lruvecs_of(tap, core, vmlinux, "v1 lruvecs.py runs")
    if snap is None:
        return
    tap.check("v1 lruvecs.py runs", snap["warnings"])
    tap.check("v1 memcg ids are the guest's cgroup inode numbers",
              ck.check_ids(snap, guest))
    tap.check("v1 walked lists equal lru_zone_size", ck.check_walk_vs_counters(snap, guest))
    probs = ck.check_counters_vs_guest(snap, guest)
    idx = ck.by_memcg_node(snap["lruvecs"])
    if not sum(idx[("/lrs-n", 1)]["lru_pages"].values()):
        probs.append("/lrs-n@N1 holds no pages of its own")
    tap.check("v1 LRU sizes equal memory.numa_stat and memory.stat", probs)
    rc, res, err, _ = ck.run_script("lru_check.py", core, vmlinux)
    probs = [] if rc == 0 and res else ["exit %d: %s" % (rc, err.strip()[-300:])]
    probs += ["violation %s" % v for v in (res or {}).get("violations", [])]
    tap.check("v1 lru_check.py: no violations", probs)
    rc, res, err, _ = ck.run_script("page_owner.py", core, vmlinux)
    tap.check("v1 page_owner.py: pages per memcg equal cache+rss",
              ck.check_page_owner(res, guest) if rc == 0 and res else
              ["exit %d: %s" % (rc, err.strip()[-300:])])


if __name__ == "__main__":
    labtest.main_vmcore("v1", "lrs_cg=v1", run, plan=7)

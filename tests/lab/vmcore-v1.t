#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the workload, a dump; a first run also fetches the kernel)
"""Lab, cgroup v1: the second boot. The memory controller on a v1 hierarchy, flat and
nested memcgs (the nested parent holds pages of its own: v1 allows it), readers pinned to
each node; the scripts' answers against the guest's v1 memory.numa_stat and memory.stat."""

import os
import shutil
import signal
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import checks as ck  # noqa: E402


def on_signal(signum, frame):
    raise SystemExit(128 + signum)


def main():
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    signal.signal(signal.SIGINT, on_signal)  # also when started with SIGINT ignored
    tap = ck.Tap()
    missing = lab.missing_tools()
    if missing:
        tap.skip("lab v1", "missing tools: %s (make deps installs them)" % " ".join(missing))
        return 0
    work = tempfile.mkdtemp(prefix="lrs-lab-v1.")
    try:
        try:
            kdir = lab.kernel_dir()
            guest, core = lab.boot_and_dump(kdir, work, append="lrs_cg=v1")
        except lab.LabError as e:
            tap.check("lab boot and dump (v1)", [str(e)])
            return 1
        vmlinux = os.path.join(kdir, "vmlinux")
        probs = list(guest["warn"])
        if guest.get("mode") != "v1" or len(guest["cgroups"]) != 5:
            probs.append("guest mode %s with %d cgroups" % (guest.get("mode"),
                                                             len(guest["cgroups"])))
        tap.check("v1 guest ran the workload", probs)
        rc, snap, err, _ = ck.run_script("lruvecs.py", core, vmlinux)
        if rc != 0 or snap is None:
            tap.check("v1 lruvecs.py runs", ["exit %d: %s" % (rc, err.strip()[-300:])])
            return 1
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
        return 1 if tap.failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)

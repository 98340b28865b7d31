#!/usr/bin/python3
"""lab-bench, kernel memory: what a running lruscope costs the kernel, from /proc/meminfo
(per-CPU + slab + vmalloc) in 6.1 lab guests of 2, 26 and 104 vCPUs (LRS_KMEM_CPUS to choose),
on a readtwice load (16 readers in 8 memcgs) and with its counter maps filled on purpose
(tests/lab/lib/guest-kmem.sh, lrs-fillmaps.c). Beside each, the kernel's own estimate of the
maps (fdinfo memlock), which counts every map full. A measurement, not a test: plain lines on
stdout."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import labtest  # noqa: E402

MB = 1024.0
# docs/performance.md: at 104 vCPUs, on the load and in the worst case (every map full)
BUDGET_LOAD_MB, BUDGET_FULL_MB, BUDGET_CPUS = 16, 64, 104


def build_fill(work):
    out = os.path.join(work, "lrs-fillmaps")
    subprocess.run(["gcc", "-static", "-O2", "-Wall", "-o", out,
                    os.path.join(lab.HERE, "lrs-fillmaps.c")], check=True)
    return out


def readings(lines):
    """{label: (percpu, slab, vmalloc, memfree) in KiB}, {label: memlock bytes}, fills."""
    mem, memlock, fills = {}, {}, []
    for ln in lines:
        w = ln.split()
        if ln.startswith("LRS mem ") and len(w) == 7:
            mem[w[2]] = tuple(int(x) for x in w[3:7])
        elif ln.startswith("LRS memlock ") and len(w) == 4:
            memlock[w[2]] = int(w[3])
        elif ln.startswith("LRS filled ") and len(w) == 10:
            fills.append(w[2:])
    return mem, memlock, fills


def kernel_mb(mem, label, since="load"):
    """per-CPU + slab + vmalloc at label over since, in MB, and the three parts."""
    a, b = mem.get(label), mem.get(since)
    if not a or not b:
        return None, None
    parts = [(a[i] - b[i]) / MB for i in range(3)]
    return sum(parts), parts


def one(kdir, work, cpus, fill, dur):
    machine = dict(cpus_per_node=cpus // 2, accel="tcg", mem_mb=4096)
    lines, _ = lab.run_lruscope_guest(
        kdir, work, os.path.join(lab.HERE, "guest-kmem.sh"), "LRS-KMEM-DONE",
        labtest.binary(), append="lrs_dur=%d lrs_readers=16" % dur,
        extra={"/lrs-fillmaps": fill},
        timeout=1800, machine=machine)
    mem, memlock, fills = readings(lines)
    for ln in lines:
        if ln.startswith(("LRS warn", "LRS kmsg", "LRS rc")):
            print("# %d vCPUs: %s" % (cpus, ln))
    for label in ("attached", "end", "full", "after"):
        total, parts = kernel_mb(mem, label)
        if total is None:
            print("kmem %3d vCPUs %-8s no reading" % (cpus, label))
            continue
        extra = ""
        if label in memlock:
            extra = "; the kernel's memlock estimate %.1f MB" % (memlock[label] / 1e6)
        print("kmem %3d vCPUs %-8s %7.1f MB over the load alone (per-CPU %.1f, slab %.1f, "
              "vmalloc %.1f)%s" % (cpus, label, total, parts[0], parts[1], parts[2], extra))
    load, _ = kernel_mb(mem, "end")
    full, _ = kernel_mb(mem, "full")
    if cpus == BUDGET_CPUS and load is not None and full is not None:
        print("kmem %3d vCPUs budget: on the load %.1f MB of %d (%.2fx), maps full %.1f MB of %d "
              "(%.2fx)" % (cpus, load, BUDGET_LOAD_MB, load / BUDGET_LOAD_MB, full,
                           BUDGET_FULL_MB, full / BUDGET_FULL_MB))
    for name, _id, present, inserted, max_entries, vsize, percpu, err in fills:
        print("kmem %3d vCPUs map %-12s %s entries of its own, %s added, max %s, value %s B%s%s"
              % (cpus, name, present, inserted, max_entries, vsize,
                 " per CPU" if percpu == "1" else "",
                 "" if err == "0" else ", stopped by errno %s" % err))


def main():
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, f: sys.exit(128 + s))
    missing = lab.lruscope_tools_missing()
    if missing or not shutil.which("gcc"):
        print("kmem-bench: skipped, missing tools: %s" % " ".join(missing or ["gcc"]))
        return 0
    cpus_list = [int(x) for x in os.environ.get("LRS_KMEM_CPUS", "2 26 104").split()]
    dur = int(os.environ.get("LRS_KMEM_DUR", "30"))
    work = tempfile.mkdtemp(prefix="lrs-lab-kmem.")
    try:
        fill = build_fill(work)
        kdir = lab.kernel_dir()
        for cpus in cpus_list:
            d = os.path.join(work, "cpus%d" % cpus)
            os.makedirs(d)
            try:
                one(kdir, d, cpus, fill, dur)
            except lab.LabError as e:
                print("kmem %3d vCPUs: the guest did not end: %s" % (cpus, str(e)[-300:]))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

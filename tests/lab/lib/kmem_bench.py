#!/usr/bin/python3
"""lab-bench, kernel memory: what a running lruscope costs the kernel, from /proc/meminfo
(per-CPU + slab + vmalloc) in 6.1 lab guests of 2, 26 and 104 CPUs (LRS_KMEM_CPUS to choose),
on a readtwice load (16 readers in 8 memcgs) and with its counter maps filled on purpose
(tests/lab/lib/guest-kmem.sh, lrs-fillmaps.c). Each size boots a control first (the load
alone, the same readings at the same times) and each reading is also taken with the slab
caches shrunk. Beside each, the kernel's own estimate of the maps (fdinfo memlock), which
counts every map full. A measurement, not a test: plain lines on stdout.

A guest of N CPUs runs at most LRS_KMEM_RUNNING (6) of them; the rest are possible CPUs, not
present (hot-pluggable). The kernel sizes every per-CPU allocation, and lruscope its per-CPU
tables, by the possible CPUs, so their memory is the large machine's; a TCG guest of 104
running vCPUs on two host cores does not boot in time. What only running CPUs add, the BPF
allocator's cache of free entries on each CPU that inserts into a shared map, is in the
figures for the running CPUs only (LRS_KMEM_RUNNING=26 LRS_KMEM_CPUS=26 measures it at 26)."""

import os
import shutil
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


def one(kdir, work, cpus, running, mode, fill, dur, control=None):
    """One guest: mode "none" (the control: the load alone), "default" or "--holders".
    Returns its readings; a tool's figures are printed also over the control's (its mem)."""
    # one host thread for all vCPUs: memory does not depend on timing, and multi-threaded TCG
    # stalls a guest whole now and then (lab.CONTENDED)
    machine = dict(cpus_per_node=max(1, running // 2), accel="tcg,thread=single", mem_mb=4096,
                   possible_cpus=cpus)
    lines, _ = lab.run_lruscope_guest(
        kdir, work, os.path.join(lab.HERE, "guest-kmem.sh"), "LRS-KMEM-DONE",
        labtest.binary(),
        append="lrs_dur=%d lrs_readers=16 lrs_holders=%d lrs_tool=%s"
        % (dur, int(mode == "--holders"), "none" if mode == "none" else "report"),
        extra={"/lrs-fillmaps": fill},
        timeout=1800, machine=machine)
    mem, memlock, fills = readings(lines)
    who = "kmem %3d CPUs (%d running) %-9s" % (cpus, running, mode)
    for ln in lines:
        if ln.startswith(("LRS warn", "LRS kmsg", "LRS rc", "LRS kernel")):
            print("# %s: %s" % (who, ln))
    labels = ("attached", "end") + (() if mode == "none" else ("full",)) + ("after",)
    over_control = {}  # label: MB over the control's same reading
    for label in labels:
        total, parts = kernel_mb(mem, label)
        if total is None:
            print("%s %-8s no reading" % (who, label))
            continue
        extra = ""
        drift = kernel_mb(control, label)[0] if control else None
        if drift is not None:
            over_control[label] = total - drift
            extra += "; %.1f MB over the control's (the load alone grew %.1f)" % (
                total - drift, drift)
        if label in memlock:
            extra += "; the kernel's memlock estimate %.1f MB" % (memlock[label] / 1e6)
        shrunk, sparts = kernel_mb(mem, label + "-shrunk", "load-shrunk")
        if shrunk is not None:
            extra = ", %.1f with the slab caches shrunk (slab %.1f)%s" % (shrunk, sparts[1], extra)
        print("%s %-8s %5.1f MB over the load alone (per-CPU %.1f, slab %.1f, vmalloc %.1f)%s"
              % (who, label, total, parts[0], parts[1], parts[2], extra))
    grew = ["%s %.1f" % (ln.split()[3], int(ln.split()[4]) / MB) for ln in lines
            if ln.startswith("LRS slab end ") and len(ln.split()) == 5]
    if grew:
        print("%s slab caches that grew most from load to end, MB: %s" % (who, ", ".join(grew)))
    load, _ = kernel_mb(mem, "end")
    full, _ = kernel_mb(mem, "full")
    load_shrunk, _ = kernel_mb(mem, "end-shrunk", "load-shrunk")
    if cpus == BUDGET_CPUS and load is not None and full is not None:
        own = "" if "end" not in over_control else " (%.1f MB over the control's, %.2fx)" % (
            over_control["end"], over_control["end"] / BUDGET_LOAD_MB)
        if load_shrunk is not None:
            own += ", %.1f MB with the slab caches shrunk (%.2fx)" % (
                load_shrunk, load_shrunk / BUDGET_LOAD_MB)
        print("%s budget: on the load %.1f MB of %d (%.2fx)%s, maps full %.1f MB of %d (%.2fx)"
              % (who, load, BUDGET_LOAD_MB, load / BUDGET_LOAD_MB, own, full, BUDGET_FULL_MB,
                 full / BUDGET_FULL_MB))
    for name, _id, present, inserted, max_entries, vsize, percpu, err in fills:
        print("%s map %-15s %s entries of its own, %s added, max %s, value %s B%s%s"
              % (who, name, present, inserted, max_entries, vsize,
                 " per CPU" if percpu == "1" else "",
                 "" if err == "0" else ", stopped by errno %s" % err))
    return mem


def main():
    if not lab.bench_ready("kmem-bench", ["gcc"]):
        return 0
    cpus_list = [int(x) for x in os.environ.get("LRS_KMEM_CPUS", "2 26 104").split()]
    dur = int(os.environ.get("LRS_KMEM_DUR", "30"))
    running = int(os.environ.get("LRS_KMEM_RUNNING", "6"))
    work = tempfile.mkdtemp(prefix="lrs-lab-kmem.")
    try:
        fill = build_fill(work)
        kdir = lab.kernel_dir()
        for cpus in cpus_list:
            control = None
            for mode in ("none", "default", "--holders"):
                d = os.path.join(work, "cpus%d-%s" % (cpus, mode.strip("-")))
                os.makedirs(d)
                try:
                    mem = one(kdir, d, cpus, min(cpus, running), mode, fill, dur, control)
                except lab.LabError as e:
                    print("kmem %3d CPUs %s: the guest did not end: %s"
                          % (cpus, mode, str(e)[-300:]))
                    continue
                if mode == "none":
                    control = mem
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""The kernel's run-time accounting of BPF programs, for the benches: turn it on, read what
each program of a process cost, and the machine's busy CPU to hold it against."""
import ctypes
import json
import os
import subprocess
import time


def enable_stats():
    """BPF_ENABLE_STATS: the kernel times every program run while the fd is open (-1: refused)."""
    libc = ctypes.CDLL(None, use_errno=True)
    attr = (ctypes.c_uint32 * 1)(0)  # BPF_STATS_RUN_TIME
    return libc.syscall(321, 32, attr, ctypes.sizeof(attr))  # SYS_bpf, BPF_ENABLE_STATS


def full_name(name):
    """A program's name as its source spells it: the kernel keeps 15 characters of a name
    (bpftrace's begin is "contention_begi")."""
    return {"contention_begi": "contention_begin"}.get(name, name)


def progs_of(pid):
    """{name: (run_time_ns, run_cnt)} of the BPF programs process pid holds (its fds' prog ids)."""
    ids = set()
    try:
        for fd in os.listdir("/proc/%d/fdinfo" % pid):
            try:
                for line in open("/proc/%d/fdinfo/%s" % (pid, fd)):
                    if line.startswith("prog_id:"):
                        ids.add(int(line.split()[1]))
            except OSError:
                pass
    except OSError:
        return {}
    out = subprocess.run(["bpftool", "-j", "prog", "show"], capture_output=True, text=True).stdout
    progs = {}
    for p in json.loads(out or "[]"):
        if p["id"] in ids:
            name = full_name(p.get("name", "?"))
            t, c = progs.get(name, (0, 0))
            progs[name] = (t + p.get("run_time_ns", 0), c + p.get("run_cnt", 0))
    return progs


def progs_delta(after, before):
    """{name: (run_time_ns, run_cnt)} that the programs added between two progs_of readings."""
    return {n: (t - before.get(n, (0, 0))[0], c - before.get(n, (0, 0))[1])
            for n, (t, c) in after.items()}


def progs_add(total, delta):
    """Adds one progs_delta to total ({name: (run_time_ns, run_cnt)}, summed over runs)."""
    for n, (t, c) in delta.items():
        t0, c0 = total.get(n, (0, 0))
        total[n] = (t0 + t, c0 + c)
    return total


def print_progs(progs, secs, busy, digits=3):
    """A line a program, the costliest first: ns a run, runs a second over secs, and its share
    of busy (ns of busy CPU over the same time)."""
    width = max([22] + [len(n) for n in progs])
    for n, (t, c) in sorted(progs.items(), key=lambda kv: -kv[1][0]):
        if c > 0:
            print("    %-*s %8.0f ns a run, %8.0f runs a second, %.*f%% of busy CPU"
                  % (width, n, t / c, c / secs, digits, 100 * t / busy if busy else 0))


def busy_ns():
    """CPU time the machine spent not idle, all CPUs, in ns."""
    f = open("/proc/stat").readline().split()[1:]
    v = [int(x) for x in f]
    idle = v[3] + v[4]
    return (sum(v[:8]) - idle) * 1e9 / os.sysconf("SC_CLK_TCK")


def wait_loaded(pid, names, timeout=60):
    """Until process pid holds a program of each name (False if it never does)."""
    end = time.time() + timeout
    while time.time() < end:
        if all(n in progs_of(pid) for n in names):
            return True
        time.sleep(0.5)
    return False

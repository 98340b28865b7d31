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
            name = p.get("name", "?")
            # the kernel keeps 15 characters of a name: bpftrace's begin is "contention_begi"
            name = {"contention_begi": "contention_begin"}.get(name, name)
            t, c = progs.get(name, (0, 0))
            progs[name] = (t + p.get("run_time_ns", 0), c + p.get("run_cnt", 0))
    return progs


def progs_delta(after, before):
    """{name: (run_time_ns, run_cnt)} that the programs added between two progs_of readings."""
    return {n: (t - before.get(n, (0, 0))[0], c - before.get(n, (0, 0))[1])
            for n, (t, c) in after.items()}


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

"""lruscope against bpftrace and 'perf lock record -a' on the same load (peers_bench.sh runs it).
The cost per contention also against the floor (tests/lab/lib/lrs-floor.bpf.c: a timestamp at
begin, the delta at end, nothing else) on the same contentions, attached first in one run and
last in the other (programs on one tracepoint run in the order they were attached, and the first
pays for what the others find warm): each ratio to the floor per order and their geometric mean.

argv: LRUSCOPE_BINARY WORKDIR ROUNDS
"""
import ctypes
import json
import os
import signal
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from lrs_bpfstats import busy_ns, enable_stats, progs_delta, progs_of, wait_loaded  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lab", "lib"))
from spin_bench import both_orders, build_floor  # noqa: E402

BIN, WORK, ROUNDS = sys.argv[1], sys.argv[2], int(sys.argv[3])
PFX = "lrs-test-peers%d-" % os.getpid()

# The peer: wait summed per lock address and one histogram, as a tracer's one-liner would.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "peer-wait.bt")) as f:
    BPFTRACE = f.read()

started = []


def start(cmd, **kw):
    p = subprocess.Popen(cmd, start_new_session=True, **kw)
    started.append(p)
    return p


def stop(p, sig=signal.SIGINT):
    if p.poll() is None:
        os.killpg(p.pid, sig)
    try:
        p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()


def workload(tag, secs, extra=()):
    return start([BIN, "workload", "--layout", "shared", "--readers", "4", "--duration", str(secs),
                  "--size", "256m", "--limit", "96m", "--prefix", PFX + tag + "-"] + list(extra),
                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def writers(secs):
    """Four writers on one file: its inode's rwsem queues them, a wait every kernel traces."""
    f = os.path.join(WORK, "shared-file")
    loop = 'end=$(($(date +%%s) + %d)); while [ $(date +%%s) -lt $end ]; do ' \
           'dd if=/dev/zero of="%s" bs=4k count=20000 conv=notrunc status=none; done' % (secs, f)
    return [start(["sh", "-c", loop]) for _ in range(4)]


def floor_tool(floor):
    """The floor program on the contention tracepoints only; None if it did not attach."""
    p = start([floor["/lrs-floor"], floor["/lrs-floor.bpf.o"], "-"], stdout=subprocess.PIPE,
              stderr=subprocess.DEVNULL, text=True)
    if p.stdout.readline().strip() != "LRS floor attached":
        stop(p)
        return None
    return p


def cost(floor, floor_first):
    """The tools attached to the same contentions (the floor first or last): {tool: ns a
    contention}, printed with each one's share of busy CPU; None if a tool did not load."""
    fd = enable_stats()
    if fd < 0:
        print("cost per contention: BPF run-time stats unavailable (errno %d)" % ctypes.get_errno())
        return None
    hooks = ["contention_begin", "contention_end"]
    tools = {}
    if floor_first:
        tools["floor"] = floor_tool(floor)
    tools["lruscope"] = start([BIN, "report", "-d", "60", "-f", "json", "--stack-every", "16"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ok = wait_loaded(tools["lruscope"].pid, hooks)
    tools["bpftrace"] = start(["bpftrace", "-e", BPFTRACE], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    ok = ok and wait_loaded(tools["bpftrace"].pid, hooks)
    if not floor_first:
        tools["floor"] = floor_tool(floor)
    if not ok or not tools["floor"]:
        print("cost per contention: a tool did not load (%s)"
              % ", ".join("%s %s" % (t, progs_of(p.pid) if p else "none")
                          for t, p in tools.items()))
        for p in tools.values():
            if p:
                stop(p)
        os.close(fd)
        return None
    before = {t: progs_of(p.pid) for t, p in tools.items()}
    b0, t0 = busy_ns(), time.time()
    load = [workload("cost", 8)] + writers(8)
    for p in load:
        p.wait()
    b1, t1 = busy_ns(), time.time()
    after = {t: progs_of(p.pid) for t, p in tools.items()}
    for p in tools.values():
        stop(p)
    os.close(fd)
    print("cost per traced contention, the tools on the same %.1f s of readtwice + 4 writers "
          "on one file, the floor attached %s (busy CPU %.2f s):"
          % (t1 - t0, "first" if floor_first else "last", (b1 - b0) / 1e9))
    res = {}
    for tool in ("lruscope", "bpftrace", "floor"):
        d = progs_delta(after[tool], before[tool])
        end = "floor_tp_end" if tool == "floor" else "contention_end"
        ends = d.get(end, (0, 0))[1]
        hot = sum(d.get(n, (0, 0))[0] for n in (end, end.replace("end", "begin")))
        every = sum(t for t, _ in d.values())
        res[tool] = hot / ends if ends else 0
        print("  %-8s %6.0f ns a contention (begin + end) over %d contentions; all its programs: "
              "%.3f%% of busy CPU"
              % (tool, res[tool], ends, 100 * every / (b1 - b0) if b1 > b0 else 0))
    return res


def costs(floor):
    """Both orders of the floor, then the ratios: to bpftrace, and to the floor (each order's,
    and their geometric mean, in which what a position adds cancels)."""
    runs = [r for r in (cost(floor, True), cost(floor, False)) if r]
    if len(runs) < 2:
        print("  no ratios: a run of the tools did not load (see above)")
        return
    missing = sorted({t for r in runs for t in ("bpftrace", "floor") if not r[t]})
    if missing:
        print("  no ratios: %s counted no contention in a run (its programs ran on none)"
              % " and ".join(missing))
        return
    to_bt = [r["lruscope"] / r["bpftrace"] for r in runs]
    to_floor = [r["lruscope"] / r["floor"] for r in runs]
    print("  lruscope over bpftrace, ns a contention: %.2f and %.2f (budget: 450 ns a contention, "
          "1.2%% of busy CPU)" % tuple(to_bt))
    print("  lruscope over the floor: %.2f with the floor first, %.2f last, geometric mean %.2f "
          "(budget 1.4)" % (to_floor[0], to_floor[1], both_orders(*to_floor)))


def throughput():
    """readtwice MB/s with each tool over none, rounds in rotating order."""
    modes = ["none", "lruscope", "perf lock", "bpftrace"]
    mbps = {m: [] for m in modes}
    for r in range(ROUNDS):
        order = modes[r % len(modes):] + modes[:r % len(modes)]
        for m in order:
            tool = None
            if m == "lruscope":
                tool = start([BIN, "report", "-d", "60", "-f", "json"], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
                wait_loaded(tool.pid, ["contention_end"])
            elif m == "perf lock":
                tool = start(["perf", "lock", "record", "-a", "-o", os.path.join(WORK, "perf.data"),
                              "--", "sleep", "60"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                time.sleep(3)
            elif m == "bpftrace":
                tool = start(["bpftrace", "-e", BPFTRACE], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
                wait_loaded(tool.pid, ["contention_end"])
            w = workload("t%d" % r, 6)
            out, _ = w.communicate()
            if tool:
                stop(tool)
            try:
                last = [line for line in out.splitlines() if line.startswith("{")][-1]
                mbps[m].append(json.loads(last)["mb_per_s"])
            except (IndexError, ValueError, KeyError):
                pass
    none = mbps["none"]
    if not none:
        print("throughput: the load reported nothing")
        return
    print("readtwice (4 readers, 4 KiB reads, 96 MiB limit), %d rounds in rotating order, "
          "MB/s over none:" % ROUNDS)
    for m in modes[1:]:
        ratios = sorted(b / a for a, b in zip(none, mbps[m]) if a)
        if ratios:
            print("  %-9s median %.3f, spread %.3f-%.3f (budget for lruscope: >= 0.98)"
                  % (m, statistics.median(ratios), ratios[0], ratios[-1]))
    print("  none      median %.0f MB/s, spread %.0f-%.0f"
          % (statistics.median(none), min(none), max(none)))


try:
    try:
        floor = build_floor(WORK)
    except subprocess.CalledProcessError as e:
        floor = None
        print("cost per traced contention: not measured, building the floor program failed "
              "(%s exited %d; is clang's BPF target and libbpf-dev installed? make deps)"
              % (os.path.basename(e.cmd[0]), e.returncode))
    if floor:
        costs(floor)
    throughput()
finally:
    for p in started:
        if p.poll() is None:
            stop(p, signal.SIGTERM)

"""What --holders costs on the readtwice load (holders_bench.sh runs it): the load's MB/s
with `report` and with `report --holders`, each round in the other order; and, from the
kernel's run-time accounting, what each of the report's BPF programs costs, sched_switch
(the one --holders adds on every context switch) included.

argv: LRUSCOPE_BINARY ROUNDS SECS
"""
import json
import os
import signal
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from lrs_bpfstats import (busy_ns, enable_stats, print_progs, progs_add, progs_delta,  # noqa: E402
                          progs_of, wait_loaded)

BIN, ROUNDS, SECS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
PFX = "lrs-test-hb%d-" % os.getpid()
MODES = ("off", "on")


def ctxt():
    """Context switches since boot, all CPUs."""
    for line in open("/proc/stat"):
        if line.startswith("ctxt "):
            return int(line.split()[1])
    return 0


def one(mode, tag):
    """One run: the report attached (with --holders when on), then the load. Returns the
    load's MB/s, the report's programs' (run time, runs) over the load, the busy CPU and the
    context switches in that time; None where the report or the load failed."""
    cmd = [BIN, "report", "-d", str(SECS + 60), "-f", "json"]
    cmd += ["--holders"] if mode == "on" else []
    rep = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    try:
        hooks = ["contention_end"] + (["holders_sched_switch"] if mode == "on" else [])
        if not wait_loaded(rep.pid, hooks):
            return None
        before, b0, c0 = progs_of(rep.pid), busy_ns(), ctxt()
        out = subprocess.run([BIN, "workload", "--layout", "shared", "--readers", "4",
                              "--duration", str(SECS), "--size", "512m", "--limit", "48m",
                              "--cpu-shares", "8192", "--prefix", PFX + tag + "-"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        progs = progs_delta(progs_of(rep.pid), before)
        busy, switches = busy_ns() - b0, ctxt() - c0
        last = [line for line in out.splitlines() if line.startswith("{")]
        if not last:
            return None
        return json.loads(last[-1])["mb_per_s"], progs, busy, switches
    finally:
        if rep.poll() is None:
            os.killpg(rep.pid, signal.SIGINT)
        try:
            rep.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(rep.pid, signal.SIGKILL)
            rep.wait()


def main():
    fd = enable_stats()
    runs = {m: [] for m in MODES}
    pairs = []
    try:
        for r in range(ROUNDS):
            order = MODES if r % 2 == 0 else MODES[::-1]
            got = {m: one(m, "r%d%s" % (r, m)) for m in order}
            for m in MODES:
                if got[m]:
                    runs[m].append(got[m])
            if got["off"] and got["on"] and got["off"][0]:
                pairs.append(got["on"][0] / got["off"][0])
    finally:
        if fd >= 0:
            os.close(fd)
    if not runs["off"] or not runs["on"]:
        print("holders: a report or the load failed (%d and %d runs)"
              % (len(runs["off"]), len(runs["on"])))
        return 1
    print("readtwice (4 readers, 48 MiB limit, %d s), report attached without and with --holders, "
          "%d rounds, the order alternating:" % (SECS, ROUNDS))
    for m in MODES:
        mbs = [x[0] for x in runs[m]]
        print("  holders %-3s median %.1f MB/s, range %.1f-%.1f (%d runs)"
              % (m, statistics.median(mbs), min(mbs), max(mbs), len(mbs)))
    pairs.sort()
    print("  throughput on/off: median of the rounds' ratios %.3f, range %.3f-%.3f (budget >= 0.98)"
          % (statistics.median(pairs), pairs[0], pairs[-1]))
    if fd < 0:
        print("  BPF run time: the kernel's run-time stats are unavailable")
        return 0
    # what each program cost, summed over a mode's runs: ns a run, runs a second, share of busy CPU
    for m in MODES:
        busy = sum(x[2] for x in runs[m])
        secs = SECS * len(runs[m])
        progs = {}
        for x in runs[m]:
            progs_add(progs, x[1])
        total = sum(t for t, _ in progs.values())
        print("  holders %-3s all programs %.3f%% of busy CPU; %.0f context switches a second"
              % (m, 100 * total / busy if busy else 0, sum(x[3] for x in runs[m]) / secs))
        print_progs(progs, secs, busy)
    return 0


sys.exit(main())

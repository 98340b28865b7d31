#!/usr/bin/python3
"""lab-bench, throughput: readtwice MB/s with lruscope (`report`, `--holders`,
`--holders-exact`), with `perf lock record -a` and with a bpftrace one-liner, each over none,
in the 6.1 lab guest whose spinlock waits the kernel traces (lab.CONTENDED: native queued
spinlocks), for hosts that trace none. Rounds rotate the order of the modes
(tests/lab/lib/guest-throughput.sh); each tool's figure is the median of its rounds' ratios
to the same round's none, printed with their range: the spread beside the effect. TCG runs
the guest tens of times slower than a host, and the tools' BPF programs with it, so the
ratios are the guest's, not a host's. A measurement, not a test: plain lines on stdout."""

import os
import re
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import labtest  # noqa: E402
sys.path.insert(0, os.path.join(lab.ROOT, "tests", "lib"))
from lrs_bpfstats import full_name, print_progs, progs_add, progs_delta  # noqa: E402

MODES = ["none", "lruscope", "holders", "exact", "perf", "bpftrace"]
LABEL = {"lruscope": "lruscope", "holders": "lruscope --holders",
         "exact": "lruscope --holders-exact", "perf": "perf lock record -a", "bpftrace": "bpftrace"}
BUDGET = {"lruscope": 0.98, "holders": 0.95}


def tools():
    """{guest path: host path} for perf, bpftrace and bpftool with their libraries."""
    files = {}
    for path in ("/usr/bin/perf", "/usr/bin/bpftrace", "/usr/sbin/bpftool"):
        name = os.path.basename(path)
        files.update(lab.binary_files(os.path.realpath(shutil.which(name)), path))
    files["/peer-wait.bt"] = os.path.join(lab.ROOT, "tests", "bench", "peer-wait.bt")
    return files


def rates(lines):
    """{mode: {round: MB/s}} from the guest's "LRS tp MODE ROUND MBPS" lines."""
    out = {}
    for ln in lines:
        w = ln.split()
        if ln.startswith("LRS tp ") and len(w) == 5 and w[4] != "none":
            out.setdefault(w[2], {})[int(w[3])] = float(w[4])
    return out


def costs(lines):
    """{mode: (busy ns, runs, context switches, the tool's process CPU ns, {program: [run ns,
    runs]})} over its runs' loads, from the guest's "LRS stat", "LRS tool" and "LRS prog"
    readings before and after each load."""
    stat, prog, proc = {}, {}, {}
    for ln in lines:
        w = ln.split()
        if ln.startswith("LRS tool ") and len(w) == 7:
            proc[(w[2], w[3], w[4])] = (int(w[5]) + int(w[6])) * 1e7
        if ln.startswith("LRS stat ") and len(w) >= 15 and w[5] == "cpu":
            v = [int(x) for x in w[6:14]]
            # all but idle and iowait; jiffies at USER_HZ (100)
            busy = (sum(v) - v[3] - v[4]) * 1e7
            stat[(w[2], w[3], w[4])] = (busy, int(w[-1]))
        elif ln.startswith("LRS prog "):
            m = re.search(r" name (\S+) .*run_time_ns (\d+) run_cnt (\d+)", ln)
            if m and len(w) > 4:
                name = full_name(m.group(1))
                prog[(w[2], w[3], w[4], name)] = (int(m.group(2)), int(m.group(3)))
    out = {}
    for (mode, rnd, when), (busy, ctxt) in stat.items():
        if when != "before" or (mode, rnd, "after") not in stat:
            continue
        busy1, ctxt1 = stat[(mode, rnd, "after")]
        b, n, c, cpu, progs = out.get(mode, (0, 0, 0, 0, {}))
        cpu += proc.get((mode, rnd, "after"), 0) - proc.get((mode, rnd, "before"), 0)
        reading = {w: {name: v for (pm, pr, pw, name), v in prog.items() if (pm, pr, pw) ==
                       (mode, rnd, w)} for w in ("before", "after")}
        progs_add(progs, progs_delta(reading["after"], reading["before"]))
        out[mode] = (b + busy1 - busy, n + 1, c + ctxt1 - ctxt, cpu, progs)
    return out


def print_costs(cost, secs):
    """Each tool's BPF programs: run time a run, runs a second, share of the guest's busy CPU."""
    print("BPF run time in the lab guest over the same loads (the kernel's run-time stats; "
          "TCG's figures, to read against each other):")
    for m in MODES:
        if m not in cost:
            continue
        busy, runs, ctxt, cpu, progs = cost[m]
        total = sum(t for t, _ in progs.values())
        print("  %-24s context switches %.0f a second%s%s" % (
            LABEL.get(m, m), ctxt / (runs * secs),
            "; its process %.2f%% of busy CPU" % (100 * cpu / busy) if m != "none" and busy else "",
            "; all its programs %.2f%%" % (100 * total / busy) if progs and busy else ""))
        print_progs(progs, runs * secs, busy, digits=2)


def report(mbps, rounds):
    none = mbps.get("none", {})
    if not none:
        print("throughput: the load reported nothing with no tool attached")
        return
    print("throughput in the lab guest (readtwice, 4 readers in one memcg, 6 vCPUs under TCG), "
          "%d rounds in rotating order, MB/s over none:" % rounds)
    for m in MODES[1:]:
        ratios = sorted(mbps.get(m, {})[r] / none[r] for r in none
                        if r in mbps.get(m, {}) and none[r])
        if not ratios:
            print("  %-24s no figure" % LABEL[m])
            continue
        budget = " (budget >= %.2f)" % BUDGET[m] if m in BUDGET else ""
        print("  %-24s median %.3f, range %.3f-%.3f%s" % (
            LABEL[m], statistics.median(ratios), ratios[0], ratios[-1], budget))
    vals = sorted(none.values())
    print("  %-24s median %.1f MB/s, range %.1f-%.1f" % (
        "none", statistics.median(vals), vals[0], vals[-1]))


def main():
    if not lab.bench_ready("throughput-bench", ["perf", "bpftrace"]):
        return 0
    rounds = int(os.environ.get("LRS_TP_ROUNDS", "3"))
    secs = int(os.environ.get("LRS_TP_SECS", "10"))
    work = tempfile.mkdtemp(prefix="lrs-lab-tp.")
    try:
        lines, _ = lab.run_lruscope_guest(
            lab.kernel_dir(), work, os.path.join(lab.HERE, "guest-throughput.sh"), "LRS-TP-DONE",
            labtest.binary(),
            append="lrs_rounds=%d lrs_secs=%d lrs_modes=%s" % (rounds, secs, ",".join(MODES)),
            extra=tools(), timeout=600 + rounds * len(MODES) * (secs + 120), disk="512M",
            machine=dict(lab.CONTENDED, mem_mb=2048))
        for ln in lines:
            if ln.startswith(("LRS warn", "LRS kernel")):
                print("# %s" % ln)
        report(rates(lines), rounds)
        print_costs(costs(lines), secs)
    except lab.LabError as e:
        print("throughput-bench: %s" % str(e)[-400:])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

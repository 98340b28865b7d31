#!/usr/bin/python3
"""lab-bench, spin sources: BPF run time per counted wait of the tracepoint and the slowpath
source on the same waits, in one run of the 6.1 guest where both see them (lab.CONTENDED:
native queued spinlocks, waiters queued deep enough for the tracepoint), as a ratio. Both
reports run at once over one readtwice load (tests/lab/lib/guest-spin.sh, compare phase);
each one's figure is its programs' run time (BPF run-time stats) over the waits it counted.
Beside them the floor (lrs-floor.bpf.c: a timestamp at begin, the delta at end, nothing else)
on the same hooks through both windows, and each source's cost over it. One guest's ratios
move by a fifth from boot to boot (how many waits the load makes sets how much the
time-capped stacks weigh per wait): LRS_SPIN_ROUNDS guests (default 4), each figure's median
and range over them. Of the programs on one hook the one that runs first on each wait pays for
what the others then find warm (the same program costs markedly more run first than second;
a tracepoint runs its programs in the order they were attached, an fentry or
fexit trampoline the newest first): the floor is attached first in odd rounds and last in
even ones, the reports in the reverse order, and each ratio to the floor is the geometric
mean of the two orders' medians, in which a factor a position puts on a program cancels. A
measurement, not a test: plain lines on stdout."""

import math
import os
import statistics
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checks as ck  # noqa: E402
import lab  # noqa: E402
from spinlab import compare  # noqa: E402

MULTIARCH = "x86_64-linux-gnu"  # asm/ headers for the BPF target


def build_floor(work):
    """lrs-floor and its BPF object, for the guest: {guest path: host path}."""
    obj, loader = os.path.join(work, "lrs-floor.bpf.o"), os.path.join(work, "lrs-floor")
    subprocess.run(["clang", "-g", "-O2", "-target", "bpf", "-I/usr/include/%s" % MULTIARCH,
                    "-c", os.path.join(lab.HERE, "lrs-floor.bpf.c"), "-o", obj], check=True)
    subprocess.run(["gcc", "-O2", "-Wall", "-o", loader, os.path.join(lab.HERE, "lrs-floor.c"),
                    "-lbpf"], check=True)
    return {"/lrs-floor": loader, "/lrs-floor.bpf.o": obj}


def both_orders(first, last):
    """The geometric mean of a ratio measured with the floor attached first and last: a factor
    the position puts on a program cancels in it."""
    return math.sqrt(first * last)


def print_rounds(rounds):
    """Each figure's median over the rounds, with its range: the spread beside the effect; for
    a ratio to the floor, also each order's median and the geometric mean of the two."""
    for name in ("tracepoint", "slowpath", "floor tracepoint", "floor slowpath",
                 "tracepoint / floor", "slowpath / floor"):
        vals = sorted(r[name] for r in rounds if name in r)
        if not vals:
            continue
        to_floor = name.endswith("/ floor")
        fmt = "%.2f" if to_floor else "%.0f ns"
        print("# contended cost over %d rounds: %s per wait: median %s (%s to %s)" % (
            len(vals), "lruscope " + name if not name.startswith("floor") else name,
            fmt % statistics.median(vals), fmt % vals[0], fmt % vals[-1]))
        if not to_floor:
            continue
        first = [r[name] for r in rounds if name in r and not r["floor last"]]
        last = [r[name] for r in rounds if name in r and r["floor last"]]
        if first and last:
            a, b = statistics.median(first), statistics.median(last)
            print("# contended cost: lruscope %s per wait, floor attached first %.2f (%d rounds), "
                  "last %.2f (%d rounds): both orders %.2f (budget 1.4)"
                  % (name, a, len(first), b, len(last), both_orders(a, b)))


def main():
    if not lab.bench_ready("spin-bench"):
        return 0
    work = tempfile.mkdtemp(prefix="lrs-lab-spinbench.")
    try:
        tap, rounds = ck.Tap(), []
        extra = build_floor(work)
        for r in range(int(os.environ.get("LRS_SPIN_ROUNDS", "4"))):
            costs, rwork = {"floor last": r % 2 == 1}, os.path.join(work, "round%d" % (r + 1))
            os.mkdir(rwork)
            got = compare(tap, lab.kernel_dir(), rwork, "contended-%d" % (r + 1), lab.CONTENDED,
                          "lrs_dur=20 lrs_readers=12" + (" lrs_floor_last=1" if r % 2 else ""),
                          extra=extra, costs=costs)
            if not got:
                return 1
            rounds.append(costs)
        print_rounds(rounds)
        return 1 if tap.failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""lab-bench: walk throughput of the drgn scripts on a lab vmcore.

Boots the lab guest with 1,000 extra (empty) memcgs, dumps it, and prints plain lines:
vmcore load time, memcgs enumerated per second, time to enumerate 1,000 memcgs (budget 1 s),
lruvecs (lock word and counters) per second, folios walked per second. Medians of 5 runs.
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lab  # noqa: E402
import checks as ck  # noqa: E402

sys.path.insert(0, ck.SCRIPTS)


def median_time(fn, n=5):
    ts = []
    out = None
    for _ in range(n):
        t0 = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts), max(ts), out


def main():
    lab.exit_on_signals()
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--memcgs", type=int, default=1000)
    args = p.parse_args()
    missing = lab.missing_tools()
    if missing:
        print("lab-bench: skipped, missing tools: %s" % " ".join(missing))
        return 0
    import drgn
    from lrs.lru import collect
    from lrs.memcg import memcg_tree
    work = tempfile.mkdtemp(prefix="lrs-lab-bench.")
    try:
        kdir = lab.kernel_dir()
        # the guest makes the memcgs before it is ready: more time than the default
        guest, core = lab.boot_and_dump(kdir, work, append="lrs_cg=v2 lrs_bench=%d"
                                        % args.memcgs, timeout=900)
        vmlinux = os.path.join(kdir, "vmlinux")

        def load():
            prog = drgn.Program()
            prog.set_core_dump(core)
            prog.load_debug_info([vmlinux], default=False)
            return prog
        t_load, lo, hi, prog = median_time(load, 3)
        print("vmcore load (%d MiB): %.3f s (median of 3, %.3f-%.3f)"
              % (os.path.getsize(core) >> 20, t_load, lo, hi))

        def enum():
            w = []
            return memcg_tree(prog, w)
        t_enum, lo, hi, memcgs = median_time(enum)
        n = len(memcgs)
        print("memcgs enumerated: %d in %.3f s: %.0f memcgs/s (median of 5, %.3f-%.3f)"
              % (n, t_enum, n / t_enum, lo, hi))
        t1000 = t_enum * 1000 / n
        print("enumerate 1000 memcgs: %.3f s (budget 1 s): %s"
              % (t1000, "ok" if t1000 < 1 else "OVER BUDGET"))

        t_lv, lo, hi, res = median_time(lambda: collect(prog, [], 0, walk=False))
        print("lruvecs read (lock word, counters): %d in %.3f s: %.0f lruvecs/s"
              % (len(res[1]), t_lv, len(res[1]) / t_lv))

        t_walk, lo, hi, res = median_time(lambda: collect(prog, [], 1 << 30))
        f = res[2]["folios_walked"]
        print("folios walked: %d in %.3f s (with enumeration): %.0f folios/s"
              % (f, t_walk, f / max(t_walk - t_lv, 1e-9)))
        return 0 if t1000 < 1 else 1
    except lab.LabError as e:
        print("lab-bench: %s" % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

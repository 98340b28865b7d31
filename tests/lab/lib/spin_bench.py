#!/usr/bin/python3
"""lab-bench, spin sources: BPF run time per counted wait of the tracepoint and the slowpath
source on the same waits, in one run of the 6.1 guest where both see them (lab.CONTENDED:
native queued spinlocks, waiters queued deep enough for the tracepoint), as a ratio. Both
reports run at once over one readtwice load (tests/lab/lib/guest-spin.sh, compare phase);
each one's figure is its programs' run time (BPF run-time stats) over the waits it counted.
Beside them the floor (lrs-floor.bpf.c: a timestamp at begin, the delta at end, nothing else)
on the same hooks through both windows, and each source's cost over it. A measurement, not a
test: plain lines on stdout."""

import os
import signal
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


def main():
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, f: sys.exit(128 + s))
    missing = lab.lruscope_tools_missing()
    if missing:
        print("spin-bench: skipped, missing tools: %s" % " ".join(missing))
        return 0
    work = tempfile.mkdtemp(prefix="lrs-lab-spinbench.")
    try:
        tap = ck.Tap()
        got = compare(tap, lab.kernel_dir(), work, "contended", lab.CONTENDED,
                      "lrs_dur=20 lrs_readers=12", extra=build_floor(work))
        return 1 if tap.failed or not got else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

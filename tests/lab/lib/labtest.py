"""The frame of a lab .t that boots lruscope in the guest (holders.t, nodes.t): signals end
it through its finally blocks (the guest is stopped, the work directory removed), a TAP skip
names the tools the host lacks, and the exit status is 1 when a check failed."""

import os
import shutil
import signal
import sys
import tempfile

import checks as ck
import lab


def _on_signal(signum, frame):
    raise SystemExit(128 + signum)


def _run(name, body):
    for s in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        signal.signal(s, _on_signal)
    tap = ck.Tap()
    missing = [t for t in lab.missing_tools() if t != "python3-drgn"]
    if not shutil.which("debugfs"):
        missing.append("debugfs")
    if missing:
        tap.skip(name, "missing tools: %s (make deps installs them)" % " ".join(missing))
        return 0
    work = tempfile.mkdtemp(prefix="lrs-lab-%s." % name.replace(" ", "-"))
    try:
        body(tap, lab.kernel_dir(), work)
        return 1 if tap.failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(name, body):
    """Run body(tap, kernel directory, work directory) and exit with the test's status."""
    try:
        sys.exit(_run(name, body))
    except KeyboardInterrupt:
        sys.exit(130)


def binary():
    return os.environ.get("LRS_BIN", os.path.join(lab.ROOT, "build", "lruscope"))

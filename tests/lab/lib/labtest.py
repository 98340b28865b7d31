"""The frame of a lab .t: lruscope in the guest (main: holders.t, nodes.t, causes.t), or the
drgn scripts on a dump of it (main_vmcore: vmcore-v1.t, vmcore-v2.t, mglru.t, walk.t).
Signals end it through its finally blocks (the guest is stopped, the work directory
removed), a TAP skip names the tools the host lacks, and the exit status is 1 when a check
failed."""

import os
import shutil
import sys
import tempfile

import checks as ck
import lab


def _frame(name, skip_name, missing, body, plan):
    """body(tap, work directory) under the frame: its plan of plan checks first (None: no
    plan), then a skip of each naming the missing tools, or the run; 0, or 1 when a check
    failed."""
    lab.exit_on_signals()
    tap = ck.Tap()
    if plan is not None:
        tap.plan(plan)
    if missing:
        tap.skip_n(plan or 1, skip_name,
                   "missing tools: %s (make deps installs them)" % " ".join(missing))
        return 0
    work = tempfile.mkdtemp(prefix="lrs-lab-%s." % name)
    try:
        body(tap, work)
        return 1 if tap.failed else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _exit(status):
    try:
        sys.exit(status())
    except KeyboardInterrupt:
        sys.exit(130)


def main(name, body, plan=None):
    """lruscope in the guest: body(tap, kernel directory, work directory), after the plan of
    plan checks; exits with the test's status."""
    missing = [t for t in lab.missing_tools() if t != "python3-drgn"]
    if not shutil.which("debugfs"):
        missing.append("debugfs")
    _exit(lambda: _frame(name, name, missing, lambda tap, work: body(tap, lab.kernel_dir(), work),
                         plan))


def main_vmcore(name, append, body, tools=(), plan=None):
    """The drgn scripts on a dump: boot the guest with the kernel command line's append, run
    its workload, dump it; then body(tap, guest, core, vmlinux, work directory), after the
    plan of plan checks. tools: what the test needs beyond the lab's. Exits with the test's
    status."""
    def run(tap, work):
        try:
            kdir = lab.kernel_dir()
            guest, core = lab.boot_and_dump(kdir, work, append=append)
        except lab.LabError as e:
            tap.check("lab boot and dump (%s)" % name, [str(e)])
            return
        body(tap, guest, core, os.path.join(kdir, "vmlinux"), work)

    missing = lab.missing_tools() + [t for t in tools if not shutil.which(t)]
    _exit(lambda: _frame(name, "lab " + name, missing, run, plan))


def binary():
    return os.environ.get("LRS_BIN", os.path.join(lab.ROOT, "build", "lruscope"))

#!/usr/bin/python3
"""Run test files in the lab guest that traces lruvec-lock waits, for a host that traces none.

Usage: live_guest.py RUNDIR TEST...   (TEST: a path from the repository's top)

One boot of the 6.1 guest in lab.CONTENDED (no "hypervisor" CPUID bit, 6 vCPUs taken in turn,
so lruvec waiters queue and are traced) whose root is this host's own programs
(rootfs.image()), with the repository and this build at the host's paths and the kernel's
debug info where drgn finds it (lab.debug_image()): each TEST runs
there as it runs here, the same file, the same checks. For each TEST, in order, its output
goes to RUNDIR/NAME.out as it comes (NAME: the path with / as _) and its exit status to
RUNDIR/NAME.rc when it ends; tests/run-all.sh counts them as it counts a test run here. A
guest that stops early leaves every test it did not end with a failure line and status 1.
What the tests kept for a human under build/tests (screens, frames) is copied to
$LRS_BUILD/tests/lab-guest/. Progress goes to stderr and RUNDIR/guest.log.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import rootfs  # noqa: E402

# A guest runs the workloads, the BPF verifier and the checks many times slower than this
# host: the tests' waits are stretched by this factor (LRS_TIME_SCALE), and their time limits.
TIME_SCALE = int(os.environ.get("LRS_GUEST_TIME_SCALE", "4"))
LIMIT_SCALE = 3
BOOT_SECS = 300


def out_name(test):
    return test.replace("/", "_")


def time_limit(path, default=300):
    with open(path) as f:
        for _, line in zip(range(20), f):
            if line.startswith("# time-limit: "):
                return int(line.split()[2])
    return default


def repo_files(root):
    """The repository's files as git lists them (tracked and new), else every file but build/."""
    r = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                        "--exclude-standard"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if r.returncode == 0:
        return [p for p in r.stdout.decode().split("\0") if p and os.path.isfile(
            os.path.join(root, p))]
    out = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (".git", "build")]
        out += [os.path.relpath(os.path.join(dirpath, n), root) for n in names]
    return out


def repo_image(work, root, binary):
    """The repository and the binary under test (as build/lruscope) on an ext4 image."""
    stage = os.path.join(work, "repo")
    for rel in repo_files(root):
        dst = os.path.join(stage, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(root, rel), dst)
    os.makedirs(os.path.join(stage, "build"), exist_ok=True)
    shutil.copy2(binary, os.path.join(stage, "build", "lruscope"))
    img = os.path.join(work, "repo.img")
    subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "root_owner=0:0", "-d", stage, img, "256M"],
                   check=True, stdout=subprocess.DEVNULL)
    return img


def guest_env(root):
    """The environment of the guest's scripts: the host's paths, the guest's time scale."""
    return {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/root", "TERM": "xterm-256color", "LANG": "C.UTF-8",
            "LRS_ROOT": root, "LRS_BUILD": root + "/build", "LRS_BIN": root + "/build/lruscope",
            "LRS_CACHE": lab.CACHE, "LRS_TIME_SCALE": str(TIME_SCALE), "LRS_LAB_GUEST": "1",
            "CI": os.environ.get("CI", "")}


def test_script(root, tests):
    """The run script's lines that run each test in turn, its lines prefixed for the Demux."""
    lines = ["run() {	# run TEST LIMIT: its lines prefixed, its status and time after it",
             '	echo "LRS-LIVE-BEGIN $1"',
             "	local start=$SECONDS",
             '	setsid timeout -k 20 "$2" "./$1" </dev/null 2>&1 | sed -u "s/^/LRS| /"',
             '	echo "LRS-LIVE-END $1 ${PIPESTATUS[0]} $((SECONDS - start))"',
             "}"]
    for t in tests:
        lines.append("run %s %d" % (t, LIMIT_SCALE * time_limit(os.path.join(root, t))))
    return lines


def work_image(work, root, body, size_gib=4):
    """The guest's /tmp: scratch space for the tests' files, and the run script (/tmp/live/
    run.sh): the environment, then the lines of body, run from the repository's top."""
    d = os.path.join(work, "scratch", "live")
    os.makedirs(d)
    with open(os.path.join(d, "root"), "w") as f:
        f.write(root)
    lines = ["#!/bin/bash", "# written by live_guest.py"]
    lines += ["export %s='%s'" % kv for kv in sorted(guest_env(root).items())]
    lines += ['cd "$LRS_ROOT" || exit 1'] + list(body)
    with open(os.path.join(d, "run.sh"), "w") as f:
        f.write("\n".join(lines) + "\n")
    img = os.path.join(work, "work.img")
    with open(img, "wb") as f:
        f.truncate(size_gib << 30)  # sparse: the tests' 512 MiB files are sparse too
    subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "root_owner=0:0,lazy_itable_init=1", "-d",
                    os.path.join(work, "scratch"), img], check=True, stdout=subprocess.DEVNULL)
    return img


def drives(work, root, binary, kdir, body, debug=True):
    """The live guest's disks: the host's programs, the repository with the binary under test,
    the scratch disk with the run script of body's lines, and (debug) the kernel's debug info.
    [(image, NVMe serial, opened with snapshot=on)]"""
    # the export test's Prometheus, unpacked into the cache here, goes into the root image
    subprocess.run([os.path.join(root, "tests", "lib", "fetch-prometheus.sh"), lab.CACHE],
                   stdout=subprocess.DEVNULL)
    return [(rootfs.image([binary]), "lrsroot", True),
            (repo_image(work, root, binary), "lrsrepo", False),
            (work_image(work, root, body), "lrswork", False)] + (
                [(lab.debug_image(kdir), "lrsdebug", True)] if debug else [])


def boot(kdir, work, drv, timeout, machine=None, mem_mb=2048):
    """A live guest on the disks drv (drives()), its run script started once it is up."""
    return lab.Guest(kdir, work, mem_mb=mem_mb, init=os.path.join(lab.HERE, "guest-live.sh"),
                     drives=drv, timeout=timeout, **(machine or lab.CONTENDED))


def keep_artefacts(repo_img):
    """The guest's build/tests (what the tests kept to look at) into the host's build."""
    dest = os.path.join(os.environ.get("LRS_BUILD", os.path.join(lab.ROOT, "build")), "tests",
                        "lab-guest")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    subprocess.run(["debugfs", "-R", "rdump /build/tests %s" % dest, repo_img],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


class Demux:
    """Splits the guest's console into the tests' .out and .rc files."""

    def __init__(self, rundir, tests):
        self.rundir, self.pending, self.cur = rundir, list(tests), None
        self.log = open(os.path.join(rundir, "guest.log"), "w")

    def line(self, line):
        self.log.write(line + "\n")
        self.log.flush()
        if line.startswith("LRS-LIVE-BEGIN "):
            name = line.split()[1]
            self.cur = (name, open(self.path(name, ".out"), "w"))
            lab.log("in the guest: %s" % name)
        elif line.startswith("LRS| ") and self.cur:
            self.cur[1].write(line[5:] + "\n")
            self.cur[1].flush()
        elif line.startswith("LRS-LIVE-END ") and self.cur:
            _, name, rc, secs = line.split()[:4]
            self.cur[1].write("# (ran in the lab guest, %s s)\n" % secs)
            if rc == "124":
                self.cur[1].write("not ok - %s: ran past its time limit in the lab guest\n" % name)
            self.end(name, rc)

    def path(self, name, ext):
        return os.path.join(self.rundir, out_name(name) + ext)

    def end(self, name, rc):
        if self.cur and self.cur[0] == name:
            self.cur[1].close()
            self.cur = None
        if name in self.pending:
            self.pending.remove(name)
        with open(self.path(name, ".rc.part"), "w") as f:
            f.write(str(rc))
        os.rename(self.path(name, ".rc.part"), self.path(name, ".rc"))

    def fail_rest(self, why):
        for name in list(self.pending):
            mode = "a" if self.cur and self.cur[0] == name else "w"
            if self.cur and self.cur[0] == name:
                self.cur[1].close()
                self.cur = None
            with open(self.path(name, ".out"), mode) as f:
                f.write("not ok - %s: the lab guest stopped before this test ended: %s\n"
                        % (name, why))
            self.end(name, 1)


def main():
    rundir, tests = sys.argv[1], sys.argv[2:]
    # functional checks, the same as on a host with other work: a lab test marked
    # "# guest: shared" may run beside it (lab.Guest.hold_guest_lock)
    os.environ["LRS_GUEST_SHARE"] = "1"
    root = os.environ.get("LRS_ROOT", lab.ROOT)
    binary = os.environ.get("LRS_BIN", os.path.join(root, "build", "lruscope"))
    os.makedirs(rundir, exist_ok=True)
    demux = Demux(rundir, tests)
    # a signal ends it through the finally below: the guest stopped, its work directory gone
    lab.exit_on_signals()
    work = tempfile.mkdtemp(prefix="lrs-lab-live.", dir="/var/tmp")
    g = None
    try:
        missing = lab.lruscope_tools_missing()
        if missing:
            raise lab.LabError("missing tools: %s (make deps installs them)" % " ".join(missing))
        kdir = lab.kernel_dir()
        drv = drives(work, root, binary, kdir, test_script(root, tests))
        budget = BOOT_SECS + sum(LIMIT_SCALE * time_limit(os.path.join(root, t)) + 30
                                 for t in tests)
        t0 = time.time()
        lab.log("booting the live guest for %d tests" % len(tests))
        g = boot(kdir, work, drv, budget)
        g.wait_for("LRS-LIVE-DONE", on_line=demux.line)
        lab.log("the live guest ran %d tests in %.0f s" % (len(tests), time.time() - t0))
        demux.fail_rest("it ended its run first")
    except (lab.LabError, OSError, subprocess.CalledProcessError) as e:
        lab.log("live guest: %s" % e)
        demux.fail_rest(str(e)[-300:])
    finally:
        if g:
            g.stop()
            keep_artefacts(os.path.join(work, "repo.img"))
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    lab.run_test(main)

"""TAP lines from the Python parts of the scripted tests (see tests/PROTOCOL.md).

plan(n) prints the plan line "1..n" before the first check (n counts every check line,
skips included). check() prints one "ok - NAME" or "not ok - NAME: WHY". A check that needs a
traced spinlock wait passes traced=True: where the kernel traces none
(LRS_UNTRACED, set by lrs_spin_probe in tests/lib.sh) it is printed as
skipped with that reason instead of being evaluated.
"""
import os
import subprocess

UNTRACED = os.environ.get("LRS_UNTRACED", "")
# deadlines stretched where tests run slower (the lab guest sets it; tests/lib.sh lrs_secs)
TIME_SCALE = int(os.environ.get("LRS_TIME_SCALE", "1"))


def secs(n):
    """n seconds of waiting, times LRS_TIME_SCALE: for deadlines, never for a load's length."""
    return n * TIME_SCALE


def spin_probe():
    """Decide UNTRACED as the shell tests' lrs_spin_probe does (tests/lib.sh, cached per boot)."""
    global UNTRACED
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib.sh")
    out = subprocess.run(["bash", "-c", '. "$1"; lrs_spin_traced', "_", lib],
                         capture_output=True, text=True)
    UNTRACED = out.stdout.strip() if out.returncode else ""


def plan(n):
    """The plan, before the first check: n check lines follow, skips included."""
    print("1..%d" % n, flush=True)


def skip(name, why):
    print("ok - " + name + " # SKIP " + why)


def skip_each(why, names):
    """A section that cannot run here: one skip line per check it plans."""
    for name in names:
        skip(name, why)


def check(name, ok, why="", traced=False):
    if traced and UNTRACED:
        skip(name, UNTRACED)
        return True
    print(("ok - " if ok else "not ok - ") + name + ("" if ok else ": " + why))
    return bool(ok)

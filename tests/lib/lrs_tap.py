"""TAP lines from the Python parts of the scripted tests (see tests/PROTOCOL.md).

plan(n) prints the plan line "1..n" before the first check (n counts every check line,
skips included). check() prints one "ok - NAME" or "not ok - NAME: WHY". A test that needs
traced lruvec-lock waits carries "# live: traced" (tests/PROTOCOL.md): its checks never skip
for want of them.
"""
import os

# deadlines stretched where tests run slower (the lab guest sets it; tests/lib.sh lrs_secs)
TIME_SCALE = int(os.environ.get("LRS_TIME_SCALE", "1"))


def secs(n):
    """n seconds of waiting, times LRS_TIME_SCALE: for deadlines, never for a load's length."""
    return n * TIME_SCALE


def plan(n):
    """The plan, before the first check: n check lines follow, skips included."""
    print("1..%d" % n, flush=True)


def skip(name, why):
    print("ok - " + name + " # SKIP " + why)


def skip_each(why, names):
    """A section that cannot run here: one skip line per check it plans."""
    for name in names:
        skip(name, why)


def check(name, ok, why=""):
    print(("ok - " if ok else "not ok - ") + name + ("" if ok else ": " + why))
    return bool(ok)

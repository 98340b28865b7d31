"""The spin-source lab guests (tests/lab/lib/guest-spin.sh), shared by tests/lab/spin.t and
tests/lab/lib/spin_bench.py: boot one, read its reports back, and the figures of each."""

import json
import os
import subprocess
import time

import lab
import labtest

LOADED = "/lrs-test-spin-shared"


def keep(name, data):
    d = os.environ.get("LRS_SPIN_KEEP")
    if d:
        with open(os.path.join(d, name), "wb") as f:
            f.write(data or b"")


def boot(tap, kdir, work, label, machine, append, files, timeout=900, extra=None):
    """Boot a guest (extra: more {guest path: host path}), return ({name: bytes}, {name: rc},
    serial lines); None if it did not end."""
    try:
        lines, disk = lab.run_lruscope_guest(kdir, work, os.path.join(lab.HERE, "guest-spin.sh"),
                                             "LRS-SPIN-DONE", labtest.binary(), append=append,
                                             extra=extra, timeout=timeout, machine=machine,
                                             disk="320M")
    except lab.LabError as e:
        tap.check("%s: the guest ran its reports" % label, [str(e)])
        return None
    out = {}
    for name in files:
        out[name] = lab.read_guest_file(disk, "/" + name)
        keep("%s-%s" % (label, name), out[name])
    rc = {ln.split()[2]: ln.split()[3] for ln in lines if ln.startswith("LRS rc ")}
    return out, rc, lines


def load_reports(tap, label, out, rc, names):
    """{name: snapshot} of the JSON reports; one check that each ran and parsed."""
    snaps, probs = {}, []
    for name in names:
        err = (out.get(name + ".err") or b"").decode(errors="replace").strip()[-300:]
        try:
            snaps[name] = json.loads(out.get(name + ".json") or b"")
        except ValueError:
            probs.append("%s: unreadable JSON (rc %s): %s" % (name, rc.get(name), err))
            continue
        if rc.get(name) != "0":
            probs.append("%s: rc %s: %s" % (name, rc.get(name), err))
    tap.check("%s: the reports ran (%s)" % (label, ", ".join(names)), probs)
    return snaps


def lruvec_waits(snap, memcg=None):
    return sum(lv["contended"] for lv in snap.get("lruvecs", [])
               if memcg is None or lv["memcg"] == memcg)


def lruvec_wait_ns(snap, memcg=None):
    return sum(lv["wait_ns"] for lv in snap.get("lruvecs", [])
               if memcg is None or lv["memcg"] == memcg)


def source(snap):
    return snap.get("spin_source") or {}


def compare(tap, kdir, work, label, machine, append, extra=None, costs=None):
    """A compare-phase guest: its (slowpath, tracepoint, auto) reports ({} for one that did not
    run) and the bytes of its tracepoint recording, after one check that the reports ran; None,
    with its 3 other checks skipped, if the guest did not end. extra: more files for the guest
    (lab-bench's floor); costs: a dict that takes the figures print_cost printed."""
    names = ("slowpath", "tracepoint", "auto")
    got = boot(tap, kdir, work, label, machine, "lrs_phase=compare " + append,
               [n + ext for n in names for ext in (".json", ".err")] +
               ["tracepoint.jsonl"], extra=extra)
    if not got:
        tap.skip_n(3, label + " guest", "the guest did not end (above)")
        return None
    snaps = load_reports(tap, label, got[0], got[1], names)
    per = print_cost(label, got[2], snaps)
    if costs is not None:
        costs.update(per)
    return tuple(snaps.get(n, {}) for n in names) + (got[0].get("tracepoint.jsonl"),)


def all_waits(snap):
    return lruvec_waits(snap) + sum(o["contended"] for o in snap.get("other_locks", []))


def sampled_waits(snap):
    """The waits whose stack the report sampled, over every lock it lists."""
    return sum(u["contended"] for lk in snap.get("lruvecs", []) + snap.get("other_locks", [])
               for u in lk.get("stacks", []))


def print_cost(label, lines, snaps, min_waits=1000):
    """BPF run time per counted wait of each source, on the same waits (a figure, not a check;
    only where each source counted min_waits, else the collector's fixed cost dominates):
    {source: ns per wait, "floor SOURCE": the floor's, "SOURCE / floor": their ratio}."""
    cost = {ln.split()[2]: [int(x) for x in ln.split()[3:6]] for ln in lines
            if ln.startswith("LRS cost ") and len(ln.split()) >= 6}
    per = {}
    for name, (ns, runs, misses) in sorted(cost.items()):
        waits = all_waits(snaps.get(name, {}))
        if waits < min_waits:
            continue
        per[name] = ns / waits
        stacks = sampled_waits(snaps.get(name, {}))
        print("# %s cost: %s: %d ns of BPF in %d runs for %d waits: %.0f ns per wait; %d nested "
              "runs skipped by the kernel; stacks sampled on %d waits (1 in %.0f)"
              % (label, name, ns, runs, waits, per[name], misses, stacks,
                 waits / stacks if stacks else 0))
    if per.get("tracepoint") and per.get("slowpath"):
        print("# %s cost: slowpath / tracepoint per wait: %.2f" % (
            label, per["slowpath"] / per["tracepoint"]))
    floors = print_floor(label, lines, per, min_waits)
    return dict(per, **floors)


def print_floor(label, lines, per, min_waits):
    """Where lab-bench ran its floor (lrs-floor: a timestamp at begin, the delta at end) on the
    same hooks: its run time per wait, and each source's over it, which it returns."""
    runs, waits, got = {}, {}, {}
    for ln in lines:
        w = ln.split()
        if ln.startswith("LRS floor prog ") and len(w) == 6:
            src = "tracepoint" if w[3].startswith("floor_tp_") else "slowpath"
            ns, cnt = runs.get(src, (0, 0))
            runs[src] = (ns + int(w[4]), cnt + int(w[5]))
        elif ln.startswith("LRS floor waits ") and len(w) == 6:
            waits[w[3]] = int(w[4])
        elif ln.startswith("lrs-floor:"):
            print("# %s floor: %s" % (label, ln.strip()))
    for src in ("tracepoint", "slowpath"):
        if src not in runs or waits.get(src, 0) < min_waits:
            continue
        ns, cnt = runs[src]
        floor = ns / waits[src]
        print("# %s cost: floor %s: %d ns of BPF in %d runs for %d waits: %.0f ns per wait"
              % (label, src, ns, cnt, waits[src], floor))
        got["floor " + src] = floor
        if per.get(src):
            got[src + " / floor"] = per[src] / floor
            print("# %s cost: lruscope %s / floor per wait: %.2f (budget 1.4)"
                  % (label, src, per[src] / floor))
    return got


def tui_first_frame(binary, recording, work):
    """The TUI's screen (tmux capture-pane, 160 columns) once a replay of recording shows its
    first frame; "" if it never did."""
    sock = "lrs-test-spin-%d" % os.getpid()
    tm = ["tmux", "-L", sock]
    try:
        subprocess.run(tm + ["new-session", "-d", "-x", "160", "-y", "40", "-s", "spin",
                             "%s replay --once --no-color %s; sleep 30" % (binary, recording)],
                       check=True)
        for _ in range(100):
            screen = subprocess.run(tm + ["capture-pane", "-p", "-t", "spin"],
                                    stdout=subprocess.PIPE, text=True).stdout
            if "lruscope" in screen and "memcgs" in screen:
                return screen
            time.sleep(0.1)
        return ""
    finally:
        subprocess.run(tm + ["kill-server"], stderr=subprocess.DEVNULL)
        # kill-server leaves the socket file behind
        path = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), "tmux-%d" % os.getuid(), sock)
        if os.path.exists(path):
            os.unlink(path)

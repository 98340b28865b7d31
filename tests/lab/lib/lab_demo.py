#!/usr/bin/python3
"""make lab-demo: the per-memcg lru_lock patchset (Linux 5.11) on its two real kernels.

Debian bullseye's 5.10 (one pgdat->lru_lock per NUMA node: every memcg's pages on a node take
the same lock) and bookworm's 6.1 (one lock per memcg per node) boot in turn in identical lab
guests (lab.CONTENDED: 6 vCPUs on 2 nodes, no hypervisor CPU flag, single-threaded TCG; the
same memory and disks; the root is this host's own programs, tests/lab/lib/rootfs.py). In
each, the demo's readtwice runs in the same containers (one memcg each, the same limit) under
`lruscope record`, spinlock waits from the slow path on both kernels
(tests/lab/lib/guest-labdemo.sh). The kernels alternate, ROUNDS rounds each; the last round
of each also takes a `lruscope gui --screenshot` picture in the guest. Recordings, workload
summaries and pictures go to OUT (build/lab-demo); the summary to stdout, its last line
"lab-demo: lruvec-lock wait per second, 5.10 (one lock per node) over 6.1 (one per memcg):
R1x; throughput 6.1 over 5.10: R2x" (on one line).

usage: lab_demo.py [--rounds N] [--containers N] [--duration SECS] [--size S] [--limit S]
                   [--out DIR] [--lruscope BIN]
Progress goes to stderr. Exit: 0 ok, 1 a guest or a recording failed, 2 usage.
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lab  # noqa: E402
import live_guest  # noqa: E402

# (label, the release lab.kernel_dir() fetches, what its LRU lock is)
KERNELS = [("5.10", "5.10", "one lock per node"), ("6.1", None, "one per memcg")]
SEED = ("the patchset's own figures: readtwice +80% throughput with 208 dd in 104 containers on "
        "a 2-socket, 26-core HT machine; Intel 0day measured +62%")
LAB_NOTE = ("TCG runs one vCPU at a time: a vCPU stopped while it holds a lock keeps it while "
            "the others reach it, so the waits here come from a preempted holder, and MB/s are "
            "a TCG machine's (compare the kernels, not the numbers, with a real one)")
NODE_LOCK = "(node lock)"
ROUND_SECS = 900  # a guest's boot, its hooks' loading under TCG, the load and the picture


def log(msg):
    print("lab-demo: " + msg, file=sys.stderr, flush=True)


def parse_args(argv):
    p = argparse.ArgumentParser(prog="make lab-demo", description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3, help="rounds per kernel (default 3)")
    p.add_argument("--containers", type=int, default=6,
                   help="containers, one memcg and two readers each (default 6)")
    p.add_argument("--duration", type=int, default=20, help="seconds of load a round (default 20)")
    p.add_argument("--size", default="64m", help="sparse file per container (default 64m)")
    p.add_argument("--limit", default="8m", help="memory limit per container (default 8m)")
    p.add_argument("--out", default=os.path.join(lab.ROOT, "build", "lab-demo"),
                   help="where recordings, pictures and the summary go (default build/lab-demo)")
    p.add_argument("--lruscope", default=os.environ.get("LRS_BIN", os.path.join(
        lab.ROOT, "build", "lruscope")), help="the binary under test (default build/lruscope)")
    a = p.parse_args(argv)
    if a.rounds < 1 or a.containers < 1 or a.duration < 3:
        p.error("--rounds and --containers at least 1, --duration at least 3")
    return a


def run_round(args, label, kdir, picture, work):
    """One guest: the load under record (and the picture). -> {file: bytes or None}, lines."""
    os.makedirs(work)
    body = ["bash %s/tests/lab/lib/guest-labdemo.sh %d %d %s %s %d" % (
        lab.ROOT, args.containers, args.duration, args.size, args.limit, 1 if picture else 0)]
    drv = live_guest.drives(work, lab.ROOT, args.lruscope, kdir, body, debug=False)
    g = live_guest.boot(kdir, work, drv, ROUND_SECS)
    try:
        lines = g.wait_for("LRS-LIVE-DONE")
    finally:
        g.stop()
    img = dict((serial, path) for path, serial, _ in drv)["lrswork"]
    files = {name: lab.read_guest_file(img, "/labdemo/" + name) for name in
             ("rec.jsonl", "window.json", "workload.out", "record.err", "gui.png", "gui.err")}
    return files, lines


def window_of(data):
    """The recorded window: its seconds and the readers' MB/s over it; None when missing."""
    try:
        w = json.loads(data or b"")
        secs = float(w["t1"]) - float(w["t0"])
        return dict(w, secs=secs, mb_per_s=w["bytes"] / secs / 1e6 if secs > 0 else None)
    except (ValueError, KeyError, TypeError):
        return None


def report_of(binary, rec):
    """The whole recording as one snapshot (report -i: last minus first)."""
    r = subprocess.run([binary, "report", "-i", rec, "-f", "json"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise lab.LabError("report -i %s: %s" % (rec, r.stderr.strip()[-300:]))
    return json.loads(r.stdout)


def lock_name(lv):
    return "N%d %s" % (lv["node"], NODE_LOCK) if lv["memcg"] == NODE_LOCK else \
        "%s@N%d" % (lv["memcg"], lv["node"])


def figures(snap, work, containers):
    """One round's figures from its report: rates, the locks the containers waited on with
    their waiters' memcgs, the causes' shares of the sampled wait, MB/s."""
    secs = snap["interval_ns"] / 1e9 or 1
    lvs = snap.get("lruvecs", [])
    locks = []
    for lv in lvs:
        memcgs = sorted({w.get("memcg") for w in lv.get("waiters", []) if w.get("memcg")})
        if lv["wait_ns"] and any(m in containers for m in memcgs):
            locks.append({"lock": lock_name(lv), "wait_s": lv["wait_ns"] / 1e9 / secs,
                          "contended_s": lv["contended"] / secs, "waiters": memcgs})
    locks.sort(key=lambda x: -x["wait_s"])
    causes = {}
    for lv in lvs:
        for c in lv.get("causes", []):
            causes[c["cause"]] = causes.get(c["cause"], 0) + c["wait_ns"]
    total = sum(causes.values()) or 1
    others = sorted(snap.get("other_locks", []), key=lambda o: -o["wait_ns"])[:1]
    return {"other": [{"lock": o.get("name") or "?", "wait_s": o["wait_ns"] / 1e9 / secs}
                      for o in others], "secs": secs,
            "wait_s": sum(lv["wait_ns"] for lv in lvs) / 1e9 / secs,
            "contended_s": sum(lv["contended"] for lv in lvs) / secs, "locks": locks,
            "causes": {k: v / total for k, v in causes.items()},
            "mb_s": work.get("mb_per_s"), "spin_source": (snap.get("spin_source") or {})}


def median_range(values, fmt, unit):
    """The median, and the range where there is more than one round."""
    v = [x for x in values if x is not None]
    if not v:
        return "-"
    if len(v) == 1:
        return (fmt + " %s") % (v[0], unit)
    return (fmt + " %s (" + fmt + " .. " + fmt + ")") % (statistics.median(v), unit, min(v), max(v))


def shown_path(path):
    """path from the working directory when it is under it, else as is."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def causes_text(rounds):
    tot = {}
    for f in rounds:
        for k, v in f["causes"].items():
            tot[k] = tot.get(k, 0) + v / len(rounds)
    return ", ".join("%.0f%% %s" % (v * 100, k) for k, v in
                     sorted(tot.items(), key=lambda kv: -kv[1]) if v >= 0.005) or "no stacks"


def lock_lines(f, containers):
    """The locks of one round, hottest first: the node locks with their waiters, or each
    container's own lruvecs."""
    out = []
    for lk in f["locks"][:2 * len(containers) + 2]:
        mine = [m for m in lk["waiters"] if m in containers]
        rest = [m for m in lk["waiters"] if m not in containers]
        out.append("    %-26s %8.3f s/s %9.0f /s   waiters: %s%s" % (
            lk["lock"], lk["wait_s"], lk["contended_s"],
            "all %d containers" % len(containers) if len(mine) == len(containers) else
            " ".join(m.rsplit("-", 1)[-1] for m in mine),
            (" + " + " ".join(rest)) if rest else ""))
    return out


def summary(args, res, diff_text, pictures):
    containers = ["/lrs-demo-c%d" % i for i in range(args.containers)]
    lines = ["",
             "lab-demo: the per-memcg lru_lock patchset (Linux 5.11) on its two real kernels",
             "  %d containers (one memcg each, limit %s, two readers of a %s sparse file), "
             "6 vCPUs on 2 NUMA nodes, 2 GiB," % (args.containers, args.limit, args.size),
             "  %d round(s) of %d s per kernel, alternating; spinlock waits from the slow path "
             "on both" % (args.rounds, args.duration), ""]
    head = "  %-22s" % ""
    for label, _, what in KERNELS:
        head += " %-40s" % ("%s (%s)" % (label, what))
    lines.append(head)
    rows = [("lruvec-lock wait", "wait_s", "%.3f", "s/s"),
            ("contentions", "contended_s", "%.0f", "/s"),
            ("throughput", "mb_s", "%.1f", "MB/s")]
    for name, key, fmt, unit in rows:
        line = "  %-22s" % name
        for label, _, _ in KERNELS:
            line += " %-40s" % median_range([f[key] for f in res[label]], fmt, unit)
        lines.append(line)
    line = "  %-22s" % "hottest other lock"
    for label, _, _ in KERNELS:
        o = [f["other"][0] for f in res[label][-1:] if f["other"]]
        line += " %-40s" % ("%s %.3f s/s" % (o[0]["lock"][:26], o[0]["wait_s"]) if o else "-")
    lines.append(line)
    line = "  %-22s" % "causes (sampled wait)"
    for label, _, _ in KERNELS:
        line += " %-40s" % causes_text(res[label])[:39]
    lines.append(line)
    for label, _, what in KERNELS:
        last = res[label][-1]
        lines += ["", "  %s, the locks the containers waited on (last round, wait/s, "
                  "contentions/s):" % label] + lock_lines(last, containers)
    lines += ["", "  about the lab: " + LAB_NOTE + ".",
              "  " + SEED + "; the lab's MB/s ratio is on the last line.",
              "  The quick demo on this host's own kernel (one memcg for all against one per "
              "container): sudo lruscope demo.", ""]
    lines += ["  lruscope diff %s %s (the last round of each):" % (
        shown_path(pictures["diff_a"]), shown_path(pictures["diff_b"]))]
    lines += ["    " + ln for ln in diff_text.splitlines()[:40]]
    lines += ["", "  pictures (each with its own colour scale, its legend): %s" % "  ".join(
        shown_path(p) for p in pictures["png"])]
    w = {label: statistics.median([f["wait_s"] for f in res[label]]) for label, _, _ in KERNELS}
    mb = {label: statistics.median([f["mb_s"] or 0 for f in res[label]]) for label, _, _ in KERNELS}
    r1 = w["5.10"] / w["6.1"] if w["6.1"] > 0 else float("inf")
    r2 = mb["6.1"] / mb["5.10"] if mb["5.10"] > 0 else float("inf")
    lines += ["", "lab-demo: lruvec-lock wait per second, 5.10 (one lock per node) over 6.1 "
              "(one per memcg): %.1fx; throughput 6.1 over 5.10: %.2fx" % (r1, r2)]
    return "\n".join(lines)


def main(argv):
    args = parse_args(argv)
    missing = lab.lruscope_tools_missing()
    if missing:
        log("missing tools: %s (make deps installs them)" % " ".join(missing))
        return 1
    if not os.access(args.lruscope, os.X_OK):
        log("%s is missing: run make first" % args.lruscope)
        return 1
    kdirs = {label: lab.kernel_dir(release) for label, release, _ in KERNELS}
    shutil.rmtree(args.out, ignore_errors=True)
    os.makedirs(args.out)
    work = tempfile.mkdtemp(prefix="lrs-lab-demo.", dir="/var/tmp")
    res = {label: [] for label, _, _ in KERNELS}
    pictures = {"png": []}
    t0 = time.time()
    try:
        for r in range(1, args.rounds + 1):
            order = KERNELS if r % 2 else KERNELS[::-1]  # 5.10 first, then 6.1 first
            for label, _, _ in order:
                log("round %d of %d: %s (%.0f s so far)" % (r, args.rounds, label,
                                                            time.time() - t0))
                files, lines = run_round(args, label, kdirs[label], r == args.rounds,
                                         os.path.join(work, "%s-r%d" % (label, r)))
                with open(os.path.join(args.out, "%s-r%d-console.log" % (label, r)), "w") as f:
                    f.write("\n".join(lines) + "\n")
                warn = [ln for ln in lines if ln.startswith(("LRS warn", "LRS kmsg"))]
                for ln in warn:
                    log("%s: %s" % (label, ln))
                rec = os.path.join(args.out, "%s-r%d.jsonl" % (label, r))
                if not files["rec.jsonl"]:
                    raise lab.LabError("%s round %d: no recording; record: %s" % (
                        label, r, (files["record.err"] or b"").decode(errors="replace")[-300:]))
                with open(rec, "wb") as f:
                    f.write(files["rec.jsonl"])
                window = window_of(files["window.json"])
                if window is None:
                    raise lab.LabError("%s round %d: the guest did not finish its window" % (
                        label, r))
                with open(os.path.join(args.out, "%s-r%d-window.json" % (label, r)), "w") as f:
                    json.dump(window, f)
                res[label].append(figures(report_of(args.lruscope, rec), window,
                                          ["/lrs-demo-c%d" % i for i in range(args.containers)]))
                if r == args.rounds:
                    pictures["diff_" + ("a" if label == "5.10" else "b")] = rec
                    if files["gui.png"]:
                        png = os.path.join(args.out, "%s.png" % label)
                        with open(png, "wb") as f:
                            f.write(files["gui.png"])
                        pictures["png"].append(png)
                    else:
                        log("%s: no picture: %s" % (label, (files["gui.err"] or b"").decode(
                            errors="replace")[-300:]))
        d = subprocess.run([args.lruscope, "diff", pictures["diff_a"], pictures["diff_b"]],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if d.returncode:
            d.stdout += "lab-demo: lruscope diff %s\n" % (
                "exit %d" % d.returncode if d.returncode > 0 else
                "killed by %s" % signal.Signals(-d.returncode).name)
        with open(os.path.join(args.out, "diff.txt"), "w") as f:
            f.write(d.stdout)
        with open(os.path.join(args.out, "figures.json"), "w") as f:
            json.dump({"args": vars(args), "rounds": res}, f, indent=1)
        text = summary(args, res, d.stdout, pictures)
        with open(os.path.join(args.out, "summary.txt"), "w") as f:
            f.write(text + "\n")
        log("done in %.0f s; everything is in %s" % (time.time() - t0, args.out))
        print(text, flush=True)
        return 0
    except (lab.LabError, OSError, ValueError, subprocess.CalledProcessError) as e:
        log(str(e))
        return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    lab.run_test(lambda: main(sys.argv[1:]))

#!/usr/bin/python3
# time-limit: 900  (two TCG guests, one per kernel; a first run also fetches the kernels)
# guest: shared  (counts and names, no timing: its guest may run beside the live guest)
"""Lab: `lruscope demo --lab --runs 1 --readers 8 --duration 40 --record DIR`, `make lab-demo`
with one round (tests/lab/lib/lab_demo.py: one round per kernel, four containers, 40 s of load):
the same containers on Debian's 5.10 (one LRU lock per node) and 6.1 (one per memcg), each
under `lruscope record` in its own guest.
- the run ends with both recordings and both pictures in its directory;
- the summary's last line is the one the docs promise, with its two ratios;
- 5.10: the containers waited on node locks ("N0 (node lock)"), every container among their
  waiters, and on no lruvec of their own;
- 6.1: each container waited on a lruvec of its own (its tasks among that lock's waiters),
  and no node lock exists;
- the lruvec-lock wait per second is higher on 5.10 beyond the noise: `lruscope diff` of the
  two recordings calls the drop significant, and the summary's ratio is above 1. Each
  recording holds some 50 intervals: past about 45 on a side a complete separation of the
  two kernels' interval rates is significant even with the variance widened the most diff's
  test widens it for correlated intervals (a 1 s interval's rate drifts within one load);
  with 17 and 27 it can stay at p 0.03 for a 38x drop;
- each picture (`lruscope gui --screenshot` in its guest) shows its rows: 5.10's node lock
  row, coloured; 6.1's row of every container, found by its drawn name."""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import labtest  # noqa: E402
sys.path.insert(0, os.path.join(lab.ROOT, "tests", "integration"))
import gui_png  # noqa: E402

CONTAINERS = 4
LAST = re.compile(r"^lab-demo: lruvec-lock wait per second, 5\.10 \(one lock per node\) over "
                  r"6\.1 \(one per memcg\): ([0-9.]+|inf)x; throughput 6\.1 over 5\.10: "
                  r"([0-9.]+|inf)x$")
NODE_LOCK = re.compile(r"^N\d+ \(node lock\)$")
PLAN = 7


def picture_rows(png, memcgs, coloured):
    """Problems: each memcg's heatmap row found by its drawn name, and with coloured, its cell
    coloured (gui_png's reference frames of made-up recordings)."""
    try:
        w, h, rows = gui_png.read_png(png)
    except (OSError, ValueError) as e:
        return ["%s: %s" % (png, e)]
    probs = []
    frame_of, box_of, cells_end, least = gui_png.PLACES["heatmap"]
    for memcg in memcgs:
        try:
            tpl = gui_png.text_template(memcg, frame_of, box_of)
        except (OSError, ValueError) as e:
            probs.append("%s: no reference text: %s" % (memcg, e))
            continue
        share, x0, y = gui_png.find_text(rows, box_of(w, h, rows), tpl)
        print("# %s: %s's name best at x %d y %d, %.0f%% of it mismatched" % (
            os.path.basename(png), memcg, x0, y, 100 * share))
        if share > 0.1:
            probs.append("%s: no row named %s (best %.0f%% mismatched)" % (
                os.path.basename(png), memcg, 100 * share))
            continue
        n = gui_png.coloured(rows, y, y + tpl[3], x0 + tpl[2], cells_end(w), 1)
        if coloured and n <= least:
            probs.append("%s: %s's row has %d viridis pixels" % (os.path.basename(png), memcg, n))
    return probs


def body(tap, kdir, work):
    out = os.path.join(work, "out")
    containers = ["/lrs-demo-c%d" % i for i in range(CONTAINERS)]
    # the command a user types: the demo's own options mapped onto the lab's
    r = subprocess.run([labtest.binary(), "demo", "--lab", "--runs", "1", "--readers",
                        str(2 * CONTAINERS), "--duration", "40", "--record", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in (r.stderr.strip().splitlines() + r.stdout.splitlines()):
        print("# " + line)
    files = ["5.10-r1.jsonl", "6.1-r1.jsonl", "5.10.png", "6.1.png", "figures.json", "diff.txt"]
    missing = [f for f in files if not os.path.isfile(os.path.join(out, f))]
    tap.check("lab-demo: ran (rc %d), the recordings and pictures of both kernels in its "
              "directory" % r.returncode, ([] if r.returncode == 0 else
                                           ["rc %d: %s" % (r.returncode, r.stderr[-300:])]) +
              ["missing %s" % f for f in missing])
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
    m = LAST.match(last)
    tap.check("lab-demo: the summary's last line gives both ratios", [] if m else
              ["last line %r" % last])
    try:
        res = json.load(open(os.path.join(out, "figures.json")))["rounds"]
    except (OSError, ValueError, KeyError):
        res = {"5.10": [], "6.1": []}

    old = res["5.10"][-1]["locks"] if res.get("5.10") else []
    waiters = {w for lk in old if NODE_LOCK.match(lk["lock"]) for w in lk["waiters"]}
    own = [lk["lock"] for lk in old if not NODE_LOCK.match(lk["lock"])]
    tap.check("lab-demo: 5.10: the containers waited on node locks, every one among their "
              "waiters, on no lruvec of their own",
              [] if old and set(containers) <= waiters and not own else
              ["locks %r" % [(lk["lock"], lk["waiters"]) for lk in old][:6]])

    new = res["6.1"][-1]["locks"] if res.get("6.1") else []
    probs = ["a node lock on 6.1: %s" % lk["lock"] for lk in new if NODE_LOCK.match(lk["lock"])]
    for c in containers:
        if not any(lk["lock"].startswith(c + "@N") and c in lk["waiters"] for lk in new):
            probs.append("%s: no lruvec of its own among the locks it waited on" % c)
    tap.check("lab-demo: 6.1: each container waited on a lruvec of its own, no node lock",
              probs if new else ["no lock waited on: %r" % res.get("6.1")])

    d = subprocess.run([labtest.binary(), "diff", "-f", "json", os.path.join(out, "5.10-r1.jsonl"),
                        os.path.join(out, "6.1-r1.jsonl")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    try:
        total = [t for t in json.loads(d.stdout)["totals"] if t["name"] == "lruvec locks"][0]
        wait = total["wait_ns_per_s"]
    except (ValueError, KeyError, IndexError):
        wait = {}
    print("# diff -f json: exit %d, lruvec locks' wait/s: %r" % (d.returncode, wait))
    for line in d.stderr.splitlines()[:40]:
        print("#   " + line)
    ratio = float(m.group(1)) if m else 0
    tap.check("lab-demo: more lruvec-lock wait per second on 5.10, beyond the noise (diff: "
              "significant, B/A < 1; the summary's ratio %.1fx)" % ratio,
              [] if wait.get("significant") and (wait.get("ratio") or 1) < 1 and ratio > 1 else
              ["diff %r, summary ratio %r" % (wait, ratio)])

    tap.check("lab-demo: 5.10's picture has the node lock's row, coloured",
              picture_rows(os.path.join(out, "5.10.png"), ["(node lock)"], True))
    tap.check("lab-demo: 6.1's picture has a row for every container",
              picture_rows(os.path.join(out, "6.1.png"), containers, False))


if __name__ == "__main__":
    labtest.main("lab_demo", body, plan=PLAN)

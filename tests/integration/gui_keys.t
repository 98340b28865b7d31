#!/usr/bin/python3
"""The GUI's keys, as a person presses them: 'lruscope replay FILE --gui' in a
real window on Xvfb, keys sent with xdotool, what the window shows after each
read back from the X server (tests/lib/lrs_x11.py) with the pixel readers of
gui_mouse.t. The recording is made up (tests/lib/lrs_recording.py): 12 memcgs
on two nodes, row k waiting 1/(k+1) as much as the first, N1 1.5 times N0;
gk-05 contends 20 times as often for its wait (first by count); holders: gk-00
and gk-02 wait on gk-00's lruvec behind holders in gk-01 and gk-03. Checks: p
pauses and resumes (the header's PAUSED), n switches the time heatmap to the
selected memcg's two nodes and back, m turns the cells to LRU pages (the
root's cells, empty of wait, get a colour), s sorts by count (gk-05 first: the
selected gk-00 one row down) and three more back to wait, / filters the rows,
- and + change the interval (played at 1x: the status line says so, "0.5s"
two characters longer than "1s"), c turns the matrix's columns to the holders' memcgs, x
hides the matrix, h shows the help box and Esc closes it, q ends the process
with status 0, Esc with no help open too. No root needed. The frames are kept
in $LRS_BUILD/tests/gui/ to look at. With LRS_KEYS_DRIVEN=FILE, writes into
FILE each keymap action whose check passed (keys.t asks). See
tests/PROTOCOL.md.
"""
import importlib.machinery
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("LRS_ROOT") or os.path.abspath(os.path.join(HERE, "../.."))
BUILD = os.environ.get("LRS_BUILD") or os.path.join(ROOT, "build")
BIN = os.environ.get("LRS_BIN") or os.path.join(BUILD, "lruscope")
sys.path.insert(0, os.path.join(ROOT, "tests/lib"))
sys.path.insert(0, HERE)
import lrs_recording  # noqa: E402
import lrs_x11  # noqa: E402
from lrs_tap import check  # noqa: E402
# the window and its readers (the selected cell's frame, lanes, PAUSED) are gui_mouse.t's
mouse = importlib.machinery.SourceFileLoader("gui_mouse", os.path.join(HERE, "gui_mouse.t")).load_module()

T = "gui keys"
KEEP = os.path.join(BUILD, "tests/gui")
MEMCGS = ["/lrs-gk-%02d" % k for k in range(12)]
BY_COUNT = "/lrs-gk-05"
ZERO = (46, 49, 55)	# a cell of no wait
WHITE, WARN = mouse.WHITE, mouse.WARN
PLAN = 20


def make_recording(path):
    ids = {p: v[0] for p, v in lrs_recording._memcg_tree(MEMCGS).items()}

    def holders(i):
        cell = lambda w, h, ns: {"waiter": w, "waiter_id": ids[w], "owner": MEMCGS[0], "owner_id": ids[MEMCGS[0]],
                                 "holder": h, "holder_id": ids[h], "holds": 5 * i, "hold_ns": 100000 * i,
                                 "imposed_ns": ns * i}
        return {"mode": "estimated", "rows": [],
                "matrix": [cell(MEMCGS[0], MEMCGS[1], 900000), cell(MEMCGS[2], MEMCGS[3], 300000)],
                "counters": {"unknown": 0, "probable": 0, "running": i, "drop_full": 0}}
    # 900 frames at 8x: it plays on (not paused at its end) while the keys are pressed
    lrs_recording.write(path, MEMCGS, 900, lambda i, m, n: 4e6 / (MEMCGS.index(m) + 1) * (1.5 if n else 1),
                        nodes=(0, 1), holders=holders)
    lines = open(path).read().splitlines()
    with open(path, "w") as f:
        f.write(lines[0] + "\n")
        for line in lines[1:]:
            snap = json.loads(line)
            for lv in snap["lruvecs"]:
                if lv["memcg"] == BY_COUNT:
                    lv["contended"] *= 20
            f.write(json.dumps(snap) + "\n")


class Gui(mouse.Gui):
    """gui_mouse.t's Xvfb and window (the replay of work/grid.jsonl at 8x), and keys to press."""

    def key(self, *keys, check=True):
        # the window may be gone before the key's release (q): then xdotool fails, not the key
        self.xdotool_may_fail(check, "key", "--window", str(self.win), *keys)

    def xdotool_may_fail(self, check, *args):
        subprocess.run(["xdotool"] + list(args), env=self.env, capture_output=True, timeout=10, check=check)

    def type(self, text):
        self.xdotool("type", "--window", str(self.win), text)

    def grab(self):
        return Screen(lrs_x11.grab(self.win, self.display))

    def ended(self, secs=10):
        """The replay's exit status once it ended by itself, or None."""
        try:
            return self.procs[-1].wait(secs)
        except subprocess.TimeoutExpired:
            return None

    def running(self):
        return self.procs[-1].poll() is None


class Screen(mouse.Screen):
    """gui_mouse.t's screen, and what the keys here change."""

    def cell(self, geo, row, node):
        """The colour inside the heatmap's cell of row (0: the first shown) on node."""
        x1, y0, w, h = geo
        return self.img.px(x1 - w + node * w + 3, y0 + row * h + 3)

    def warn_right(self):
        """The right end of the status line's warning-coloured text (a message), or None."""
        img, xs = self.img, []
        for y in range(img.h - 24, img.h):
            for x in range(0, img.w * 3 // 4):
                if img.px(x, y) == WARN:
                    xs.append(x)
        return max(xs) if len(xs) > 10 else None

    def matrix_bars(self):
        """The side panel's matrix bars, above its LRU lists: the x of each bar row's first viridis pixel."""
        img, starts, inside = self.img, [], False
        for y in range(240, 330):
            xs = [x for x in range(990, 1180) if mouse.viridis(img.px(x, y))]
            if len(xs) > 30 and not inside:
                starts.append(xs[0])
            inside = len(xs) > 30
        return starts

    def help_box(self):
        """A white outline at least 500 px wide centred in the window (the help), or None."""
        img = self.img
        for y in range(img.h // 6, img.h // 2):
            for a, b in mouse.runs(img, y, 0, img.w, WHITE, 500):
                if abs((a + b) / 2 - img.w / 2) < 20:
                    return (a, y, b - a)
        return None


mouse.Screen = Screen	# what gui_mouse.t's Gui.wait() reads the window into


def main():
    print("1..%d" % PLAN)
    missing = [tool for tool in ("Xvfb", "xdotool") if not shutil.which(tool)]
    if missing:
        print("not ok - %s: %s is missing (make deps)" % (T, missing[0]))
        return 1
    work = tempfile.mkdtemp(prefix="lrs-test-guikeys.")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    guis = []
    try:
        make_recording(os.path.join(work, "grid.jsonl"))
        guis.append(Gui(work))
        run(guis[0], Driven(), lambda: guis.append(Gui(work)) or guis[-1])
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        err = os.path.join(work, "gui.err")
        print("not ok - %s: %s %s" % (T, e, open(err).read()[-300:] if os.path.exists(err) else ""))
    finally:
        for gui in guis:
            gui.close()
        shutil.rmtree(work, ignore_errors=True)
    return 0


class Driven:
    """The keymap actions whose check passed, for keys.t (LRS_KEYS_DRIVEN)."""

    def __init__(self):
        self.path = os.environ.get("LRS_KEYS_DRIVEN")

    def __call__(self, ok, *actions):
        if ok and self.path:
            with open(self.path, "a") as f:
                f.write("".join(a + "\n" for a in actions))


def keep(s, name):
    os.makedirs(KEEP, exist_ok=True)
    s.img.save_png(os.path.join(KEEP, "keys-%s.png" % name))


def run(gui, drove, another):
    # once it has rates: the hottest lruvecs in the time heatmap, gk-00@N1 selected
    s, ok = gui.wait(lambda s: s.sel and s.lanes() > 4 and not s.paused() and len(s.matrix_bars()) == 2, 30)
    keep(s, "start")
    check(T + ": the replay's window plays (no PAUSED), the hottest cell selected, the matrix's 2 rows shown", ok,
          "paused %s, %d frames in the heatmap, %d lanes, matrix bars %s" % (
              s.paused(), s.nr_frames, s.lanes(), s.matrix_bars()))
    if not ok:
        return
    geo = s.sel	# gk-00@N1: the first row, the right node
    at_row = lambda r: lambda s: s.sel and abs(s.sel[1] - (geo[1] + r * geo[3])) <= 2

    # ---- p: paused from here on, so the frames compare -----------------------
    gui.key("p")
    s, ok = gui.wait(lambda s: s.paused())
    check(T + ": p pauses (PAUSED in the header)", ok)
    pause_ok = ok

    # ---- n: the time heatmap's lanes ----------------------------------------
    hot = s.lanes()
    gui.key("n")
    s, ok = gui.wait(lambda s: s.lanes() == 2)
    keep(s, "n")
    check(T + ": n turns the time heatmap from the hottest lruvecs (%d lanes) to the selected memcg's 2 nodes"
          % hot, ok and hot > 4, "%d lanes, then %d" % (hot, s.lanes()))
    gui.key("n")
    s, ok2 = gui.wait(lambda s: s.lanes() == hot)
    check(T + ": n again: the hottest lruvecs (%d lanes)" % hot, ok2, "%d lanes" % s.lanes())
    drove(ok and ok2, "lanes")

    # ---- m: the cells' metric: the root's cells have pages, no wait -----------
    root = len(MEMCGS)	# the last row
    before = s.cell(geo, root, 0)
    gui.key("m")
    s, ok = gui.wait(lambda s: mouse.viridis(s.cell(geo, root, 0)))
    keep(s, "m")
    check(T + ": m shows LRU pages: the root's cell, no wait (%s), is coloured (%s)" % (before, s.cell(geo, root, 0)),
          ok and before == ZERO)
    gui.key("m")
    s, ok2 = gui.wait(lambda s: s.cell(geo, root, 0) == ZERO)
    check(T + ": m again: wait/s, the root's cell empty again", ok2, "colour %s" % (s.cell(geo, root, 0),))
    drove(ok and ok2, "metric")

    # ---- s: the sort ----------------------------------------------------------
    gui.key("s")
    s, ok = gui.wait(at_row(1))
    keep(s, "s")
    check(T + ": s sorts by count: gk-05 first, the selected gk-00@N1 one row down", ok, "frame at %s" % (s.sel,))
    gui.key("s", "s", "s")
    s, ok2 = gui.wait(at_row(0))
    check(T + ": s three more times (max, name, then wait again): gk-00 first again", ok2, "frame at %s" % (s.sel,))
    drove(ok and ok2, "sort")

    # ---- /: the filter --------------------------------------------------------
    gui.key("slash")
    gui.type("gk-1")
    gui.key("Return")
    shown = lambda s: sum(1 for r in range(root + 1) if mouse.viridis(s.cell(geo, r, 0)) or s.cell(geo, r, 0) == ZERO)
    s, ok = gui.wait(lambda s: shown(s) == 2)
    keep(s, "filter")
    check(T + ": / gk-1 Enter leaves 2 rows (gk-10, gk-11)", ok, "%d rows" % shown(s))
    gui.key("slash", "BackSpace", "BackSpace", "BackSpace", "BackSpace", "Return")
    s, ok2 = gui.wait(lambda s: shown(s) == root + 1)
    check(T + ": the filter erased: all %d rows again" % (root + 1), ok2, "%d rows" % shown(s))
    drove(ok and ok2, "filter")

    # ---- - +: the interval, said on the status line --------------------------
    gui.key("bracketleft", "bracketleft", "bracketleft")	# 8x to 1x: the interval is 1 s again
    s = gui.grab()
    quiet = s.warn_right()
    gui.key("minus")
    s, ok = gui.wait(lambda s: s.warn_right() is not None)
    keep(s, "minus")
    shorter = s.warn_right()
    check(T + ": - says so on the status line (interval 0.5s)", ok and quiet is None,
          "message's right end %s, before %s" % (shorter, quiet))
    gui.key("plus")
    s, ok2 = gui.wait(lambda s: s.warn_right() is not None and shorter and s.warn_right() < shorter - 8)
    longer = s.warn_right()
    # "interval 1s" is two characters shorter than "interval 0.5s"
    check(T + ": + too, the interval back at 1s: its message ends 2 characters left (%s, %s)" % (shorter, longer),
          ok2 and shorter - longer < 40)
    drove(ok, "interval-down")
    drove(ok2, "interval-up")

    # ---- c x: the holders matrix ----------------------------------------------
    bars = s.matrix_bars()
    gui.key("c")
    s, ok = gui.wait(lambda s: len(s.matrix_bars()) == 2 and s.matrix_bars()[0] != s.matrix_bars()[1])
    keep(s, "c")
    check(T + ": c: the matrix's columns become the holders' memcgs (the two bars' columns differ: %s, then %s)"
          % (bars, s.matrix_bars()), ok and len(bars) == 2 and bars[0] == bars[1])
    gui.key("c")
    s, ok2 = gui.wait(lambda s: s.matrix_bars() == bars)
    drove(ok and ok2, "matrix-columns")
    gui.key("x")
    s, ok = gui.wait(lambda s: not s.matrix_bars())
    keep(s, "x")
    check(T + ": x hides the matrix", ok and ok2 and bars, "bars %s (c again: %s)" % (s.matrix_bars(), ok2))
    gui.key("x")
    s, ok2 = gui.wait(lambda s: s.matrix_bars() == bars)
    check(T + ": x again shows it", ok2 and bars, "bars %s" % (s.matrix_bars(),))
    drove(ok and ok2, "matrix")

    # ---- h Esc: the help --------------------------------------------------------
    gui.key("h")
    s, ok = gui.wait(lambda s: s.help_box())
    keep(s, "help")
    check(T + ": h shows the help box", ok)
    drove(ok, "help")
    gui.key("Escape")
    s, esc_ok = gui.wait(lambda s: not s.help_box())
    esc_ok = esc_ok and gui.running()
    check(T + ": Esc closes the help, the window stays", esc_ok)

    # ---- p: resume ---------------------------------------------------------------
    gui.key("p")
    s, ok = gui.wait(lambda s: not s.paused())
    check(T + ": p again resumes (no PAUSED)", ok)
    drove(ok and pause_ok, "pause")

    # ---- q; Esc with no help ------------------------------------------------------
    gui.key("q", check=False)
    status = gui.ended()
    check(T + ": q ends the process with status 0", status == 0, "status %s" % status)
    drove(status == 0, "quit")
    gui = another()
    gui.wait(lambda s: s.sel, 30)
    gui.key("Escape", check=False)
    status2 = gui.ended()
    check(T + ": Esc with no help open ends it too, status 0", status2 == 0, "status %s" % status2)
    drove(esc_ok and status2 == 0, "escape")


if __name__ == "__main__":
    sys.exit(main())

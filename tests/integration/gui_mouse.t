#!/usr/bin/python3
"""The GUI's mouse, as a person uses it: 'lruscope replay FILE --gui' in a
real window on Xvfb, driven by xdotool, and what changed on screen read back
from the X server (tests/lib/lrs_x11.py). The recording is made up
(tests/lib/lrs_recording.py): 40 memcgs on two nodes, row k waiting 1/(k+1)
as much as the first, N1 1.5 times N0, so the heatmap's order and its
hottest cell are known. Checks: a click selects the cell under it (the white
frame moves there), a double click selects and turns the time heatmap into
that memcg's two nodes, the wheel moves the selection three rows a notch and
scrolls the rows, hovering shows a tooltip by the pointer (wider for a longer
name) that goes when the pointer leaves the heatmap. No root needed. The
frames are kept in $LRS_BUILD/tests/gui/ to look at. See tests/PROTOCOL.md.
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.environ.get("LRS_ROOT") or os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))
BUILD = os.environ.get("LRS_BUILD") or os.path.join(ROOT, "build")
BIN = os.environ.get("LRS_BIN") or os.path.join(BUILD, "lruscope")
sys.path.insert(0, os.path.join(ROOT, "tests/lib"))
sys.path.insert(0, os.path.join(ROOT, "tests/integration"))
import gui_png  # noqa: E402  (its viridis)
import lrs_recording  # noqa: E402
import lrs_x11  # noqa: E402
from lrs_tap import check, plan  # noqa: E402

T = "gui mouse"
WHITE, FAINT, WARN, PANEL, BG = (255, 255, 255), (138, 143, 152), (255, 170, 60), (32, 35, 40), (24, 26, 30)
KEEP = os.path.join(BUILD, "tests/gui")
MEMCGS = ["/lrs-m-%02d" % k for k in range(40)]
LONG = 7	# this row's name is long: its tooltip is wider
MEMCGS[LONG] = "/lrs-m-07-a-memcg-whose-name-is-long-enough-to-widen-its-tooltip"

_viridis = {}


def viridis(c):
    if c not in _viridis:
        _viridis[c] = gui_png.on_viridis(c) is not None and c not in (BG, PANEL)
    return _viridis[c]


def runs(img, y, x0, x1, colour, least):
    """Spans [a, b) of row y in x0..x1 where every pixel is colour, at least least long."""
    row, one, out = img.rows[y], bytes(colour), []
    pat, i, end = one * least, 3 * x0, 3 * x1
    while True:
        j = row.find(pat, i, end)
        if j < 0:
            return out
        if j % 3:	# not on a pixel's first byte
            i = j + 1
            continue
        k = j + len(pat)
        while k + 3 <= end and row[k:k + 3] == one:
            k += 3
        out.append((j // 3, k // 3))
        i = k


def frames(img, y0, y1):
    """The white frames (rectangles outlined in white, at least 20 x 8) whose top is in y0..y1,
    outermost only, as (x, y, w, h)."""
    found = []
    for y in range(y0, y1):
        for a, b in runs(img, y, 0, img.w * 2 // 3, WHITE, 20):
            for h in range(8, 80):
                if y + h >= img.h:
                    break
                if img.px(a, y + h - 1) == WHITE and img.px(b - 1, y + h - 1) == WHITE and \
                        all(img.px(a, yy) == WHITE and img.px(b - 1, yy) == WHITE for yy in range(y, y + h)) and \
                        all(img.px(x, y + h - 1) == WHITE for x in range(a, b, 3)):
                    while y + h < img.h and all(img.px(x, y + h) == WHITE for x in range(a, b, 3)):
                        h += 1	# a frame 2 px thick: its bottom's outer line
                    if not any(f[0] <= a and f[1] <= y and a + (b - a) <= f[0] + f[2] and y + h <= f[1] + f[3]
                               for f in found):
                        found.append((a, y, b - a, h))
                    break
    return found


def legend_y(img):
    """The top of the legend's colour bar: the row with the longest viridis run."""
    best, at = 0, None
    for y in range(img.h // 8, img.h * 3 // 4, 2):
        run = longest = 0
        for x in range(0, img.w * 2 // 3, 2):
            run = run + 1 if viridis(img.px(x, y)) else 0
            longest = max(longest, run)
        if longest > best:
            best, at = longest, y
    while at and viridis(img.px(img.w // 3, at - 1)):
        at -= 1
    return at


class Screen:
    """What the window shows now: the selected cell's frame, the grid, the time heatmap's lanes."""

    def __init__(self, img):
        self.img = img
        self.legend = legend_y(img) or img.h // 2
        heat = [f for f in frames(img, 0, self.legend) if f[2] > 40]
        self.sel = heat[0] if len(heat) == 1 else None	# (x, y, w, h): the selected cell
        self.nr_frames = len(heat)

    def paused(self):
        """The header's "PAUSED": the replay played its last snapshot."""
        return sum(1 for y in range(0, 20) for x in range(self.img.w * 3 // 4, self.img.w)
                   if self.img.px(x, y) == WARN) > 20

    def lanes(self):
        """Lanes of the time heatmap at its newest column: bands of viridis below the legend."""
        img, top = self.img, self.legend + 40
        bottom = top + (img.h - top) // 2
        x = next((x for x in range(img.w * 2 // 3, 0, -1)
                  if sum(viridis(img.px(x, y)) for y in range(top, bottom)) > 10), None)
        if x is None:
            return 0
        n, inside = 0, False
        for y in range(top, bottom):	# the selected lane's white frame parts it from the next
            on = viridis(img.px(x - 2, y))
            n += on and not inside
            inside = on
        return n

    def tooltip(self):
        """The tooltip's box (x, y, w, h): a faint 1 px outline at least 60 wide, or None."""
        for y in range(self.img.h):
            for a, b in runs(self.img, y, 0, self.img.w, FAINT, 60):
                for h in range(10, 200):
                    if y + h > self.img.h:
                        break
                    if all(self.img.px(x, y + h - 1) == FAINT for x in range(a, b, 4)) and \
                            all(self.img.px(a, yy) == FAINT for yy in range(y, y + h)):
                        return (a, y, b - a, h)
        return None


class Gui:
    def __init__(self, work):
        self.work, self.procs, self.shots = work, [], 0
        r, w = os.pipe()
        self.procs.append(subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x1000x24",
                                            "-nolisten", "tcp"], pass_fds=(w,), stderr=subprocess.DEVNULL))
        os.close(w)
        with os.fdopen(r) as f:
            self.display = ":" + f.readline().strip()
        self.env = dict(os.environ, DISPLAY=self.display)
        self.procs.append(subprocess.Popen([BIN, "replay", os.path.join(work, "grid.jsonl"), "--gui", "--speed", "8"],
                                           env=self.env, stdout=subprocess.DEVNULL,
                                           stderr=open(os.path.join(work, "gui.err"), "w")))
        out = self.xdotool("search", "--sync", "--onlyvisible", "--name", "^lruscope replay$", timeout=30)
        self.win = int(out.split()[0])

    def xdotool(self, *args, timeout=10):
        return subprocess.run(["xdotool"] + list(args), env=self.env, capture_output=True, text=True,
                              timeout=timeout, check=True).stdout

    def mouse(self, x, y, *then):
        self.xdotool("mousemove", "--window", str(self.win), str(x), str(y), *then)

    def away(self):
        """The pointer over the status line: nothing there has a tooltip."""
        self.mouse(1270, 795)

    def wait(self, pred, secs=8):
        """Grab the window until pred(Screen) is true or secs passed; the last Screen and whether."""
        end = time.time() + secs
        while True:
            s = Screen(lrs_x11.grab(self.win, self.display))
            if pred(s) or time.time() > end:
                return s, bool(pred(s))
            time.sleep(0.2)

    def keep(self, s, name):
        os.makedirs(KEEP, exist_ok=True)
        s.img.save_png(os.path.join(KEEP, "mouse-%s.png" % name))

    def close(self):
        for p in reversed(self.procs):
            p.terminate()
        for p in reversed(self.procs):
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def main():
    plan(14)	# run()'s checks: the hover's two rows are two
    for tool in ("Xvfb", "xdotool"):
        if not shutil.which(tool):
            print("not ok - %s: %s is missing (make deps)" % (T, tool))
            return 1
    work = tempfile.mkdtemp(prefix="lrs-test-guimouse.")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    gui = None
    try:
        lrs_recording.write(os.path.join(work, "grid.jsonl"), MEMCGS, 8,
                            lambda i, m, n: 4e6 / (MEMCGS.index(m) + 1) * (1.5 if n == 1 else 1), nodes=(0, 1))
        gui = Gui(work)
        run(gui)
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        err = open(os.path.join(work, "gui.err")).read()[-300:] if os.path.exists(os.path.join(work, "gui.err")) else ""
        print("not ok - %s: %s %s" % (T, e, err))
    finally:
        if gui:
            gui.close()
        shutil.rmtree(work, ignore_errors=True)
    return 0


def run(gui):
    gui.away()
    # played to the end (paused), the hottest cell selected: the first row (most wait), N1
    s, ok = gui.wait(lambda s: s.paused() and s.sel, 30)
    gui.keep(s, "start")
    check(T + ": the replay's window shows one selected cell, framed in white", ok and s.sel,
          "paused %s, %d frames in the heatmap" % (s.paused(), s.nr_frames))
    if not s.sel:
        return
    x1, row0, cell_w, row_h = s.sel
    x0 = x1 - cell_w	# N0's column, left of N1's
    # N0's cell left of it, no cell right of it (the all-nodes column) nor above it (the headings)
    check(T + ": at the start the hottest cell is selected: the first row, N1 (the right column)",
          x0 > 0 and viridis(s.img.px(x0 + 3, row0 + 3)) and not viridis(s.img.px(x1 + cell_w + 3, row0 + 3))
          and not viridis(s.img.px(x0 + 3, row0 - row_h + 3)), "frame at %s" % (s.sel,))
    cell = lambda col, row: (col + cell_w // 4, row0 + row * row_h + row_h // 2)	# inside, left of the digits
    at = lambda col, row: lambda s: s.sel and abs(s.sel[0] - col) <= 2 and abs(s.sel[1] - (row0 + row * row_h)) <= 2
    hot_lanes = s.lanes()

    # a click selects the cell under the pointer
    gui.mouse(*cell(x0, 3), "click", "1")
    gui.away()
    s, ok = gui.wait(at(x0, 3))
    gui.keep(s, "click")
    check(T + ": a click on row 4, N0 frames that cell", ok, "frame at %s, want x %d y %d" % (s.sel, x0, row0 + 3 * row_h))

    # the wheel: three rows a notch, down then up
    gui.mouse(*cell(x0, 3), "click", "5")
    gui.away()
    s, ok = gui.wait(at(x0, 6))
    check(T + ": a wheel notch down moves the selection three rows (row 4 to 7)", ok, "frame at %s" % (s.sel,))
    gui.mouse(*cell(x0, 6), "click", "4")
    gui.away()
    s, ok = gui.wait(at(x0, 3))
    check(T + ": a wheel notch up moves it back (row 7 to 4)", ok, "frame at %s" % (s.sel,))
    # past the last row shown (rows fit in the window: fewer than 40): the rows scroll
    before = s.img.px(x0 + 3, row0 + 3)
    gui.mouse(*cell(x0, 3), "click", "--repeat", "8", "--delay", "60", "5")	# 24 rows down: row 28
    gui.away()
    s, ok = gui.wait(lambda s: s.sel and s.img.px(x0 + 3, row0 + 3) != before)
    gui.keep(s, "wheel")
    in_view = s.sel and s.sel[0] == x0 and row0 <= s.sel[1] < s.legend
    check(T + ": eight notches down scroll the rows (the first row shown is another) and keep the selection in view",
          ok and in_view, "frame at %s, first row's colour %s then %s" % (s.sel, before, s.img.px(x0 + 3, row0 + 3)))
    gui.mouse(*cell(x0, 1), "click", "--repeat", "10", "--delay", "60", "4")	# back to the top
    gui.away()
    s, ok = gui.wait(lambda s: s.img.px(x0 + 3, row0 + 3) == before and at(x0, 0)(s))
    check(T + ": ten notches up: back to the first row, selected", ok, "frame at %s" % (s.sel,))

    # a double click selects, and the time heatmap shows that memcg's two nodes
    check(T + ": before it, the time heatmap shows the hottest lruvecs (%d lanes)" % hot_lanes, hot_lanes > 4,
          "%d lanes" % hot_lanes)
    gui.mouse(*cell(x1, 5), "click", "--repeat", "2", "--delay", "80", "1")
    gui.away()
    s, ok = gui.wait(lambda s: at(x1, 5)(s) and s.lanes() == 2)
    gui.keep(s, "double-click")
    check(T + ": a double click on row 6, N1 frames it and the time heatmap turns to its 2 nodes",
          ok, "frame at %s, %d lanes" % (s.sel, s.lanes()))

    # hover: a tooltip by the pointer, wider for the long name, gone off the heatmap
    s, ok = gui.wait(lambda s: s.tooltip() is None, 3)
    check(T + ": no tooltip while the pointer is over the status line", ok, "box %s" % (s.tooltip(),))
    boxes = {}
    for row in (1, LONG):
        px, py = cell(x0, row)
        gui.mouse(px, py)
        s, ok = gui.wait(lambda s: (lambda b: b and 0 <= b[0] - px <= 40 and 0 <= b[1] - py <= 40)(s.tooltip()))
        boxes[row] = s.tooltip()
        gui.keep(s, "hover-%d" % row)
        check(T + ": hovering row %d, N0 shows a tooltip by the pointer (%s)" % (row + 1, boxes[row]), ok,
              "pointer at %d,%d" % (px, py))
    check(T + ": the tooltip of the row with the long name is wider (%s vs %s)" % (
          boxes[LONG] and boxes[LONG][2], boxes[1] and boxes[1][2]),
          boxes[1] and boxes[LONG] and boxes[LONG][2] > boxes[1][2] + 100)
    gui.away()
    s, ok = gui.wait(lambda s: s.tooltip() is None)
    check(T + ": the tooltip goes when the pointer leaves the heatmap", ok, "box %s" % (s.tooltip(),))


if __name__ == "__main__":
    sys.exit(main())

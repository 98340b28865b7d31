#!/usr/bin/python3
"""The lines of text in the GUI's side panel, read from a --screenshot PNG by colour.

usage: gui_bands.py FILE.png

Prints one word per line of text in the side panel, top to bottom: the colour
its glyphs are drawn in (accent: a section's title, text, faint, warn, or
other), found from pixels alone (ui/gui/gui_colour.h's colours, which
anti-aliasing reaches at the stems). The panel is the run of columns on the
right whose middle row is the panel colour, on the rows whose edge is.
"""
import sys

import gui_png

COLOURS = [("accent", (255, 255, 255)), ("text", (220, 222, 226)), ("warn", (255, 170, 60)),
           ("faint", (138, 143, 152))]


def panel_columns(w, h, rows):
    """The widest run of panel-coloured columns in the right half, on the middle row."""
    y, best, start = h // 2, (0, 0), None
    for x in range(w // 2, w + 1):
        on = x < w and gui_png.px(rows, x, y) == gui_png.PANEL
        if on and start is None:
            start = x
        if not on and start is not None:
            best = max(best, (x - start, start))
            start = None
    return best[1], best[1] + best[0]


def bands(path):
    w, h, rows = gui_png.read_png(path)
    x0, x1 = panel_columns(w, h, rows)
    lines, cur = [], None
    for y in range(h):
        if gui_png.px(rows, x0, y) != gui_png.PANEL:
            continue  # above or below the panel: the header and status lines
        seen = {gui_png.px(rows, x, y) for x in range(x0, x1)} - {gui_png.PANEL}
        if seen:
            named = [name for name, c in COLOURS if c in seen]
            cur = cur or set()
            cur.update(named or ["other"])
        elif cur is not None:
            lines.append(next((n for n, _ in COLOURS if n in cur), "other"))
            cur = None
    return lines


if __name__ == "__main__":
    print("\n".join(bands(sys.argv[1])))

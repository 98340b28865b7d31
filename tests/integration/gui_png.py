#!/usr/bin/python3
"""Check a frame 'lruscope gui --screenshot' wrote: prints TAP lines.

usage: gui_png.py PREFIX FILE.png WIDTH HEIGHT [--contention | --history] [--row MEMCG]
                  [--matrix-row MEMCG]

It prints 4 checks, then 2 more with --contention (the heatmap, the time heatmaps), 1 more
with --history (the time heatmaps), and those of each --row and --matrix-row: a test counts
them in its plan.

Finds the legend's colour bar (a row that runs along viridis), then checks
the header and status line have text, the heatmap above the legend and the
time heatmaps below it have viridis-coloured cells (with --contention: the
frame was taken under load; with --history: only the time heatmaps, for a
frame whose last interval may have been quiet), all from pixels alone.

With --row MEMCG (a memcg one level under the root): the heatmap row whose
name reads MEMCG has a viridis-coloured cell. The name is found by its text:
the same lruscope draws it in two frames of made-up recordings (MEMCG and a
name of the same shape with every letter changed, $LRS_BIN replay --gui
--screenshot); where those differ in the names column is MEMCG's text, which
is then looked for in FILE's names column. With --matrix-row MEMCG: the same for
the holders matrix in the side panel (a frame of --holders), its row's cell.
Every path prints the same lines.
"""
import struct
import os
import subprocess
import sys
import tempfile
import zlib

BG = (24, 26, 30)
PANEL = (32, 35, 40)
VIRIDIS = [(68, 1, 84), (72, 36, 117), (65, 68, 135), (53, 95, 141), (42, 120, 142),
           (33, 145, 140), (34, 168, 132), (68, 191, 112), (122, 209, 81), (189, 223, 38),
           (253, 231, 37)]


def viridis(t):
    x = min(max(t, 0.0), 1.0) * (len(VIRIDIS) - 1)
    i = min(int(x), len(VIRIDIS) - 2)
    f = x - i
    return tuple(round(a + (b - a) * f) for a, b in zip(VIRIDIS[i], VIRIDIS[i + 1]))


LUT = [viridis(i / 511) for i in range(512)]


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if zlib.crc32(kind + body) != struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0]:
            raise ValueError("bad CRC in " + kind.decode())
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            if depth != 8 or ctype != 2:
                raise ValueError("not 8-bit RGB")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * 3, [], bytearray(w * 3)
    for y in range(h):
        at = y * (stride + 1)
        ft, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


def px(rows, x, y):
    r = rows[y]
    return (r[3 * x], r[3 * x + 1], r[3 * x + 2])


def on_viridis(c, tol=4):
    """The position t of c on viridis, or None."""
    best, bt = 1e9, None
    for i, v in enumerate(LUT):
        d = max(abs(c[0] - v[0]), abs(c[1] - v[1]), abs(c[2] - v[2]))
        if d < best:
            best, bt = d, i / 511
    return bt if best <= tol else None


_cache = {}


def viridis_px(c):
    """Whether colour c is a heat colour: on viridis, not a background."""
    if c not in _cache:
        _cache[c] = on_viridis(c) is not None and c not in (BG, PANEL)
    return _cache[c]


def legend_row(w, h, rows):
    """(y, length) of the legend's colour bar: the row with the longest run of pixels along
    viridis, rising."""
    legend_y, legend_run = -1, 0
    cache = {}
    for y in range(h // 8, h * 3 // 4):
        run, best, last_t = 0, 0, -1
        for x in range(0, w * 2 // 3, 2):
            c = px(rows, x, y)
            if c not in cache:
                cache[c] = on_viridis(c)
            t = cache[c]
            if t is not None and t >= last_t - 0.01:
                run, last_t = run + 1, t
            else:
                run, last_t = 0, -1
            best = max(best, run)
        if best > legend_run:
            legend_y, legend_run = y, best
    return legend_y, legend_run


def coloured(rows, y0, y1, x0, x1, step=2):
    return sum(viridis_px(px(rows, x, y)) for y in range(y0, y1, step) for x in range(x0, x1, step))


# ---- a memcg's heatmap row, found by its name ----------------------------------------------
INK = 48  # a text pixel: this far (any channel) from the background; BG and PANEL are close


def inked(c):
    return max(abs(c[0] - BG[0]), abs(c[1] - BG[1]), abs(c[2] - BG[2])) > INK


def other_name(memcg):
    """A path of memcg's shape (same length, same '/'s) with every letter and digit changed."""
    def swap(ch):
        if ch.isdigit():
            return str((int(ch) + 5) % 10)
        if ch.isalpha():
            return chr((ord(ch.lower()) - 97 + 13) % 26 + 97)
        return {"-": "_", "_": "-", ".": ","}.get(ch, ch)
    return "".join(swap(ch) for ch in memcg)


def reference_frame(work, memcgs, wait, holders=None):
    """A frame of a made-up recording (tests/lib/lrs_recording.py) drawn by $LRS_BIN."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    import lrs_recording
    rec, png = os.path.join(work, "ref.jsonl"), os.path.join(work, "ref.png")
    tree = lrs_recording.write(rec, memcgs, frames=4, wait=wait)
    if holders:  # again, now that the memcg ids are known
        lrs_recording.write(rec, memcgs, frames=4, wait=wait, holders=lambda i: holders(tree))
    binary = os.environ.get("LRS_BIN") or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", "..", "build", "lruscope")
    r = subprocess.run([binary, "replay", rec, "--gui", "--screenshot", png],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        raise ValueError("replay --gui --screenshot of %s: exit %d: %s" % (
            " ".join(memcgs), r.returncode, r.stderr.strip()[-200:]))
    return read_png(png)


def text_template(memcg, frame_of, box_of):
    """MEMCG's text as the GUI draws it: where frame_of(work, memcg) and frame_of(work, a name
    of its shape) differ inside box_of(w, h, rows). (x0, y0 in the reference, width, height,
    set of inked (dx, dy))."""
    with tempfile.TemporaryDirectory(prefix="lrs-test-gui-ref.") as work:
        w, h, a = frame_of(work, memcg)
        w2, h2, b = frame_of(work, other_name(memcg))
    if (w, h) != (w2, h2):
        raise ValueError("reference frames of %dx%d and %dx%d" % (w, h, w2, h2))
    bx0, by0, bx1, by1 = box_of(w, h, a)
    diff = [(x, y) for y in range(by0, by1) for x in range(bx0, bx1)
            if a[y][3 * x:3 * x + 3] != b[y][3 * x:3 * x + 3]]
    if not diff:
        raise ValueError("the reference frames do not differ where the name is drawn")
    x0, x1 = min(x for x, _ in diff), max(x for x, _ in diff) + 1
    y0, y1 = min(y for _, y in diff), max(y for _, y in diff) + 1
    ink = {(x - x0, y - y0) for y in range(y0, y1) for x in range(x0, x1) if inked(px(a, x, y))}
    return x0, y0, x1 - x0, y1 - y0, ink


def names_box(w, h, rows):
    """The heatmap's names column: left of the cells, above the legend (the side panel and
    the time heatmaps' lane labels name the memcg too)."""
    return 0, h // 16, w // 3, max(legend_row(w, h, rows)[0] - 4, h // 16)


def side_box(w, h, rows):
    """The side panel (the detail of the selected lruvec, the holders, their matrix)."""
    return w * 3 // 5, h // 16, w, h - h // 40


def find_text(rows, box, tpl):
    """(mismatched share, x, y) of the best place of the template's text inside box."""
    bx0, by0, bx1, by1 = box
    _, _, tw, th, ink = tpl
    bits = [sum(1 << (x - bx0) for x in range(bx0, bx1)
                if inked((r[3 * x], r[3 * x + 1], r[3 * x + 2])))
            for r in rows[by0:by1]]
    want = [sum(1 << dx for dx in range(tw) if (dx, dy) in ink) for dy in range(th)]
    mask, best = (1 << tw) - 1, (2.0, -1, -1)
    for y in range(0, len(bits) - th):
        for x in range(0, bx1 - bx0 - tw):
            bad = 0
            for dy in range(th):
                bad += bin(((bits[y + dy] >> x) & mask) ^ want[dy]).count("1")
                if bad >= best[0] * len(ink):
                    break
            share = bad / max(len(ink), 1)
            if share < best[0]:
                best = (share, bx0 + x, by0 + y)
    return best


def heatmap_frame(work, memcg):
    """memcg alone, contended: its row in the heatmap."""
    return reference_frame(work, [memcg], lambda i, m, n: 5e6)


def matrix_frame(work, memcg):
    """memcg waits on another memcg's lock, and only there: its name is the holders matrix's
    one row (the other memcg, selected, names the column)."""
    owner = "/lrs-ref-owner"

    def holders(tree):
        ids = {p: v[0] for p, v in tree.items()}
        return {"mode": "estimated", "rows": [], "counters": {
            "unknown": 0, "probable": 0, "running": 1, "drop_full": 0}, "matrix": [{
                "waiter": memcg, "waiter_id": ids[memcg], "owner": owner, "owner_id": ids[owner],
                "holder": owner, "holder_id": ids[owner], "holds": 100, "hold_ns": 10 ** 6,
                "imposed_ns": 2 * 10 ** 6}]}
    return reference_frame(work, [owner, memcg], lambda i, m, n: 5e6 if m == owner else 0,
                           holders)


# where a memcg's row is looked for: its reference frame, the box it is drawn in, where its
# cells end, the least viridis pixels they have (a heatmap cell is wider than a matrix cell)
PLACES = {"heatmap": (heatmap_frame, names_box, lambda w: w * 2 // 3, 100),
          "holders matrix": (matrix_frame, side_box, lambda w: w, 50)}


def row_names(place, memcg):
    return ("the %s has a row named %s" % (place, memcg),
            "%s's %s row has a coloured cell" % (memcg, place))


def row_check(check, note, rows, w, h, place, memcg):
    """Two checks: memcg's name is drawn in the place's box; its row has a coloured cell."""
    frame_of, box_of, cells_end, least = PLACES[place]
    named, cell = row_names(place, memcg)
    try:
        tpl = text_template(memcg, frame_of, box_of)
    except (OSError, ValueError, ImportError, zlib.error) as e:
        check(named, False, "no reference text: %s" % e)
        check(cell, False, "its row was not found")
        return
    _, _, tw, th, ink = tpl
    share, x0, y = find_text(rows, box_of(w, h, rows), tpl)
    note("# %s in the %s: its text (%d x %d px, %d inked) best at x %d y %d, %.1f%% of it "
         "mismatched" % (memcg, place, tw, th, len(ink), x0, y, 100 * share))
    found = share <= 0.1
    check("%s (at y %d)" % (named, y), found,
          "best match at y %d has %.0f%% of its text mismatched" % (y, 100 * share))
    # the cells: right of the name, on the text's lines (a cell fills its row but 1 px)
    n = coloured(rows, y, y + th, x0 + tw, cells_end(w), 1) if found else 0
    check("%s (%d viridis pixels)" % (cell, n), n > least, "%d viridis pixels on the row" % n)


def main(argv):
    prefix, path, want_w, want_h = argv[1], argv[2], int(argv[3]), int(argv[4])
    contention = "--contention" in argv
    history = contention or "--history" in argv
    rows_wanted = [(place, argv[argv.index(opt) + 1]) for place, opt in
                   (("heatmap", "--row"), ("holders matrix", "--matrix-row")) if opt in argv]
    out = []

    def check(name, ok, why=""):
        out.append(("ok - " if ok else "not ok - ") + prefix + ": " + name
                   + ("" if ok else ": " + why))

    try:
        w, h, rows = read_png(path)
    except (OSError, ValueError, zlib.error) as e:
        # every line still: a missing frame fails each check it would have passed
        w, h, rows, unread = want_w, want_h, None, "read %s: %s" % (path, e)
    else:
        unread = None
    if unread:
        names = ["frame is %dx%d" % (want_w, want_h), "header has text", "status line has text",
                 "legend colour bar"] + (["heatmap has coloured cells"] if contention else []) + \
            (["time heatmaps have coloured columns"] if history else []) + \
            [n for place, memcg in rows_wanted for n in row_names(place, memcg)]
        for name in names:
            check(name, False, unread)
        print("\n".join(out))
        return 1
    check("frame is %dx%d" % (want_w, want_h), (w, h) == (want_w, want_h), "it is %dx%d" % (w, h))

    def ink(y0, y1, x0, x1, bg):
        return sum(1 for y in range(y0, y1) for x in range(x0, x1, 2) if px(rows, x, y) != bg)

    check("header has text", ink(0, h // 20, 0, w, BG) > 300, "too few pixels drawn")
    check("status line has text", ink(h - h // 40, h, 0, w // 2, BG) > 100, "too few pixels drawn")

    legend_y, legend_run = legend_row(w, h, rows)
    check("legend colour bar", legend_y >= 0 and legend_run * 2 > w // 4,
          "longest viridis run %d px" % (legend_run * 2))
    if contention:
        hm = coloured(rows, h // 16, legend_y - 4, 0, w * 2 // 3) if legend_y >= 0 else 0
        check("heatmap has coloured cells", hm > 30, "%d viridis pixels above the legend" % hm)
    if history:
        tm = (coloured(rows, legend_y + h // 20, h - h // 20, w // 6, w * 2 // 3)
              if legend_y >= 0 else 0)
        check("time heatmaps have coloured columns", tm > 30,
              "%d viridis pixels below the legend" % tm)
    for place, memcg in rows_wanted:
        row_check(check, out.append, rows, w, h, place, memcg)
    print("\n".join(out))
    return 1 if any(o.startswith("not ok") for o in out) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

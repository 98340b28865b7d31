#!/usr/bin/python3
"""Check a frame 'lruscope gui --screenshot' wrote: prints TAP lines.

usage: gui_png.py PREFIX FILE.png WIDTH HEIGHT [--contention | --history]

It prints 4 checks, then 2 more with --contention (the heatmap, the time heatmaps), 1 more
with --history (the time heatmaps): skipped where lruvec waits are not traced. A test counts
them in its plan.

Finds the legend's colour bar (a row that runs along viridis), then checks
the header and status line have text, the heatmap above the legend and the
time heatmaps below it have viridis-coloured cells (with --contention: the
frame was taken under load; with --history: only the time heatmaps, for a
frame whose last interval may have been quiet), all from pixels alone.
"""
import struct
import os
import sys
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
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
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


def main(argv):
    prefix, path, want_w, want_h = argv[1], argv[2], int(argv[3]), int(argv[4])
    contention = "--contention" in argv
    history = contention or "--history" in argv
    out = []

    def check(name, ok, why=""):
        out.append(("ok - " if ok else "not ok - ") + prefix + ": " + name + ("" if ok else ": " + why))

    try:
        w, h, rows = read_png(path)
    except (OSError, ValueError, zlib.error) as e:
        print("not ok - %s: read %s: %s" % (prefix, path, e))
        return 1
    check("frame is %dx%d" % (want_w, want_h), (w, h) == (want_w, want_h), "it is %dx%d" % (w, h))

    ink = lambda y0, y1, x0, x1, bg: sum(1 for y in range(y0, y1) for x in range(x0, x1, 2)
                                         if px(rows, x, y) != bg)
    check("header has text", ink(0, h // 20, 0, w, BG) > 300, "too few pixels drawn")
    check("status line has text", ink(h - h // 40, h, 0, w // 2, BG) > 100, "too few pixels drawn")

    # the legend: the row with the longest run of pixels along viridis, rising
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
    check("legend colour bar", legend_run * 2 > w // 4, "longest viridis run %d px" % (legend_run * 2))
    if legend_y < 0:
        print("\n".join(out))
        return 1

    def coloured(y0, y1, x0, x1):
        n = 0
        for y in range(y0, y1, 2):
            for x in range(x0, x1, 2):
                c = px(rows, x, y)
                if c not in cache:
                    cache[c] = on_viridis(c)
                n += cache[c] is not None and c not in (BG, PANEL)
        return n

    untraced = os.environ.get("LRS_UNTRACED", "")
    if (contention or history) and untraced:
        # cells are coloured by lruvec wait, which this kernel never traces
        if contention:
            out.append("ok - " + prefix + ": heatmap has coloured cells # SKIP " + untraced)
        out.append("ok - " + prefix + ": time heatmaps have coloured columns # SKIP " + untraced)
        contention = history = False
    if contention:
        hm = coloured(h // 16, legend_y - 4, 0, w * 2 // 3)
        check("heatmap has coloured cells", hm > 30, "%d viridis pixels above the legend" % hm)
    if history:
        tm = coloured(legend_y + h // 20, h - h // 20, w // 6, w * 2 // 3)
        check("time heatmaps have coloured columns", tm > 30,
              "%d viridis pixels below the legend" % tm)
    print("\n".join(out))
    return 0 if all(o.startswith("ok") for o in out) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""What an X window shows, read from the X server (Xvfb) with Xlib through
ctypes: no package beyond libX11, which SDL2 brings. For GUI tests that
check what a person would see after the mouse did something.

    img = grab(window_id)            # the window's pixels now
    img.px(x, y) -> (r, g, b)
    img.save_png(path)               # 8-bit RGB, to look at (and gui_png.read_png)
"""
import ctypes
import ctypes.util
import os
import struct
import zlib

_x11 = None


class _XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.POINTER(ctypes.c_ubyte)),
                ("byte_order", ctypes.c_int), ("bitmap_unit", ctypes.c_int),
                ("bitmap_bit_order", ctypes.c_int), ("bitmap_pad", ctypes.c_int),
                ("depth", ctypes.c_int), ("bytes_per_line", ctypes.c_int),
                ("bits_per_pixel", ctypes.c_int), ("red_mask", ctypes.c_ulong),
                ("green_mask", ctypes.c_ulong), ("blue_mask", ctypes.c_ulong)]


class _Attrs(ctypes.Structure):  # XWindowAttributes, up to what is read
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int),
                ("height", ctypes.c_int), ("border_width", ctypes.c_int), ("depth", ctypes.c_int),
                ("visual", ctypes.c_void_p), ("root", ctypes.c_ulong), ("class_", ctypes.c_int),
                ("rest", ctypes.c_char * 256)]


def _lib():
    global _x11
    if _x11 is None:
        _x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        _x11.XOpenDisplay.restype = ctypes.c_void_p
        _x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
        _x11.XGetImage.restype = ctypes.POINTER(_XImage)
        _x11.XGetImage.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                   ctypes.c_uint, ctypes.c_uint, ctypes.c_ulong, ctypes.c_int]
        _x11.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong,
                                              ctypes.POINTER(_Attrs)]
        _x11.XFree.argtypes = [ctypes.c_void_p]
        _x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    return _x11


class Image:
    def __init__(self, w, h, rows):
        self.w, self.h, self.rows = w, h, rows  # rows: bytes, 3 per pixel (RGB)

    def px(self, x, y):
        r = self.rows[y]
        return (r[3 * x], r[3 * x + 1], r[3 * x + 2])

    def save_png(self, path):
        raw = b"".join(b"\0" + r for r in self.rows)

        def chunk(k, d):
            return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))

        header = struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0, 0, 0)
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                    + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


def grab(window, display=None):
    """The pixels of window (an X window id) as the server has them now."""
    x = _lib()
    dpy = x.XOpenDisplay((display or os.environ["DISPLAY"]).encode())
    if not dpy:
        raise OSError("cannot open X display %s" % (display or os.environ.get("DISPLAY")))
    try:
        a = _Attrs()
        if not x.XGetWindowAttributes(dpy, window, ctypes.byref(a)):
            raise OSError("no window 0x%x" % window)
        ALL_PLANES, Z_PIXMAP = 0xffffffff, 2
        img = x.XGetImage(dpy, window, 0, 0, a.width, a.height, ALL_PLANES, Z_PIXMAP)
        if not img:
            raise OSError("XGetImage of window 0x%x failed (not mapped?)" % window)
        im = img.contents
        if im.bits_per_pixel != 32 or im.red_mask != 0xff0000 or im.blue_mask != 0xff:
            raise OSError("unexpected X image: %d bpp, masks %x %x %x" %
                          (im.bits_per_pixel, im.red_mask, im.green_mask, im.blue_mask))
        data = ctypes.string_at(im.data, im.bytes_per_line * im.height)
        rows = []
        for y in range(im.height):
            line = data[y * im.bytes_per_line:y * im.bytes_per_line + 4 * im.width]
            rgb = bytearray(3 * im.width)  # BGRX in memory, little-endian
            rgb[0::3], rgb[1::3], rgb[2::3] = line[2::4], line[1::4], line[0::4]
            rows.append(bytes(rgb))
        w, h = im.width, im.height
        x.XFree(im.data)
        x.XFree(img)
        return Image(w, h, rows)
    finally:
        x.XCloseDisplay(dpy)

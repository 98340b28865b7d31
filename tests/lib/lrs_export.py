"""Helpers of the exporter's tests and bench: start 'lruscope export', scrape it, parse a page."""
import http.client
import os
import re
import selectors
import socket
import subprocess
import time


def free_port():
    """A loopback port nobody listens on now."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def memcg_root():
    """("v2", path) or ("v1", path) of the memory cgroup hierarchy, found as lruscope finds it
    (lrs_cgroup_root__detect in collector/live/cgroup_fs.c is the reference)."""
    v1 = None
    for line in open("/proc/mounts"):
        dev, mnt, fs, opts = line.split()[:4]
        controllers = os.path.join(mnt, "cgroup.controllers")
        if fs == "cgroup2" and "memory" in open(controllers).read().split():
            return "v2", mnt
        if fs == "cgroup" and "memory" in opts.split(","):
            v1 = mnt
    return "v1", v1


def scrape(port, path="/metrics", accept=None, timeout=10):
    """(status, body, content type) of a GET on the loopback port; status 0 when it failed."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Accept": accept} if accept else {})
        r = conn.getresponse()
        return r.status, r.read().decode(), r.getheader("Content-Type", "")
    except (OSError, http.client.HTTPException):
        return 0, "", ""
    finally:
        conn.close()


def scrape_together(port, n, path="/metrics", timeout=30):
    """n GETs of path on the loopback port, all open at once, as a fleet of scrapers looks
    to the server: each connection made and its request sent at once, one after the other,
    before any answer is read; then every answer read to the server's close. A scraper sends
    the moment it connects: a client that waits to send (an event loop resuming 200
    connections in turn on a busy TCG guest can take seconds) is rightly closed by the
    server's idle timeout as a slow one. A list of (status, body, why, times): status 0 and
    the client's error in why when no whole answer came; times has "connected", "sent" and
    "ended", seconds from the start."""
    start = time.time()
    request = ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
               % (path, port)).encode()
    conns = []
    for _ in range(n):
        c = {"times": {}, "raw": b"", "why": ""}
        try:
            c["sock"] = socket.create_connection(("127.0.0.1", port), timeout)
            c["times"]["connected"] = time.time() - start
            c["sock"].sendall(request)
            c["times"]["sent"] = time.time() - start
            c["sock"].setblocking(False)
        except OSError as e:
            c["why"], c["times"]["ended"] = repr(e)[:80], time.time() - start
            if c.get("sock"):
                c["sock"].close()
            c["sock"] = None
        conns.append(c)
    sel = selectors.DefaultSelector()
    for c in conns:
        if c["sock"]:
            sel.register(c["sock"], selectors.EVENT_READ, c)
    deadline = start + timeout
    while sel.get_map() and time.time() < deadline:
        for key, _ in sel.select(max(0.0, deadline - time.time())):
            c = key.data
            try:
                chunk = c["sock"].recv(65536)
            except BlockingIOError:
                continue
            except OSError as e:
                chunk, c["why"] = b"", repr(e)[:80]
            if chunk:
                c["raw"] += chunk
                continue
            sel.unregister(c["sock"])
            c["sock"].close()
            c["times"]["ended"] = time.time() - start
    for key in list(sel.get_map().values()):
        c = key.data
        sel.unregister(c["sock"])
        c["sock"].close()
        c["why"] = "no close from the server in %d s, %d bytes" % (timeout, len(c["raw"]))
        c["times"]["ended"] = time.time() - start
    return [answer(c) for c in conns]


def answer(c):
    """scrape_together's (status, body, why, times) of one connection's raw bytes."""
    if c["why"]:
        return 0, "", c["why"], c["times"]
    head, sep, body = c["raw"].partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1] if head.startswith(b"HTTP/1.") and b" " in head else b""
    length = re.search(rb"^content-length: *(\d+)", head, re.I | re.M)
    if not sep or not status.isdigit():
        return 0, "", "no HTTP answer, %d bytes before the close" % len(c["raw"]), c["times"]
    if length and int(length.group(1)) != len(body):
        return 0, "", "closed after %d of the %s bytes of its body" % (
            len(body), length.group(1).decode()), c["times"]
    try:
        return int(status), body.decode(), "", c["times"]
    except UnicodeDecodeError as e:
        return 0, "", "a body that is not UTF-8: %s" % e, c["times"]


def samples(text):
    """A page's samples: 'name{labels}' -> value."""
    out = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, val = line.rpartition(" ")
        try:
            out[key] = float(val)
        except ValueError:
            pass
    return out


class Exporter:
    """'lruscope export ARGS' started through start() (which tracks it), its stderr in DIR."""

    def __init__(self, binary, args, workdir, start, name="export"):
        self.port = int(args[args.index("--listen") + 1].rsplit(":", 1)[1])
        self.errfile = os.path.join(workdir, name + ".err")
        self.proc = start([binary, "export"] + args, stdout=subprocess.DEVNULL,
                          stderr=open(self.errfile, "w"))

    def get(self, path, accept=None, timeout=10):
        return scrape(self.port, path, accept, timeout)

    def pid(self):
        return self.proc.pid

    def log(self):
        try:
            return open(self.errfile).read()[-400:]
        except OSError:
            return ""

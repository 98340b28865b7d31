"""Helpers of the exporter's tests and bench: start 'lruscope export', scrape it, parse a page."""
import asyncio
import http.client
import os
import re
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
    to the server: one event loop, each request sent the moment its connection is made
    (threads or processes sharing a busy machine's CPUs can sit for seconds between the
    two, which a server rightly takes for a slow client). A list of (status, body, why,
    times): status 0 and the client's error in why when no whole answer came; times has
    "connected", "sent" and "ended", seconds from the start."""
    async def one(start):
        times = {}
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port), timeout)
            times["connected"] = time.time() - start
            writer.write(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                          % (path, port)).encode())
            await writer.drain()
            times["sent"] = time.time() - start
            raw = await asyncio.wait_for(reader.read(), timeout)  # to the server's close
            writer.close()
        except (OSError, asyncio.TimeoutError) as e:
            times["ended"] = time.time() - start
            return 0, "", repr(e)[:80], times
        times["ended"] = time.time() - start
        head, sep, body = raw.partition(b"\r\n\r\n")
        status = head.split(b" ", 2)[1] if head.startswith(b"HTTP/1.") and b" " in head else b""
        length = re.search(rb"^content-length: *(\d+)", head, re.I | re.M)
        if not sep or not status.isdigit():
            return 0, "", "no HTTP answer, %d bytes before the close" % len(raw), times
        if length and int(length.group(1)) != len(body):
            return 0, "", "closed after %d of the %s bytes of its body" % (
                len(body), length.group(1).decode()), times
        return int(status), body.decode(), "", times

    async def all_of_them():
        start = time.time()
        return await asyncio.gather(*(one(start) for _ in range(n)))
    return asyncio.run(all_of_them())


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

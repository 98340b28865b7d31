"""Helpers of the exporter's tests and bench: start 'lruscope export', scrape it, parse a page."""
import http.client
import os
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
    return scrape_why(port, path, accept, timeout)[:3]


def scrape_why(port, path="/metrics", accept=None, timeout=10, times=None):
    """scrape()'s answer and, when the request itself failed, the client's error. A dict given
    as times gets the moments the connection was made and the request sent ("connected",
    "sent", time.time()), so a failure can tell a slow client from a slow server."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.connect()
        if times is not None:
            times["connected"] = time.time()
        conn.request("GET", path, headers={"Accept": accept} if accept else {})
        if times is not None:
            times["sent"] = time.time()
        r = conn.getresponse()
        return r.status, r.read().decode(), r.getheader("Content-Type", ""), ""
    except (OSError, http.client.HTTPException) as e:
        return 0, "", "", repr(e)[:80]
    finally:
        conn.close()


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

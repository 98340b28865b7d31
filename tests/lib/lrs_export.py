"""Helpers of the exporter's tests and bench: start 'lruscope export', scrape it, parse a page."""
import os
import socket
import subprocess
import urllib.request


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


def scrape_why(port, path="/metrics", accept=None, timeout=10):
    """scrape()'s answer and, when the request itself failed, the client's error."""
    req = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path))
    if accept:
        req.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read().decode(), r.headers.get("Content-Type", ""), ""
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(errors="replace"), e.headers.get("Content-Type", ""), ""
    except OSError as e:
        return 0, "", "", repr(e)[:80]


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

#!/usr/bin/python3
# 'lruscope export' against the live kernel and a real Prometheus (Debian's,
# unpacked into the cache): a heavy and a light memcg load, Prometheus
# scraping the exporter on loopback, its HTTP API queried; the exposition
# checked by promtool; counters monotonic, a removed memcg leaving, bad and
# slow and 200 concurrent requests, the textfile never half-written,
# --max-series folding, dropped privileges. Everything started here is
# stopped by PID and removed, also on failure. It needs traced lruvec-lock
# waits: where this host traces none, the runner runs it in the lab guest.
# live: traced
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

ROOT = os.environ.get("LRS_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
from lrs_tap import check, plan, secs  # noqa: E402
from lrs_export import Exporter, free_port, memcg_root, scrape, scrape_together, samples  # noqa: E402

BIN = os.environ.get("LRS_BIN", os.path.join(ROOT, "build", "lruscope"))
CACHE = os.environ.get("LRS_CACHE", "/var/cache/lruscope")
TAG = "lrs-test-exp%d-" % os.getpid()

plan(45)
if os.getuid() != 0:
    print("not ok - export: needs root (run: sudo make check)")
    sys.exit(1)

# on a disk file system: the readers' page cache is then file LRU pages of their memcg
tmp = tempfile.mkdtemp(prefix="lrs-test-export.", dir="/var/tmp")
procs = []          # (Popen) we started, stopped by PID at the end
memcgs = []         # paths we created, removed at the end (children first)
_, CGROOT = memcg_root()


def start(cmd, **kw):
    # a process group of its own: stopping it stops the shell loops' children too
    p = subprocess.Popen(cmd, start_new_session=True, **kw)
    procs.append(p)
    return p


def cleanup():
    for p in reversed(procs):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in reversed(procs):
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    for cg in reversed(memcgs):
        for _ in range(20):
            try:
                os.rmdir(cg)
                break
            except FileNotFoundError:
                break
            except OSError:
                time.sleep(0.25)
    shutil.rmtree(tmp, ignore_errors=True)


signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
signal.signal(signal.SIGINT, lambda *a: sys.exit(130))


def wait_for(what, fn, timeout):
    """fn() until it returns something true, or timeout seconds: returns its last value."""
    end = time.time() + secs(timeout)
    val = fn()
    while not val and time.time() < end:
        time.sleep(0.25)
        val = fn()
    return val


def prom_query(port, q):
    url = "http://127.0.0.1:%d/api/v1/query?%s" % (port, urllib.parse.urlencode({"query": q}))
    with urllib.request.urlopen(url, timeout=10) as r:
        doc = json.load(r)
    return doc["data"]["result"] if doc.get("status") == "success" else []


def make_memcg(name, limit_mb=None):
    """A memcg of the test's own; with limit_mb, a memory limit below what its readers read,
    so that they reclaim all the time and wait on its lruvec locks."""
    path = os.path.join(CGROOT, name)
    os.mkdir(path)
    memcgs.append(path)
    if limit_mb:
        knob = "memory.max" if os.path.exists(os.path.join(path, "memory.max")) else \
            "memory.limit_in_bytes"
        with open(os.path.join(path, knob), "w") as f:
            f.write(str(limit_mb << 20))
    return path


def reader_in(memcg, size_mb, name, readers=1):
    """readers tasks in memcg reading a sparse size_mb file again and again: its page cache is
    charged there, and holes read as zeros (the LRU is busy, not the disk). Returns the
    first reader's process."""
    f = os.path.join(tmp, name)
    with open(f, "wb") as fh:
        fh.truncate(size_mb << 20)
    script = 'echo $$ > "$1/cgroup.procs" && while :; do cat "$2" >/dev/null; sleep 0.2; done'
    return [start(["sh", "-c", script, "_", memcg, f]) for _ in range(readers)][0]


def main():
    prom_dir = subprocess.run([os.path.join(ROOT, "tests", "lib", "fetch-prometheus.sh"), CACHE],
                              capture_output=True, text=True)
    if not check("export: Debian's prometheus and promtool are at hand", prom_dir.returncode == 0,
                 prom_dir.stderr.strip()[-300:]):
        return
    prom_bin = os.path.join(prom_dir.stdout.strip(), "prometheus")
    promtool = os.path.join(prom_dir.stdout.strip(), "promtool")

    # the loads: a heavy memcg (4 readers of 128 MiB in a 32 MiB limit: they reclaim all the
    # time, on its lruvec locks) and a light one (a reader of 4 MiB, room to spare)
    heavy = make_memcg(TAG + "heavy", limit_mb=32)
    light = make_memcg(TAG + "light")
    for i in range(2):
        reader_in(heavy, 64, "heavy%d" % i, readers=2)
    reader_in(light, 4, "light")
    # mutex waits (the pipe's), traced on every kernel: the other-locks family
    start(["sh", "-c", "while :; do head -c 20M /dev/zero | cat >/dev/null; sleep 0.1; done"])

    port = free_port()
    exp = Exporter(BIN, ["--listen", "127.0.0.1:%d" % port, "-i", "1", "-d", "240"], tmp, start)
    ready = wait_for("first page", lambda: exp.get("/metrics")[0] == 200, 40)
    if not check("export: /metrics answers 200 once BPF is loaded", ready, exp.log()):
        return
    pid = exp.pid()
    status = open("/proc/%d/status" % pid).read()
    uid = re.search(r"^Uid:\s+(\d+)", status, re.M).group(1)
    capeff = re.search(r"^CapEff:\s+(\w+)", status, re.M).group(1)
    nnp = re.search(r"^NoNewPrivs:\s+(\d+)", status, re.M).group(1)
    check("export: serves as nobody with CAP_BPF and CAP_PERFMON only, no new privileges",
          uid == "65534" and int(capeff, 16) == (1 << 38 | 1 << 39) and nnp == "1",
          "Uid %s CapEff %s NoNewPrivs %s" % (uid, capeff, nnp))
    listening = subprocess.run(["ss", "-Hltnp"], capture_output=True, text=True).stdout
    ours = [l.split()[3] for l in listening.splitlines() if "pid=%d," % pid in l]
    check("export: listens on loopback only by default", ours == ["127.0.0.1:%d" % port],
          "listening on %s" % ours)

    # the page as Prometheus's own checker sees it
    code, text, ctype = exp.get("/metrics")
    lint = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    check("export: promtool check metrics passes on the page", lint.returncode == 0,
          (lint.stdout + lint.stderr)[-500:])
    check("export: the 0.0.4 text format when the scraper does not ask for OpenMetrics",
          ctype.startswith("text/plain; version=0.0.4") and "# EOF" not in text, ctype)
    code, om, ctype = exp.get("/metrics", accept="application/openmetrics-text;version=1.0.0,text/plain;q=0.5")
    check("export: OpenMetrics when the Accept header asks for it (ends in # EOF, families without _total)",
          ctype.startswith("application/openmetrics-text") and om.endswith("# EOF\n") and
          "# TYPE lruscope_lruvec_lock_wait_seconds counter" in om, ctype + " " + om[-80:])
    labels = re.findall(r'="([^"]*)"', text)
    check("export: no kernel address in any label value",
          not [v for v in labels if re.search(r"0x[0-9a-f]{6,}|ffff[0-9a-f]{12}", v)],
          str([v for v in labels if "0x" in v][:5]))

    # a real Prometheus on loopback scrapes it every second
    pport = free_port()
    cfg = os.path.join(tmp, "prometheus.yml")
    with open(cfg, "w") as f:
        f.write("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                "scrape_configs:\n  - job_name: lruscope\n    static_configs:\n"
                "      - targets: ['127.0.0.1:%d']\n" % port)
    plog = open(os.path.join(tmp, "prometheus.log"), "w")
    start(["timeout", "300", prom_bin, "--config.file=" + cfg,
           "--storage.tsdb.path=" + os.path.join(tmp, "tsdb"),
           "--web.listen-address=127.0.0.1:%d" % pport, "--log.level=warn"],
          stdout=plog, stderr=plog)
    up = wait_for("prometheus", lambda: _safe(lambda: prom_query(
        pport, 'count_over_time(lruscope_snapshots_total{job="lruscope"}[1m]) >= 12')), 90)
    if not check("export: Prometheus scraped the exporter for 12 s (up, OpenMetrics parsed)", up,
                 open(os.path.join(tmp, "prometheus.log")).read()[-400:]):
        return
    targets = json.load(urllib.request.urlopen("http://127.0.0.1:%d/api/v1/targets" % pport, timeout=10))
    t = targets["data"]["activeTargets"][0]
    check("export: Prometheus's target is healthy, no scrape error", t["health"] == "up" and not t["lastError"],
          "%s %s" % (t["health"], t["lastError"]))

    mine = 'memcg=~"/%s.*"' % TAG
    pages = prom_query(pport, 'sort_desc(sum by (memcg) (lruscope_lru_pages{%s}))' % mine)
    order = [r["metric"]["memcg"] for r in pages]
    check("export: in Prometheus, the heavy memcg tops lruscope_lru_pages and the light one ranks below",
          len(order) == 2 and order[0].endswith("heavy") and order[1].endswith("light"),
          "order %s" % order)
    # summed over the nodes: a memcg has a series per node it has pages on
    waits = prom_query(pport, 'sort_desc(sum by (memcg) (rate(lruscope_lruvec_lock_wait_seconds_total{%s}[10s])))'
                       % mine)
    order = [r["metric"]["memcg"] for r in waits]
    check("export: in Prometheus, rate(lruscope_lruvec_lock_wait_seconds_total) ranks heavy over light",
          len(order) >= 1 and order[0].endswith("heavy") and
          (len(order) < 2 or order[1].endswith("light")), "order %s" % order)
    locks = prom_query(pport, 'rate(lruscope_lock_wait_seconds_total[10s]) > 0')
    check("export: in Prometheus, other locks' waits (the pipe's mutex) have a rate",
          bool(locks), "no lruscope_lock_wait_seconds_total series with a rate")
    counters = sorted({k.split("{")[0] for k in samples(exp.get("/metrics")[1]) if k.endswith("_total") or
                       "_total{" in k})
    nres = sum(float(r["value"][1]) for c in counters for r in prom_query(pport, "resets(%s[5m])" % c))
    check("export: no counter went backwards in Prometheus's samples (resets = 0 over %d families)" % len(counters),
          nres == 0 and len(counters) >= 8, "resets %s, families %s" % (nres, counters))
    bpf = prom_query(pport, 'rate(lruscope_bpf_run_seconds_total[10s])')
    check("export: the tool's own BPF cost is scraped (lruscope_bpf_run_seconds_total has a rate)",
          bool(bpf) and float(bpf[0]["value"][1]) > 0, str(bpf))
    # lost events by reason, the task waits split by cause (a sum over the label is the whole)
    lost = sorted(x["metric"].get("reason", "") for x in prom_query(pport, "lruscope_lost_events_total"))
    want_lost = sorted(["task_nested", "task_unmatched", "task_no_room", "task_lost", "stack",
                        "stats_full", "insert_failed", "negative_time"])
    check("export: in Prometheus, lruscope_lost_events_total has a series per reason, the task "
          "waits' by cause", lost == want_lost, "reasons %s" % lost)
    # the spinlock source, as the collector chose it here (a report makes the same choice)
    r = subprocess.run([BIN, "report", "-d", "0.2", "-f", "json"], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    want = (json.loads(r.stdout).get("spin_source") or {}) if r.returncode == 0 else {}
    spin = [x["metric"] for x in prom_query(pport, "lruscope_spin_source_info == 1")]
    check("export: in Prometheus, lruscope_spin_source_info names the spinlock source (%s)"
          % want.get("name"), len(spin) == 1 and want.get("name") and
          spin[0].get("source") == want["name"] and
          spin[0].get("first_waiter") == str(want.get("first_waiter")).lower(),
          "series %s, report's %s" % (spin, want))

    docs_checks(pport, text)

    # counters monotonic across two scrapes, sample by sample
    a = samples(exp.get("/metrics")[1])
    time.sleep(2.2)
    b = samples(exp.get("/metrics")[1])
    back = [k for k, v in a.items() if (k.startswith("lruscope_") and re.match(r"[^{]*_(total|count|bucket|sum)\b", k))
            and k in b and b[k] < v]
    check("export: every counter of a memcg that still exists is >= its value a scrape before",
          not back and len(a) > 20, "went back: %s" % back[:5])

    # a memcg removed mid-run leaves the page within one interval or two
    gone = make_memcg(TAG + "gone")
    gone_reader = reader_in(gone, 8, "gone")
    seen = wait_for("gone", lambda: ('memcg="/%sgone"' % TAG) in exp.get("/metrics")[1], 15)
    check("export: a new memcg shows on the page", seen, "never shown")
    os.killpg(gone_reader.pid, signal.SIGKILL)
    gone_reader.wait()
    wait_for("empty", lambda: not open(os.path.join(gone, "cgroup.procs")).read().strip(), 5)
    os.rmdir(gone)
    memcgs.remove(gone)
    left = wait_for("left", lambda: ('memcg="/%sgone"' % TAG) not in exp.get("/metrics")[1], 6)
    check("export: a removed memcg's series are gone from the page within a few intervals", left,
          "still there 6 s after rmdir")

    requests_ok(exp)
    textfile_checks(promtool)
    folding_checks()
    defaults_checks(len(locks))


def docs_checks(pport, page):
    """docs/metrics.md names every family on the page; the Grafana dashboard's queries run in Prometheus."""
    doc = open(os.path.join(ROOT, "docs", "metrics.md")).read()
    families = sorted(set(re.findall(r"^# TYPE (\S+)", page, re.M)))
    undocumented = [f for f in families if "`%s`" % f not in doc]
    check("export: docs/metrics.md documents every family on the page (%d)" % len(families),
          families and not undocumented, "undocumented: %s" % undocumented)
    dash = json.load(open(os.path.join(ROOT, "docs", "grafana", "lruscope.json")))
    exprs = [t["expr"] for p in dash["panels"] for t in p["targets"]]
    names = set(re.findall(r"\blruscope_[a-z_]+", " ".join(exprs)))
    known = {"lruscope_lruvec_lock_imposed_seconds_total"}  # with --holders only
    for name, kind in re.findall(r"^# TYPE (\S+) (\S+)", page, re.M):
        known |= {name + s for s in ("_bucket", "_sum", "_count", "")} if kind == "histogram" else {name}
    check("export: every metric the Grafana dashboard queries is on the page",
          names and names <= known, "unknown: %s" % sorted(names - known))
    failed = []
    for e in exprs:
        q = e.replace("$__rate_interval", "10s").replace('instance=~"$instance"', 'instance=~".*"')
        try:
            prom_query(pport, q)
        except OSError as err:
            failed.append("%s: %s" % (q, err))
    check("export: Prometheus runs each of the dashboard's %d queries" % len(exprs), not failed, str(failed[:2]))


def _safe(fn):
    try:
        return fn()
    except OSError:
        return None


def raw(port, data, timeout=5):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(data)
        buf = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            buf += chunk
    finally:
        s.close()
    return buf


def rss_kb(pid):
    return int(re.search(r"^VmRSS:\s+(\d+)", open("/proc/%d/status" % pid).read(), re.M).group(1))


def collector_sched(pid):
    """(seconds on a CPU, seconds runnable but waiting for one) of the exporter's main thread,
    the one that takes the snapshots"""
    with open("/proc/%d/task/%d/schedstat" % (pid, pid)) as f:
        run_ns, wait_ns = f.read().split()[:2]
    return int(run_ns) / 1e9, int(wait_ns) / 1e9


def requests_ok(exp):
    port = exp.port
    bad = raw(port, b"GET /metrics HTTP/1.1\r\nNoColonInThisHeader\r\n\r\n")
    check("export: a malformed header gets 400", bad.startswith(b"HTTP/1.1 400"), repr(bad[:60]))
    bad = raw(port, b"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n")
    check("export: a malformed Content-Length gets 400", bad.startswith(b"HTTP/1.1 400"), repr(bad[:60]))
    bad = raw(port, b"GET / HTTP/9.9\r\n\r\n")
    check("export: an unknown HTTP version gets 505", bad.startswith(b"HTTP/1.1 505"), repr(bad[:60]))
    # no request line at all: libmicrohttpd answers 400 or closes the connection, answering nothing
    for junk in (b"\x16\x03\x01 GARBAGE\r\n\r\n", b"GARBAGE\r\n\r\n"):
        bad = raw(port, junk)
        check("export: %r instead of a request gets 400 or a closed connection, and the server goes on" % junk[:12],
              (bad == b"" or bad.startswith(b"HTTP/1.1 400")) and exp.get("/metrics")[0] == 200, repr(bad[:60]))
    nf = raw(port, b"GET /nope HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    check("export: an unknown path gets 404", nf.startswith(b"HTTP/1.1 404"), repr(nf[:60]))
    post = raw(port, b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
    check("export: POST gets 405 with Allow: GET, HEAD", post.startswith(b"HTTP/1.1 405") and b"Allow: GET, HEAD" in post,
          repr(post[:120]))

    before = samples(exp.get("/metrics")[1])
    rss0 = rss_kb(exp.pid())
    sched0 = collector_sched(exp.pid())
    t0 = time.time()
    # slow clients: 30 connections that send half a request and hold it
    slow = []
    for _ in range(30):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
        slow.append(s)
    # at the load's own priority, each request sent as its connection is made: a scraper
    # that waits between the two past the server's 10 s idle timeout is rightly closed as a
    # slow client; the CPU the scrapers take from the collector is excused below by schedstat
    results = scrape_together(port, 200)
    oks = sum(code == 200 and "lruscope_build_info{" in body for code, body, _, _ in results)
    # what each failed scrape got, and when it connected, sent and ended (from the start)
    failed = ["%s (%s)" % (why or "status %d, %d bytes" % (code, len(body)),
                           ", ".join("%s at %.1f s" % kv for kv in times.items()))
              for code, body, why, times in results
              if not (code == 200 and "lruscope_build_info{" in body)]
    check("export: 200 concurrent scrapes, next to 30 slow clients, all answered 200 with a whole page",
          oks == 200, "%d of 200 ok; failed: %s" % (oks, "; ".join(failed[:5])))
    print("# 200 concurrent scrapes: the last connected at %.1f s, the last ended at %.1f s" % tuple(
        max(t.get(k, 0) for _, _, _, t in results) for k in ("connected", "ended")))
    # the slow clients are dropped after the idle timeout
    closed = 0
    for s in slow:
        s.settimeout(20)
        try:
            closed += s.recv(1) == b""
        except OSError:
            closed += 1
        s.close()
    check("export: slow clients are closed by the server's idle timeout", closed == 30, "%d of 30" % closed)
    time.sleep(1.5)
    after = samples(exp.get("/metrics")[1])
    took = time.time() - t0
    snaps = after["lruscope_snapshots_total"] - before["lruscope_snapshots_total"]
    missed = after["lruscope_missed_intervals_total"] - before["lruscope_missed_intervals_total"]
    sched1 = collector_sched(exp.pid())
    # A server that blocked the collector would leave it asleep; a machine with more runnable
    # tasks than CPUs (the lab guest: the loads, Prometheus, these clients on 6 vCPUs) leaves
    # it waiting for a CPU. The thread's schedstat tells the two apart. A snapshot misses k
    # intervals only when its wake-up delay plus its own work span more than k seconds; when
    # nothing puts it to sleep, that span is all time on a CPU or waiting for one. So the
    # intervals missed can be no more than the whole seconds the thread ran or waited.
    ran = sched1[0] - sched0[0]
    waited = sched1[1] - sched0[1]
    excused = int(ran + waited)  # the exporter runs with -i 1
    check("export: the server made the collector lose no snapshot meanwhile (missed intervals "
          "no more than its seconds on a CPU or waiting for one, one snapshot a second)",
          missed <= excused and snaps >= int(took) - 1 - missed,
          "%d snapshots in %.1f s, %d missed; the collector's thread ran %.2f s and waited %.2f s for a CPU"
          % (snaps, took, missed, ran, waited))
    grew = rss_kb(exp.pid()) - rss0
    check("export: memory stays flat through it (RSS grew %d KiB, under 8 MiB)" % grew, grew < 8192,
          "RSS grew %d KiB" % grew)


def textfile_checks(promtool):
    d = os.path.join(tmp, "textfile")
    os.mkdir(d)
    missing = subprocess.run([BIN, "export", "--textfile", os.path.join(tmp, "nope"), "-d", "1"],
                             capture_output=True, text=True, timeout=30)
    check("export: a missing --textfile directory fails at once, saying so",
          missing.returncode == 1 and "No such file or directory" in missing.stderr and
          "create it" in missing.stderr, missing.stderr.strip())
    ro = os.path.join(tmp, "readonly")
    os.mkdir(ro, 0o755)
    port = free_port()
    denied = subprocess.run([BIN, "export", "--textfile", ro, "--listen", "127.0.0.1:%d" % port, "-d", "1"],
                            capture_output=True, text=True, timeout=60)
    check("export: a --textfile directory the served user cannot write fails, saying which uid",
          denied.returncode == 1 and "cannot write there as uid 65534" in denied.stderr, denied.stderr.strip())

    p = start([BIN, "export", "-q", "--textfile", d, "-i", "0.1", "-d", "8"],
              stderr=open(os.path.join(tmp, "textfile.err"), "w"))
    f = os.path.join(d, "lruscope.prom")
    wait_for("textfile", lambda: os.path.exists(f), 30)
    reads = half = 0
    first = None
    while p.poll() is None:
        try:
            with open(f) as fh:
                text = fh.read()
        except FileNotFoundError:
            half += 1
            continue
        reads += 1
        first = first or text
        if not text.endswith("} 1\n") or "lruscope_build_info{" not in text:
            half += 1
    check("export: --textfile is never seen half-written (%d reads while it was replaced)" % reads,
          reads > 100 and half == 0, "%d of %d reads incomplete" % (half, reads))
    lint = subprocess.run([promtool, "check", "metrics"], input=first or "", capture_output=True, text=True)
    check("export: the textfile passes promtool check metrics", lint.returncode == 0 and first,
          (lint.stdout + lint.stderr)[-300:])
    check("export: the textfile run leaves no temporary file", os.listdir(d) == ["lruscope.prom"],
          str(os.listdir(d)))


def folding_checks():
    # 40 memcgs with pages, and --max-series 100: most are folded into memcg="other"
    many = []
    for i in range(40):
        m = make_memcg(TAG + "f%02d" % i)
        many.append(m)
    script = 'for m in "$@"; do sh -c "echo \\$\\$ > $m/cgroup.procs; exec sleep 60" & done; wait'
    start(["sh", "-c", script, "_"] + many)
    port = free_port()
    exp = Exporter(BIN, ["--listen", "127.0.0.1:%d" % port, "-i", "1", "-d", "30", "--max-series", "100", "--holders"],
                   tmp, start, name="fold")
    text = wait_for("fold", lambda: exp.get("/metrics")[1] if exp.get("/metrics")[0] == 200 else "", 40)
    s = samples(text or "")
    with_memcg = [k for k in s if 'memcg="' in k]
    check("export: --max-series 100 bounds the series with a memcg label (%d)" % len(with_memcg),
          0 < len(with_memcg) <= 100, "%d series" % len(with_memcg))
    check("export: the memcgs beyond it are folded into memcg=\"other\", and counted",
          s.get('lruscope_memcgs{series="other"}', 0) >= 30 and s.get("lruscope_folded_memcgs_total", 0) >= 30 and
          any('memcg="other"' in k for k in with_memcg),
          "other %s folded_total %s" % (s.get('lruscope_memcgs{series="other"}'), s.get("lruscope_folded_memcgs_total")))
    check("export: --holders adds the imposed family", "# TYPE lruscope_lruvec_lock_imposed_seconds_total counter" in (text or ""),
          "no imposed family on the page")


def defaults_checks(default_locks):
    """No --listen: the default address, loopback only; --user root keeps root; --top-locks 1
    lists one other lock where the default (20) listed default_locks with a rate."""
    names = ["export: with no --listen it serves on the default 127.0.0.1:9464, loopback only",
             "export: --user root serves as root (uid 0)",
             "export: --top-locks 1 lists one other lock (the default run had %d with a rate)"
             % default_locks]
    probe = socket.socket()
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)	# a past run's TIME_WAIT is no holder
    try:
        probe.bind(("127.0.0.1", 9464))
        busy = ""
    except OSError as e:
        busy = "another program holds 127.0.0.1:9464 (%s): the default address cannot be tried" % e
    finally:
        probe.close()
    if busy:
        for name in names:
            check(name, False, busy)
        return
    err = open(os.path.join(tmp, "default.err"), "w")
    p = start([BIN, "export", "-i", "1", "-d", str(secs(20)), "--user", "root", "--top-locks", "1"],
              stdout=subprocess.DEVNULL, stderr=err)

    def lock_labels():
        code, text, _ = scrape(9464)
        if code != 200:
            return None
        return {re.search(r'lock="([^"]*)"', k).group(1) for k in samples(text)
                if k.startswith("lruscope_lock_wait_seconds_total{")}
    got = wait_for("default", lock_labels, 40)
    listening = subprocess.run(["ss", "-Hltnp"], capture_output=True, text=True).stdout
    ours = [l.split()[3] for l in listening.splitlines() if "pid=%d," % p.pid in l]
    check(names[0], ours == ["127.0.0.1:9464"], "listening on %s; %s" % (ours, open(err.name).read()[-200:]))
    status = open("/proc/%d/status" % p.pid).read() if p.poll() is None else ""
    uid = (re.search(r"^Uid:\s+(\d+)", status, re.M) or [None, "gone"])[1]
    check(names[1], uid == "0", "Uid %s" % uid)
    check(names[2], got is not None and len(got) == 1 and default_locks > 1, "locks on the page: %s" % got)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGTERM)
    p.wait(timeout=30)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # a crash is one failure, said
        print("not ok - export: the test crashed: %r" % e)
        import traceback
        traceback.print_exc()
    finally:
        cleanup()

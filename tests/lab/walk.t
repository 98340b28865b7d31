#!/usr/bin/python3
# time-limit: 900  (a TCG guest: boot, the workload, a dump; a first run also fetches the kernel)
# guest: shared  (counts and names, no timing: its guest may run beside the live guest)
"""Lab: `lruscope walk` on a real vmcore. One boot of the cgroup v2 guest (lab.boot_and_dump),
then the C command runs walk.py on the dump: --json, the table, and the TUI in tmux, each
checked against what the guest printed (memory.numa_stat, cgroup inode numbers). A copy of the
vmcore with /lrs-a@N0's lock taken (CPU 1 queued, PID 1's stack pointing at it) must show that
lock state. Errors: missing vmcore or vmlinux -> exit 1 with walk.py's message; bad usage -> 2;
no walk.py where LRS_DRGN_SCRIPTS points -> exit 1 saying so."""

import os
import re
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import lab  # noqa: E402
import checks as ck  # noqa: E402
import labtest  # noqa: E402

BIN = os.environ.get("LRS_BIN", os.path.join(lab.ROOT, "build", "lruscope"))
LISTS = ck.LISTS


def walk_env(**extra):
    env = dict(os.environ, LRS_DRGN_SCRIPTS=os.path.join(lab.ROOT, "drgn-scripts"))
    env.pop("NO_COLOR", None)
    env.update(extra)
    return env


def run_walk(*args, env=None):
    """-> (exit status, stdout, stderr); stdout and stdin are not terminals: the table."""
    r = subprocess.run([BIN, "walk"] + list(args), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       env=env or walk_env())
    return r.returncode, r.stdout, r.stderr


def local_pages(guest):
    """(memcg, node) -> {list: pages} of each memcg alone: v2's numa_stat is hierarchical,
    so a memcg's own pages are its numbers minus its children's."""
    paths = list(guest["cgroups"])
    out = {}
    for p in paths:
        kids = [c for c in paths if c != p and os.path.dirname(c) == p]
        for nid in (0, 1):
            own = {}
            for n in LISTS:
                v = guest["numa_stat"].get(p, {}).get(n, {}).get(nid, 0)
                v -= sum(guest["numa_stat"].get(c, {}).get(n, {}).get(nid, 0) for c in kids)
                own[n] = v // ck.PAGE
            out[(p, nid)] = own
    return out


def parse_table(text):
    """MEMCG@NODE rows -> {(memcg, node): (state, total, [pages per list], check)}."""
    rows = {}
    pat = re.compile(r"^(\S+)@N(\d+)\s+0x[0-9a-f]+\s+(.+?)\s+(\d+)" + r"\s+(\d+)" * 5 +
                     r"\s+(.*)$")
    for line in text.splitlines():
        m = pat.match(line)
        if m:
            rows[(m.group(1), int(m.group(2)))] = (m.group(3), int(m.group(4)),
                                                   [int(m.group(5 + i)) for i in range(5)],
                                                   m.group(10))
    return rows


def check_table(text, want):
    probs = []
    rows = parse_table(text)
    for key, lists in want.items():
        if key not in rows:
            probs.append("no row %s@N%d" % key)
            continue
        state, total, pages, chk = rows[key]
        if pages != [lists[n] for n in LISTS]:
            probs.append("%s@N%d: table %s, guest %s" % (key[0], key[1], pages,
                                                         [lists[n] for n in LISTS]))
        if total != sum(pages):
            probs.append("%s@N%d: total %d != sum %d" % (key[0], key[1], total, sum(pages)))
        if chk != "ok":
            probs.append("%s@N%d: walked vs counted %r" % (key[0], key[1], chk))
        if state != "free":
            probs.append("%s@N%d: lock %r in a quiescent guest" % (key[0], key[1], state))
    if "lru_check: 0 violation(s)" not in text:
        probs.append("no lru_check verdict of 0 violations")
    return probs


class Tmux:
    """A tmux server of our own (-L): kill-server touches nothing else."""

    def __init__(self, tag):
        self.sock = tag

    def __call__(self, *args):
        return subprocess.run(["tmux", "-L", self.sock] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)

    def screen(self):
        return self("capture-pane", "-p", "-t", "w").stdout

    def wait_for(self, regex, secs=60):
        deadline = time.time() + secs
        while time.time() < deadline:
            text = self.screen()
            if re.search(regex, text):
                return text
            time.sleep(0.25)
        return None

    def kill(self):
        self("kill-server")
        # kill-server leaves the socket file behind
        sock = os.path.join(os.environ.get("TMUX_TMPDIR", "/tmp"), f"tmux-{os.getuid()}", self.sock)
        if os.path.exists(sock):
            os.unlink(sock)


def check_tui(core, vmlinux, want, work):
    """The heatmap in tmux: cells are each memcg's pages per node, whole paths after s."""
    probs = []
    tm = Tmux("lrs-test-walk%d" % os.getpid())
    env = " ".join("%s=%s" % kv for kv in (
        ("LRS_DRGN_SCRIPTS", os.path.join(lab.ROOT, "drgn-scripts")), ("TERM", "xterm-256color"),
        ("LC_ALL", "C.UTF-8")))
    cmd = "env %s %s walk -c %s -s %s; echo lrs-exit=$?; sleep 60" % (env, BIN, core, vmlinux)
    try:
        tm("new-session", "-d", "-s", "w", "-x", "150", "-y", "40", cmd)
        text = tm.wait_for(r"one instant", 90)
        if text is None:
            return ["the TUI did not show the walk: %r" % tm.screen()[-400:]]
        with open(os.path.join(work, "tui.txt"), "w") as f:
            f.write(text)
        lab.log("TUI:\n" + text)
        if "LRU pages" not in text:
            probs.append("no LRU pages legend")
        lines = text.splitlines()
        for path in ("/lrs-a", "/lrs-b", "/lrs-n/c1", "/lrs-n/c2"):
            leaf = path.rsplit("/", 1)[1]
            row = [ln for ln in lines if re.match(r"^[> ]\s+%s\s" % re.escape(leaf), ln)]
            cells = [want[(path, n)] for n in (0, 1)]
            nums = [sum(c.values()) for c in cells]
            shown = ["." if v == 0 else str(v) for v in nums] + [str(sum(nums))]
            if not row or row[0].split()[-3:] != shown:
                probs.append("%s row %r, want cells %s" % (path, row[:1], shown))
        tm("send-keys", "-t", "w", "s")  # sort by wait: whole paths, the same cells
        text = tm.wait_for(r"sort wait", 10) or ""
        for path in ("/lrs-a", "/lrs-n/c2"):
            if not re.search(r"^[> ]\s*%s\s" % re.escape(path), text, re.M):
                probs.append("%s not shown by its path after s" % path)
        tm("send-keys", "-t", "w", "q")
        if tm.wait_for(r"lrs-exit=0", 10) is None:
            probs.append("q did not quit with status 0: %r" % tm.screen()[-300:])
    finally:
        tm.kill()
    return probs


def run(tap, guest, core, vmlinux, work):
    if not os.access(BIN, os.X_OK):
        tap.check("lruscope walk", ["%s is missing (make)" % BIN])
        return
    want = local_pages(guest)

    # ---- --json: walk.py's object as is ------------------------------------------
    rc, out, err = run_walk("-c", core, "-s", vmlinux, "--json")
    probs = [] if rc == 0 else ["exit %d: %s" % (rc, err.strip()[-300:])]
    snap = None
    try:
        snap = ck.json.loads(out)
    except ValueError:
        probs.append("stdout is not one JSON object: %r" % out[:200])
    if snap is not None:
        if snap.get("source") != "drgn" or out.count("\n") != 1:
            probs.append("not walk.py's one-line object")
        probs += ck.check_ids(snap, guest)
        probs += ck.check_counters_vs_guest(snap, guest)
    tap.check("walk --json: walk.py's JSON, equal to memory.numa_stat", probs)

    # ---- the table ------------------------------------------------------------------
    rc, out, err = run_walk("-c", core, "-s", vmlinux)
    lab.log("table:\n" + out)
    probs = [] if rc == 0 else ["exit %d: %s" % (rc, err.strip()[-300:])]
    probs += check_table(out, want)
    tap.check("walk table: LRU pages per memcg@node equal memory.numa_stat, walks agree, "
              "locks free", probs)

    # ---- the TUI ---------------------------------------------------------------------
    tap.check("walk TUI in tmux: memcgs with their pages per node, s, q",
              check_tui(core, vmlinux, want, work))

    # ---- a copy with /lrs-a@N0's lock taken ------------------------------------------
    held_core = ck.copy_core(core, os.path.join(work, "vmcore.held"))
    prog = ck.open_prog(core, vmlinux)
    held = ck.pick_holder(prog, "/lrs-a", 0, pid=1)
    del prog
    ck.patch_bytes(held_core, held["lruvec_bytes"], struct.pack("<I", held["lock_val"]),
                   held["lock_off"])
    ck.patch_bytes(held_core, held["regs_bytes"], struct.pack("<Q", held["lock"]), 0)
    rc, out, err = run_walk("-c", held_core, "-s", vmlinux)
    probs = [] if rc == 0 else ["exit %d: %s" % (rc, err.strip()[-300:])]
    rows = parse_table(out)
    states = {k: v[0] for k, v in rows.items() if v[0] != "free"}
    if states != {("/lrs-a", 0): "locked, queue tail cpu1"}:
        probs.append("lock states %s, want only /lrs-a@N0 locked, queue tail cpu1" % states)
    if "held: /lrs-a@N0, 1 task(s) reference it: 1 init" not in out:
        probs.append("no holder line for pid 1: %r" % out[-300:])
    tap.check("walk table of a taken lock: its state and holder", probs)
    os.unlink(held_core)

    # ---- errors ----------------------------------------------------------------------
    probs = []
    nope = os.path.join(work, "nope")
    for what, args, code, msg in (
            ("missing vmcore", ["-c", nope, "-s", vmlinux], 1, "vmcore %s: no such file" % nope),
            ("missing vmlinux", ["-c", core, "-s", nope], 1, "no such file"),
            ("missing vmcore, --json", ["-c", nope, "-s", vmlinux, "--json"], 1,
             "no such file"),
            ("unknown option", ["--frobnicate"], 2, "--help"),
            ("stray argument", [core], 2, "-c"),
            ("bad --max-folios", ["-c", core, "--max-folios", "x"], 2, "--max-folios")):
        rc, out, err = run_walk(*args)
        if rc != code or msg not in err or "Traceback" in err or out:
            probs.append("%s: exit %d, stdout %r, stderr %r" % (what, rc, out[:80],
                                                               err.strip()[-200:]))
    rc, out, err = run_walk("-c", core, "-s", vmlinux,
                            env=walk_env(LRS_DRGN_SCRIPTS=work))
    if rc != 1 or "has no walk.py" not in err:
        probs.append("no walk.py: exit %d, %r" % (rc, err.strip()[-200:]))
    tap.check("walk errors: one clear line, exit 1 (failure) or 2 (usage)", probs)


if __name__ == "__main__":
    labtest.main_vmcore("walk", "lrs_cg=v2", run, tools=("tmux",), plan=5)

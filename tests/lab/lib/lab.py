"""The lab VM: a Debian cloud kernel under QEMU (TCG), two NUMA nodes, dumped to a vmcore.

Used by tests/lab/*.t and mk/lab.mk. Everything downloaded or built lives under
$LRS_CACHE/lab (kernel, by version) or a temporary directory removed on exit; never in the
repository. Progress goes to stderr.
"""

import fcntl
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

import guest_cpus

HERE = os.path.dirname(os.path.abspath(__file__))
# lrs_ready, which the guests share with the host's tests
READY_SH = os.path.join(HERE, "..", "..", "lib", "ready.sh")
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
CACHE = os.environ.get("LRS_CACHE", "/var/cache/lruscope")
PYTHON = "/usr/bin/python3"
QEMU = "qemu-system-x86_64"

# data files read by the guest: memcg path and cpu -> size in MiB (sparse: they read as zeros)
DATA_FILES = {
    "/lrs-a:0": 6, "/lrs-a:1": 3, "/lrs-b:0": 2, "/lrs-b:1": 9,
    "/lrs-n:1": 4, "/lrs-n/c1:0": 5, "/lrs-n/c2:1": 7,
}


def log(msg):
    print("lab: " + msg, file=sys.stderr, flush=True)


class LabError(Exception):
    pass


def missing_tools():
    need = [QEMU, "busybox", "cpio", "mkfs.ext4", "objcopy", "apt-get", "dpkg-deb"]
    out = [t for t in need if shutil.which(t) is None]
    if not os.path.exists("/bin/busybox") and "busybox" not in out:
        out.append("/bin/busybox")
    try:
        subprocess.run([PYTHON, "-c", "import drgn"], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except (OSError, subprocess.CalledProcessError):
        out.append("python3-drgn")
    return out


def kernel_dir(release=None):
    """Fetch (once per version) and return the cached kernel directory. release: None for
    this machine's suite's kernel (6.1), "5.10" for bullseye's (one lru_lock per node)."""
    base = os.path.join(CACHE, "lab")
    os.makedirs(base, exist_ok=True)
    r = subprocess.run([os.path.join(HERE, "fetch-kernel.sh"), base] + (
        [release] if release else []), stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise LabError("cannot fetch the lab kernel (fetch-kernel.sh exit %d)" % r.returncode)
    return r.stdout.strip().splitlines()[-1]


def kernel_release(kdir):
    """The cached kernel's release (uname -r in its guest), from its VERSION file."""
    with open(os.path.join(kdir, "VERSION")) as f:
        return f.read().split()[0]


def debug_image(kdir):
    """An ext4 image whose top holds the kernel's vmlinux as vmlinux-RELEASE, for a guest to
    mount at /usr/lib/debug/boot, where drgn looks for a live kernel's debug info. Built once
    per kernel, beside it in the cache."""
    img = os.path.join(kdir, "debug.img")
    if os.path.exists(img):
        return img
    log("building the debug-info image of %s" % os.path.basename(kdir))
    stage = tempfile.mkdtemp(prefix="debug.", dir=kdir)
    try:
        os.link(os.path.join(kdir, "vmlinux"),
                os.path.join(stage, "vmlinux-" + kernel_release(kdir)))
        mib = os.path.getsize(os.path.join(kdir, "vmlinux")) * 11 // 10 // (1 << 20) + 32
        subprocess.run(["mkfs.ext4", "-q", "-F", "-E", "root_owner=0:0", "-d", stage,
                        img + ".part", "%dM" % mib], check=True, stdout=subprocess.DEVNULL)
        os.rename(img + ".part", img)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return img


def build_initramfs(kdir, work, init=None, extra=None):
    """init: the guest's PID 1 script (default guest-init.sh), which sources /guest-lib.sh;
    extra: {guest path: host path}."""
    root = os.path.join(work, "initramfs")
    os.makedirs(os.path.join(root, "bin"))
    shutil.copy("/bin/busybox", os.path.join(root, "bin", "busybox"))
    shutil.copy(init or os.path.join(HERE, "guest-init.sh"), os.path.join(root, "init"))
    shutil.copy(os.path.join(HERE, "guest-lib.sh"), os.path.join(root, "guest-lib.sh"))
    shutil.copy(READY_SH, os.path.join(root, "ready.sh"))
    for dst, src in (extra or {}).items():
        path = os.path.join(root, dst.lstrip("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copy(src, path)
    os.chmod(os.path.join(root, "init"), 0o755)
    shutil.copy(os.path.join(kdir, "qemu_fw_cfg.ko"), os.path.join(root, "qemu_fw_cfg.ko"))
    out = os.path.join(work, "initrd.cpio")
    files = subprocess.run("cd %s && find . -print0" % root, shell=True, check=True,
                           stdout=subprocess.PIPE).stdout
    with open(out, "wb") as f:
        subprocess.run(["cpio", "--null", "-o", "-H", "newc", "--quiet"], cwd=root,
                       input=files, stdout=f, check=True)
    return out


def build_disk(work, size="64M"):
    d = os.path.join(work, "disk")
    os.makedirs(d)
    for spec, mib in DATA_FILES.items():
        m, c = spec.rsplit(":", 1)
        with open(os.path.join(d, "data" + m.replace("/", "-") + "-" + c), "wb") as f:
            f.truncate(mib << 20)
    img = os.path.join(work, "data.img")
    subprocess.run(["mkfs.ext4", "-q", "-F", "-d", d, img, size], check=True,
                   stdout=subprocess.DEVNULL)
    return img


def die_with_parent():
    """In the QEMU child: SIGKILL it if the test process dies, even by SIGKILL."""
    import ctypes
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


# The guest's watchdog reports a CPU that has not scheduled for about 20 s, and again every
# 20-30 s while it stays so. Reports of the same CPU in the same task this many times (two
# minutes and more, in guests whose steps take seconds) are a deadlock, not a slow guest:
# waiting out the boot's whole timeout for it costs a run up to a quarter of an hour.
SOFT_LOCKUP = re.compile(r"soft lockup - (CPU#\d+) stuck for \d+s! \[(.*)\]")
SOFT_LOCKUP_REPORTS = 5
KERNEL_TROUBLE = re.compile(r"BUG:|Oops|WARNING:|general protection|rcu: INFO|"
                            r"blocked for more than|Kernel panic")


class Guest:
    """One QEMU guest. Always stop() it (the .t files do so from a trap)."""

    def __init__(self, kdir, work, append="", mem_mb=1024, timeout=600, init=None, extra=None,
                 disk="64M", cpus_per_node=1, cpu=None, accel="tcg", drives=None,
                 possible_cpus=None):
        """cpus_per_node: vCPUs on each of the two nodes (node 0 has the first ones);
        possible_cpus: the machine's CPUs, present or not (QEMU's maxcpus, hot-pluggable
        ones): the kernel allocates per-CPU memory for each, so a guest of a few running
        vCPUs has the per-CPU memory of a large machine, and boots as fast as a small one;
        cpu: a QEMU -cpu model, e.g. "qemu64,-hypervisor" (see holders.t for why);
        accel: the -accel value, e.g. "tcg,thread=single" (one host thread, vCPUs in turn);
        drives: [(image, NVMe serial, snapshot)] in place of the data disk of DATA_FILES
        (snapshot: the guest's writes go to a temporary file, never to the image)."""
        self.kdir, self.work, self.timeout = kdir, work, timeout
        self.qmp_path = os.path.join(work, "qmp.sock")
        self.lines = []
        half = mem_mb // 2
        n = cpus_per_node

        def span(first, count):
            return str(first) if count == 1 else "%d-%d" % (first, first + count - 1)
        spare = max(0, (possible_cpus or 0) - 2 * n)

        def cpus(node):
            """the node's present vCPUs, then its half of the absent ones"""
            s = span(node * n, n)
            half = spare // 2 + (spare % 2 if node == 1 else 0)
            if half:
                s += ",cpus=" + span(2 * n + node * (spare // 2), half)
            return s
        smp = str(2 * n) + (",maxcpus=%d" % (2 * n + spare) if spare else "")
        cmd = [QEMU, "-accel", accel, "-smp", smp, "-m", "%dM" % mem_mb,
               "-nodefaults", "-display", "none", "-no-reboot",
               "-serial", "stdio", "-monitor", "none",
               "-qmp", "unix:%s,server=on,wait=off" % self.qmp_path,
               "-kernel", os.path.join(kdir, "vmlinuz"),
               "-initrd", build_initramfs(kdir, work, init, extra),
               # no_timer_check: at boot the kernel waits a few ticks for the IO-APIC timer
               # and panics if they are late, which a TCG vCPU short of host CPU makes them
               "-append", "console=ttyS0 quiet panic=-1 no_timer_check " + append,
               "-device", "vmcoreinfo",
               "-object", "memory-backend-ram,id=m0,size=%dM" % half,
               "-object", "memory-backend-ram,id=m1,size=%dM" % half,
               "-numa", "node,nodeid=0,cpus=%s,memdev=m0" % cpus(0),
               "-numa", "node,nodeid=1,cpus=%s,memdev=m1" % cpus(1)]
        for i, (img, serial, snap) in enumerate(
                drives or [(build_disk(work, disk), "lrs0", False)]):
            cmd += ["-drive", "file=%s,if=none,id=d%d,format=raw%s" % (
                        img, i, ",snapshot=on" if snap else ""),
                    "-device", "nvme,drive=d%d,serial=%s" % (i, serial)]
        if cpu:
            cmd += ["-cpu", cpu]
        self.hold_guest_lock()
        self.serial_log = open(os.path.join(work, "serial.log"), "w")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=self.serial_log, preexec_fn=die_with_parent)
        self.pidfile = os.path.join(work, "qemu.pid")
        with open(self.pidfile, "w") as f:
            f.write(str(self.proc.pid))

    def hold_guest_lock(self):
        """A guest whose checks rest on timings runs alone on this machine (two TCG guests
        on two cores would each take longer, and contention timings would be of a different
        machine): it waits for every other lab guest to end. One whose checks do not
        (LRS_GUEST_SHARE=1: the live guest, and lab tests marked "# guest: shared") shares
        the machine with another such guest. The lock is held for as long as this guest."""
        shared = os.environ.get("LRS_GUEST_SHARE") == "1"
        mode = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
        os.makedirs(os.path.join(CACHE, "lab"), exist_ok=True)
        self.lock_file = open(os.path.join(CACHE, "lab", "guest.lock"), "w")
        try:
            fcntl.flock(self.lock_file, mode | fcntl.LOCK_NB)
        except BlockingIOError:
            log("another lab guest is running: waiting for it to end")
            fcntl.flock(self.lock_file, mode)

    def wait_for(self, marker, on_line=None):
        """Read serial lines until one equals marker; return all lines seen. on_line(line),
        if given, is called on each as it comes. A guest whose watchdog finds one CPU stuck
        in one task SOFT_LOCKUP_REPORTS times is hung: it is given up then, not at timeout."""
        started = time.time()
        deadline = started + self.timeout
        stuck = {}  # (CPU, task) -> soft-lockup reports of it
        buf = b""
        fd = self.proc.stdout.fileno()
        while time.time() < deadline:
            r, _, _ = select.select([fd], [], [], 1.0)
            if not r:
                if self.proc.poll() is not None:
                    raise LabError("qemu exited (%d) before %s; %sserial tail: %s"
                                   % (self.proc.returncode, marker, self.first_trouble(),
                                      self.lines[-5:]))
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise LabError("guest console closed before %s; %stail: %s"
                               % (marker, self.first_trouble(), self.lines[-5:]))
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                line = line.decode("utf-8", "replace").rstrip("\r")
                self.lines.append(line)
                self.serial_log.write(line + "\n")
                if on_line:
                    on_line(line)
                if line.strip() == marker:
                    return self.lines
                m = SOFT_LOCKUP.search(line)
                if m:
                    stuck[m.groups()] = stuck.get(m.groups(), 0) + 1
                    if stuck[m.groups()] >= SOFT_LOCKUP_REPORTS:
                        self.hung("%s stuck in %s through %d watchdog reports, after %.0f s, "
                                  "waiting for %s" % (m.group(1), m.group(2), stuck[m.groups()],
                                                      time.time() - started,
                                                      marker))
        self.hung("timed out after %d s waiting for %s" % (self.timeout, marker))

    def trouble_at(self):
        """the index in lines of the guest kernel's first complaint, or None"""
        return next((i for i, ln in enumerate(self.lines) if KERNEL_TROUBLE.search(ln)), None)

    def first_trouble(self):
        """'the guest said: ...' with the guest kernel's first complaint and the two console
        lines before it (a PID 1 script that failed says why there, before its panic), or ''.
        A panic's last lines are its registers, which say nothing of the cause."""
        first = self.trouble_at()
        if first is None:
            return ""
        return "the guest said: %s; " % [ln[:200] for ln in self.lines[max(first - 2, 0):first + 1]]

    def hung(self, why):
        """Raise LabError(why), with the serial tail and where each vCPU is: that tells a
        deadlock inside the guest from a guest left without CPU."""
        cpus = guest_cpus.describe(self.qmp, os.path.join(self.kdir, "vmlinux"), self.lines)
        for line in cpus:
            log("hung guest: " + line)
        # the guest kernel's own account of its first trouble (an oops that killed a task
        # holding a lock comes before the lockups it causes), its call trace included
        first = self.trouble_at()
        for line in self.lines[first:first + 60] if first is not None else []:
            log("hung guest's console: " + line)
        raise LabError("%s; serial tail: %s; vCPUs: %s"
                       % (why, [ln[:200] for ln in self.lines[-4:]], "; ".join(cpus)))

    def disk_path(self):
        return os.path.join(self.work, "data.img")

    def qmp(self, *commands):
        replies = []
        # closed even on an error: QEMU serves one QMP client at a time, and a connection
        # left open keeps the next one waiting for its greeting
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(300)
            s.connect(self.qmp_path)
            with s.makefile("rw") as f:
                json.loads(f.readline())  # greeting
                for cmd in ({"execute": "qmp_capabilities"},) + commands:
                    f.write(json.dumps(cmd) + "\n")
                    f.flush()
                    while True:
                        msg = json.loads(f.readline())
                        if "return" in msg or "error" in msg:
                            break
                    if "error" in msg:
                        raise LabError("qmp %s: %s" % (cmd["execute"], msg["error"]))
                    replies.append(msg["return"])
        return replies

    def dump(self, path):
        # paging=false: QEMU's paging=true loses node 1 with two memory backends.
        self.qmp({"execute": "dump-guest-memory",
                  "arguments": {"paging": False, "protocol": "file:" + path,
                                "format": "elf"}})
        fix_vmcore(path)
        return path

    def stop(self):
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGTERM)
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.serial_log.close()
        self.lock_file.close()  # releases the guest lock


# ---- ELF vmcore fix-up --------------------------------------------------------------------

PT_LOAD, PT_NOTE = 1, 4
KERNEL_TEXT_BASE = 0xffffffff80000000
KERNEL_TEXT_SIZE = 1 << 30


def read_vmcoreinfo(data_of, phdrs):
    """VMCOREINFO text from the PT_NOTE segments, or ''."""
    for p in phdrs:
        if p["type"] != PT_NOTE:
            continue
        buf = data_of(p["offset"], p["filesz"])
        i = 0
        while i + 12 <= len(buf):
            namesz, descsz, _ = struct.unpack_from("<III", buf, i)
            name = buf[i + 12:i + 12 + namesz].rstrip(b"\0")
            doff = i + 12 + ((namesz + 3) & ~3)
            desc = buf[doff:doff + descsz]
            if name == b"VMCOREINFO":
                return desc.decode("ascii", "replace")
            i = doff + ((descsz + 3) & ~3)
    return ""


def fix_vmcore(path):
    """Make a QEMU paging=false ELF dump readable by drgn 0.0.22.

    QEMU writes p_vaddr == p_paddr; drgn then cannot bootstrap its page-table walk
    ("recursive address translation"). Add PT_LOAD headers that map the kernel text window
    (vaddr = __START_KERNEL_map + paddr - phys_base) onto the same file ranges. The new
    program header table is appended to the file; e_phoff and e_phnum are updated in place.
    """
    with open(path, "r+b") as f:
        ehdr = f.read(64)
        if ehdr[:4] != b"\x7fELF" or ehdr[4] != 2:
            raise LabError("%s: not an ELF64 dump" % path)
        phoff, = struct.unpack_from("<Q", ehdr, 32)
        phentsize, phnum = struct.unpack_from("<HH", ehdr, 54)
        f.seek(phoff)
        raw = f.read(phentsize * phnum)
        phdrs = []
        for i in range(phnum):
            t, fl, off, va, pa, fs, ms, al = struct.unpack_from("<IIQQQQQQ", raw, i * phentsize)
            phdrs.append(dict(type=t, flags=fl, offset=off, vaddr=va, paddr=pa, filesz=fs,
                              memsz=ms, align=al))

        def data_of(off, size):
            f.seek(off)
            return f.read(size)
        info = read_vmcoreinfo(data_of, phdrs)
        m = re.search(r"^NUMBER\(phys_base\)=(-?\d+)$", info, re.M)
        if not m:
            raise LabError("%s: no NUMBER(phys_base) in VMCOREINFO (vmcoreinfo device and "
                           "qemu_fw_cfg.ko needed in the guest)" % path)
        phys_base = int(m.group(1))
        if any(p["type"] == PT_LOAD and p["vaddr"] >= KERNEL_TEXT_BASE for p in phdrs):
            return  # already fixed
        extra = []
        lo, hi = phys_base, phys_base + KERNEL_TEXT_SIZE
        for p in phdrs:
            if p["type"] != PT_LOAD:
                continue
            s, e = max(p["paddr"], lo), min(p["paddr"] + p["memsz"], hi)
            if s >= e:
                continue
            d = s - p["paddr"]
            extra.append(dict(p, offset=p["offset"] + d, paddr=s,
                              vaddr=(KERNEL_TEXT_BASE + s - phys_base) & (2**64 - 1),
                              filesz=max(0, min(p["filesz"] - d, e - s)), memsz=e - s))
        allp = phdrs + extra
        f.seek(0, 2)
        end = (f.tell() + 7) & ~7
        f.seek(end)
        for p in allp:
            f.write(struct.pack("<IIQQQQQQ", p["type"], p["flags"], p["offset"], p["vaddr"],
                                p["paddr"], p["filesz"], p["memsz"], p["align"]))
            f.write(b"\0" * (phentsize - 56))
        f.seek(32)
        f.write(struct.pack("<Q", end))
        f.seek(56)
        f.write(struct.pack("<H", len(allp)))


# ---- what the guest printed -----------------------------------------------------------------

def parse_guest(lines):
    """LRS lines -> {'cgroups': {path: ino}, 'numa_stat': {path: {key: {node: v}}},
    'stat': {path: {key: v}}, 'mode': 'v2', 'kernel': ..., 'warn': [...], 'mglru': the
    multi-gen LRU switch as the guest read it ("0x0007"), "absent", or no key}"""
    g = {"cgroups": {}, "numa_stat": {}, "stat": {}, "warn": [], "node_cpus": {}}
    for line in lines:
        if not line.startswith("LRS "):
            continue
        w = line.split()
        kind = w[1]
        if kind == "cgroup":
            g["cgroups"][w[2]] = int(w[3])
        elif kind == "numa_stat":
            d = g["numa_stat"].setdefault(w[2], {})
            key = w[3]
            if "=" in key:  # v1: "total=123 N0=.. N1=.."
                key, tot = key.split("=", 1)
            vals = {}
            for kv in w[4:]:
                k, v = kv.split("=")
                if k.startswith("N"):
                    vals[int(k[1:])] = int(v)
            d[key] = vals
        elif kind == "stat":
            g["stat"].setdefault(w[2], {})[w[3]] = int(w[4])
        elif kind == "mode":
            g["mode"] = w[2]
        elif kind == "kernel":
            g["kernel"] = w[2]
        elif kind == "warn":
            g["warn"].append(" ".join(w[2:]))
        elif kind == "node_cpus":
            g["node_cpus"][int(w[2])] = w[3] if len(w) > 3 else ""
        elif kind == "mglru":
            g["mglru"] = w[2]
        elif kind == "bench_memcgs":
            g["bench_memcgs"] = int(w[2])
    return g


def boot_and_dump(kdir, work, append="", timeout=240):
    """Boot, wait for the guest's truth, dump to a vmcore under work. Returns (the guest's
    parsed truth, the vmcore's path). The guest is ready in 10-40 s; one that is not within
    timeout has stalled (multi-threaded TCG sometimes stops a guest whole, before its first
    console line): that is said as a TAP comment and the guest booted again, once."""
    def boot(d):
        log("booting the guest (%s)" % (append or "default"))
        t0 = time.time()
        g = Guest(kdir, d, append=append, timeout=timeout)
        try:
            lines = g.wait_for("LRS-DUMP-NOW")
            log("guest ready after %.1f s; dumping its memory" % (time.time() - t0))
            core = g.dump(os.path.join(d, "vmcore"))
            log("vmcore written after %.1f s" % (time.time() - t0))
            return parse_guest(lines), core
        finally:
            g.stop()
    return boot_twice(work, boot)


def boot_twice(work, boot):
    """boot(directory) in work/boot1; when that guest stalls (LabError), said as a TAP
    comment, once more in work/boot2, whose LabError is raised."""
    for attempt in (1, 2):
        d = os.path.join(work, "boot%d" % attempt)
        os.makedirs(d)
        try:
            return boot(d)
        except LabError as e:
            if attempt == 2:
                raise
            print("# guest stalled, booting again: %s" % e, flush=True)


# ---- lruscope itself in the guest ------------------------------------------------------------

# The guest in which 6.1 queues lruvec lock waiters on demand (holders.t, nodes.t). 6.1 x86
# traces a spinlock wait only in the queued slow path: not with the "hypervisor" CPUID bit
# (virt_spin_lock() takes the lock by test-and-set first), and not for the first waiter, which
# spins on the pending bit (docs/kernel-notes.md). Single-threaded TCG runs the vCPUs in turn
# on one host thread and moves to the next at every interrupt and every PAUSE (cpu_relax): a
# vCPU stopped while it holds an lruvec lock stays stopped while the next ones reach the lock;
# the first spins on the pending bit and yields at once, the next queues and is traced. Three
# vCPUs per node make that holder, pending waiter and queued waiter on each node's lruvecs.
# Multi-threaded TCG (2 vCPUs per node) queues waiters only when the host preempts a holder:
# on the busy 2-core host it traced 76 to 1,247 waits per node in a 10 s report, in 9 of 10
# boots (the tenth stalled whole); this guest 12,016 to 34,649, in 10 of 10
# (docs/holders.md, "Lab status").
CONTENDED = dict(cpus_per_node=3, cpu="qemu64,-hypervisor", accel="tcg,thread=single")


def run_lruscope_guest(kdir, work, init, marker, binary, append="", timeout=300, disk="256M",
                       extra=None, machine=None):
    """Boot a guest (machine: Guest's CPU words, default CONTENDED) whose PID 1 is init, with
    lruscope and its libraries in the initramfs (and extra: {guest path: host path}), until it
    prints marker; returns (serial lines, the data disk's path). A boot that times out is
    reported on stdout as a TAP comment and retried once; a second raises."""
    files = dict(binary_files(binary), **(extra or {}))

    def boot(d):
        g = Guest(kdir, d, append=append, init=init, extra=files, disk=disk, timeout=timeout,
                  **(machine or CONTENDED))
        try:
            return g.wait_for(marker), g.disk_path()
        finally:
            g.stop()
    return boot_twice(work, boot)


def binary_files(binary, as_path="/lruscope"):
    """{guest path: host path} for a dynamically linked binary: itself (at as_path), every
    library ldd lists and the dynamic loader, at their own paths."""
    out = {as_path: binary}
    r = subprocess.run(["ldd", binary], stdout=subprocess.PIPE, text=True, check=True)
    for line in r.stdout.splitlines():
        w = line.split()
        if "=>" in w and len(w) >= 3 and w[2].startswith("/"):
            out[w[2]] = os.path.realpath(w[2])
        elif w and w[0].startswith("/"):
            out[w[0]] = os.path.realpath(w[0])  # the loader
    return out


def read_guest_file(img, path):
    """A file from the guest's ext4 data disk (after the guest stopped), or None."""
    r = subprocess.run(["debugfs", "-R", "cat " + path, img], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return r.stdout if r.returncode == 0 and r.stdout else None


# ---- a lab test's frame ------------------------------------------------------------------------

def lruscope_tools_missing():
    """What a guest that runs lruscope needs and this host lacks (drgn is not needed there,
    debugfs reads the guest's data disk)."""
    return [t for t in missing_tools() if t != "python3-drgn"] + (
        [] if shutil.which("debugfs") else ["debugfs"])


def exit_on_signals():
    """SIGTERM, SIGHUP and SIGINT end the program through its finally blocks, which stop the
    guest and remove the work directory. The first one does; later ones are ignored: a
    runner that signals its process group and then its child again would otherwise end
    that clean-up half-way, and leave the work directory behind."""
    signals = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)

    def on_signal(signum, frame):
        for s in signals:
            signal.signal(s, signal.SIG_IGN)
        raise SystemExit(128 + signum)
    for s in signals:
        signal.signal(s, on_signal)


def bench_ready(name, tools=()):
    """A lab bench's start: exit_on_signals; False, said on stdout, when this host lacks what
    a guest running lruscope needs, or one of tools (commands)."""
    exit_on_signals()
    missing = lruscope_tools_missing() + [t for t in tools if not shutil.which(t)]
    if missing:
        print("%s: skipped, missing tools: %s" % (name, " ".join(missing)))
    return not missing


def run_test(main):
    """Exit with main()'s status, ending on a signal as exit_on_signals says."""
    exit_on_signals()
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)

"""Where a lab guest's vCPUs are, for a guest that stopped making progress.

A guest that hangs (a deadlock inside it, a lost wake-up under an emulator short of host CPU)
says little on its console. QEMU still holds its registers and memory: each vCPU's RIP,
privilege level and halt state ("info registers -a"), and the words at its kernel stack
pointer (QMP memsave). Kernel text addresses are named from the guest's vmlinux, moved by the
guest's KASLR offset, which the guest prints at boot as "LRS ktext ADDR" (guest-lib.sh).
"""

import bisect
import os
import re
import subprocess
import tempfile

STACK_BYTES = 2048  # of each kernel stack, from RSP up: enough for a few frames
STACK_NAMES = 5  # text addresses named per vCPU, innermost first
THREAD_SIZE = 16384  # an x86-64 kernel stack
PAGE_SIZE = 4096

REGS_RE = re.compile(r"^CPU#(\d+)")
FIELD_RE = re.compile(r"\b(RIP|RSP|CPL|HLT)=([0-9a-fA-F]+)")


class Symbols:
    """vmlinux's text symbols, moved to where the guest's kernel runs."""

    def __init__(self, vmlinux, ktext):
        out = subprocess.run(["nm", "-n", vmlinux], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, check=True).stdout
        addrs, names, link_text, end = [], [], None, None
        for line in out.splitlines():
            parts = line.split()
            if len(parts) != 3 or parts[1] not in "tTwW":
                continue
            a = int(parts[0], 16)
            if parts[2] == "_text":
                link_text = a
            elif parts[2] == "_etext":
                end = a
            addrs.append(a)
            names.append(parts[2])
        self.shift = (ktext - link_text) if ktext is not None and link_text is not None else 0
        self.addrs, self.names = addrs, names
        self.lo = (link_text or 0) + self.shift
        self.hi = (end or 0) + self.shift

    def is_text(self, addr):
        return self.lo <= addr < self.hi

    def name(self, addr):
        i = bisect.bisect_right(self.addrs, addr - self.shift) - 1
        if i < 0 or not self.is_text(addr):
            return "%#x" % addr
        return "%s+%#x" % (self.names[i], addr - self.shift - self.addrs[i])


def guest_ktext(lines):
    """The runtime address of _text the guest printed, or None."""
    for line in lines:
        if line.startswith("LRS ktext "):
            try:
                return int(line.split()[2], 16)
            except (IndexError, ValueError):
                return None
    return None


def parse_registers(text):
    """{cpu: {"RIP": int, "RSP": int, "CPL": int, "HLT": int}} from "info registers -a"."""
    cpus, cur = {}, None
    for line in text.splitlines():
        m = REGS_RE.match(line.strip())
        if m:
            cur = cpus.setdefault(int(m.group(1)), {})
            continue
        if cur is None:
            continue
        for k, v in FIELD_RE.findall(line):
            cur.setdefault(k, int(v, 16))
    return cpus


def stack_names(qmp, cpu, rsp, syms):
    """Kernel text addresses among the words at RSP, named, innermost first (a scan, as the
    kernel's "?" lines: a word can be a stale return address)."""
    fd, path = tempfile.mkstemp(prefix="lrs-stack.")
    os.close(fd)
    try:
        # QMP's integers are signed: a kernel address goes as its two's complement
        val = rsp - (1 << 64) if rsp >= 1 << 63 else rsp
        # no further than the stack's top (x86-64's are 16 KiB, so aligned): past it, a guard
        size = min(STACK_BYTES, THREAD_SIZE - (rsp & (THREAD_SIZE - 1)))
        try:
            qmp({"execute": "memsave", "arguments": {"val": val, "size": size,
                                                     "filename": path, "cpu-index": cpu}})
        except Exception:  # noqa: BLE001  (lab.LabError: QMP refused the range)
            # an interrupt stack need not be so aligned: the rest of its page, then
            size = PAGE_SIZE - (rsp & (PAGE_SIZE - 1))
            qmp({"execute": "memsave", "arguments": {"val": val, "size": size,
                                                     "filename": path, "cpu-index": cpu}})
        with open(path, "rb") as f:
            data = f.read()
    finally:
        os.unlink(path)
    found = []
    for i in range(0, len(data) - 7, 8):
        w = int.from_bytes(data[i:i + 8], "little")
        if syms.is_text(w):
            found.append(syms.name(w).split("+")[0])
            if len(found) == STACK_NAMES:
                break
    return found


def describe(qmp, vmlinux, lines):
    """One line per vCPU: "cpuN idle at SYM", "cpuN user", or "cpuN kernel at SYM < caller..."
    (qmp: Guest.qmp). Never raises: a guest that cannot be read is said to be so."""
    try:
        # paused first: registers and stacks of one moment (the guest is stopped after this)
        text = qmp({"execute": "stop"},
                   {"execute": "human-monitor-command",
                    "arguments": {"command-line": "info registers -a"}})[-1]
        cpus = parse_registers(text)
        ktext = guest_ktext(lines)
        syms = Symbols(vmlinux, ktext)
    except Exception as e:  # noqa: BLE001  a diagnosis of a failure must not fail
        return ["vCPUs unreadable: %s" % e]
    out = []
    for cpu in sorted(cpus):
        r = cpus[cpu]
        if r.get("CPL") == 3:
            out.append("cpu%d user" % cpu)
            continue
        where = syms.name(r.get("RIP", 0))
        state = "idle" if r.get("HLT") else "kernel"
        try:
            callers = stack_names(qmp, cpu, r.get("RSP", 0), syms) if r.get("RSP") else []
        except Exception as e:  # noqa: BLE001
            callers = ["stack unreadable: %s" % e]
        out.append("cpu%d %s at %s%s%s" % (
            cpu, state, where, " < " if callers else "", " < ".join(callers)))
    if ktext is None:
        out.append("(no LRS ktext line: names assume no KASLR offset)")
    return out

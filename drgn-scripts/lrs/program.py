"""Opening the kernel: a live one through /proc/kcore, or a vmcore with its vmlinux.

The checks turn the usual mistakes into one clear LrsError: a missing or truncated vmcore, a
vmlinux of another build (VMCOREINFO's symbol addresses disagree with the debug info), no
debug info at all.
"""

import argparse
import os
import re
import struct

import drgn
from drgn import FaultError

from lrs import LrsError


def add_source_args(parser):
    parser.add_argument("-c", "--core", metavar="VMCORE",
                        help="vmcore to read (default: the live kernel, /proc/kcore)")
    parser.add_argument("-s", "--symbols", metavar="VMLINUX", action="append",
                        help="vmlinux with debug info (default: search the usual places)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def base_parser(description):
    p = argparse.ArgumentParser(description=description)
    add_source_args(p)
    return p


def add_walk_args(parser, memcg_help="only this memcg (and its descendants)"):
    """--max-folios and --memcg, shared by the scripts that walk lists."""
    parser.add_argument("--max-folios", type=int, default=1 << 20,
                        help="stop walking a list after N folios (default %(default)s)")
    parser.add_argument("--memcg", metavar="PATH", help=memcg_help)


# ---- ELF cores ------------------------------------------------------------------------------

def elf_notes(data_of, phdrs):
    """(name, type, desc) of every note in the PT_NOTE segments."""
    out = []
    for p in phdrs:
        if p[0] != 4:
            continue
        buf = data_of(p[2], p[5])
        i = 0
        while i + 12 <= len(buf):
            namesz, descsz, ntype = struct.unpack_from("<III", buf, i)
            name = buf[i + 12:i + 12 + namesz].rstrip(b"\0")
            doff = i + 12 + ((namesz + 3) & ~3)
            out.append((name, ntype, buf[doff:doff + descsz]))
            i = doff + ((descsz + 3) & ~3)
    return out


def read_elf_core(path):
    """-> (phdrs, vmcoreinfo text, file size), or None for a file that is not ELF (a
    makedumpfile core); phdrs as (type, flags, off, va, pa, filesz, memsz). Raises LrsError
    for an ELF file that is not a readable ELF64 core."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            ehdr = f.read(64)
            if len(ehdr) < 64 or ehdr[:4] != b"\x7fELF":
                return None
            if ehdr[4] != 2:
                raise LrsError("%s: not a 64-bit ELF core" % path)
            phoff, = struct.unpack_from("<Q", ehdr, 32)
            phentsize, phnum = struct.unpack_from("<HH", ehdr, 54)
            if phoff + phentsize * phnum > size:
                raise LrsError("%s: truncated (program headers past the end of the file)"
                               % path)
            f.seek(phoff)
            raw = f.read(phentsize * phnum)
            phdrs = [struct.unpack_from("<IIQQQQQ", raw, i * phentsize) for i in range(phnum)]

            def data_of(off, n):
                f.seek(off)
                return f.read(n)
            info = ""
            for name, _, desc in elf_notes(data_of, phdrs):
                if name == b"VMCOREINFO":
                    info = desc.decode("ascii", "replace")
    except OSError as e:
        raise LrsError("%s: %s" % (path, e.strerror))
    return phdrs, info, size


def core_truncation(phdrs, size):
    """Bytes of PT_LOAD data missing from a file of `size` bytes (0 when complete)."""
    end = max([p[2] + p[5] for p in phdrs if p[0] == 1] or [0])
    return max(0, end - size)


def vmcoreinfo_symbols(info):
    """{'init_uts_ns': addr, ...} from SYMBOL(x)=hex lines."""
    return {m.group(1): int(m.group(2), 16)
            for m in re.finditer(r"^SYMBOL\((\w+)\)=([0-9a-fA-F]+)$", info, re.M)}


def check_match(prog, info):
    """Compare VMCOREINFO's symbol addresses with the debug info: a vmlinux from another
    build puts them elsewhere. Returns a list of mismatches 'name: core X, vmlinux Y'."""
    bad = []
    # only symbols VMCOREINFO gives by address (mem_section, for one, is given by value)
    by_addr = ("init_uts_ns", "node_online_map", "swapper_pg_dir", "_stext",
               "vmap_area_list", "init_top_pgt", "node_data", "prb")
    for name, addr in sorted(vmcoreinfo_symbols(info).items()):
        if name not in by_addr:
            continue
        try:
            got = prog.symbol(name).address
        except LookupError:
            continue
        if got != addr:
            bad.append("%s: core %#x, vmlinux %#x" % (name, addr, got))
    m = re.search(r"^OSRELEASE=(.*)$", info, re.M)
    if m:
        try:
            rel = prog["init_uts_ns"].name.release.string_().decode()
        except (LookupError, FaultError):
            rel = None
        if rel is not None and rel != m.group(1):
            bad.append("release: core %s, memory says %s" % (m.group(1), rel))
    return bad


# ---- opening --------------------------------------------------------------------------------

def attach_core(prog, core):
    """Point prog at the vmcore file core; -> its VMCOREINFO text ("" when none)."""
    if not os.path.isfile(core):
        raise LrsError("vmcore %s: no such file" % core)
    info = ""
    elf = read_elf_core(core)
    if elf is not None:
        phdrs, info, size = elf
        missing = core_truncation(phdrs, size)
        if missing:
            raise LrsError("vmcore %s: truncated, %d bytes of memory missing at the end"
                           % (core, missing))
    try:
        prog.set_core_dump(core)
    except (drgn.MissingDebugInfoError, ValueError, OSError) as e:
        raise LrsError("vmcore %s: %s" % (core, e))
    return info


def attach_live(prog):
    """Point prog at the running kernel; -> its VMCOREINFO text ("" when unreadable)."""
    if not os.path.exists("/proc/kcore"):
        raise LrsError("live kernel: /proc/kcore is missing (CONFIG_PROC_KCORE off); "
                       "use -c VMCORE -s VMLINUX")
    try:
        prog.set_kernel()
    except (OSError, ValueError) as e:
        raise LrsError("live kernel: %s" % e)
    elf = read_elf_core("/proc/kcore") if os.access("/proc/kcore", os.R_OK) else None
    return elf[1] if elf else ""


def has_core_types(prog):
    try:
        prog.type("struct task_struct")
        return True
    except LookupError:
        return False


def load_debug_info(prog, symbols):
    """vmlinux's debug info from the files `symbols`, else from the usual places."""
    try:
        if symbols:
            prog.load_debug_info(symbols, default=False)
        else:
            prog.load_default_debug_info()
    except drgn.MissingDebugInfoError as e:
        # drgn lists every module it lacks; only vmlinux matters here
        if "kernel" in str(e) and "vmlinux" in str(e) or not has_core_types(prog):
            raise LrsError("debug info: %s" % str(e).splitlines()[0])
    except (OSError, ValueError) as e:
        raise LrsError("debug info: %s" % e)
    if not has_core_types(prog):
        raise LrsError("debug info: no vmlinux types found (give -s VMLINUX)")


def open_kernel(core=None, symbols=None):
    """A drgn Program for the vmcore `core` (None: the live kernel) with debug info from the
    vmlinux files `symbols`."""
    for path in symbols or []:
        if not os.path.isfile(path):
            raise LrsError("vmlinux %s: no such file" % path)
    prog = drgn.Program()
    info = attach_core(prog, core) if core else attach_live(prog)
    load_debug_info(prog, symbols)
    if info:
        bad = check_match(prog, info)
        if bad:
            raise LrsError("vmlinux does not match the kernel: " + "; ".join(bad[:3]))
    return prog


def get_program(prog, args):
    """The drgn CLI's prog when the script runs under it, else one opened from -c and -s."""
    return prog if prog is not None else open_kernel(args.core, args.symbols)

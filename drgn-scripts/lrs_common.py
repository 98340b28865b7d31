"""Shared helpers of lruscope's drgn scripts: opening a program, memcgs, lruvecs, folios.

Runs on drgn 0.0.22 (Debian 12) and newer. Nothing here prints to stdout: scripts print their
JSON or table, diagnostics go to stderr. Functions that read kernel memory take a `warnings`
list where it makes sense: on a live kernel a structure can change under the walk, and a
FaultError is caught per item, recorded there, and the walk goes on.
"""

import argparse
import json
import os
import re
import struct
import sys
import time

import drgn
from drgn import FaultError, Object, cast, container_of

SCHEMA = 1
LIST_POISON1 = 0xdead000000000100  # list_del() poison (x86_64 POISON_POINTER_DELTA)


class LrsError(Exception):
    """A fault that stops a script: printed as one clear line, exit 1."""


# ---- opening the kernel ---------------------------------------------------------------------

def add_source_args(parser):
    parser.add_argument("-c", "--core", metavar="VMCORE",
                        help="vmcore to read (default: the live kernel, /proc/kcore)")
    parser.add_argument("-s", "--symbols", metavar="VMLINUX", action="append",
                        help="vmlinux with debug info (default: search the usual places)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


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
    """-> (phdrs, vmcoreinfo text, file size); phdrs as (type, flags, off, va, pa, filesz,
    memsz). Raises LrsError for a file that is not a readable ELF64 core."""
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


def open_program(args):
    """A drgn Program for args.core (or the live kernel) with debug info from args.symbols."""
    for path in args.symbols or []:
        if not os.path.isfile(path):
            raise LrsError("vmlinux %s: no such file" % path)
    prog = drgn.Program()
    info = ""
    if args.core:
        if not os.path.isfile(args.core):
            raise LrsError("vmcore %s: no such file" % args.core)
        elf = read_elf_core(args.core)
        if elf is not None:
            phdrs, info, size = elf
            missing = core_truncation(phdrs, size)
            if missing:
                raise LrsError("vmcore %s: truncated, %d bytes of memory missing at the end"
                               % (args.core, missing))
        try:
            prog.set_core_dump(args.core)
        except (drgn.MissingDebugInfoError, ValueError, OSError) as e:
            raise LrsError("vmcore %s: %s" % (args.core, e))
    else:
        if not os.path.exists("/proc/kcore"):
            raise LrsError("live kernel: /proc/kcore is missing (CONFIG_PROC_KCORE off); "
                           "use -c VMCORE -s VMLINUX")
        try:
            prog.set_kernel()
        except (OSError, ValueError) as e:
            raise LrsError("live kernel: %s" % e)
        elf = read_elf_core("/proc/kcore") if os.access("/proc/kcore", os.R_OK) else None
        info = elf[1] if elf else ""
    try:
        if args.symbols:
            prog.load_debug_info(args.symbols, default=False)
        else:
            prog.load_default_debug_info()
    except drgn.MissingDebugInfoError as e:
        # drgn lists every module it lacks; only vmlinux matters here
        if "kernel" in str(e) and "vmlinux" in str(e) or not _has_core_types(prog):
            raise LrsError("debug info: %s" % str(e).splitlines()[0])
    except (OSError, ValueError) as e:
        raise LrsError("debug info: %s" % e)
    if not _has_core_types(prog):
        raise LrsError("debug info: no vmlinux types found (give -s VMLINUX)")
    if info:
        bad = check_match(prog, info)
        if bad:
            raise LrsError("vmlinux does not match the kernel: " + "; ".join(bad[:3]))
    return prog


def _has_core_types(prog):
    try:
        prog.type("struct task_struct")
        return True
    except LookupError:
        return False


def run(main, prog=None, argv=None):
    """Entry point: run main(prog, argv) and turn LrsError into exit 1. `prog` is given when
    the script runs under the drgn CLI."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        return main(prog, argv)
    except LrsError as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


def get_program(prog, args):
    return prog if prog is not None else open_program(args)


def emit_json(obj, out=sys.stdout):
    json.dump(obj, out, indent=None, separators=(",", ":"))
    out.write("\n")


def kernel_release(prog):
    try:
        return prog["UTS_RELEASE"].string_().decode()
    except (LookupError, FaultError):
        try:
            return prog["init_uts_ns"].name.release.string_().decode()
        except (LookupError, FaultError):
            return "unknown"


def fault_text(what, e):
    return "%s: %s" % (what, e)


# ---- types and constants --------------------------------------------------------------------

def has_member(type_, name):
    type_ = type_.unqualified()
    while type_.kind in (drgn.TypeKind.TYPEDEF, drgn.TypeKind.POINTER):
        type_ = type_.type
    try:
        type_.member(name)
        return True
    except LookupError:
        return False


def offsetof(prog, typename, member):
    return drgn.offsetof(prog.type(typename), member)


def lru_lists(prog):
    """[(index, name)] of enum lru_list: inactive_anon, active_anon, inactive_file,
    active_file, unevictable."""
    names = ["inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable"]
    out = []
    for n in names:
        try:
            out.append((prog.constant("LRU_" + n.upper()).value_(), n))
        except LookupError:
            pass
    return out


def page_flag_bits(prog):
    bits = {}
    for n in ("PG_lru", "PG_active", "PG_unevictable", "PG_swapbacked", "PG_head", "PG_slab"):
        try:
            bits[n] = prog.constant(n).value_()
        except LookupError:
            pass
    return bits


def folio_lru(flags, bits, lru_index):
    """The LRU list a folio's flags put it on (folio_lru_list())."""
    if flags & (1 << bits["PG_unevictable"]):
        return lru_index["unevictable"]
    base = "anon" if flags & (1 << bits["PG_swapbacked"]) else "file"
    state = "active" if flags & (1 << bits["PG_active"]) else "inactive"
    return lru_index[state + "_" + base]


def decode_qspinlock(val):
    """A queued spinlock word (NR_CPUS < 16K layout): locked byte, pending byte, tail
    (index in bits 16-17, cpu + 1 in bits 18-31)."""
    tail = (val >> 16) & 0xffff
    return {"raw": val & 0xffffffff, "locked": (val & 0xff) != 0,
            "pending": ((val >> 8) & 0xff) != 0,
            "tail_cpu": ((tail >> 2) - 1) if tail else None,
            "tail_idx": (tail & 3) if tail else None}


def lock_busy(state):
    return bool(state["locked"] or state["pending"] or state["tail_cpu"] is not None)


# ---- memory layout: struct page array and nodes -------------------------------------------

class MemMap:
    """pfn <-> struct page address and pfn -> node, read once."""

    def __init__(self, prog):
        self.prog = prog
        page = prog.type("struct page")
        self.page_size_bytes = page.size
        try:
            self.base = prog["vmemmap"].value_()  # SPARSEMEM_VMEMMAP (x86_64)
        except (LookupError, KeyError):
            self.base = prog["mem_map"].value_()  # FLATMEM, as old kernels and tests
        self.nodes = node_ranges(prog)

    def pfn_of(self, page_addr):
        return (page_addr - self.base) // self.page_size_bytes

    def page_of(self, pfn):
        return self.base + pfn * self.page_size_bytes

    def node_of_pfn(self, pfn):
        for nid, start, end in self.nodes:
            if start <= pfn < end:
                return nid
        return None


def online_nodes(prog):
    """Online node ids: node_states[N_ONLINE] when present, else every non-NULL node_data[],
    else node 0 (contig_page_data, !NUMA)."""
    try:
        from drgn.helpers.linux.nodemask import for_each_online_node
        return list(for_each_online_node(prog))
    except (LookupError, KeyError, AttributeError, ImportError, drgn.ObjectAbsentError):
        pass
    try:
        nd = prog["node_data"]
        return [i for i in range(len(nd)) if nd[i].value_()]
    except (LookupError, KeyError):
        return [0]


def node_data(prog, nid):
    try:
        return prog["node_data"][nid]
    except (LookupError, KeyError):
        return prog["contig_page_data"].address_of_()


def node_ranges(prog):
    """[(nid, start_pfn, end_pfn)] of online nodes."""
    out = []
    for nid in online_nodes(prog):
        pgdat = node_data(prog, nid)
        start = pgdat.node_start_pfn.value_()
        out.append((nid, start, start + pgdat.node_spanned_pages.value_()))
    return out


# ---- memcgs ---------------------------------------------------------------------------------

def cgroup_kn_id(kn):
    # kernfs_node.id became a plain u64 in 5.5 ("kernfs: combine ino/id lookup functions");
    # before it was union kernfs_node_id { struct { u32 ino, generation; }; u64 id; }.
    idv = kn.id
    if idv.type_.type_name().startswith("union"):
        return idv.ino.value_()
    return idv.value_()


def memcg_enabled(prog):
    try:
        return bool(prog["root_mem_cgroup"].value_())
    except (LookupError, KeyError):
        return False


def memcg_tree(prog, warnings):
    """Every memcg, parents before children: dicts with addr, path, memcg_id (cgroup id,
    kernfs id), css_id (mem_cgroup_id()), parent_id, depth, online, obj."""
    root = prog["root_mem_cgroup"]
    css_online = 1 << 1  # CSS_ONLINE
    try:
        css_online = prog.constant("CSS_ONLINE").value_()  # a mask: CSS_ONLINE = (1 << 1)
    except LookupError:
        pass
    out = []
    memcg_type = prog.type("struct mem_cgroup")
    css_type = prog.type("struct cgroup_subsys_state")
    sibling_off = drgn.offsetof(css_type, "sibling")
    children_off = drgn.offsetof(css_type, "children")
    css_off = drgn.offsetof(memcg_type, "css")
    stack = [(root.value_(), "/", 0, 0)]
    while stack:
        addr, path, parent_id, depth = stack.pop()
        try:
            memcg = Object(prog, memcg_type, address=addr)
            css = memcg.css
            cgrp = css.cgroup
            mid = cgroup_kn_id(cgrp.kn)
            try:
                css_id = memcg.id.id.value_()
            except AttributeError:
                css_id = css.id.value_()  # before 4.6 the memcg id was the css id
            online = bool(css.flags.value_() & css_online)
            out.append({"addr": addr, "path": path, "memcg_id": mid, "css_id": css_id,
                        "parent_id": parent_id, "depth": depth, "online": online,
                        "obj": memcg})
            # children: css->children list linked through css->sibling
            head = addr + css_off + children_off
            node = prog.read_u64(head)
            kids = []
            n = 0
            while node != head:
                child_css = node - sibling_off
                child = child_css - css_off
                kn = Object(prog, memcg_type, address=child).css.cgroup.kn
                name = kn.name.string_().decode("utf-8", "replace")
                kids.append((child, (path.rstrip("/") + "/" + name), mid, depth + 1))
                node = prog.read_u64(node)
                n += 1
                if n > 1 << 20:
                    raise FaultError("children list does not end", node)
            stack.extend(reversed(kids))
        except FaultError as e:
            warnings.append(fault_text("memcg %s at %#x" % (path, addr), e))
    return out


def memcg_by_addr(memcgs):
    return {m["addr"]: m for m in memcgs}


def lruvec_info(prog, memcg, nid, lru_idx):
    """(lruvec object, lock address, counters {list name: pages} or None) of memcg on nid."""
    pn = memcg.nodeinfo[nid]
    lruvec = pn.lruvec
    if has_member(lruvec.type_, "lru_lock"):
        lock = lruvec.lru_lock.address_of_().value_()  # 5.11+: per memcg per node
    else:
        # before 5.11 ("mm/lru: replace pgdat lru_lock with lruvec lock") one lock per node
        pgdat = node_data(prog, nid)
        lock = pgdat.lru_lock.address_of_().value_()
    counts = None
    if has_member(pn.type_, "lru_zone_size"):
        zs = pn.lru_zone_size
        counts = {}
        nzones = len(zs)
        for i, name in lru_idx:
            counts[name] = sum(zs[z][i].value_() for z in range(nzones))
    elif has_member(pn.type_, "lru_size"):
        counts = {name: pn.lru_size[i].value_() for i, name in lru_idx}
    return lruvec, lock, counts


# ---- walking LRU lists ----------------------------------------------------------------------

class FolioReader:
    """Reads the fields of folios (or pages, before 5.16) by raw offsets: fast enough for
    hundreds of thousands of folios with drgn's Python API."""

    def __init__(self, prog):
        self.prog = prog
        try:
            t = prog.type("struct folio")  # 5.16: "mm: Introduce struct folio"
        except LookupError:
            t = prog.type("struct page")
        self.type = t
        self.lru_off = drgn.offsetof(t, "lru")
        self.flags_off = drgn.offsetof(t, "flags")
        page = prog.type("struct page")
        self.page_size_bytes = page.size
        # 5.11 ("mm: memcontrol: Use helpers to read page's memcg data"): memcg_data with
        # flag bits; 3.19 to 5.10: page->mem_cgroup.
        if has_member(page, "memcg_data"):
            self.memcg_off = drgn.offsetof(page, "memcg_data")
            self.memcg_mask = ~0x7 & (2**64 - 1)
            self.kmem_flag = 0x2  # MEMCG_DATA_KMEM
            self.objcgs_flag = 0x1  # MEMCG_DATA_OBJCGS
        elif has_member(page, "mem_cgroup"):
            self.memcg_off = drgn.offsetof(page, "mem_cgroup")
            self.memcg_mask = 2**64 - 1
            self.kmem_flag = self.objcgs_flag = 0
        else:
            self.memcg_off = None
        try:
            self.objcg_memcg_off = offsetof(prog, "struct obj_cgroup", "memcg")
        except LookupError:
            self.objcg_memcg_off = None
        self.bits = page_flag_bits(prog)
        # number of pages of a large folio
        if has_member(t, "_folio_nr_pages"):
            self.nr_off, self.nr_kind = drgn.offsetof(t, "_folio_nr_pages"), "u32"  # 6.0-6.5
        elif has_member(t, "_folio_order"):
            self.nr_off, self.nr_kind = drgn.offsetof(t, "_folio_order"), "order8"
        elif has_member(t, "_flags_1"):
            self.nr_off, self.nr_kind = drgn.offsetof(t, "_flags_1"), "order8"  # 6.6+
        elif has_member(page, "compound_order"):
            self.nr_off = self.page_size_bytes + drgn.offsetof(page, "compound_order")
            self.nr_kind = "order8"
        else:
            self.nr_off, self.nr_kind = None, None

    def memcg_of(self, folio):
        """Address of the folio's memcg, 0 when none."""
        if self.memcg_off is None:
            return 0
        data = self.prog.read_u64(folio + self.memcg_off)
        if data & self.objcgs_flag:
            return 0
        ptr = data & self.memcg_mask
        if ptr and data & self.kmem_flag and self.objcg_memcg_off is not None:
            return self.prog.read_u64(ptr + self.objcg_memcg_off)
        return ptr

    def memcg_data(self, folio):
        return self.prog.read_u64(folio + self.memcg_off) if self.memcg_off is not None else 0

    def flags(self, folio):
        return self.prog.read_u64(folio + self.flags_off)

    def nr_pages(self, folio, flags):
        if not flags & (1 << self.bits.get("PG_head", 63)) or self.nr_off is None:
            return 1
        if self.nr_kind == "u32":
            return self.prog.read_u32(folio + self.nr_off)
        return 1 << self.prog.read_u8(folio + self.nr_off)


def walk_list(prog, head, reader, max_folios, visit=None):
    """Walk one LRU list: (folios, pages, complete). visit(folio, flags, nr) is called for
    each folio. A FaultError propagates: the caller records it."""
    if prog.read_u64(head) == LIST_POISON1:
        raise ListPoisoned()
    node = prog.read_u64(head)
    folios = pages = 0
    while node != head:
        if folios >= max_folios:
            return folios, pages, False
        folio = node - reader.lru_off
        flags = reader.flags(folio)
        nr = reader.nr_pages(folio, flags)
        if visit is not None:
            visit(folio, flags, nr)
        folios += 1
        pages += nr
        node = prog.read_u64(node)
    return folios, pages, True


class ListPoisoned(Exception):
    """The list head was list_del()ed: 6.1's lruvec_init() poisons the unevictable list
    (unevictable folios are not kept on a list since 5.x "mm/munlock: ..."; 6.1 uses it for
    mlock_count)."""


def mglru_enabled(lruvec):
    # 6.1 "mm: multi-gen LRU": when on, folios live in lrugen.folios[gen][type][zone]
    try:
        return bool(lruvec.lrugen.enabled.value_())
    except AttributeError:
        return False


def mglru_heads(lruvec, lru_index):
    """[(list name, head address)] of a multi-gen lruvec: the two youngest generations count
    as active (lru_gen_is_active()), the others inactive."""
    lrugen = lruvec.lrugen
    folios = lrugen.folios
    ngen = len(folios)
    max_seq = lrugen.max_seq.value_()
    young = {max_seq % ngen, (max_seq - 1) % ngen}
    out = []
    for gen in range(ngen):
        for type_ in range(len(folios[gen])):
            base = "file" if type_ else "anon"
            name = ("active_" if gen in young else "inactive_") + base
            for zone in range(len(folios[gen][type_])):
                out.append((name, folios[gen][type_][zone].address_of_().value_()))
    return out


def lruvec_heads(lruvec, lru_idx):
    """[(list name, head address)] to walk for one lruvec."""
    if mglru_enabled(lruvec):
        return mglru_heads(lruvec, dict((n, i) for i, n in lru_idx))
    return [(name, lruvec.lists[i].address_of_().value_()) for i, name in lru_idx]


def fmt_addr(a):
    return "0x%x" % a


def now_ns():
    return time.monotonic_ns() if hasattr(time, "monotonic_ns") else int(time.monotonic() * 1e9)


def base_parser(description):
    p = argparse.ArgumentParser(description=description)
    add_source_args(p)
    return p

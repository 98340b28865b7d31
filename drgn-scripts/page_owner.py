#!/usr/bin/python3
"""Who owns physical memory: pages per memcg for each range of PFNs.

For each bucket of --bucket pages of each node, the number of pages charged to each memcg,
as JSON the UI draws as a memory map coloured by memcg. Ownership is read the way the
kernel at hand stores it, and the output says which way it used:

  memcg_data        folio->memcg_data, flag bits in the low bits          5.11 and later
  mem_cgroup        page->mem_cgroup                                      3.19 to 5.10
  page_cgroup_ptr   page->page_cgroup                                     2.6.25 to 2.6.26
  page_cgroup       page_cgroup arrays via lookup_page_cgroup(), per
                    mem_section (SPARSEMEM) or per node (FLATMEM)         2.6.27 to 3.18
  page_cgroup_radix the radix tree of page_cgroup (2.6.25-rc5-mm1 patch)

  page_owner.py [-c VMCORE -s VMLINUX] [--json] [--bucket PAGES]
"""

import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import drgn  # noqa: E402
from drgn import FaultError, Object  # noqa: E402

import lrs_common as lc  # noqa: E402

KMEM = "kmem"


def parse_args(argv):
    p = lc.base_parser(__doc__.splitlines()[0])
    p.add_argument("--bucket", type=int, default=512,
                   help="pages per PFN range (default %(default)s)")
    p.add_argument("--section-size-bits", type=int, default=None,
                   help="SECTION_SIZE_BITS for page_cgroup per mem_section (default: from "
                        "the kernel, else 27 as x86_64)")
    p.add_argument("--no-buckets", action="store_true", help="totals only")
    return p.parse_args(argv)


def method_of(prog):
    """Which way this kernel records a page's memcg."""
    page = prog.type("struct page")
    if lc.has_member(page, "memcg_data"):
        # 5.11 "mm: memcontrol: Use helpers to read page's memcg data"
        return "memcg_data"
    if lc.has_member(page, "mem_cgroup"):
        # 3.19 "mm: page_cgroup: rename file to mm/swap_cgroup.c": page->mem_cgroup
        return "mem_cgroup"
    if lc.has_member(page, "page_cgroup"):
        # 2.6.25 memory controller: a page_cgroup pointer (bit 0 a lock) in struct page
        return "page_cgroup_ptr"
    try:
        prog.type("struct page_cgroup_head")
        prog["root_dir"]
        # 2.6.25-rc5-mm1 "radix-tree page cgroup" RFC: per-node radix trees of chunks
        return "page_cgroup_radix"
    except (LookupError, KeyError):
        pass
    try:
        prog.type("struct page_cgroup")
        # 2.6.27 "memcg: allocate all page_cgroup at boot": lookup_page_cgroup()
        return "page_cgroup"
    except LookupError:
        raise lc.LrsError("this kernel records no memcg for pages (no memcg_data, "
                          "mem_cgroup or page_cgroup)")


# ---- page_cgroup generations ----------------------------------------------------------------

def pcg_used_test(prog):
    """A function flags -> bool for PCG_USED. Until 3.16 the PCG_* enumerators are bit
    numbers (PCG_LOCK first); 3.17 "mm: memcontrol: rewrite charge API" made them masks."""
    try:
        used = prog.constant("PCG_USED").value_()
    except LookupError:
        return None
    try:
        prog.constant("PCG_LOCK")
        return lambda flags: bool(flags & (1 << used))
    except LookupError:
        return lambda flags: bool(flags & used)


class PageCgroupReader:
    """memcg of a pfn from a struct page_cgroup (any of the three page_cgroup layouts)."""

    def __init__(self, prog, method, section_size_bits):
        self.prog = prog
        self.method = method
        pc = prog.type("struct page_cgroup")
        self.pc_size = pc.size
        self.memcg_off = drgn.offsetof(pc, "mem_cgroup")
        self.flags_off = drgn.offsetof(pc, "flags") if lc.has_member(pc, "flags") else None
        self.refcnt_off = (drgn.offsetof(pc, "ref_cnt") if lc.has_member(pc, "ref_cnt")
                           else None)
        self.used = pcg_used_test(prog)
        if method == "page_cgroup":
            try:
                self.per_section = lc.has_member(prog.type("struct mem_section"),
                                                 "page_cgroup")
            except LookupError:
                self.per_section = False  # FLATMEM: one array per node
            if self.per_section:
                if section_size_bits is None:
                    try:
                        section_size_bits = prog["SECTION_SIZE_BITS"].value_()
                    except (LookupError, KeyError):
                        section_size_bits = 27  # x86_64
                page_shift = (prog["PAGE_SIZE"].value_()).bit_length() - 1
                self.pfn_section_shift = section_size_bits - page_shift
                ms = prog["mem_section"]
                self.ms_type = prog.type("struct mem_section")
                # SPARSEMEM_EXTREME: mem_section is an array of pointers to roots
                self.extreme = ms.type_.kind == drgn.TypeKind.POINTER or (
                    ms.type_.kind == drgn.TypeKind.ARRAY
                    and ms.type_.type.kind == drgn.TypeKind.POINTER)
                if self.extreme:
                    self.per_root = prog["PAGE_SIZE"].value_() // self.ms_type.size
                else:
                    self.per_root = ms.type_.type.length if ms.type_.type.kind == \
                        drgn.TypeKind.ARRAY else 1
                self.pcg_off = drgn.offsetof(self.ms_type, "page_cgroup")
        elif method == "page_cgroup_radix":
            head = prog.type("struct page_cgroup_head").member("pc").type
            self.chunk = head.length
            self.chunk_shift = self.chunk.bit_length() - 1
            node_t = prog.type("struct radix_tree_node")
            self.slots_off = drgn.offsetof(node_t, "slots")
            nslots = node_t.member("slots").type.length
            self.map_shift = nslots.bit_length() - 1
            self.height_off = drgn.offsetof(node_t, "height")
            root_t = prog.type("struct radix_tree_root")
            self.rnode_off = drgn.offsetof(root_t, "rnode")
            self.root_node_off = lc.offsetof(prog, "struct page_cgroup_root", "root_node")
            self.root_dir = prog["root_dir"]

    def pc_addr(self, pfn, nid, node_start):
        """Address of the page_cgroup of pfn, or 0 when it has none."""
        read = self.prog.read_u64
        if self.method == "page_cgroup":
            if self.per_section:
                nr = pfn >> self.pfn_section_shift
                root, idx = nr // self.per_root, nr % self.per_root
                ms = self.prog["mem_section"]
                if self.extreme:
                    base = read(ms.address_of_().value_() + root * 8) if \
                        ms.type_.kind == drgn.TypeKind.ARRAY else read(ms.value_() + root * 8)
                    if not base:
                        return 0
                else:
                    base = ms.address_of_().value_() + root * self.per_root * self.ms_type.size
                sec = base + idx * self.ms_type.size
                arr = read(sec + self.pcg_off)
                # the array pointer is biased so that section->page_cgroup + pfn is the entry
                return (arr + pfn * self.pc_size) & (2**64 - 1) if arr else 0
            arr = lc.node_data(self.prog, nid).node_page_cgroup.value_()
            return arr + (pfn - node_start) * self.pc_size if arr else 0
        # radix tree (2.6.25 layout: height in the node, bit 0 of rnode marks a node)
        root = self.root_dir[nid].value_()
        if not root:
            return 0
        idx = pfn >> self.chunk_shift
        node = read(root + self.root_node_off + self.rnode_off)
        if not node:
            return 0
        if not node & 1:
            head = node if idx == 0 else 0
        else:
            node &= ~1
            height = self.prog.read_u32(node + self.height_off)
            if idx >> (height * self.map_shift) and height * self.map_shift < 64:
                return 0
            shift = (height - 1) * self.map_shift
            while height > 0:
                slot = (idx >> shift) & ((1 << self.map_shift) - 1)
                node = read(node + self.slots_off + 8 * slot)
                if not node:
                    return 0
                shift -= self.map_shift
                height -= 1
            head = node
        if not head:
            return 0
        return head + (pfn & (self.chunk - 1)) * self.pc_size

    def memcg(self, pc):
        read = self.prog.read_u64
        memcg = read(pc + self.memcg_off)
        if not memcg:
            return 0
        if self.used is not None and self.flags_off is not None:
            if not self.used(read(pc + self.flags_off)):
                return 0
        elif self.refcnt_off is not None and self.prog.read_u32(pc + self.refcnt_off) == 0:
            return 0
        return memcg


# ---- counting -------------------------------------------------------------------------------

def classify_memcg_data(data, kmem_flag, objcgs_flag, mask):
    """(memcg or objcg pointer, kind) of a memcg_data word; kind in user, kmem, slab, none."""
    if not data:
        return 0, "none"
    if objcgs_flag and data & objcgs_flag:
        return 0, "slab"
    ptr = data & mask
    if kmem_flag and data & kmem_flag:
        return ptr, "kmem"
    return ptr, "user"


class Counter:
    def __init__(self):
        self.totals = {}      # memcg addr -> {node: pages}
        self.kmem = {}        # memcg addr -> pages
        self.buckets = []
        self.unreadable = 0

    def add(self, bucket, memcg, nid, n=1):
        t = self.totals.setdefault(memcg, {})
        t[nid] = t.get(nid, 0) + n
        bucket[memcg] = bucket.get(memcg, 0) + n


def count_struct_pages(prog, method, mm, bucket_pages, warnings, want_buckets):
    """Ownership from struct page (memcg_data, mem_cgroup, page_cgroup pointer)."""
    reader = lc.FolioReader(prog)
    page = prog.type("struct page")
    psize = page.size
    flags_off = drgn.offsetof(page, "flags")
    # tail pages: compound_head with bit 0 set (2.6.x had PG_tail / first_page instead)
    ch_off = drgn.offsetof(page, "compound_head") if lc.has_member(page, "compound_head") \
        else None
    if method == "page_cgroup_ptr":
        memcg_off = drgn.offsetof(page, "page_cgroup")
        mask, kmem_flag, objcgs_flag = ~1 & (2**64 - 1), 0, 0
        pc_memcg_off = lc.offsetof(prog, "struct page_cgroup", "mem_cgroup")
    else:
        memcg_off = reader.memcg_off
        mask, kmem_flag, objcgs_flag = reader.memcg_mask, reader.kmem_flag, reader.objcgs_flag
        pc_memcg_off = None
    objcg_off = reader.objcg_memcg_off
    c = Counter()
    objcg_cache = {}
    for nid, start, end in mm.nodes:
        for b0 in range(start - start % bucket_pages, end, bucket_pages):
            lo, hi = max(b0, start), min(b0 + bucket_pages, end)
            bucket = {}
            try:
                raw = prog.read(mm.page_of(lo), (hi - lo) * psize)
            except FaultError as e:
                c.unreadable += hi - lo
                if not e.address or len(warnings) < 50:
                    warnings.append(lc.fault_text("pfn %d-%d" % (lo, hi - 1), e))
                raw = None
            if raw is not None:
                for i in range(hi - lo):
                    o = i * psize
                    data, = struct.unpack_from("<Q", raw, o + memcg_off)
                    if ch_off is not None and not data:
                        head, = struct.unpack_from("<Q", raw, o + ch_off)
                        if head & 1:  # a tail page: its head's owner
                            try:
                                data = prog.read_u64(head - 1 + memcg_off)
                            except FaultError:
                                data = 0
                    ptr, kind = classify_memcg_data(data, kmem_flag, objcgs_flag, mask)
                    if kind in ("none", "slab"):
                        continue
                    if pc_memcg_off is not None:
                        ptr = prog.read_u64(ptr + pc_memcg_off)
                        if not ptr:
                            continue
                    if kind == "kmem":
                        if ptr not in objcg_cache:
                            try:
                                objcg_cache[ptr] = prog.read_u64(ptr + objcg_off)
                            except (FaultError, TypeError):
                                objcg_cache[ptr] = 0
                        ptr = objcg_cache[ptr]
                        c.kmem[ptr] = c.kmem.get(ptr, 0) + 1
                        continue
                    c.add(bucket, ptr, nid)
            if want_buckets:
                c.buckets.append((lo, nid, bucket))
    return c


def count_page_cgroups(prog, method, mm, bucket_pages, warnings, want_buckets, ssb):
    r = PageCgroupReader(prog, method, ssb)
    c = Counter()
    for nid, start, end in mm.nodes:
        for b0 in range(start - start % bucket_pages, end, bucket_pages):
            lo, hi = max(b0, start), min(b0 + bucket_pages, end)
            bucket = {}
            for pfn in range(lo, hi):
                try:
                    pc = r.pc_addr(pfn, nid, start)
                    memcg = r.memcg(pc) if pc else 0
                except FaultError as e:
                    c.unreadable += 1
                    if len(warnings) < 50:
                        warnings.append(lc.fault_text("page_cgroup of pfn %d" % pfn, e))
                    continue
                if memcg:
                    c.add(bucket, memcg, nid)
            if want_buckets:
                c.buckets.append((lo, nid, bucket))
    return c


def memcg_names(prog, warnings):
    """memcg address -> {path, memcg_id}; empty when this kernel's cgroups can't be read."""
    try:
        return {m["addr"]: m for m in lc.memcg_tree(prog, warnings)}
    except (LookupError, KeyError, AttributeError, FaultError, TypeError) as e:
        warnings.append("memcg names unavailable: %s" % e)
        return {}


def owner_key(names, addr):
    m = names.get(addr)
    return m["path"] if m else "memcg@0x%x" % addr


def result(prog, method, c, names, mm, bucket_pages):
    memcgs = []
    for addr in sorted(set(c.totals) | set(c.kmem)):
        m = names.get(addr, {})
        by_node = c.totals.get(addr, {})
        memcgs.append({"memcg": owner_key(names, addr), "memcg_id": m.get("memcg_id"),
                       "addr": lc.fmt_addr(addr), "pages": sum(by_node.values()),
                       "pages_by_node": {str(k): v for k, v in sorted(by_node.items())},
                       "kmem_pages": c.kmem.get(addr, 0)})
    return {"schema": lc.SCHEMA, "kernel": lc.kernel_release(prog), "method": method,
            "bucket_pages": bucket_pages, "page_size": prog["PAGE_SIZE"].value_(),
            "nodes": [{"node": n, "start_pfn": s, "end_pfn": e} for n, s, e in mm.nodes],
            "memcgs": memcgs, "unreadable_pages": c.unreadable,
            "buckets": [{"start_pfn": lo, "node": nid,
                         "pages": {owner_key(names, a): n for a, n in sorted(b.items())}}
                        for lo, nid, b in c.buckets]}


def page_owner(prog, args, warnings):
    method = method_of(prog)
    mm = lc.MemMap(prog)
    want = not args.no_buckets
    if method in ("page_cgroup", "page_cgroup_radix"):
        c = count_page_cgroups(prog, method, mm, args.bucket, warnings, want,
                               args.section_size_bits)
    else:
        c = count_struct_pages(prog, method, mm, args.bucket, warnings, want)
    names = memcg_names(prog, warnings) if lc.memcg_enabled(prog) else {}
    res = result(prog, method, c, names, mm, args.bucket)
    res["warnings"] = warnings
    return res


def format_table(res):
    lines = ["method: %s, %d-page buckets" % (res["method"], res["bucket_pages"]),
             "%-32s %8s %10s %s" % ("MEMCG", "ID", "KMEM", "PAGES (by node)")]
    for m in res["memcgs"]:
        lines.append("%-32s %8s %10d %d (%s)" % (
            m["memcg"], "-" if m["memcg_id"] is None else m["memcg_id"], m["kmem_pages"],
            m["pages"], " ".join("N%s=%d" % kv for kv in m["pages_by_node"].items())))
    if res["unreadable_pages"]:
        lines.append("%d pages unreadable" % res["unreadable_pages"])
    for w in res["warnings"]:
        lines.append("warning: " + w)
    return "\n".join(lines)


def main(prog, argv):
    args = parse_args(argv)
    if args.bucket <= 0:
        raise lc.LrsError("--bucket must be positive")
    prog = lc.get_program(prog, args)
    res = page_owner(prog, args, [])
    if args.json:
        lc.emit_json(res)
    else:
        print(format_table(res))
    return 0


if __name__ == "__main__":
    sys.exit(lc.run(main, globals().get("prog")))

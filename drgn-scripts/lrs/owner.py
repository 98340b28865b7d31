"""Pages per memcg and node, and per bucket of PFNs, read the way the kernel at hand records
a page's memcg: memcg_data (5.11+), mem_cgroup (3.19-5.10), page_cgroup_ptr (2.6.25-26),
page_cgroup (2.6.27-3.18) or page_cgroup_radix; page_owner.py's help has the table."""

import struct

import drgn
from drgn import FaultError

from lrs import SCHEMA, LrsError
from lrs.folio import FolioReader
from lrs.kernel import MemMap, has_member, kernel_release, offsetof
from lrs.memcg import memcg_by_addr, memcg_enabled, memcg_tree
from lrs.output import fault_text, fmt_addr
from lrs.pagecgroup import PageCgroupReader


def method_of(prog):
    """Which way this kernel records a page's memcg."""
    page = prog.type("struct page")
    if has_member(page, "memcg_data"):
        # 5.11 "mm: memcontrol: Use helpers to read page's memcg data"
        return "memcg_data"
    if has_member(page, "mem_cgroup"):
        # 3.19 "mm: page_cgroup: rename file to mm/swap_cgroup.c": page->mem_cgroup
        return "mem_cgroup"
    if has_member(page, "page_cgroup"):
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
        raise LrsError("this kernel records no memcg for pages (no memcg_data, "
                       "mem_cgroup or page_cgroup)")


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


def pfn_buckets(mm, bucket_pages):
    """(nid, node start pfn, lo, hi) of every bucket of every node (pure)."""
    for nid, start, end in mm.nodes:
        for b0 in range(start - start % bucket_pages, end, bucket_pages):
            yield nid, start, max(b0, start), min(b0 + bucket_pages, end)


class PageMemcg:
    """A page's memcg from its struct page: memcg_data, mem_cgroup or a page_cgroup pointer."""

    def __init__(self, prog, method):
        self.prog = prog
        reader = FolioReader(prog)
        page = prog.type("struct page")
        self.psize = page.size
        # tail pages: compound_head with bit 0 set (2.6.x had PG_tail / first_page instead)
        self.ch_off = (drgn.offsetof(page, "compound_head")
                       if has_member(page, "compound_head") else None)
        if method == "page_cgroup_ptr":
            # 2.6.25: page->page_cgroup, bit 0 a lock
            self.memcg_off = drgn.offsetof(page, "page_cgroup")
            self.mask, self.kmem_flag, self.objcgs_flag = ~1 & (2**64 - 1), 0, 0
            self.pc_memcg_off = offsetof(prog, "struct page_cgroup", "mem_cgroup")
        else:
            self.memcg_off = reader.memcg_off
            self.mask, self.kmem_flag, self.objcgs_flag = (reader.memcg_mask, reader.kmem_flag,
                                                           reader.objcgs_flag)
            self.pc_memcg_off = None
        self.objcg_off = reader.objcg_memcg_off
        self.objcg_memcg = {}  # obj_cgroup address -> its memcg, read once

    def data(self, raw, o):
        """The memcg word of the struct page at raw[o:], its head's for a tail page."""
        data, = struct.unpack_from("<Q", raw, o + self.memcg_off)
        if self.ch_off is not None and not data:
            head, = struct.unpack_from("<Q", raw, o + self.ch_off)
            if head & 1:  # a tail page: its head's owner
                try:
                    data = self.prog.read_u64(head - 1 + self.memcg_off)
                except FaultError:
                    data = 0
        return data

    def of(self, raw, o):
        """(memcg address, kind) of the struct page at raw[o:]: kind user or kmem, else
        (0, none) or (0, slab). A FaultError propagates."""
        ptr, kind = classify_memcg_data(self.data(raw, o), self.kmem_flag, self.objcgs_flag,
                                        self.mask)
        if kind in ("none", "slab"):
            return 0, kind
        if self.pc_memcg_off is not None:
            ptr = self.prog.read_u64(ptr + self.pc_memcg_off)
            if not ptr:
                return 0, "none"
        if kind == "kmem":
            if ptr not in self.objcg_memcg:
                try:
                    self.objcg_memcg[ptr] = self.prog.read_u64(ptr + self.objcg_off)
                except (FaultError, TypeError):
                    self.objcg_memcg[ptr] = 0
            ptr = self.objcg_memcg[ptr]
        return ptr, kind


def count_struct_pages(prog, method, mm, bucket_pages, warnings, want_buckets):
    """Ownership from struct page (memcg_data, mem_cgroup, page_cgroup pointer)."""
    pm = PageMemcg(prog, method)
    c = Counter()
    for nid, _, lo, hi in pfn_buckets(mm, bucket_pages):
        bucket = {}
        try:
            raw = prog.read(mm.page_of(lo), (hi - lo) * pm.psize)
        except FaultError as e:
            c.unreadable += hi - lo
            if not e.address or len(warnings) < 50:
                warnings.append(fault_text("pfn %d-%d" % (lo, hi - 1), e))
            raw = None
        for i in range(hi - lo if raw is not None else 0):
            try:
                ptr, kind = pm.of(raw, i * pm.psize)
            except FaultError as e:
                c.unreadable += 1
                if len(warnings) < 50:
                    warnings.append(fault_text("memcg of pfn %d" % (lo + i), e))
                continue
            if kind == "kmem":
                c.kmem[ptr] = c.kmem.get(ptr, 0) + 1
            elif kind == "user":
                c.add(bucket, ptr, nid)
        if want_buckets:
            c.buckets.append((lo, nid, bucket))
    return c


def count_page_cgroups(prog, method, mm, bucket_pages, warnings, want_buckets, ssb):
    """Ownership from page_cgroup arrays or the page_cgroup radix tree."""
    r = PageCgroupReader(prog, method, ssb)
    c = Counter()
    for nid, start, lo, hi in pfn_buckets(mm, bucket_pages):
        bucket = {}
        for pfn in range(lo, hi):
            try:
                pc = r.pc_addr(pfn, nid, start)
                memcg = r.memcg(pc) if pc else 0
            except FaultError as e:
                c.unreadable += 1
                if len(warnings) < 50:
                    warnings.append(fault_text("page_cgroup of pfn %d" % pfn, e))
                continue
            if memcg:
                c.add(bucket, memcg, nid)
        if want_buckets:
            c.buckets.append((lo, nid, bucket))
    return c


def memcg_names(prog, warnings):
    """memcg address -> {path, memcg_id}; empty when this kernel's cgroups can't be read."""
    try:
        return memcg_by_addr(memcg_tree(prog, warnings))
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
                       "addr": fmt_addr(addr), "pages": sum(by_node.values()),
                       "pages_by_node": {str(k): v for k, v in sorted(by_node.items())},
                       "kmem_pages": c.kmem.get(addr, 0)})
    return {"schema": SCHEMA, "kernel": kernel_release(prog), "method": method,
            "bucket_pages": bucket_pages, "page_size": prog["PAGE_SIZE"].value_(),
            "nodes": [{"node": n, "start_pfn": s, "end_pfn": e} for n, s, e in mm.nodes],
            "memcgs": memcgs, "unreadable_pages": c.unreadable,
            "buckets": [{"start_pfn": lo, "node": nid,
                         "pages": {owner_key(names, a): n for a, n in sorted(b.items())}}
                        for lo, nid, b in c.buckets]}


def page_owner(prog, warnings, bucket=512, buckets=True, section_size_bits=None):
    """Pages per memcg and node, and per bucket of `bucket` pages unless buckets is False.
    section_size_bits overrides the kernel's SECTION_SIZE_BITS for page_cgroup per section."""
    method = method_of(prog)
    mm = MemMap(prog)
    if method in ("page_cgroup", "page_cgroup_radix"):
        c = count_page_cgroups(prog, method, mm, bucket, warnings, buckets, section_size_bits)
    else:
        c = count_struct_pages(prog, method, mm, bucket, warnings, buckets)
    names = memcg_names(prog, warnings) if memcg_enabled(prog) else {}
    res = result(prog, method, c, names, mm, bucket)
    res["warnings"] = warnings
    return res

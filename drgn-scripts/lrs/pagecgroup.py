"""page_cgroup: where kernels 2.6.25 to 3.18 kept a page's memcg, outside struct page.

Three layouts: arrays per mem_section (SPARSEMEM) or per node (FLATMEM) found by
lookup_page_cgroup() (2.6.27 to 3.18), and the per-node radix tree of page_cgroup chunks of
the 2.6.25-rc5-mm1 patch.
"""

import drgn

from lrs.kernel import has_member, node_data, offsetof


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
        self.flags_off = drgn.offsetof(pc, "flags") if has_member(pc, "flags") else None
        self.refcnt_off = (drgn.offsetof(pc, "ref_cnt") if has_member(pc, "ref_cnt")
                           else None)
        self.used = pcg_used_test(prog)
        if method == "page_cgroup":
            try:
                self.per_section = has_member(prog.type("struct mem_section"), "page_cgroup")
            except LookupError:
                self.per_section = False  # FLATMEM: one array per node
            if self.per_section:
                self._init_sections(section_size_bits)
        elif method == "page_cgroup_radix":
            self._init_radix()

    def _init_sections(self, section_size_bits):
        prog = self.prog
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

    def _init_radix(self):
        prog = self.prog
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
        self.root_node_off = offsetof(prog, "struct page_cgroup_root", "root_node")
        self.root_dir = prog["root_dir"]

    def pc_addr(self, pfn, nid, node_start):
        """Address of the page_cgroup of pfn, or 0 when it has none."""
        if self.method == "page_cgroup_radix":
            return self._radix_pc(pfn, nid)
        if self.per_section:
            return self._section_pc(pfn)
        arr = node_data(self.prog, nid).node_page_cgroup.value_()
        return arr + (pfn - node_start) * self.pc_size if arr else 0

    def _section_pc(self, pfn):
        read = self.prog.read_u64
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

    def _radix_pc(self, pfn, nid):
        # radix tree (2.6.25 layout: height in the node, bit 0 of rnode marks a node)
        read = self.prog.read_u64
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

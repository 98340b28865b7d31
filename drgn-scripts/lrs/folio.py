"""Folios (pages before 5.16) read by raw offsets: fast enough for hundreds of thousands of
folios with drgn's Python API."""

import drgn

from lrs.kernel import has_member, offsetof

FLAG_NAMES = ("PG_lru", "PG_active", "PG_unevictable", "PG_swapbacked", "PG_head", "PG_slab")


def page_flag_bits(prog):
    """{flag name: bit number} of the page flags the walkers look at."""
    bits = {}
    for n in FLAG_NAMES:
        try:
            bits[n] = prog.constant(n).value_()
        except LookupError:
            pass
    return bits


def flag_names(flags, bits):
    return [n for n, b in sorted(bits.items(), key=lambda kv: kv[1]) if flags & (1 << b)]


def folio_lru(flags, bits, lru_index):
    """The LRU list a folio's flags put it on (folio_lru_list())."""
    if flags & (1 << bits["PG_unevictable"]):
        return lru_index["unevictable"]
    base = "anon" if flags & (1 << bits["PG_swapbacked"]) else "file"
    state = "active" if flags & (1 << bits["PG_active"]) else "inactive"
    return lru_index[state + "_" + base]


def nr_pages_field(t, page):
    """(offset, kind) of the field giving a large folio's size; kind "u32" (pages) or
    "order8" (a byte holding the order)."""
    if has_member(t, "_folio_nr_pages"):
        return drgn.offsetof(t, "_folio_nr_pages"), "u32"  # 6.0-6.5
    if has_member(t, "_folio_order"):
        return drgn.offsetof(t, "_folio_order"), "order8"
    if has_member(t, "_flags_1"):
        return drgn.offsetof(t, "_flags_1"), "order8"  # 6.6+: the order in _flags_1's low byte
    if has_member(page, "compound_order"):
        # before struct folio: compound_order in the first tail page
        return page.size + drgn.offsetof(page, "compound_order"), "order8"
    return None, None


class FolioReader:
    """The fields of a folio the walkers read: flags, size, memcg."""

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
        self.nr_off, self.nr_kind = nr_pages_field(t, page)

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

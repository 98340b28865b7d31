"""Synthetic kernels with memcgs and lruvecs: what lru.collect(), check.check() and
snapshot.walk() read, laid out in a synthetic.Kernel.

  lruvec_kernel("folios")   6.3+ (and the 6.1 stable series): lrugen.folios[gen][type][zone]
                            of struct folio, lruvec->lru_lock, page->memcg_data
  lruvec_kernel("lists")    6.1 to 6.2 as merged: lrugen.lists[gen][type][zone] of struct
                            page, lruvec->lru_lock, page->memcg_data
  lruvec_kernel("pre-5.11") pgdat->lru_lock, no lruvec->lru_lock, no lrugen, page->mem_cgroup

Each memcg x node lruvec holds a known number of pages on each list (want[(path, node)] =
{list name: pages}). With the multi-gen LRU on, the classic evictable lists are empty, their
lru_zone_size 0, and the generation lists hold the evictable pages; unevictable pages stay on
lruvec->lists[LRU_UNEVICTABLE] in every case.
"""

import drgn

import synthetic as syn

NODES = [(0, 1024), (1024, 1024)]  # (start pfn, pages) of node 0 and node 1
MEMCGS = ["/", "/a", "/b", "/b/c"]
LRU_NAMES = ["inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable"]
NR_GENS, NR_TYPES, NR_ZONES = 4, 2, 3
MAX_SEQ = 5  # young generations: 5 % 4 = 1 and 4 % 4 = 0
PAGE_SIZE_BYTES = 64
PG_LRU, PG_ACTIVE, PG_SWAPBACKED, PG_UNEVICTABLE = 1 << 4, 1 << 5, 1 << 19, 1 << 20


def gen_pages(mi, nid, gen, type_, zone):
    """How many pages memcg number mi keeps on node nid's generation list (some are 0)."""
    return (gen * 3 + type_ * 5 + zone * 2 + mi * 7 + nid) % 6


def classic_pages(mi, nid, lru):
    return (lru * 5 + mi * 3 + nid * 2) % 7


class LruKernel:
    """A synthetic.Kernel with memcgs, nodes, pages and lruvecs; see the module's text."""

    def __init__(self, spelling):
        self.spelling = spelling
        self.k = k = syn.Kernel(size=8 << 20)
        self.prog = k.prog
        self.mglru = spelling in ("folios", "lists")
        self.pre511 = spelling == "pre-5.11"
        syn.page_flags(k)
        k.enum("lru_list", {"LRU_INACTIVE_ANON": 0, "LRU_ACTIVE_ANON": 1,
                            "LRU_INACTIVE_FILE": 2, "LRU_ACTIVE_FILE": 3,
                            "LRU_UNEVICTABLE": 4})
        self.char = k.prog.int_type("char", 1, True)
        self.spinlock = k.struct("spinlock", 4, [("val", k.uint, 0)])
        # pglist_data: the node lock at 16 before 5.11
        members = [("lru_lock", self.spinlock, 16)] if self.pre511 else []
        self.pgdat_type, self.pgdats = syn.nodes(k, members, NODES)
        self.page_types()
        self.lruvec_types()
        self.memcg_types()
        self.next_pfn = [start for start, _ in NODES]
        self.want = {}
        self.memcgs = {}
        self.folio_of = {}  # (path, node) -> addresses of its folios on lists
        self.build_memcgs()

    # -- types
    def page_types(self):
        k = self.k
        owner = ("mem_cgroup", k.void_p) if self.pre511 else ("memcg_data", k.ulong)
        members = [("flags", k.ulong, 0), ("lru", k.list_head, 8), (owner[0], owner[1], 24)]
        self.page = k.struct("page", PAGE_SIZE_BYTES, members)
        if self.spelling == "folios":  # 5.16+: struct folio over struct page
            k.struct("folio", PAGE_SIZE_BYTES, members)
        self.mem_map = k.alloc(sum(n for _, n in NODES) * PAGE_SIZE_BYTES)
        k.const("mem_map", k.ptr(self.page), self.mem_map)

    def lruvec_types(self):
        k = self.k
        lists = k.array(k.list_head, 5)
        members = [("lists", lists, 0)]
        size = 80
        if not self.pre511:
            members.append(("lru_lock", self.spinlock, 80))
            size = 88
        if self.mglru:
            heads = k.array(k.array(k.array(k.list_head, NR_ZONES), NR_TYPES), NR_GENS)
            nr = k.array(k.array(k.array(k.prog.int_type("long", 8, True), NR_ZONES),
                                 NR_TYPES), NR_GENS)
            self.heads_off = 24
            self.nr_off = self.heads_off + drgn.sizeof(heads)
            self.enabled_off = self.nr_off + drgn.sizeof(nr)
            name = "lru_gen_folio" if self.spelling == "folios" else "lru_gen_struct"
            self.lrugen = k.struct(name, self.enabled_off + 8, [
                ("max_seq", k.ulong, 0), ("min_seq", k.array(k.ulong, 2), 8),
                (self.spelling, heads, self.heads_off), ("nr_pages", nr, self.nr_off),
                ("enabled", k.prog.bool_type("bool", 1), self.enabled_off)])
            members.append(("lrugen", self.lrugen, size))
            self.lrugen_off = size
            size += self.lrugen.size
        self.lruvec = k.struct("lruvec", size, members)
        self.zone_size_off = size
        zs = k.array(k.array(k.ulong, 5), NR_ZONES)
        self.pn = k.struct("mem_cgroup_per_node", size + drgn.sizeof(zs),
                           [("lruvec", self.lruvec, 0), ("lru_zone_size", zs, size)])

    def memcg_types(self):
        k = self.k
        self.kn = k.struct("kernfs_node", 16, [("name", k.ptr(self.char), 0),
                                               ("id", k.ulong, 8)])
        self.cgroup = k.struct("cgroup", 8, [("kn", k.ptr(self.kn), 0)])
        self.css = k.struct("cgroup_subsys_state", 48, [
            ("cgroup", k.ptr(self.cgroup), 0), ("sibling", k.list_head, 8),
            ("children", k.list_head, 24), ("flags", k.uint, 40), ("id", k.int, 44)])
        self.memcg_id = k.struct("mem_cgroup_id", 8, [("id", k.int, 0)])
        self.memcg = k.struct("mem_cgroup", 64 + 8 * len(NODES), [
            ("css", self.css, 0), ("id", self.memcg_id, 48),
            ("nodeinfo", k.array(k.ptr(self.pn), len(NODES)), 64)])

    # -- memory
    def list_init(self, head):
        self.k.w64(head, head)
        self.k.w64(head + 8, head)

    def list_add_tail(self, head, node):
        k = self.k
        prev = int.from_bytes(k.mem[head + 8 - syn.BASE:head + 16 - syn.BASE], "little")
        k.w64(node, head)
        k.w64(node + 8, prev)
        k.w64(prev, node)
        k.w64(head + 8, node)

    def string(self, s):
        a = self.k.alloc(len(s) + 1, 8)
        self.k.mem[a - syn.BASE:a - syn.BASE + len(s)] = s.encode()
        return a

    def new_page(self, nid, flags, memcg):
        pfn = self.next_pfn[nid]
        self.next_pfn[nid] += 1
        a = self.mem_map + pfn * PAGE_SIZE_BYTES
        self.k.w64(a, flags)
        self.k.w64(a + 24, memcg)
        return a

    def put_pages(self, head, n, nid, flags, memcg, key):
        for _ in range(n):
            page = self.new_page(nid, flags, memcg)
            self.list_add_tail(head, page + 8)
            self.folio_of.setdefault(key, []).append(page)

    def build_memcgs(self):
        k = self.k
        for mi, path in enumerate(MEMCGS):
            a = k.alloc(self.memcg.size)
            self.memcgs[path] = a
            kn = k.alloc(16)
            k.w64(kn, self.string(path.rsplit("/", 1)[1]))
            k.w64(kn + 8, 100 + mi)  # the cgroup id
            cg = k.alloc(8)
            k.w64(cg, kn)
            k.w64(a, cg)
            self.list_init(a + 8)
            self.list_init(a + 24)
            k.w32(a + 40, 1 << 1)  # CSS_ONLINE
            k.w32(a + 48, mi + 1)  # mem_cgroup_id
            if path != "/":
                parent = self.memcgs[path.rsplit("/", 1)[0] or "/"]
                self.list_add_tail(parent + 24, a + 8)
            for nid in range(len(NODES)):
                pn = k.alloc(self.pn.size)
                k.w64(a + 64 + 8 * nid, pn)
                self.build_lruvec(pn, mi, path, nid)
        root = k.alloc(8)
        k.w64(root, self.memcgs["/"])
        k.var("root_mem_cgroup", k.ptr(self.memcg), root)

    def build_lruvec(self, pn, mi, path, nid):
        k = self.k
        memcg = self.memcgs[path]
        want = {n: 0 for n in LRU_NAMES}
        for lru, name in enumerate(LRU_NAMES):
            self.list_init(pn + 16 * lru)
            if self.mglru and lru != 4:
                continue  # evictable pages are on the generation lists
            n = classic_pages(mi, nid, lru)
            flags = PG_LRU
            flags |= PG_UNEVICTABLE if lru == 4 else 0
            flags |= PG_ACTIVE if lru in (1, 3) else 0
            flags |= PG_SWAPBACKED if lru in (0, 1) else 0
            self.put_pages(pn + 16 * lru, n, nid, flags, memcg, (path, nid))
            k.w64(pn + self.zone_size_off + 8 * ((mi + nid) % NR_ZONES * 5 + lru), n)
            want[name] += n
        if self.mglru:
            lg = pn + self.lrugen_off
            k.w64(lg, MAX_SEQ)
            k.w64(lg + 8, MAX_SEQ - 3)
            k.w64(lg + 16, MAX_SEQ - 3)
            k.mem[lg + self.enabled_off - syn.BASE] = 1
            young = {MAX_SEQ % NR_GENS, (MAX_SEQ - 1) % NR_GENS}
            for gen in range(NR_GENS):
                for type_ in range(NR_TYPES):
                    for zone in range(NR_ZONES):
                        i = (gen * NR_TYPES + type_) * NR_ZONES + zone
                        head = lg + self.heads_off + 16 * i
                        self.list_init(head)
                        n = gen_pages(mi, nid, gen, type_, zone)
                        flags = PG_LRU | (0 if type_ else PG_SWAPBACKED)
                        self.put_pages(head, n, nid, flags, memcg, (path, nid))
                        k.w64(lg + self.nr_off + 8 * i, n)
                        name = (("active_" if gen in young else "inactive_") +
                                ("file" if type_ else "anon"))
                        want[name] += n
        self.want[(path, nid)] = want

    def lock_addr(self, path, nid):
        """Where the lock of path's lruvec on nid lies: in the lruvec, or in the node."""
        if self.pre511:
            return self.pgdats[nid] + 16
        return self.k.prog.read_u64(self.memcgs[path] + 64 + 8 * nid) + 80

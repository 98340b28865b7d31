#!/usr/bin/python3
"""page_owner.py against synthetic kernels of every generation of page -> memcg.

Each case lays out the structures one kernel generation used, writes a known ownership map
(random but seeded, with decoys the walker must not count: uncharged page_cgroups with a
stale memcg, slab pages, kmem pages, tail pages of a compound page), and checks the pages
per memcg and node, the buckets and the method the script reports."""

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "drgn-scripts"))  # the lrs package
sys.path.insert(0, os.path.join(HERE, "..", "lib"))

from lrs_tap import plan, skip  # noqa: E402

CASES = ("memcg_data", "mem_cgroup", "page_cgroup_sparse", "page_cgroup_flat", "radix")
plan(5)	# one check per case

try:
    import drgn  # noqa: F401
except ImportError:
    for case in CASES:
        skip("page_owner %s" % case, "python3-drgn is not installed")
    sys.exit(0)

from lrs import owner  # noqa: E402
import synthetic as syn  # noqa: E402

NODES = [(0, 1024), (1024, 1024)]  # (start pfn, pages) of node 0 and node 1
NPAGES = 2048


def ownership(seed, memcgs):
    """pfn -> memcg address or None, plus the expected {memcg: {node: pages}}."""
    rnd = random.Random(seed)
    own = {}
    for pfn in range(NPAGES):
        own[pfn] = rnd.choice(memcgs + [None, None])
    return own


def expected(own):
    exp = {}
    for pfn, m in own.items():
        if m is None:
            continue
        nid = 0 if pfn < 1024 else 1
        d = exp.setdefault(m, {})
        d[nid] = d.get(nid, 0) + 1
    return exp


def fake_memcgs(k, n=3):
    return [k.alloc(256) for _ in range(n)]


def struct_page(k, members, size=64):
    page = k.struct("page", size, [("flags", k.ulong, 0), ("lru", k.list_head, 8)] + members)
    mem_map = k.alloc(NPAGES * size)
    k.var("mem_map", k.ptr(page), None) if False else None
    k.const("mem_map", k.ptr(page), mem_map)
    return page, mem_map


def case_memcg_data():
    """5.11+: page->memcg_data, MEMCG_DATA_OBJCGS (slab) and MEMCG_DATA_KMEM (objcg)."""
    k = syn.Kernel()
    syn.page_flags(k)
    syn.nodes(k, [], NODES)
    page, mm = struct_page(k, [("compound_head", k.ulong, 8), ("memcg_data", k.ulong, 56)])
    k.struct("obj_cgroup", 64, [("memcg", k.void_p, 24)])
    memcgs = fake_memcgs(k)
    own = ownership(1, memcgs)
    kmem = {}
    for pfn, m in own.items():
        a = mm + pfn * 64
        if m is not None:
            k.w64(a + 56, m)
        elif pfn % 7 == 0:
            k.w64(a + 56, k.alloc(64) | 1)  # slab: a vector of objcgs, not an owner
    # a compound page of 4: head owned by memcgs[0], tails carry compound_head | 1
    head = 100
    for i in range(4):
        own[head + i] = memcgs[0]
        a = mm + (head + i) * 64
        k.w64(a + 56, memcgs[0] if i == 0 else 0)
        if i == 0:
            k.w64(a, 1 << 16)  # PG_head
        else:
            k.w64(a + 8, (mm + head * 64) | 1)
    # kmem pages: objcg -> memcgs[1]; counted apart
    objcg = k.alloc(64)
    k.w64(objcg + 24, memcgs[1])
    for pfn in (1500, 1501, 1502):
        own[pfn] = None
        k.w64(mm + pfn * 64 + 56, objcg | 2)
        kmem[memcgs[1]] = kmem.get(memcgs[1], 0) + 1
    return k, "memcg_data", expected(own), kmem


def case_mem_cgroup():
    """3.19 to 5.10: page->mem_cgroup."""
    k = syn.Kernel()
    syn.page_flags(k)
    syn.nodes(k, [], NODES)
    page, mm = struct_page(k, [("compound_head", k.ulong, 8), ("mem_cgroup", k.void_p, 56)])
    memcgs = fake_memcgs(k)
    own = ownership(2, memcgs)
    for pfn, m in own.items():
        if m is not None:
            k.w64(mm + pfn * 64 + 56, m)
    return k, "mem_cgroup", expected(own), {}


def pc_type(k, layout):
    if layout == "2.6.27":  # flags, mem_cgroup, page, lru
        return k.struct("page_cgroup", 40, [("flags", k.ulong, 0), ("mem_cgroup", k.void_p, 8),
                                            ("page", k.void_p, 16), ("lru", k.list_head, 24)])
    if layout == "3.18":  # flags, mem_cgroup
        return k.struct("page_cgroup", 16, [("flags", k.ulong, 0), ("mem_cgroup", k.void_p, 8)])
    # 2.6.25-rc5-mm1 radix patch: lock, ref_cnt, mem_cgroup, page, lru, flags
    return k.struct("page_cgroup", 48, [("lock", k.uint, 0), ("ref_cnt", k.int, 4),
                                        ("mem_cgroup", k.void_p, 8), ("page", k.void_p, 16),
                                        ("lru", k.list_head, 24), ("flags", k.int, 40)])


def write_pc(k, addr, m, stale, layout):
    """One page_cgroup: charged to m, or uncharged with a stale memcg pointer."""
    if layout == "2.6.27":
        k.w64(addr, (1 << 2) if m else (1 << 1))  # PCG_USED is bit 2 (PCG_LOCK, CACHE, USED)
        k.w64(addr + 8, m or stale)
    elif layout == "3.18":
        k.w64(addr, 0x1 if m else 0x2)  # PCG_USED = 0x01 (a mask), PCG_MEM = 0x02
        k.w64(addr + 8, m or stale)
    else:
        k.w32(addr + 4, 1 if m else 0)  # ref_cnt
        k.w64(addr + 8, m or stale)


def case_page_cgroup_sparse():
    """2.6.27 to 3.18, SPARSEMEM_EXTREME: mem_section roots, section->page_cgroup biased so
    that section->page_cgroup + pfn is the entry (lookup_page_cgroup())."""
    k = syn.Kernel()
    syn.page_flags(k)
    syn.nodes(k, [], NODES)
    struct_page(k, [])
    k.enum("pcg_flags", {"PCG_LOCK": 0, "PCG_CACHE": 1, "PCG_USED": 2})
    pc = pc_type(k, "2.6.27")
    ms = k.struct("mem_section", 32, [("section_mem_map", k.ulong, 0),
                                      ("pageblock_flags", k.void_p, 8),
                                      ("page_cgroup", k.ptr(pc), 16)])
    k.const("SECTION_SIZE_BITS", k.int, 20)  # 256 pages per section
    per_root = 4096 // 32
    nsec = NPAGES // 256
    roots = k.alloc(8 * 8)
    root0 = k.alloc(per_root * 32)
    k.w64(roots, root0)
    k.var("mem_section", k.array(k.ptr(ms), 8), roots)
    memcgs = fake_memcgs(k)
    own = ownership(3, memcgs)
    for s in range(nsec):
        if s == 5:
            for pfn in range(s * 256, (s + 1) * 256):
                own[pfn] = None  # a section without page_cgroup
            continue
        arr = k.alloc(256 * pc.size, 8)
        k.w64(root0 + s * 32 + 16, arr - s * 256 * pc.size)
        for i in range(256):
            pfn = s * 256 + i
            write_pc(k, arr + i * pc.size, own[pfn], memcgs[2], "2.6.27")
    return k, "page_cgroup", expected(own), {}


def case_page_cgroup_flat():
    """FLATMEM (and the 3.17/3.18 mask-style PCG_USED): NODE_DATA(nid)->node_page_cgroup
    + (pfn - node_start_pfn)."""
    k = syn.Kernel()
    syn.page_flags(k)
    k.enum("pcg_flags", {"PCG_USED": 1, "PCG_MEM": 2, "PCG_MEMSW": 4})
    pc = pc_type(k, "3.18")
    arrays = [k.alloc(n * pc.size, 8) for _, n in NODES]
    syn.nodes(k, [("node_page_cgroup", k.ptr(pc), 16)], NODES,
              extra={i: {16: a} for i, a in enumerate(arrays)})
    struct_page(k, [])
    memcgs = fake_memcgs(k)
    own = ownership(4, memcgs)
    for pfn, m in own.items():
        nid = 0 if pfn < 1024 else 1
        write_pc(k, arrays[nid] + (pfn - NODES[nid][0]) * pc.size, m, memcgs[0], "3.18")
    return k, "page_cgroup", expected(own), {}


def case_radix():
    """2.6.25-rc5-mm1 "radix-tree page cgroup": root_dir[nid] -> radix tree of chunks of
    PCGRP_SIZE page_cgroups, indexed by pfn >> PCGRP_SHIFT (2.6.25 radix tree: height in
    the node, bit 0 of rnode marks an indirect pointer)."""
    k = syn.Kernel()
    syn.page_flags(k)
    syn.nodes(k, [], NODES)
    struct_page(k, [])
    pc = pc_type(k, "radix")
    chunk = 8
    head_t = k.struct("page_cgroup_head", chunk * pc.size, [("pc", k.array(pc, chunk), 0)])
    nslots = 64
    rnode_t = k.struct("radix_tree_node", 16 + 16 + nslots * 8,
                       [("height", k.uint, 0), ("count", k.uint, 4),
                        ("slots", k.array(k.void_p, nslots), 32)])
    rroot_t = k.struct("radix_tree_root", 16, [("height", k.uint, 0), ("gfp_mask", k.uint, 4),
                                               ("rnode", k.ptr(rnode_t), 8)])
    root_t = k.struct("page_cgroup_root", 24, [("tree_lock", k.uint, 0),
                                               ("root_node", rroot_t, 8)])
    root_dir = k.alloc(8 * 4)
    k.var("root_dir", k.array(k.ptr(root_t), 4), root_dir)
    memcgs = fake_memcgs(k)
    own = ownership(5, memcgs)
    # node 0: chunks 0..127 (height 2: 128 > 64 slots); node 1: chunks 128..255 (height 2)
    for nid, (start, n) in enumerate(NODES):
        root = k.alloc(24)
        k.w64(root_dir + 8 * nid, root)
        height = 2
        top = k.alloc(rnode_t.size, 8)
        k.w32(top, height)
        k.w64(root + 8 + 8, top | 1)
        k.w32(root + 8, height)
        leaves = {}
        for idx in range(start // chunk, (start + n) // chunk):
            if idx % 16 == 3:  # chunk never allocated: its pages have no page_cgroup
                for pfn in range(idx * chunk, (idx + 1) * chunk):
                    own[pfn] = None
                continue
            hi, lo = idx >> 6, idx & 63
            if hi not in leaves:
                leaves[hi] = k.alloc(rnode_t.size, 8)
                k.w32(leaves[hi], 1)
                k.w64(top + 32 + 8 * hi, leaves[hi])
            head = k.alloc(head_t.size, 8)
            k.w64(leaves[hi] + 32 + 8 * lo, head)
            for i in range(chunk):
                pfn = idx * chunk + i
                write_pc(k, head + i * pc.size, own[pfn], memcgs[1], "radix")
    return k, "page_cgroup_radix", expected(own), {}


def run_case(build):
    k, method, exp, kmem = build()
    warnings = []
    res = owner.page_owner(k.prog, warnings, bucket=256)
    probs = []
    if res["method"] != method:
        probs.append("method %s, want %s" % (res["method"], method))
    got = {int(m["addr"], 16): {int(n): v for n, v in m["pages_by_node"].items()}
           for m in res["memcgs"] if m["pages"]}
    if got != exp:
        probs.append("pages per memcg and node %s, want %s" % (got, exp))
    got_kmem = {int(m["addr"], 16): m["kmem_pages"] for m in res["memcgs"] if m["kmem_pages"]}
    if got_kmem != kmem:
        probs.append("kmem %s, want %s" % (got_kmem, kmem))
    total = sum(sum(b["pages"].values()) for b in res["buckets"])
    if total != sum(sum(d.values()) for d in exp.values()):
        probs.append("buckets hold %d pages" % total)
    if len(res["buckets"]) != NPAGES // 256:
        probs.append("%d buckets, want %d" % (len(res["buckets"]), NPAGES // 256))
    if warnings or res["unreadable_pages"]:
        probs.append("warnings %s, unreadable %d" % (warnings, res["unreadable_pages"]))
    if not exp:
        probs.append("the case owns nothing: it would prove nothing")
    return probs


def main():
    failed = 0
    for build in (case_memcg_data, case_mem_cgroup, case_page_cgroup_sparse,
                  case_page_cgroup_flat, case_radix):
        name = "page_owner %s: %s" % (build.__name__[5:], build.__doc__.split(":")[0]
                                      .split("\n")[0])
        try:
            probs = run_case(build)
        except Exception as e:  # a crash in the walker is a failure, with its reason
            probs = ["%s: %s" % (type(e).__name__, e)]
        if probs:
            failed += 1
            print("not ok - %s: %s" % (name, "; ".join(probs)))
        else:
            print("ok - %s" % name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

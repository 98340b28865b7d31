"""Types, nodes and the struct page array of the kernel at hand."""

import drgn
from drgn import FaultError


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


def kernel_release(prog):
    try:
        return prog["UTS_RELEASE"].string_().decode()
    except (LookupError, FaultError):
        try:
            return prog["init_uts_ns"].name.release.string_().decode()
        except (LookupError, FaultError):
            return "unknown"


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


class MemMap:
    """pfn <-> struct page address and pfn -> node, read once."""

    def __init__(self, prog):
        self.prog = prog
        self.page_size_bytes = prog.type("struct page").size
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

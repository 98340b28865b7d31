"""Memory cgroups: every memcg with its path, cgroup id (kernfs id) and css id."""

import drgn
from drgn import FaultError, Object

from lrs import LrsError
from lrs.output import fault_text

MAX_CHILDREN = 1 << 20  # a children list longer than this is taken as corrupt


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


def require_memcg(prog):
    if not memcg_enabled(prog):
        raise LrsError("memory cgroups are disabled or absent in this kernel "
                       "(no root_mem_cgroup)")


def css_online_mask(prog):
    try:
        return prog.constant("CSS_ONLINE").value_()  # a mask: CSS_ONLINE = (1 << 1)
    except LookupError:
        return 1 << 1


def memcg_css_id(memcg):
    try:
        return memcg.id.id.value_()
    except AttributeError:
        return memcg.css.id.value_()  # before 4.6 the memcg id was the css id


def children(prog, memcg_type, addr, path, css_off, sibling_off, children_off):
    """[(address, path)] of the memcg at addr's children: css->children linked through
    css->sibling. A FaultError propagates."""
    head = addr + css_off + children_off
    node = prog.read_u64(head)
    kids = []
    while node != head:
        child = node - sibling_off - css_off
        kn = Object(prog, memcg_type, address=child).css.cgroup.kn
        name = kn.name.string_().decode("utf-8", "replace")
        kids.append((child, path.rstrip("/") + "/" + name))
        node = prog.read_u64(node)
        if len(kids) > MAX_CHILDREN:
            raise FaultError("children list does not end", node)
    return kids


def memcg_tree(prog, warnings):
    """Every memcg, parents before children: dicts with addr, path, memcg_id (cgroup id,
    kernfs id), css_id (mem_cgroup_id()), parent_id, depth, online, obj."""
    css_online = css_online_mask(prog)
    memcg_type = prog.type("struct mem_cgroup")
    css_type = prog.type("struct cgroup_subsys_state")
    offs = (drgn.offsetof(memcg_type, "css"), drgn.offsetof(css_type, "sibling"),
            drgn.offsetof(css_type, "children"))
    out = []
    stack = [(prog["root_mem_cgroup"].value_(), "/", 0, 0)]
    while stack:
        addr, path, parent_id, depth = stack.pop()
        try:
            memcg = Object(prog, memcg_type, address=addr)
            mid = cgroup_kn_id(memcg.css.cgroup.kn)
            out.append({"addr": addr, "path": path, "memcg_id": mid,
                        "css_id": memcg_css_id(memcg), "parent_id": parent_id,
                        "depth": depth,
                        "online": bool(memcg.css.flags.value_() & css_online),
                        "obj": memcg})
            kids = children(prog, memcg_type, addr, path, *offs)
            stack.extend((a, p, mid, depth + 1) for a, p in reversed(kids))
        except FaultError as e:
            warnings.append(fault_text("memcg %s at %#x" % (path, addr), e))
    return out


def memcg_by_addr(memcgs):
    return {m["addr"]: m for m in memcgs}


def under(memcgs, path):
    """The memcgs at path and below it (all of them when path is empty)."""
    if not path:
        return memcgs
    root = path.rstrip("/") or "/"
    return [m for m in memcgs
            if m["path"] == root or m["path"].startswith(root.rstrip("/") + "/")]

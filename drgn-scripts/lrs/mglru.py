"""The multi-gen LRU (6.1 "mm: multi-gen LRU"): its lists and its page counters.

When lrugen.enabled is set, a lruvec's evictable folios sit on lrugen's generation lists
[gen][type][zone] instead of lruvec->lists. Two spellings of those lists exist, told apart by
the member the type has (never by version):

  lrugen.lists[gen][type][zone]   6.1 as first merged: struct page linked through page->lru
  lrugen.folios[gen][type][zone]  6.3 "mm: multi-gen LRU: rename lrugen->lists[] to
                                  lrugen->folios[]" (the 6.1 stable series has it too)

Both link through the same `lru` member. The two youngest generations count as active
(lru_gen_is_active()); type 0 is anon, 1 file (folio_is_file_lru()).
"""

from lrs.kernel import has_member

GEN_LIST_MEMBERS = ("folios", "lists")


def mglru_enabled(lruvec):
    try:
        return bool(lruvec.lrugen.enabled.value_())
    except AttributeError:
        return False


def gen_lists(lrugen):
    """lrugen's [gen][type][zone] array of list heads, whichever its name."""
    for name in GEN_LIST_MEMBERS:
        if has_member(lrugen.type_, name):
            return getattr(lrugen, name)
    raise LookupError("%s has neither folios nor lists" % lrugen.type_.type_name())


def young_gens(lrugen, ngen):
    """The generations lru_gen_is_active() calls active: max_seq and max_seq - 1."""
    max_seq = lrugen.max_seq.value_()
    return {max_seq % ngen, (max_seq - 1) % ngen}


def list_name(gen, type_, young):
    return ("active_" if gen in young else "inactive_") + ("file" if type_ else "anon")


def mglru_heads(lruvec):
    """[(list name, head address)] of every generation list of a multi-gen lruvec."""
    lrugen = lruvec.lrugen
    lists = gen_lists(lrugen)
    ngen = len(lists)
    young = young_gens(lrugen, ngen)
    out = []
    for gen in range(ngen):
        for type_ in range(len(lists[gen])):
            name = list_name(gen, type_, young)
            for zone in range(len(lists[gen][type_])):
                out.append((name, lists[gen][type_][zone].address_of_().value_()))
    return out


def mglru_counters(lruvec):
    """{list name: pages} of lrugen.nr_pages[gen][type][zone], the multi-gen LRU's own
    counters: lru_gen_update_size() keeps the memcg's lru_zone_size out of it (it updates
    the lruvec statistics, memory.stat, but not mem_cgroup_per_node.lru_zone_size)."""
    lrugen = lruvec.lrugen
    nr = lrugen.nr_pages
    ngen = len(nr)
    young = young_gens(lrugen, ngen)
    out = {}
    for gen in range(ngen):
        for type_ in range(len(nr[gen])):
            name = list_name(gen, type_, young)
            out[name] = out.get(name, 0) + sum(nr[gen][type_][z].value_()
                                               for z in range(len(nr[gen][type_])))
    return out

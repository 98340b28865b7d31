/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which lock a wait is on, part of lockstat.bpf.c (one object: fill() runs it
 * inline on every wait, and it needs the core's struct pending): a memcg's
 * lruvec lock, a node's own lruvec, or before 5.11 a node's pgdat->lru_lock.
 * compat: the 5.10 hooks' variant, which learns no pgdat (no
 * compare-and-exchange in their programs).
 */

/*
 * Each node's pglist_data, learnt from the first lruvec lock classified on it.
 * Once every node's is known, a lock whose would-be lruvec->pgdat is none of
 * them is rejected without reading through that pointer: for most locks it is
 * not a pointer at all, and a probe read of a random address is the costly
 * part of classify() (115 of 290 ns a contention_begin here).
 */
__u64 known_pgdat[LOCKSTAT_MAX_NODES] = {};
__u32 known_nodes = 0;

static __always_inline void learn_pgdat(int node, struct pglist_data *pgdat)
{
	__u64 *slot;
	__u32 i = (__u32)node;

	if (node < 0 || node >= LOCKSTAT_MAX_NODES)
		return;
	/* keep the mask: clang drops it after the range check, and the verifier needs it */
	asm volatile("" : "+r"(i));
	slot = &known_pgdat[i & (LOCKSTAT_MAX_NODES - 1)];
	/* two CPUs may learn it at once: only the one that fills the slot counts it */
	if (!*slot && __sync_val_compare_and_swap(slot, 0, (__u64)pgdat) == 0)
		__sync_fetch_and_add(&known_nodes, 1);
}

/* The node of pgdat if it is a known one; -1 if not; -2 while not all are known. */
static __always_inline int known_node(struct pglist_data *pgdat)
{
	if (known_nodes < nr_nodes)
		return -2;
	for (int n = 0; n < LOCKSTAT_MAX_NODES; n++) {
		if ((__u32)n >= nr_nodes)
			break;
		if (known_pgdat[n] == (__u64)pgdat)
			return n;
	}
	return -1;
}

/* Before 5.11 the LRU lock is the node's: pgdat->lru_lock (CO-RE flavour of the old layout). */
struct pglist_data___old {
	spinlock_t lru_lock;
	int node_id;
} __attribute__((preserve_access_index));

/* &node_data[0] from kallsyms (user space sets it where lruvecs have no lock of their own) */
const volatile __u64 node_data_addr = 0;

/*
 * Is lock a node's pgdat->lru_lock? The would-be pgdat's node_id must lead
 * back to it through node_data[]: a random lock never closes that cycle.
 */
static __always_inline void classify_node_lock(struct pending *p, void *lock, const bool compat)
{
	struct pglist_data___old *pgdat =
		(void *)((char *)lock - bpf_core_field_offset(struct pglist_data___old, lru_lock));
	__u64 back = 0;
	int node;

	if (!node_data_addr)
		return;
	node = known_node((struct pglist_data *)pgdat);
	if (node == -1)
		return;
	if (node == -2) {
		node = BPF_CORE_READ(pgdat, node_id);
		if (node < 0 || node >= LOCKSTAT_MAX_NODES || (__u32)node >= nr_nodes)
			return;
		if (bpf_probe_read_kernel(&back, sizeof(back),
					  (void *)(node_data_addr + (__u64)node * sizeof(__u64))) ||
		    back != (__u64)pgdat)
			return;
		if (!compat)
			learn_pgdat(node, (struct pglist_data *)pgdat);
	}
	p->kind = LOCK_KIND_NODE_LOCK;
	p->owner_node = node;
}

/*
 * Is lock the lru_lock of a memcg's lruvec? Follow lock -> lruvec ->
 * mem_cgroup_per_node -> memcg -> nodeinfo[node] and accept only if it leads
 * back to the same mem_cgroup_per_node: a random lock never closes that cycle.
 * Reads are probe reads: a lock that is not an lruvec's reads harmlessly.
 */
static __always_inline void classify(struct pending *p, void *lock, const bool compat)
{
	struct mem_cgroup_per_node *pn, *back = NULL;
	struct lruvec *lruvec;
	struct pglist_data *pgdat;
	struct mem_cgroup *memcg;
	int node;

	p->kind = LOCK_KIND_OTHER;
	p->owner_cgid = 0;
	p->owner_node = -1;

	/* before the per-memcg lock, no field offset of its layout may be relocated */
	if (!bpf_core_field_exists(struct lruvec, lru_lock)) {
		classify_node_lock(p, lock, compat);
		return;
	}
	lruvec = (void *)((char *)lock - bpf_core_field_offset(struct lruvec, lru_lock));
	pn = (void *)((char *)lruvec - bpf_core_field_offset(struct mem_cgroup_per_node, lruvec));
	pgdat = BPF_CORE_READ(lruvec, pgdat);
	if (!pgdat)
		return;
	node = known_node(pgdat);
	if (node == -1)
		return;
	if (node == -2)
		node = BPF_CORE_READ(pgdat, node_id);
	if (node < 0 || node >= LOCKSTAT_MAX_NODES || (__u32)node >= nr_nodes)
		return;
	/* pgdat->__lruvec: the node's own lruvec (all of it when memcg is off) */
	if ((char *)pgdat + bpf_core_field_offset(struct pglist_data, __lruvec) == (char *)lruvec) {
		p->kind = LOCK_KIND_NODE_LRUVEC;
		p->owner_node = node;
		if (!compat)
			learn_pgdat(node, pgdat);
		return;
	}
	memcg = BPF_CORE_READ(pn, memcg);
	if (!memcg)
		return;
	if (bpf_core_read(&back, sizeof(back), &memcg->nodeinfo[node]) || back != pn)
		return;
	p->kind = LOCK_KIND_LRUVEC;
	p->owner_node = node;
	p->owner_cgid = BPF_CORE_READ(memcg, css.cgroup, kn, id);
	if (!compat)
		learn_pgdat(node, pgdat);
}

/*
 * The classification cache: a small direct-mapped table per CPU (in
 * cpu_pending, already at hand) of the locks this CPU classified last. A
 * workload contends on few locks, again and again: a hit costs two loads and a
 * compare where classify() costs one probe read for a foreign lock and five
 * for an lruvec's (about 40% of a contention_begin's run time in the lab
 * guest). A lock's classification holds while its memory does: an lruvec
 * lives as long as its memcg. Only a freed memcg whose memory comes back as
 * another lock could make an entry wrong, so entries are made in a
 * generation that user space moves on every interval: none outlives the
 * interval after the one it was made in.
 */
/* check mode (a test, not for production): every hit is classified again and compared */
const volatile bool classify_check = false;
__u32 classify_gen = 0;
__u64 classify_hits = 0;       /* check mode: hits whose slow classification agreed */
__u64 classify_mismatches = 0; /* check mode: hits whose slow classification differed */
__u64 classify_misses = 0;     /* check mode: classified by classify() */
/*
 * check mode: entries of a spinlock that classify() found to be an lruvec's or a
 * node's, taken over by a sleeping lock's wait in their generation (each costs
 * at most one more classify() on that lock's next wait here)
 */
__u64 classify_sleeping_evictions = 0;
__u64 classify_sleeping_misses = 0; /* check mode: sleeping locks' waits not in the cache */

static __always_inline struct class_entry *class_slot(struct pending_stack *cs, __u64 addr)
{
	/* locks are 4-byte aligned, in objects tens to thousands of bytes apart */
	__u32 i = (__u32)((addr >> 4) ^ (addr >> 10) ^ (addr >> 16));

	return &cs->class_cache[i & (CLASS_CACHE_SLOTS - 1)];
}

/*
 * A sleeping lock (a mutex, an rwsem) is never an lru_lock: it is not
 * classified, only cached, for its slot in lock_stats (lockstat.bpf.c).
 */
static __always_inline void classify_cached(struct pending *p, void *lock, struct pending_stack *cs,
					    bool sleeping, const bool compat)
{
	/*
	 * the address as a number: read back from the map (fill stored it), as an
	 * fentry hook's lock is a BTF pointer, on which shifts are refused
	 */
	__u64 addr = *(volatile __u64 *)&p->lock_addr;
	struct class_entry *e = class_slot(cs, addr);
	__u32 gen = classify_gen;

	if (e->lock_addr == addr && e->gen == gen) {
		if (!classify_check || sleeping) {
			p->kind = e->kind;
			p->owner_cgid = e->owner_cgid;
			p->owner_node = e->owner_node;
			p->slot = e->slot;
			return;
		}
		/* the wait takes the fresh classification; the hit is only compared */
		classify(p, lock, compat);
		if (p->kind == e->kind && p->owner_cgid == e->owner_cgid &&
		    p->owner_node == e->owner_node) {
			__sync_fetch_and_add(&classify_hits, 1);
			p->slot = e->slot;
			return;
		}
		/* counted once: the entry takes the fresh classification */
		__sync_fetch_and_add(&classify_mismatches, 1);
	} else if (sleeping) {
		if (classify_check) {
			__sync_fetch_and_add(&classify_sleeping_misses, 1);
			if (e->gen == gen && e->kind != LOCK_KIND_OTHER)
				__sync_fetch_and_add(&classify_sleeping_evictions, 1);
		}
		p->kind = LOCK_KIND_OTHER;
		p->owner_cgid = 0;
		p->owner_node = -1;
	} else {
		classify(p, lock, compat);
		if (classify_check)
			__sync_fetch_and_add(&classify_misses, 1);
	}
	e->lock_addr = addr;
	e->owner_cgid = p->owner_cgid;
	e->owner_node = (__s16)p->owner_node;
	e->kind = (__u16)p->kind;
	e->gen = gen;
	/* the first end of this lock's wait here finds its slot (remember_slot) */
	p->slot = SLOT_NONE;
	e->slot = SLOT_NONE;
}

/* A lock's slot, for the next waits on this CPU: its cache entry if it still has it. */
static __always_inline void remember_slot(struct pending_stack *cs, const struct lock_key *key,
					  __u32 slot)
{
	struct class_entry *e = class_slot(cs, key->lock_addr);

	if (e->lock_addr == key->lock_addr && e->owner_cgid == key->owner_cgid)
		e->slot = slot;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A waiter's row, part of lockstat.bpf.c (one object: the end of every lruvec
 * wait adds to it inline): its slot in the per-CPU table waiter_counts, taken
 * on the row's first wait and kept in this CPU's small cache of its last
 * waiters, or, once every slot is taken, its entry in the shared waiter_stats.
 * A waiter waits many times in a row on one CPU (the lock of its memcg, for
 * the slice it runs there): the cache turns each of those waits into a
 * compare and two plain adds, where a hash lookup and two atomic adds were.
 */

/* waiter_counts takes new rows; false: every row in waiter_stats */
const volatile bool percpu_waiters = false;
const volatile __u32 waiter_room = 1;
__u64 waiter_slots_taken = 0; /* 64 bits: as slots_taken */

/*
 * A row's slot in waiter_counts, for ever, with its identity: user space
 * reads the rows from here. Preallocated, as lock_slots: a row's first wait
 * inserts here from inside the spinlock slow path.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct waiter_key);
	__type(value, struct waiter_slot);
} waiter_slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct waiter_count);
} waiter_counts SEC(".maps");

/*
 * Check mode (classify_check): every wait counted in a row of waiter_counts is
 * counted here too, by its key; user space compares the two once detached.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct waiter_key);
	__type(value, struct waiter_count);
} waiter_check SEC(".maps");

static __always_inline bool waiter_entry_is(const struct waiter_entry *e,
					    const struct waiter_key *wk)
{
	return e->pid == wk->pid && e->lock_addr == wk->lock_addr &&
	       e->owner_cgid == wk->owner_cgid && e->waiter_cgid == wk->waiter_cgid;
}

/*
 * The row's slot in waiter_counts: this CPU's cache, else waiter_slots, else
 * a new one (its identity in waiter_slots first: a reader finds the slot only
 * once it is there; another CPU may give the row a slot at the same time,
 * then the row takes that one and this one stays unused). SLOT_NONE when the
 * row is to be counted in waiter_stats: every slot taken, or the insert
 * failed.
 */
static __always_inline __u32 waiter_slot_of(const struct waiter_key *wk, struct pending_stack *cs)
{
	struct waiter_entry *e = &cs->waiter_cache[wk->pid & (WAITER_CACHE_SLOTS - 1)];
	struct waiter_slot *known;

	if (waiter_entry_is(e, wk))
		return e->slot;
	known = bpf_map_lookup_elem(&waiter_slots, wk);
	if (!known) {
		struct waiter_slot init = {};

		init.slot = next_slot(&waiter_slots_taken, waiter_room);
		if (init.slot >= waiter_room) /* all taken, or SLOT_NONE: shared */
			return SLOT_NONE;
		bpf_get_current_comm(init.comm, sizeof(init.comm));
		bpf_map_update_elem(&waiter_slots, wk, &init, BPF_NOEXIST);
		known = bpf_map_lookup_elem(&waiter_slots, wk); /* ours, or the other CPU's */
		if (!known)
			return SLOT_NONE;
	}
	e->lock_addr = wk->lock_addr;
	e->owner_cgid = wk->owner_cgid;
	e->waiter_cgid = wk->waiter_cgid;
	e->pid = wk->pid;
	e->slot = known->slot;
	return e->slot;
}

/* A wait in its waiter's row: this CPU's copy of it, or the shared one. */
static __always_inline void count_waiter(const struct pending *p, __u64 wait,
					 struct pending_stack *cs, const bool compat)
{
	struct waiter_key wk = {
		.lock_addr = p->lock_addr,
		.owner_cgid = p->owner_cgid,
		.waiter_cgid = p->waiter_cgid,
		.pid = p->pid,
	};
	struct waiter_stat *ws;
	__u32 slot;

	/* compat (before 5.19): no compare-and-exchange to take a slot with */
	slot = percpu_waiters && !compat ? waiter_slot_of(&wk, cs) : SLOT_NONE;
	if (slot != SLOT_NONE) {
		struct waiter_count *wc = bpf_map_lookup_elem(&waiter_counts, &slot);

		if (wc) { /* this CPU's copy: plain adds */
			wc->contended++;
			wc->wait_ns += wait;
			if (classify_check) {
				struct waiter_count zero = {};

				wc = map_lookup_or_init(&waiter_check, &wk, &zero,
							&drop_stats_full);
				if (wc) {
					__sync_fetch_and_add(&wc->contended, 1);
					__sync_fetch_and_add(&wc->wait_ns, wait);
				}
			}
			return;
		}
	}
	ws = bpf_map_lookup_elem(&waiter_stats, &wk);
	if (!ws) {
		struct waiter_stat init = { .waiter_cgid = p->waiter_cgid };

		bpf_get_current_comm(init.comm, sizeof(init.comm));
		ws = map_lookup_or_init(&waiter_stats, &wk, &init, &drop_stats_full);
	}
	if (ws) { /* shared: another CPU may add to it (the task moved) */
		__sync_fetch_and_add(&ws->contended, 1);
		__sync_fetch_and_add(&ws->wait_ns, wait);
	}
}

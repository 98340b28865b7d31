/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A lock's counters, part of lockstat.bpf.c (one object: the end of every wait
 * adds to them inline): its slot in the per-CPU table lock_stats, taken on the
 * lock's first wait and kept beside its classification in each CPU's cache,
 * or, once every slot is taken, its entry in the shared lock_stats_shared.
 */

/* A wait in this CPU's copy of a lock's counters: plain adds. */
static __always_inline void count_wait(struct lock_stat *st, __u64 wait)
{
	st->contended++;
	st->wait_ns += wait;
	st->hist[log2_bucket(wait) & (LOCKSTAT_HIST_BUCKETS - 1)]++;
	if (wait > st->wait_max_ns)
		st->wait_max_ns = wait;
}

/*
 * The next free slot of a per-CPU table of room slots, *taken of them in use
 * (room when none is left, the counter then left as it is: it never wraps),
 * by compare-and-exchange: this object is built for BPF CPUs whose atomic add
 * returns nothing. SLOT_NONE if other CPUs took slots at each of a few tries.
 */
static __always_inline __u32 next_slot(__u64 *taken, __u32 room)
{
#pragma unroll
	for (int try = 0; try < 4; try++) {
		__u64 seen = *taken;

		if (seen >= room)
			return room;
		if (__sync_val_compare_and_swap(taken, seen, seen + 1) == seen)
			return (__u32)seen;
	}
	return SLOT_NONE;
}

/*
 * A new slot in lock_stats for key, its identity in this CPU's copy first (a
 * reader finds the slot only once lock_slots has it). Another CPU may give
 * the lock a slot at the same time: then the lock takes that one, and this
 * one stays unused. NULL with *full set when every slot is taken.
 */
static __always_inline struct lock_stat *take_slot(const struct lock_key *key,
						   const struct lock_stat *init,
						   struct pending_stack *cs, bool *full,
						   const bool compat)
{
	struct lock_stat *st;
	__u32 slot, *known;

	if (compat) { /* no fetching atomic: this CPU's share, cpu + k * nr_cpus */
		slot = cs->compat_slots * nr_cpus + bpf_get_smp_processor_id();
		if (slot >= lock_room) {
			*full = true;
			return NULL;
		}
		cs->compat_slots++;
	} else {
		slot = next_slot(&slots_taken, lock_room);
		if (slot == SLOT_NONE) { /* other CPUs took slots at each try */
			__sync_fetch_and_add(&drop_insert_failed, 1);
			return NULL;
		}
		if (slot >= lock_room) {
			/* a lock that just took the last slot elsewhere is counted there */
			known = bpf_map_lookup_elem(&lock_slots, key);
			if (!known) {
				*full = true;
				return NULL;
			}
			slot = *known;
			goto found;
		}
	}
	st = bpf_map_lookup_elem(&lock_stats, &slot);
	if (!st)
		return NULL;
	*st = *init;
	bpf_map_update_elem(&lock_slots, key, &slot, BPF_NOEXIST);
	known = bpf_map_lookup_elem(&lock_slots, key); /* ours, or the other CPU's */
	if (!known) {
		/* room, but the insert failed: the kernel had no memory at hand */
		__sync_fetch_and_add(&drop_insert_failed, 1);
		return NULL;
	}
	slot = *known;
found:
	remember_slot(cs, key, slot);
	return bpf_map_lookup_elem(&lock_stats, &slot);
}

/*
 * A wait on a lock without a slot in lock_stats: give it one if there is room,
 * else count it in lock_stats_shared (atomic adds; wait_max_ns is a plain
 * store: a concurrent larger wait may be lost, 5.10 has no compare-and-swap).
 * False when the wait could not be counted (counted as a drop).
 */
static __always_inline bool account_shared(struct pending *p, struct lock_key *key, __u64 wait,
					   struct pending_stack *cs, const bool compat)
{
	struct lock_stat *st = shared_locks ? bpf_map_lookup_elem(&lock_stats_shared, key) : NULL;

	if (!st) {
		struct lock_stat init = {
			.flags = p->flags & ~(PENDING_F_WAITING | PENDING_F_SLOWPATH),
			.kind = p->kind,
			.owner_node = p->owner_node,
			.identity = 1,
		};
		if (percpu_locks) {
			bool full = false;
			struct lock_stat *mine = take_slot(key, &init, cs, &full, compat);

			if (mine) {
				count_wait(mine, wait);
				return true;
			}
			if (!full) /* counted by take_slot */
				return false;
		}
		if (!shared_locks) { /* --max-locks all per CPU, and all taken */
			__sync_fetch_and_add(&drop_stats_full, 1);
			return false;
		}
		st = map_lookup_or_init(&lock_stats_shared, key, &init, &drop_stats_full);
		if (!st)
			return false;
	}
	__sync_fetch_and_add(&st->contended, 1);
	__sync_fetch_and_add(&st->wait_ns, wait);
	__sync_fetch_and_add(&st->hist[log2_bucket(wait) & (LOCKSTAT_HIST_BUCKETS - 1)], 1);
	if (wait > st->wait_max_ns)
		st->wait_max_ns = wait;
	return true;
}

/* The lock's counters in lock_stats if it has a slot there: the wait's, or lock_slots'. */
static __always_inline struct lock_stat *
lock_counters(struct pending *p, const struct lock_key *key, struct pending_stack *cs)
{
	__u32 slot = p->slot, *known;

	if (slot == SLOT_NONE) {
		known = bpf_map_lookup_elem(&lock_slots, key);
		if (!known)
			return NULL;
		slot = *known;
		remember_slot(cs, key, slot);
	}
	return bpf_map_lookup_elem(&lock_stats, &slot);
}

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/live/attribute.h"
#include "bpf/lockstat.h"
#include "model/lock_names.h"
#include "model/u64map.h"

/* Append a stack to the snapshot once, symbolized, tracer frames dropped. */
static int add_stack(struct lrs_snapshot *snap, struct u64map *seen, int32_t id,
		     const struct lrs_ksyms *ksyms, const struct lrs_stack_source *src)
{
	uint64_t ips[LRS_STACK_DEPTH];
	struct lrs_stack *st;
	size_t dummy;
	int n;

	if (u64map__get(seen, (uint64_t)(uint32_t)id, &dummy))
		return 0;
	n = src && src->ips ? src->ips(src->ctx, id, ips) : 0;
	st = lrs_snapshot__add_stack(snap);
	if (!st || u64map__set(seen, (uint64_t)(uint32_t)id, snap->nr_stacks - 1))
		return -ENOMEM;
	st->id = id;
	return lrs_stack__symbolize(st, ips, n, ksyms);
}

int lrs_stack__symbolize(struct lrs_stack *st, const uint64_t *ips, int n,
			 const struct lrs_ksyms *ksyms)
{
	st->frames = calloc(n > 0 ? (size_t)n : 1, sizeof(*st->frames));
	if (!st->frames)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		char buf[256];

		lrs_ksyms__format(ksyms, ips[i], buf, sizeof(buf));
		/* leading tracer frames only: the lock's own frames stay */
		if (st->nr_frames == 0 && lrs_frame_is_tracer(buf))
			continue;
		st->frames[st->nr_frames] = strdup(buf);
		if (!st->frames[st->nr_frames])
			return -ENOMEM;
		st->nr_frames++;
	}
	return 0;
}

static int cmp_waiters(const void *a, const void *b)
{
	const struct lrs_waiter *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return x->pid - y->pid;
}

static int cmp_stack_uses(const void *a, const void *b)
{
	const struct lrs_stack_use *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return x->id - y->id;
}

/* Append a use to a lock's list; the caller trims to the top N later. */
static int stack_use__append(struct lrs_stack_use **arr, size_t *nr, const struct lrs_stack_row *r)
{
	if ((*nr & (*nr - 1)) == 0) {
		void *p = realloc(*arr, (*nr ? *nr * 2 : 4) * sizeof(**arr));

		if (!p)
			return -ENOMEM;
		*arr = p;
	}
	(*arr)[*nr].id = r->stack_id;
	(*arr)[*nr].contended = r->contended;
	(*arr)[*nr].wait_ns = r->wait_ns;
	(*nr)++;
	return 0;
}

static void stack_uses__top(struct lrs_stack_use *arr, size_t *nr)
{
	qsort(arr, *nr, sizeof(*arr), cmp_stack_uses);
	if (*nr > LRS_TOP_STACKS)
		*nr = LRS_TOP_STACKS;
}

/* The first frame of the most waited-on stack that is not the lock itself. */
static const char *top_caller(const struct lrs_snapshot *snap, const struct lrs_other_lock *ol)
{
	for (size_t i = 0; i < ol->nr_stacks; i++) {
		const struct lrs_stack *st = lrs_snapshot__find_stack(snap, ol->stacks[i].id);

		for (size_t f = 0; st && f < st->nr_frames; f++)
			if (!lrs_frame_is_lock_internal(st->frames[f]))
				return st->frames[f];
	}
	return NULL;
}

static char *other_lock_name(const struct lrs_lruvec_table *table, const struct lrs_lock_row *r,
			     const struct lrs_ksyms *ksyms, const struct lrs_snapshot *snap,
			     const struct lrs_other_lock *ol)
{
	const char *data, *caller;
	char buf[300];

	if (r->kind == LRS_LOCK_NODE_LRUVEC) {
		snprintf(buf, sizeof(buf), "N%d pgdat->__lruvec", r->owner_node);
		return strdup(buf);
	}
	for (size_t n = 0; n < table->nr_nodes; n++) {
		const struct lrs_node_info *ni = &table->nodes[n];

		if (ni->node_lruvec_lock == r->lock_addr) {
			snprintf(buf, sizeof(buf), "N%d pgdat->__lruvec", ni->node);
			return strdup(buf);
		}
		for (size_t z = 0; z < ni->nr_zones; z++)
			if (ni->zone_lock[z] == r->lock_addr) {
				snprintf(buf, sizeof(buf), "zone N%d/%s", ni->node,
					 ni->zone_name[z][0] ? ni->zone_name[z] : "?");
				return strdup(buf);
			}
	}
	if (r->kind == LRS_LOCK_MMAP)
		return strdup("mmap_lock (the waiter's own mm)");
	data = lrs_ksyms__data_name(ksyms, r->lock_addr);
	if (data)
		return strdup(data);
	caller = top_caller(snap, ol);
	if (caller) {
		/* "spinlock @ __remove_mapping", as perf names locks without symbols */
		size_t len = strcspn(caller, "+");

		snprintf(buf, sizeof(buf), "%s @ %.*s", lrs_lock_type_name(r->flags), (int)len, caller);
		return strdup(buf);
	}
	snprintf(buf, sizeof(buf), "%s 0x%" PRIx64, lrs_lock_type_name(r->flags), r->lock_addr);
	return strdup(buf);
}

int lrs_attribute(const struct lrs_lruvec_table *table, const struct lrs_lockstat_read *rd,
		  const struct lrs_ksyms *ksyms, const struct lrs_stack_source *stacks,
		  struct lrs_path_memory *paths, struct lrs_snapshot *snap)
{
	struct u64map lruvec_index, memcg_index, other_index, stack_seen, addr_index;
	size_t *other_rows = NULL;
	int err = -ENOMEM;

	u64map__init(&lruvec_index);
	u64map__init(&memcg_index);
	u64map__init(&other_index);
	u64map__init(&stack_seen);
	u64map__init(&addr_index);

	if (lrs_path_memory__learn(paths, table))
		goto out;
	for (size_t i = 0; i < table->nr_memcgs; i++)
		if (u64map__set(&memcg_index, table->memcgs[i].cgid, i))
			goto out;

	/* every lruvec, contended or not: the heatmap's rows */
	for (size_t i = 0; i < table->nr_lruvecs; i++) {
		const struct lrs_lruvec_info *li = &table->lruvecs[i];
		const struct lrs_memcg_info *mi = &table->memcgs[li->memcg];
		struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(snap);

		if (!lv || lrs_snapshot__add_node(snap, li->node))
			goto out;
		lv->memcg = strdup(mi->path);
		if (!lv->memcg)
			goto out;
		lv->memcg_id = mi->cgid;
		lv->parent_id = mi->parent_cgid;
		lv->depth = mi->level;
		lv->removed = mi->dying;
		lv->node = li->node;
		lv->lock_addr = li->lock_addr;
		memcpy(lv->lru_pages, li->lru_pages, sizeof(lv->lru_pages));
		if (u64map__set(&lruvec_index, u64map__key2(mi->cgid, (uint64_t)li->node), i))
			goto out;
	}

	other_rows = calloc(rd->nr_locks ? rd->nr_locks : 1, sizeof(*other_rows));
	if (!other_rows)
		goto out;
	for (size_t i = 0; i < rd->nr_locks; i++) {
		const struct lrs_lock_row *r = &rd->locks[i];
		struct lrs_lruvec *lv;
		size_t li;

		if (r->kind == LRS_LOCK_NODE_LOCK) {
			/* before 5.11: the node's one lock, a row of its own (memcg_id 0) */
			uint64_t key = u64map__key2(0, (uint64_t)r->owner_node);

			if (!u64map__get(&lruvec_index, key, &li)) {
				lv = lrs_snapshot__add_lruvec(snap);
				if (!lv || lrs_snapshot__add_node(snap, r->owner_node) ||
				    !(lv->memcg = strdup(LRS_NODE_LOCK_MEMCG)))
					goto out;
				lv->node = r->owner_node;
				lv->lock_addr = r->lock_addr;
				li = snap->nr_lruvecs - 1;
				if (u64map__set(&lruvec_index, key, li))
					goto out;
			}
			lv = &snap->lruvecs[li];
			lv->counters = r->counters;
			continue;
		}
		if (r->kind == LRS_LOCK_LRUVEC) {
			uint64_t key = u64map__key2(r->owner_cgid, (uint64_t)r->owner_node);

			if (!u64map__get(&lruvec_index, key, &li)) {
				/* its memcg is gone: keep its old name, never someone else's */
				const char *old = lrs_path_memory__get(paths, r->owner_cgid);
				char buf[64];

				lv = lrs_snapshot__add_lruvec(snap);
				if (!lv || lrs_snapshot__add_node(snap, r->owner_node))
					goto out;
				snprintf(buf, sizeof(buf), "cgroup-id:%" PRIu64, r->owner_cgid);
				lv->memcg = strdup(old ? old : buf);
				if (!lv->memcg)
					goto out;
				lv->memcg_id = r->owner_cgid;
				lv->node = r->owner_node;
				lv->lock_addr = r->lock_addr;
				lv->removed = true;
				lv->depth = 1;
				li = snap->nr_lruvecs - 1;
				if (u64map__set(&lruvec_index, key, li))
					goto out;
			}
			lv = &snap->lruvecs[li];
			lv->counters.contended += r->counters.contended;
			lv->counters.wait_ns += r->counters.wait_ns;
			if (r->counters.wait_max_ns > lv->counters.wait_max_ns)
				lv->counters.wait_max_ns = r->counters.wait_max_ns;
			for (int b = 0; b < LRS_HIST_BUCKETS; b++)
				lv->counters.hist[b] += r->counters.hist[b];
			continue;
		}
		struct lrs_other_lock *ol = lrs_snapshot__add_other_lock(snap);

		if (!ol)
			goto out;
		ol->lock_addr = r->lock_addr;
		ol->flags = r->flags;
		ol->counters = r->counters;
		other_rows[snap->nr_other_locks - 1] = i;
		if (u64map__set(&other_index, r->lock_addr, snap->nr_other_locks - 1))
			goto out;
	}

	/* waiters and stacks are keyed by (lock address, owner at the time) */
	for (size_t li = 0; li < snap->nr_lruvecs; li++)
		if (u64map__set(&addr_index, u64map__key2(snap->lruvecs[li].lock_addr,
							   snap->lruvecs[li].memcg_id), li))
			goto out;

	/* waiters of lruvec locks: top N by wait per lruvec */
	for (size_t i = 0; i < rd->nr_waiters; i++) {
		const struct lrs_waiter_row *w = &rd->waiters[i];
		struct lrs_lruvec *lv;
		struct lrs_waiter *dst;
		size_t li, mi, n;
		const char *wpath = NULL;

		if (!u64map__get(&addr_index, u64map__key2(w->lock_addr, w->owner_cgid), &li))
			continue;
		lv = &snap->lruvecs[li];
		n = lv->nr_waiters;
		if ((n & (n - 1)) == 0) {
			void *p = realloc(lv->waiters, (n ? n * 2 : 4) * sizeof(*lv->waiters));

			if (!p)
				goto out;
			lv->waiters = p;
		}
		dst = &lv->waiters[lv->nr_waiters++];
		memset(dst, 0, sizeof(*dst));
		dst->pid = (int32_t)w->pid;
		memcpy(dst->comm, w->comm, sizeof(dst->comm));
		dst->memcg_id = w->waiter_cgid;
		dst->contended = w->contended;
		dst->wait_ns = w->wait_ns;
		if (u64map__get(&memcg_index, w->waiter_cgid, &mi))
			wpath = table->memcgs[mi].path;
		else
			wpath = lrs_path_memory__get(paths, w->waiter_cgid);
		if (wpath && !(dst->memcg = strdup(wpath)))
			goto out;
	}
	for (size_t li = 0; li < snap->nr_lruvecs; li++) {
		struct lrs_lruvec *lv = &snap->lruvecs[li];

		qsort(lv->waiters, lv->nr_waiters, sizeof(*lv->waiters), cmp_waiters);
		while (lv->nr_waiters > LRS_TOP_WAITERS)
			free(lv->waiters[--lv->nr_waiters].memcg);
	}

	/* sampled stacks, per lock */
	for (size_t i = 0; i < rd->nr_stacks; i++) {
		const struct lrs_stack_row *s = &rd->stacks[i];
		size_t idx, li;

		/* an lruvec's (a node lock's owner is 0), else another lock's */
		if (u64map__get(&addr_index, u64map__key2(s->lock_addr, s->owner_cgid), &li)) {
			if (stack_use__append(&snap->lruvecs[li].stacks, &snap->lruvecs[li].nr_stacks, s))
				goto out;
		} else if (!s->owner_cgid && u64map__get(&other_index, s->lock_addr, &idx)) {
			if (stack_use__append(&snap->other_locks[idx].stacks,
					      &snap->other_locks[idx].nr_stacks, s))
				goto out;
		}
	}
	for (size_t li = 0; li < snap->nr_lruvecs; li++) {
		struct lrs_lruvec *lv = &snap->lruvecs[li];

		stack_uses__top(lv->stacks, &lv->nr_stacks);
		for (size_t k = 0; k < lv->nr_stacks; k++)
			if (add_stack(snap, &stack_seen, lv->stacks[k].id, ksyms, stacks))
				goto out;
	}
	for (size_t oi = 0; oi < snap->nr_other_locks; oi++) {
		struct lrs_other_lock *ol = &snap->other_locks[oi];

		stack_uses__top(ol->stacks, &ol->nr_stacks);
		for (size_t k = 0; k < ol->nr_stacks; k++)
			if (add_stack(snap, &stack_seen, ol->stacks[k].id, ksyms, stacks))
				goto out;
		ol->name = other_lock_name(table, &rd->locks[other_rows[oi]], ksyms, snap, ol);
		if (!ol->name)
			goto out;
	}
	snap->drops = rd->drops;
	err = 0;
out:
	free(other_rows);
	u64map__destroy(&lruvec_index);
	u64map__destroy(&memcg_index);
	u64map__destroy(&other_index);
	u64map__destroy(&stack_seen);
	u64map__destroy(&addr_index);
	return err;
}

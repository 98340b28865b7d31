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
	if (*nr > 1) /* arr is NULL when there are none */
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

		snprintf(buf, sizeof(buf), "%s @ %.*s", lrs_lock_type_name(r->flags), (int)len,
			 caller);
		return strdup(buf);
	}
	snprintf(buf, sizeof(buf), "%s 0x%" PRIx64, lrs_lock_type_name(r->flags), r->lock_addr);
	return strdup(buf);
}

/* One attribution: its inputs, the snapshot it fills, and the indexes it builds and drops. */
struct attribution {
	const struct lrs_lruvec_table *table;
	const struct lrs_lockstat_read *rd;
	const struct lrs_ksyms *ksyms;
	const struct lrs_stack_source *stacks;
	struct lrs_path_memory *paths;
	struct lrs_snapshot *snap;
	struct u64map memcg_index;  /* cgroup id -> table->memcgs[] */
	struct u64map lruvec_index; /* (cgroup id, node) -> snap->lruvecs[] */
	struct u64map other_index;  /* lock address -> snap->other_locks[] */
	struct u64map addr_index;   /* (lock address, owner cgroup id) -> snap->lruvecs[] */
	struct u64map stack_seen;   /* stack id -> snap->stacks[] */
	size_t *other_rows;	    /* snap->other_locks[] -> rd->locks[] */
};

/* Every lruvec of the walk, contended or not: the heatmap's rows. */
static int add_walked_lruvecs(struct attribution *a)
{
	const struct lrs_lruvec_table *table = a->table;

	if (lrs_path_memory__learn(a->paths, table))
		return -ENOMEM;
	for (size_t i = 0; i < table->nr_memcgs; i++)
		if (u64map__set(&a->memcg_index, table->memcgs[i].cgid, i))
			return -ENOMEM;

	for (size_t i = 0; i < table->nr_lruvecs; i++) {
		const struct lrs_lruvec_info *li = &table->lruvecs[i];
		const struct lrs_memcg_info *mi = &table->memcgs[li->memcg];
		struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(a->snap);

		if (!lv || lrs_snapshot__add_node(a->snap, li->node))
			return -ENOMEM;
		lv->memcg = strdup(mi->path);
		if (!lv->memcg)
			return -ENOMEM;
		lv->memcg_id = mi->cgid;
		lv->parent_id = mi->parent_cgid;
		lv->depth = mi->level;
		lv->removed = mi->dying;
		lv->node = li->node;
		lv->lock_addr = li->lock_addr;
		memcpy(lv->lru_pages, li->lru_pages, sizeof(lv->lru_pages));
		if (u64map__set(&a->lruvec_index, u64map__key2(mi->cgid, (uint64_t)li->node), i))
			return -ENOMEM;
	}
	return 0;
}

/* Before 5.11: the node's one lock, a row of its own (memcg_id 0). */
static int count_node_lock(struct attribution *a, const struct lrs_lock_row *r)
{
	struct lrs_snapshot *snap = a->snap;
	uint64_t key = u64map__key2(0, (uint64_t)r->owner_node);
	struct lrs_lruvec *lv;
	size_t li;

	if (!u64map__get(&a->lruvec_index, key, &li)) {
		lv = lrs_snapshot__add_lruvec(snap);
		if (!lv || lrs_snapshot__add_node(snap, r->owner_node) ||
		    !(lv->memcg = strdup(LRS_NODE_LOCK_MEMCG)))
			return -ENOMEM;
		lv->node = r->owner_node;
		lv->lock_addr = r->lock_addr;
		li = snap->nr_lruvecs - 1;
		if (u64map__set(&a->lruvec_index, key, li))
			return -ENOMEM;
	}
	lv = &snap->lruvecs[li];
	lv->counters = r->counters;
	return 0;
}

/* An lruvec lock's counters, added to its memcg@node row (a removed memcg's made here). */
static int count_lruvec_lock(struct attribution *a, const struct lrs_lock_row *r)
{
	struct lrs_snapshot *snap = a->snap;
	uint64_t key = u64map__key2(r->owner_cgid, (uint64_t)r->owner_node);
	struct lrs_lruvec *lv;
	size_t li;

	if (!u64map__get(&a->lruvec_index, key, &li)) {
		/* its memcg is gone: keep its old name, never someone else's */
		const char *old = lrs_path_memory__get(a->paths, r->owner_cgid);
		char buf[64];

		lv = lrs_snapshot__add_lruvec(snap);
		if (!lv || lrs_snapshot__add_node(snap, r->owner_node))
			return -ENOMEM;
		snprintf(buf, sizeof(buf), "cgroup-id:%" PRIu64, r->owner_cgid);
		lv->memcg = strdup(old ? old : buf);
		if (!lv->memcg)
			return -ENOMEM;
		lv->memcg_id = r->owner_cgid;
		lv->node = r->owner_node;
		lv->lock_addr = r->lock_addr;
		lv->removed = true;
		lv->depth = 1;
		li = snap->nr_lruvecs - 1;
		if (u64map__set(&a->lruvec_index, key, li))
			return -ENOMEM;
	}
	lv = &snap->lruvecs[li];
	lv->counters.contended += r->counters.contended;
	lv->counters.wait_ns += r->counters.wait_ns;
	if (r->counters.wait_max_ns > lv->counters.wait_max_ns)
		lv->counters.wait_max_ns = r->counters.wait_max_ns;
	for (int b = 0; b < LRS_HIST_BUCKETS; b++)
		lv->counters.hist[b] += r->counters.hist[b];
	return 0;
}

/* Any other lock: a row of other_locks, named once its stacks are known. */
static int add_other_lock(struct attribution *a, size_t row)
{
	const struct lrs_lock_row *r = &a->rd->locks[row];
	struct lrs_other_lock *ol = lrs_snapshot__add_other_lock(a->snap);

	if (!ol)
		return -ENOMEM;
	ol->lock_addr = r->lock_addr;
	ol->flags = r->flags;
	ol->counters = r->counters;
	a->other_rows[a->snap->nr_other_locks - 1] = row;
	if (u64map__set(&a->other_index, r->lock_addr, a->snap->nr_other_locks - 1))
		return -ENOMEM;
	return 0;
}

/* Each lock's counters to its lruvec's row, or to a row of other locks. */
static int add_lock_counters(struct attribution *a)
{
	const struct lrs_lockstat_read *rd = a->rd;
	int err;

	a->other_rows = calloc(rd->nr_locks ? rd->nr_locks : 1, sizeof(*a->other_rows));
	if (!a->other_rows)
		return -ENOMEM;
	for (size_t i = 0; i < rd->nr_locks; i++) {
		const struct lrs_lock_row *r = &rd->locks[i];

		if (r->kind == LRS_LOCK_NODE_LOCK)
			err = count_node_lock(a, r);
		else if (r->kind == LRS_LOCK_LRUVEC)
			err = count_lruvec_lock(a, r);
		else
			err = add_other_lock(a, i);
		if (err)
			return err;
	}
	return 0;
}

/* Waiters and stacks are keyed by (lock address, owner at the time): the lruvecs so indexed. */
static int index_lruvecs_by_lock(struct attribution *a)
{
	for (size_t li = 0; li < a->snap->nr_lruvecs; li++)
		if (u64map__set(&a->addr_index,
				u64map__key2(a->snap->lruvecs[li].lock_addr,
					     a->snap->lruvecs[li].memcg_id),
				li))
			return -ENOMEM;
	return 0;
}

/* Waiters of lruvec locks, with their own memcg's path: the top N by wait per lruvec. */
static int add_top_waiters(struct attribution *a)
{
	struct lrs_snapshot *snap = a->snap;

	for (size_t i = 0; i < a->rd->nr_waiters; i++) {
		const struct lrs_waiter_row *w = &a->rd->waiters[i];
		struct lrs_lruvec *lv;
		struct lrs_waiter *dst;
		size_t li, mi, n;
		const char *wpath = NULL;

		if (!u64map__get(&a->addr_index, u64map__key2(w->lock_addr, w->owner_cgid), &li))
			continue;
		lv = &snap->lruvecs[li];
		n = lv->nr_waiters;
		if ((n & (n - 1)) == 0) {
			void *p = realloc(lv->waiters, (n ? n * 2 : 4) * sizeof(*lv->waiters));

			if (!p)
				return -ENOMEM;
			lv->waiters = p;
		}
		dst = &lv->waiters[lv->nr_waiters++];
		memset(dst, 0, sizeof(*dst));
		dst->pid = (int32_t)w->pid;
		memcpy(dst->comm, w->comm, sizeof(dst->comm));
		dst->memcg_id = w->waiter_cgid;
		dst->contended = w->contended;
		dst->wait_ns = w->wait_ns;
		if (u64map__get(&a->memcg_index, w->waiter_cgid, &mi))
			wpath = a->table->memcgs[mi].path;
		else
			wpath = lrs_path_memory__get(a->paths, w->waiter_cgid);
		if (wpath && !(dst->memcg = strdup(wpath)))
			return -ENOMEM;
	}
	for (size_t li = 0; li < snap->nr_lruvecs; li++) {
		struct lrs_lruvec *lv = &snap->lruvecs[li];

		if (lv->nr_waiters > 1) /* waiters is NULL when there are none */
			qsort(lv->waiters, lv->nr_waiters, sizeof(*lv->waiters), cmp_waiters);
		while (lv->nr_waiters > LRS_TOP_WAITERS)
			free(lv->waiters[--lv->nr_waiters].memcg);
	}
	return 0;
}

/* Sampled stacks to their lock: an lruvec's (a node lock's owner is 0), else another lock's. */
static int add_stack_uses(struct attribution *a)
{
	struct lrs_snapshot *snap = a->snap;

	for (size_t i = 0; i < a->rd->nr_stacks; i++) {
		const struct lrs_stack_row *s = &a->rd->stacks[i];
		size_t idx, li;

		if (u64map__get(&a->addr_index, u64map__key2(s->lock_addr, s->owner_cgid), &li)) {
			if (stack_use__append(&snap->lruvecs[li].stacks,
					      &snap->lruvecs[li].nr_stacks, s))
				return -ENOMEM;
		} else if (!s->owner_cgid && u64map__get(&a->other_index, s->lock_addr, &idx)) {
			if (stack_use__append(&snap->other_locks[idx].stacks,
					      &snap->other_locks[idx].nr_stacks, s))
				return -ENOMEM;
		}
	}
	return 0;
}

/*
 * Each lock's top stacks, symbolized into the snapshot once; then each other
 * lock's name, which may come from its top stack's caller.
 */
static int add_top_stacks_and_names(struct attribution *a)
{
	struct lrs_snapshot *snap = a->snap;

	for (size_t li = 0; li < snap->nr_lruvecs; li++) {
		struct lrs_lruvec *lv = &snap->lruvecs[li];

		stack_uses__top(lv->stacks, &lv->nr_stacks);
		for (size_t k = 0; k < lv->nr_stacks; k++)
			if (add_stack(snap, &a->stack_seen, lv->stacks[k].id, a->ksyms, a->stacks))
				return -ENOMEM;
	}
	for (size_t oi = 0; oi < snap->nr_other_locks; oi++) {
		struct lrs_other_lock *ol = &snap->other_locks[oi];

		stack_uses__top(ol->stacks, &ol->nr_stacks);
		for (size_t k = 0; k < ol->nr_stacks; k++)
			if (add_stack(snap, &a->stack_seen, ol->stacks[k].id, a->ksyms, a->stacks))
				return -ENOMEM;
		ol->name = other_lock_name(a->table, &a->rd->locks[a->other_rows[oi]], a->ksyms,
					   snap, ol);
		if (!ol->name)
			return -ENOMEM;
	}
	return 0;
}

int lrs_attribute(const struct lrs_lruvec_table *table, const struct lrs_lockstat_read *rd,
		  const struct lrs_ksyms *ksyms, const struct lrs_stack_source *stacks,
		  struct lrs_path_memory *paths, struct lrs_snapshot *snap)
{
	struct attribution a = {
		.table = table,
		.rd = rd,
		.ksyms = ksyms,
		.stacks = stacks,
		.paths = paths,
		.snap = snap,
	};
	int err;

	u64map__init(&a.memcg_index);
	u64map__init(&a.lruvec_index);
	u64map__init(&a.other_index);
	u64map__init(&a.addr_index);
	u64map__init(&a.stack_seen);

	err = add_walked_lruvecs(&a);
	if (!err)
		err = add_lock_counters(&a);
	if (!err)
		err = index_lruvecs_by_lock(&a);
	if (!err)
		err = add_top_waiters(&a);
	if (!err)
		err = add_stack_uses(&a);
	if (!err)
		err = add_top_stacks_and_names(&a);
	if (!err)
		snap->drops = rd->drops;

	free(a.other_rows);
	u64map__destroy(&a.memcg_index);
	u64map__destroy(&a.lruvec_index);
	u64map__destroy(&a.other_index);
	u64map__destroy(&a.addr_index);
	u64map__destroy(&a.stack_seen);
	return err;
}

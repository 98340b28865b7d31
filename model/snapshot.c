// SPDX-License-Identifier: GPL-2.0
/* The snapshot type: allocation, appenders, look-ups and histogram maths. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/holders.h"
#include "model/snapshot.h"

const char *const lrs_lru_list_names[LRS_NR_LRU_LISTS] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

struct lrs_snapshot *lrs_snapshot__new(void)
{
	struct lrs_snapshot *snap = calloc(1, sizeof(*snap));

	if (snap)
		snap->schema = LRS_SCHEMA_VERSION;
	return snap;
}

static void lruvec__free(struct lrs_lruvec *lv)
{
	free(lv->memcg);
	for (size_t i = 0; i < lv->nr_waiters; i++)
		free(lv->waiters[i].memcg);
	free(lv->waiters);
	free(lv->stacks);
}

void lrs_snapshot__free(struct lrs_snapshot *snap)
{
	if (!snap)
		return;
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		lruvec__free(&snap->lruvecs[i]);
	free(snap->lruvecs);
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		free(snap->other_locks[i].name);
		free(snap->other_locks[i].stacks);
	}
	free(snap->other_locks);
	for (size_t i = 0; i < snap->nr_stacks; i++) {
		for (size_t f = 0; f < snap->stacks[i].nr_frames; f++)
			free(snap->stacks[i].frames[f]);
		free(snap->stacks[i].frames);
	}
	free(snap->stacks);
	free(snap->nodes);
	free(snap->unavailable);
	lrs_holders__free(snap->holders);
	free(snap);
}

/* Grow *arr (of elem_size elements, *nr used) by one zeroed element. */
static void *array__append(void **arr, size_t *nr, size_t elem_size)
{
	/* capacity is the next power of two: no separate field to keep in sync */
	size_t cap = 1;

	while (cap < *nr)
		cap <<= 1;
	if (*nr == 0 || *nr == cap) {
		size_t new_cap = *nr == 0 ? 1 : cap * 2;
		void *p = realloc(*arr, new_cap * elem_size);

		if (!p)
			return NULL;
		*arr = p;
	}
	void *elem = (char *)*arr + *nr * elem_size;

	memset(elem, 0, elem_size);
	(*nr)++;
	return elem;
}

struct lrs_lruvec *lrs_snapshot__add_lruvec(struct lrs_snapshot *snap)
{
	return array__append((void **)&snap->lruvecs, &snap->nr_lruvecs, sizeof(struct lrs_lruvec));
}

struct lrs_other_lock *lrs_snapshot__add_other_lock(struct lrs_snapshot *snap)
{
	return array__append((void **)&snap->other_locks, &snap->nr_other_locks,
			     sizeof(struct lrs_other_lock));
}

struct lrs_stack *lrs_snapshot__add_stack(struct lrs_snapshot *snap)
{
	return array__append((void **)&snap->stacks, &snap->nr_stacks, sizeof(struct lrs_stack));
}

int lrs_snapshot__add_node(struct lrs_snapshot *snap, int node)
{
	int *n;

	for (size_t i = 0; i < snap->nr_nodes; i++)
		if (snap->nodes[i] == node)
			return 0;
	n = array__append((void **)&snap->nodes, &snap->nr_nodes, sizeof(int));
	if (!n)
		return -ENOMEM;
	*n = node;
	return 0;
}

const struct lrs_stack *lrs_snapshot__find_stack(const struct lrs_snapshot *snap, int32_t id)
{
	for (size_t i = 0; i < snap->nr_stacks; i++)
		if (snap->stacks[i].id == id)
			return &snap->stacks[i];
	return NULL;
}

const struct lrs_lruvec *lrs_snapshot__find_lruvec(const struct lrs_snapshot *snap,
						   uint64_t memcg_id, int node)
{
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		if (snap->lruvecs[i].memcg_id == memcg_id && snap->lruvecs[i].node == node)
			return &snap->lruvecs[i];
	return NULL;
}

bool lrs_drops__task_causes(const struct lrs_drops *d)
{
	return d->task_nested || d->task_unmatched || d->task_no_room || d->task_lost;
}

const struct lrs_stack_use *lrs_stack_uses__find(const struct lrs_stack_use *uses, size_t n,
						 int32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (uses[i].id == id)
			return &uses[i];
	return NULL;
}

const struct lrs_waiter *lrs_lruvec__find_waiter(const struct lrs_lruvec *lv, int32_t pid)
{
	for (size_t i = 0; i < lv->nr_waiters; i++)
		if (lv->waiters[i].pid == pid)
			return &lv->waiters[i];
	return NULL;
}

bool lrs_lruvec__is_node_lock(const struct lrs_lruvec *lv)
{
	return lv->memcg_id == 0 && lv->memcg && !strcmp(lv->memcg, LRS_NODE_LOCK_MEMCG);
}

char *lrs_lruvec__label(const char *memcg, int node, char *buf, size_t len)
{
	if (memcg && !strcmp(memcg, LRS_NODE_LOCK_MEMCG))
		snprintf(buf, len, "N%d %s", node, LRS_NODE_LOCK_MEMCG);
	else
		snprintf(buf, len, "%s@N%d", memcg ? memcg : "?", node);
	return buf;
}

char *lrs_lruvec__name(const struct lrs_lruvec *lv, char *buf, size_t len)
{
	if (lrs_lruvec__is_node_lock(lv))
		snprintf(buf, len, "N%d %s", lv->node, LRS_NODE_LOCK_MEMCG);
	else
		lrs_lruvec__label(lv->memcg, lv->node, buf, len);
	return buf;
}

static const char *const spin_names[] = {
	[LRS_SPIN_TRACEPOINT] = "tracepoint",
	[LRS_SPIN_SLOWPATH] = "slowpath",
	[LRS_SPIN_NONE] = "none",
};

const char *lrs_spin_name__str(enum lrs_spin_name name)
{
	return name > LRS_SPIN_UNKNOWN && name <= LRS_SPIN_NONE ? spin_names[name] : NULL;
}

int lrs_spin_name__parse(const char *s)
{
	for (int i = LRS_SPIN_TRACEPOINT; i <= LRS_SPIN_NONE; i++)
		if (s && !strcmp(s, spin_names[i]))
			return i;
	return -1;
}

int lrs_hist__bucket(uint64_t wait_ns)
{
	int b = 0;

	/* the same rounding as the BPF side: bucket = floor(log2(ns)), 0 for 0 and 1 */
	while (wait_ns > 1 && b < LRS_HIST_BUCKETS - 1) {
		wait_ns >>= 1;
		b++;
	}
	return b;
}

uint64_t lrs_hist__bucket_low_ns(int bucket)
{
	if (bucket <= 0)
		return 0;
	return 1ULL << bucket;
}

uint64_t lrs_hist__quantile_ns(const uint64_t hist[LRS_HIST_BUCKETS], double q)
{
	uint64_t total = 0, seen = 0, want;

	for (int i = 0; i < LRS_HIST_BUCKETS; i++)
		total += hist[i];
	if (!total)
		return 0;
	want = (uint64_t)(q * (double)total + 0.5);
	if (want < 1)
		want = 1;
	for (int i = 0; i < LRS_HIST_BUCKETS; i++) {
		seen += hist[i];
		if (seen >= want)
			return lrs_hist__bucket_low_ns(i + 1); /* the bucket's upper bound */
	}
	return lrs_hist__bucket_low_ns(LRS_HIST_BUCKETS);
}

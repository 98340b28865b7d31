// SPDX-License-Identifier: GPL-2.0
/* Deep copies, equality and differences of snapshots. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/json/holders_json.h"
#include "model/snapshot_diff.h"
#include "model/u64map.h"

static int dup_str(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

static void *dup_mem(const void *src, size_t size)
{
	void *p;

	if (!size)
		return NULL;
	p = malloc(size);
	if (p)
		memcpy(p, src, size);
	return p;
}

static int clone_lruvec(struct lrs_lruvec *dst, const struct lrs_lruvec *src)
{
	*dst = *src;
	dst->memcg = NULL;
	dst->waiters = NULL;
	dst->stacks = NULL;
	dst->nr_waiters = dst->nr_stacks = 0;
	if (dup_str(&dst->memcg, src->memcg))
		return -ENOMEM;
	if (src->nr_waiters) {
		dst->waiters = calloc(src->nr_waiters, sizeof(*dst->waiters));
		if (!dst->waiters)
			return -ENOMEM;
		for (size_t i = 0; i < src->nr_waiters; i++) {
			dst->waiters[i] = src->waiters[i];
			dst->waiters[i].memcg = NULL;
			dst->nr_waiters++;
			if (dup_str(&dst->waiters[i].memcg, src->waiters[i].memcg))
				return -ENOMEM;
		}
	}
	dst->stacks = dup_mem(src->stacks, src->nr_stacks * sizeof(*src->stacks));
	if (src->nr_stacks && !dst->stacks)
		return -ENOMEM;
	dst->nr_stacks = src->nr_stacks;
	return 0;
}

struct lrs_snapshot *lrs_snapshot__clone(const struct lrs_snapshot *snap)
{
	struct lrs_snapshot *c = lrs_snapshot__new();

	if (!c)
		return NULL;
	c->schema = snap->schema;
	c->t_ns = snap->t_ns;
	c->interval_ns = snap->interval_ns;
	memcpy(c->kernel, snap->kernel, sizeof(c->kernel));
	c->drops = snap->drops;
	c->bpf_cost = snap->bpf_cost;
	c->spin_source = snap->spin_source;
	for (size_t i = 0; i < snap->nr_nodes; i++)
		if (lrs_snapshot__add_node(c, snap->nodes[i]))
			goto fail;
	if (dup_str(&c->unavailable, snap->unavailable))
		goto fail;
	/* holders are cumulative since the collector started: a diff keeps the last */
	if (snap->holders && !(c->holders = lrs_holders__clone(snap->holders)))
		goto fail;
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(c);

		if (!lv || clone_lruvec(lv, &snap->lruvecs[i]))
			goto fail;
	}
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		const struct lrs_other_lock *s = &snap->other_locks[i];
		struct lrs_other_lock *ol = lrs_snapshot__add_other_lock(c);

		if (!ol)
			goto fail;
		*ol = *s;
		ol->name = NULL;
		ol->stacks = NULL;
		ol->nr_stacks = 0;
		if (dup_str(&ol->name, s->name))
			goto fail;
		ol->stacks = dup_mem(s->stacks, s->nr_stacks * sizeof(*s->stacks));
		if (s->nr_stacks && !ol->stacks)
			goto fail;
		ol->nr_stacks = s->nr_stacks;
	}
	for (size_t i = 0; i < snap->nr_stacks; i++) {
		const struct lrs_stack *s = &snap->stacks[i];
		struct lrs_stack *st = lrs_snapshot__add_stack(c);

		if (!st)
			goto fail;
		st->id = s->id;
		if (s->nr_frames && !(st->frames = calloc(s->nr_frames, sizeof(*st->frames))))
			goto fail;
		for (size_t f = 0; f < s->nr_frames; f++) {
			if (dup_str(&st->frames[f], s->frames[f]))
				goto fail;
			st->nr_frames++;
		}
	}
	return c;
fail:
	lrs_snapshot__free(c);
	return NULL;
}

static bool str_equal(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static bool counters_equal(const struct lrs_lock_counters *a, const struct lrs_lock_counters *b)
{
	return !memcmp(a, b, sizeof(*a));
}

static bool uses_equal(const struct lrs_stack_use *a, size_t na, const struct lrs_stack_use *b,
		       size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].id != b[i].id || a[i].contended != b[i].contended ||
		    a[i].wait_ns != b[i].wait_ns)
			return false;
	return true;
}

bool lrs_lruvec__equal(const struct lrs_lruvec *a, const struct lrs_lruvec *b)
{
	if (!str_equal(a->memcg, b->memcg) || a->memcg_id != b->memcg_id ||
	    a->parent_id != b->parent_id || a->depth != b->depth || a->node != b->node ||
	    a->lock_addr != b->lock_addr || a->removed != b->removed ||
	    !counters_equal(&a->counters, &b->counters) ||
	    memcmp(a->lru_pages, b->lru_pages, sizeof(a->lru_pages)) ||
	    !uses_equal(a->stacks, a->nr_stacks, b->stacks, b->nr_stacks) ||
	    a->nr_waiters != b->nr_waiters)
		return false;
	for (size_t i = 0; i < a->nr_waiters; i++) {
		const struct lrs_waiter *x = &a->waiters[i], *y = &b->waiters[i];

		if (x->pid != y->pid || strncmp(x->comm, y->comm, LRS_COMM_LEN) ||
		    x->memcg_id != y->memcg_id || !str_equal(x->memcg, y->memcg) ||
		    x->contended != y->contended || x->wait_ns != y->wait_ns)
			return false;
	}
	return true;
}

bool lrs_other_lock__equal(const struct lrs_other_lock *a, const struct lrs_other_lock *b)
{
	return str_equal(a->name, b->name) && a->lock_addr == b->lock_addr &&
	       a->flags == b->flags && counters_equal(&a->counters, &b->counters) &&
	       uses_equal(a->stacks, a->nr_stacks, b->stacks, b->nr_stacks);
}

bool lrs_stacks__equal(const struct lrs_snapshot *a, const struct lrs_snapshot *b)
{
	if (a->nr_stacks != b->nr_stacks)
		return false;
	for (size_t i = 0; i < a->nr_stacks; i++) {
		const struct lrs_stack *x = &a->stacks[i], *y = &b->stacks[i];

		if (x->id != y->id || x->nr_frames != y->nr_frames)
			return false;
		for (size_t f = 0; f < x->nr_frames; f++)
			if (!str_equal(x->frames[f], y->frames[f]))
				return false;
	}
	return true;
}

/* ---- last minus first ------------------------------------------------------- */

/* As the model does: a counter that went backwards means a restart. */
static uint64_t minus(uint64_t last, uint64_t first)
{
	return last >= first ? last - first : last;
}

static void counters_minus(struct lrs_lock_counters *c, const struct lrs_lock_counters *first)
{
	c->contended = minus(c->contended, first->contended);
	c->wait_ns = minus(c->wait_ns, first->wait_ns);
	for (int i = 0; i < LRS_HIST_BUCKETS; i++)
		c->hist[i] = minus(c->hist[i], first->hist[i]);
}

/* Subtract first's uses of the same stack id; drop the ones with nothing left. */
static void uses_minus(struct lrs_stack_use *u, size_t *nr, const struct lrs_stack_use *first,
		       size_t nr_first)
{
	size_t n = 0;

	for (size_t i = 0; i < *nr; i++) {
		struct lrs_stack_use s = u[i];

		for (size_t k = 0; k < nr_first; k++)
			if (first[k].id == s.id) {
				s.contended = minus(s.contended, first[k].contended);
				s.wait_ns = minus(s.wait_ns, first[k].wait_ns);
				break;
			}
		if (s.contended || s.wait_ns)
			u[n++] = s;
	}
	*nr = n;
}

static void waiters_minus(struct lrs_lruvec *lv, const struct lrs_lruvec *first)
{
	size_t n = 0;

	for (size_t i = 0; i < lv->nr_waiters; i++) {
		struct lrs_waiter w = lv->waiters[i];

		for (size_t k = 0; k < first->nr_waiters; k++)
			/* a task that moved has a row for each memcg it waited from */
			if (first->waiters[k].pid == w.pid &&
			    first->waiters[k].memcg_id == w.memcg_id) {
				w.contended = minus(w.contended, first->waiters[k].contended);
				w.wait_ns = minus(w.wait_ns, first->waiters[k].wait_ns);
				break;
			}
		if (w.contended || w.wait_ns)
			lv->waiters[n++] = w;
		else
			free(w.memcg);
	}
	lv->nr_waiters = n;
}

int lrs_snapshot__diff(const struct lrs_snapshot *first, const struct lrs_snapshot *last,
		       struct lrs_snapshot **out)
{
	struct lrs_snapshot *d = lrs_snapshot__clone(last);
	struct u64map lruvec_index, other_index;
	int err = -ENOMEM;

	if (!d)
		return -ENOMEM;
	u64map__init(&lruvec_index);
	u64map__init(&other_index);
	for (size_t i = 0; i < first->nr_lruvecs; i++)
		if (u64map__set(&lruvec_index,
				u64map__key2(first->lruvecs[i].memcg_id,
					     (uint64_t)first->lruvecs[i].node),
				i))
			goto out;
	for (size_t i = 0; i < first->nr_other_locks; i++)
		if (u64map__set(&other_index, first->other_locks[i].lock_addr, i))
			goto out;

	d->interval_ns = minus(last->t_ns, first->t_ns);
	for (size_t i = 0; i < d->nr_lruvecs; i++) {
		struct lrs_lruvec *lv = &d->lruvecs[i];
		const struct lrs_lruvec *f;
		size_t k;

		if (!u64map__get(&lruvec_index, u64map__key2(lv->memcg_id, (uint64_t)lv->node), &k))
			continue; /* new since the first: all of it is in the run */
		f = &first->lruvecs[k];
		if (f->memcg_id != lv->memcg_id || f->node != lv->node)
			continue; /* a hash collision, not the same lruvec */
		counters_minus(&lv->counters, &f->counters);
		waiters_minus(lv, f);
		uses_minus(lv->stacks, &lv->nr_stacks, f->stacks, f->nr_stacks);
	}
	for (size_t i = 0; i < d->nr_other_locks; i++) {
		struct lrs_other_lock *ol = &d->other_locks[i];
		const struct lrs_other_lock *f;
		size_t k;

		if (!u64map__get(&other_index, ol->lock_addr, &k))
			continue;
		f = &first->other_locks[k];
		counters_minus(&ol->counters, &f->counters);
		uses_minus(ol->stacks, &ol->nr_stacks, f->stacks, f->nr_stacks);
	}
	d->drops.task = minus(last->drops.task, first->drops.task);
	d->drops.task_nested = minus(last->drops.task_nested, first->drops.task_nested);
	d->drops.task_unmatched = minus(last->drops.task_unmatched, first->drops.task_unmatched);
	d->drops.task_no_room = minus(last->drops.task_no_room, first->drops.task_no_room);
	d->drops.task_lost = minus(last->drops.task_lost, first->drops.task_lost);
	d->drops.stack = minus(last->drops.stack, first->drops.stack);
	d->drops.stats_full = minus(last->drops.stats_full, first->drops.stats_full);
	d->drops.insert_failed = minus(last->drops.insert_failed, first->drops.insert_failed);
	d->drops.negative_time = minus(last->drops.negative_time, first->drops.negative_time);
	err = 0;
out:
	u64map__destroy(&lruvec_index);
	u64map__destroy(&other_index);
	if (err)
		lrs_snapshot__free(d);
	else
		*out = d;
	return err;
}

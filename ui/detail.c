// SPDX-License-Identifier: GPL-2.0
/* Top waiters and stacks of one lruvec over the last interval. */
#include <string.h>

#include "ui/detail.h"

/* Counters are cumulative; one that went backwards restarted: count from zero. */
static uint64_t delta(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : cur;
}

static const struct lrs_lruvec *prev_lruvec(const struct lrs_model *model,
					    const struct lrs_lruvec *lv)
{
	if (!model->prev)
		return NULL;
	return lrs_snapshot__find_lruvec(model->prev, lv->memcg_id, lv->node);
}

/* Keep out[0..*nr) sorted by wait, then count, descending; at most n entries. */
static bool ranks_before(uint64_t wait_a, uint64_t cont_a, uint64_t wait_b, uint64_t cont_b)
{
	return wait_a != wait_b ? wait_a > wait_b : cont_a > cont_b;
}

size_t lrs_detail__top_waiters(const struct lrs_model *model, const struct lrs_cell *cell,
			       struct lrs_detail_waiter *out, size_t n)
{
	const struct lrs_lruvec *lv = cell ? cell->lruvec : NULL, *plv;
	size_t nr = 0;

	if (!lv || !n)
		return 0;
	plv = prev_lruvec(model, lv);
	for (size_t i = 0; i < lv->nr_waiters; i++) {
		const struct lrs_waiter *w = &lv->waiters[i];
		struct lrs_detail_waiter d = { .waiter = w,
					       .contended = w->contended,
					       .wait_ns = w->wait_ns };
		size_t at;

		for (size_t j = 0; plv && j < plv->nr_waiters; j++) {
			if (plv->waiters[j].pid != w->pid)
				continue;
			d.contended = delta(w->contended, plv->waiters[j].contended);
			d.wait_ns = delta(w->wait_ns, plv->waiters[j].wait_ns);
			break;
		}
		if (!d.contended && !d.wait_ns)
			continue;
		/* insertion into a short sorted list: n is a screenful */
		for (at = nr; at > 0; at--)
			if (!ranks_before(d.wait_ns, d.contended, out[at - 1].wait_ns,
					  out[at - 1].contended))
				break;
		if (at >= n)
			continue;
		memmove(&out[at + 1], &out[at], (nr < n ? nr - at : n - 1 - at) * sizeof(*out));
		out[at] = d;
		if (nr < n)
			nr++;
	}
	return nr;
}

/* The top n stacks of lv by wait since plv, or since the start if plv is NULL. */
static size_t rank_stacks(const struct lrs_model *model, const struct lrs_lruvec *lv,
			  const struct lrs_lruvec *plv, struct lrs_detail_stack *out, size_t n)
{
	size_t nr = 0;

	for (size_t i = 0; i < lv->nr_stacks; i++) {
		const struct lrs_stack_use *u = &lv->stacks[i];
		struct lrs_detail_stack d = { .id = u->id,
					      .contended = u->contended,
					      .wait_ns = u->wait_ns };
		size_t at;

		for (size_t j = 0; plv && j < plv->nr_stacks; j++) {
			if (plv->stacks[j].id != u->id)
				continue;
			d.contended = delta(u->contended, plv->stacks[j].contended);
			d.wait_ns = delta(u->wait_ns, plv->stacks[j].wait_ns);
			break;
		}
		if (!d.contended && !d.wait_ns)
			continue;
		d.stack = lrs_snapshot__find_stack(model->cur, u->id);
		for (at = nr; at > 0; at--)
			if (!ranks_before(d.wait_ns, d.contended, out[at - 1].wait_ns,
					  out[at - 1].contended))
				break;
		if (at >= n)
			continue;
		memmove(&out[at + 1], &out[at], (nr < n ? nr - at : n - 1 - at) * sizeof(*out));
		out[at] = d;
		if (nr < n)
			nr++;
	}
	return nr;
}

size_t lrs_detail__top_stacks(const struct lrs_model *model, const struct lrs_cell *cell,
			      struct lrs_detail_stack *out, size_t n, bool *since_start)
{
	const struct lrs_lruvec *lv = cell ? cell->lruvec : NULL, *plv;
	size_t nr;

	*since_start = false;
	if (!lv || !n)
		return 0;
	plv = prev_lruvec(model, lv);
	nr = rank_stacks(model, lv, plv, out, n);
	/*
	 * stacks are sampled, a few a second per CPU at most: an interval without
	 * one shows those since the start, not an empty list
	 */
	if (!nr && plv) {
		nr = rank_stacks(model, lv, NULL, out, n);
		*since_start = nr > 0;
	}
	return nr;
}

size_t lrs_detail__causes(const struct lrs_model *model, const struct lrs_cell *cell,
			  struct lrs_causes *out, bool *since_start)
{
	const struct lrs_lruvec *lv = cell ? cell->lruvec : NULL, *plv;
	enum lrs_cause order[LRS_NR_CAUSES];
	size_t nr;

	*since_start = false;
	plv = lv ? prev_lruvec(model, lv) : NULL;
	lrs_causes__of_lruvec(model->cur, lv, plv, out);
	nr = lrs_causes__ranked(out, order);
	/* the causes come from the sampled stacks: the same fallback as theirs */
	if (!nr && plv) {
		lrs_causes__of_lruvec(model->cur, lv, NULL, out);
		nr = lrs_causes__ranked(out, order);
		*since_start = nr > 0;
	}
	return nr;
}

void lrs_detail__holder_causes(const struct lrs_model *model, const struct lrs_cell *cell,
			       struct lrs_causes *out)
{
	lrs_causes__of_holders(model->cur, cell ? cell->lruvec : NULL, out);
}

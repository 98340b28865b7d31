/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the detail pane of a view shows for one lruvec: its top waiter tasks
 * and top waiting stacks over the last interval (deltas against the previous
 * snapshot; stacks since the start where the interval sampled none). Pure
 * functions of the model; the TUI and the GUI share them.
 */
#ifndef LRS_DETAIL_H
#define LRS_DETAIL_H

#include "model/causes.h"
#include "model/model.h"

struct lrs_detail_waiter {
	const struct lrs_waiter *waiter; /* in model->cur */
	uint64_t contended;		 /* in the interval */
	uint64_t wait_ns;
};

struct lrs_detail_stack {
	int32_t id;
	const struct lrs_stack *stack; /* frames, or NULL if the snapshot has none */
	uint64_t contended;	       /* sampled, in the interval */
	uint64_t wait_ns;
};

/*
 * The top n waiters (by wait in the interval, then count) of cell's lruvec
 * into out; returns how many. Before the second snapshot, since the start.
 */
size_t lrs_detail__top_waiters(const struct lrs_model *model, const struct lrs_cell *cell,
			       struct lrs_detail_waiter *out, size_t n);
/*
 * The same for stacks; an interval in which none was sampled gives those since
 * the start, and sets *since_start.
 */
size_t lrs_detail__top_stacks(const struct lrs_model *model, const struct lrs_cell *cell,
			      struct lrs_detail_stack *out, size_t n, bool *since_start);

/*
 * Cell's sampled wait by cause over the interval (before the second snapshot,
 * since the start); an interval that sampled none gives those since the start,
 * and sets *since_start. Returns how many causes have wait.
 */
size_t lrs_detail__causes(const struct lrs_model *model, const struct lrs_cell *cell,
			  struct lrs_causes *out, bool *since_start);
/*
 * With holders: the wait the lruvec's holders imposed, since the start, by
 * the cause of each holder's own sampled stack (none sampled: unclassified).
 */
void lrs_detail__holder_causes(const struct lrs_model *model, const struct lrs_cell *cell,
			       struct lrs_causes *out);

#endif

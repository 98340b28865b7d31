/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the detail pane of a view shows for one lruvec: its top waiter tasks
 * and top waiting stacks over the last interval (deltas against the previous
 * snapshot). Pure functions of the model; the TUI and the GUI share them.
 */
#ifndef LRS_DETAIL_H
#define LRS_DETAIL_H

#include "model.h"

struct lrs_detail_waiter {
	const struct lrs_waiter *waiter;	/* in model->cur */
	uint64_t contended;			/* in the interval */
	uint64_t wait_ns;
};

struct lrs_detail_stack {
	int32_t id;
	const struct lrs_stack *stack;		/* frames, or NULL if the snapshot has none */
	uint64_t contended;			/* sampled, in the interval */
	uint64_t wait_ns;
};

/*
 * The top n waiters (by wait in the interval, then count) of cell's lruvec
 * into out; returns how many. Before the second snapshot, since the start.
 */
size_t lrs_detail__top_waiters(const struct lrs_model *model, const struct lrs_cell *cell,
			       struct lrs_detail_waiter *out, size_t n);
size_t lrs_detail__top_stacks(const struct lrs_model *model, const struct lrs_cell *cell,
			      struct lrs_detail_stack *out, size_t n);

/*
 * Whether a frame ("sym+0x1a") is the lock's own slow path
 * (_raw_spin_lock_irq, __pv_queued_spin_lock_slowpath, ...): the same in every
 * waiting stack, so views skip such frames at the top.
 */
bool lrs_detail__lock_frame(const char *frame);

/* The index of the first frame of stack that is not lock machinery. */
size_t lrs_detail__first_caller(const struct lrs_stack *stack);

#endif

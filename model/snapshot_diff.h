/* SPDX-License-Identifier: GPL-2.0 */
/* Snapshot arithmetic for recordings: deep copies, equality, "last minus first". */
#ifndef LRS_SNAPSHOT_DIFF_H
#define LRS_SNAPSHOT_DIFF_H

#include "model/snapshot.h"

/* A deep copy, or NULL when out of memory. */
struct lrs_snapshot *lrs_snapshot__clone(const struct lrs_snapshot *snap);

/* Deep equality of two lruvecs / other locks / stacks tables (pure). */
bool lrs_lruvec__equal(const struct lrs_lruvec *a, const struct lrs_lruvec *b);
bool lrs_other_lock__equal(const struct lrs_other_lock *a, const struct lrs_other_lock *b);
bool lrs_stacks__equal(const struct lrs_snapshot *a, const struct lrs_snapshot *b);

/*
 * What happened between first and last as one snapshot: last's lruvecs,
 * other locks and stacks, with every cumulative counter minus first's (per
 * lruvec by memcg id and node, per other lock by address, per waiter by pid,
 * per stack by id; a counter that went backwards counts from zero).
 * wait_max_ns and lru_pages are last's; interval_ns = last t_ns - first t_ns.
 */
int lrs_snapshot__diff(const struct lrs_snapshot *first, const struct lrs_snapshot *last,
		       struct lrs_snapshot **out);

#endif

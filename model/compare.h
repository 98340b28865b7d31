/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two recordings side by side ('lruscope diff A B'): per lruvec (memcg path @
 * node: paths match across machines and reboots, cgroup ids do not), per
 * other lock (by name) and in total, the mean wait/s and contentions/s of A
 * and of B, their ratio, and whether the difference is beyond the noise
 * between intervals. Each interval of a recording is one sample (its rate);
 * the test is Mann-Whitney U (model/compare_stats.c), which asks nothing of
 * the samples' distribution. Pure: no I/O.
 */
#ifndef LRS_COMPARE_H
#define LRS_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/causes.h"
#include "model/compare_run.h"
#include "model/snapshot.h"

#define LRS_COMPARE_ALPHA 0.01 /* the significance level, two-sided */
/*
 * The least change of a mean, either way, called significant (0.1: 10%),
 * whatever the p-value. A steady load's intervals are alike, so over 30 of
 * them the test resolves a change of about 1%; between two recordings of one
 * unchanged load the means drift by a few percent (page placement, the mix
 * of short and long waits), which the intervals of neither recording show.
 */
#define LRS_COMPARE_MIN_CHANGE 0.1
#define LRS_COMPARE_MIN_SAMPLES 3  /* fewer intervals on a side: not tested */
#define LRS_COMPARE_FEW_SAMPLES 20 /* fewer: neighbouring intervals' correlation not judged */

enum lrs_cmp_side {
	LRS_CMP_BOTH,
	LRS_CMP_ONLY_A,
	LRS_CMP_ONLY_B,
};

struct lrs_cmp_metric {
	double a, b;	  /* mean rate over the recording: sum / duration */
	double ratio;	  /* b / a; INFINITY when a == 0 < b; NAN when both are 0 */
	double p;	  /* two-sided p-value; NAN: not tested (too few samples, one side only) */
	bool significant; /* p < alpha and |ratio - 1| >= min_change */
};

/*
 * One cause (model/causes.h) of an lruvec's sampled waiting stacks in A and
 * B: each interval's sampled wait of the stacks of that cause is one sample,
 * from the stack uses' increments over the snapshot before. Stacks are
 * sampled (1 in --stack-every waits, at most --stack-rate a second per CPU), so the
 * rates are a part of the wait: compare recordings made alike.
 */
struct lrs_cmp_cause {
	enum lrs_cause cause;
	enum lrs_cmp_side side;	    /* sampled on both sides, or on one only */
	struct lrs_cmp_metric wait; /* sampled ns per s; tested only when the lruvec is on
					   both sides and has sampled stacks on both */
	double share_a, share_b;    /* of the lruvec's sampled wait, 0..1 */
};

struct lrs_cmp_row {
	enum lrs_cmp_kind kind;
	char *name; /* memcg path, lock name, "lruvec locks" / "other locks" */
	int node;   /* of an lruvec; -1 otherwise */
	enum lrs_cmp_side side;
	struct lrs_cmp_metric wait;	 /* ns per s */
	struct lrs_cmp_metric contended; /* per s */
	/*
	 * An lruvec's causes: every one with sampled wait on either side, and
	 * unclassified whenever a stack was sampled (even at 0); significant
	 * changes first, then by the size of the wait/s difference, largest
	 * first. None when no stack was sampled on either side.
	 */
	struct lrs_cmp_cause *causes;
	size_t nr_causes;
};

/* What a significant change is: p < alpha, and a ratio off 1 by min_change or more. */
struct lrs_cmp_test {
	double alpha;
	double min_change;
};

struct lrs_compare {
	struct lrs_cmp_test test;	   /* what significant meant */
	size_t samples_a, samples_b;	   /* intervals */
	double duration_a_s, duration_b_s; /* pauses left out */
	size_t pauses_a, pauses_b;	   /* intervals past LRS_COMPARE_PAUSE_FACTOR */
	/*
	 * The two totals, then the memcgs, the lruvecs, the other locks; within each,
	 * significant changes first, then those on one side only, then the
	 * rest, each by the size of the wait/s difference, largest first.
	 * Lruvecs and locks that never waited on either side are left out.
	 */
	struct lrs_cmp_row *rows;
	size_t nr_rows;
	bool node_locks;       /* a side has node locks: the node and waiter rows */
	size_t nr_significant; /* rows other than the totals */
	size_t nr_idle;	       /* lruvecs and locks left out (memcgs not counted) */
};

/* Compare a (before) with b (after), significance as test says. 0 or -ENOMEM. */
int lrs_compare(const struct lrs_cmp_run *a, const struct lrs_cmp_run *b,
		const struct lrs_cmp_test *test, struct lrs_compare **out);
void lrs_compare__free(struct lrs_compare *cmp); /* accepts NULL */

/*
 * The lruvec rows as a grid for the heatmaps: memcg paths in the comparison's
 * order (first appearance: significant changes first), nodes ascending.
 * The paths point into cmp. 0 or -ENOMEM; clear accepts a zeroed grid.
 */
struct lrs_cmp_grid {
	const char **memcgs;
	size_t nr_memcgs;
	int *nodes;
	size_t nr_nodes;
	size_t nr_columns; /* column groups: the nodes, and "all" (lrs_compare__memcg) past one node */
};
int lrs_cmp_grid__init(struct lrs_cmp_grid *grid, const struct lrs_compare *cmp);
void lrs_cmp_grid__clear(struct lrs_cmp_grid *grid);
/* The lruvec row of memcg on node, or NULL (it never waited on either side). */
const struct lrs_cmp_row *lrs_compare__lruvec(const struct lrs_compare *cmp, const char *memcg,
					      int node);
/*
 * memcg over all its nodes: its LRS_CMP_MEMCG row, or where it waited on one
 * node only, that lruvec's row (the same sum); NULL when it never waited.
 */
const struct lrs_cmp_row *lrs_compare__memcg(const struct lrs_compare *cmp, const char *memcg);

/*
 * Mann-Whitney U, two-sided: the p-value of "a and b come from the same
 * distribution" against "one tends to be larger". a and b are in time order.
 * Ties get mid-ranks. Exact (every split of the pooled ranks counted) when
 * there are at most LRS_MWU_EXACT_MAX splits; otherwise the normal
 * approximation with tie and continuity corrections, its variance inflated
 * by (1 + r) / (1 - r), r the lag-1 autocorrelation of the samples' ranks
 * (pooled over both, counted when above 1.96 / sqrt(na + nb), at most 0.8),
 * since neighbouring intervals of one recording can be alike: fewer
 * independent samples than they seem. Below LRS_COMPARE_FEW_SAMPLES a side
 * that correlation can hardly be judged (the exact p ignores it): diff says so.
 * NAN when a side has fewer than LRS_COMPARE_MIN_SAMPLES.
 */
#define LRS_MWU_EXACT_MAX 20000
double lrs_stats__mann_whitney_p(const double *a, size_t na, const double *b, size_t nb);

#endif

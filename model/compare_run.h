/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 'lruscope diff', one side: a run, one recording's per-interval rates, built
 * snapshot by snapshot (model/compare_run.c); model/compare.h compares two.
 * What a run keeps (struct lrs_cmp_series, struct lrs_cmp_run) is read by
 * model/compare.c alone: other code goes through the functions.
 */
#ifndef LRS_COMPARE_RUN_H
#define LRS_COMPARE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"
#include "model/u64map.h"

/*
 * An interval between two lines of a recording over this many times the
 * later snapshot's own interval_ns (the time since the collector's snapshot
 * before, whether recorded or not) is a pause, no sample: the file misses
 * what happened between, as 'demo --record' between two runs of a layout.
 * Neither its wait nor its time count.
 */
#define LRS_COMPARE_PAUSE_FACTOR 4

enum lrs_cmp_kind {
	LRS_CMP_TOTAL, /* all lruvec locks, or all other locks */
	/*
	 * Only where a side has a node lock (before 5.11, LRS_NODE_LOCK_MEMCG),
	 * so that a kernel of one lock per node compares with one of a lock per
	 * memcg: a node's lruvec locks summed (its one lock, or every memcg's
	 * lruvec on it), named "N0"; and a memcg's own tasks' wait on lruvec
	 * locks, whichever lock they waited on (its waiter rows summed), named
	 * by its path, matched across the sides by path.
	 */
	LRS_CMP_NODE,
	LRS_CMP_WAITER,
	/*
	 * A memcg's lruvecs summed over its nodes; only for a memcg that
	 * waited on more than one node in A or B (on one, it would repeat
	 * that lruvec's row). Where a memcg's pages sit, and so which node's
	 * lock its reclaim waits on, moves within one load: its lruvecs can
	 * change while it does not.
	 */
	LRS_CMP_MEMCG,
	LRS_CMP_LRUVEC,
	LRS_CMP_LOCK,
};

/* One recording's per-interval rates, built snapshot by snapshot. */
struct lrs_cmp_run;

struct lrs_cmp_run *lrs_cmp_run__new(void);
void lrs_cmp_run__free(struct lrs_cmp_run *run); /* accepts NULL */
/*
 * The next snapshot of a recording: the interval since the one before is one
 * sample of every lruvec and lock (0 for those absent then), and of every
 * cause of each lruvec's sampled stacks; an interval past
 * LRS_COMPARE_PAUSE_FACTOR is none. A counter that went backwards counts
 * from zero, as in lrs_snapshot__diff(). Returns 0,
 * -ENOMEM, or -EINVAL when snap is not later than the one before.
 */
int lrs_cmp_run__push(struct lrs_cmp_run *run, const struct lrs_snapshot *snap);
size_t lrs_cmp_run__samples(const struct lrs_cmp_run *run);
double lrs_cmp_run__duration_s(const struct lrs_cmp_run *run);
size_t lrs_cmp_run__pauses(const struct lrs_cmp_run *run); /* intervals left out */

/*
 * What a run keeps of one lruvec or lock, or of one cause of an lruvec's
 * sampled stacks: a rate per interval and the sums.
 */
struct lrs_cmp_series {
	enum lrs_cmp_kind kind;
	char *name;
	int node;
	int cause;		  /* enum lrs_cause of an lruvec's cause; -1 otherwise */
	double *wait, *contended; /* per s; intervals before it appeared are 0 */
	size_t n, cap;
	double wait_ns, contended_sum;
};

struct lrs_cmp_run {
	struct lrs_cmp_series *series;
	size_t nr_series, cap_series;
	struct u64map index; /* hash of (kind, name, node, cause) -> series, probed */
	struct lrs_snapshot *prev;
	size_t samples, pauses;
	double duration_s;
	bool node_locks; /* a node lock waited (a kernel before 5.11) */
};

/* the names of the two LRS_CMP_TOTAL series: all lruvec locks, all other locks */
extern const char *const lrs_cmp_total_names[2];

/* The series of like's (kind, name, node, cause) in run; NULL if it has none. */
const struct lrs_cmp_series *lrs_cmp_run__find(const struct lrs_cmp_run *run,
					       const struct lrs_cmp_series *like);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside 'lruscope diff': what a run (model/compare_run.c) keeps of a
 * recording, for the comparison (model/compare.c). Not for other layers:
 * they see a run through model/compare.h only.
 */
#ifndef LRS_COMPARE_RUN_H
#define LRS_COMPARE_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "model/compare.h"
#include "model/u64map.h"

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

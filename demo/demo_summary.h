/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The demo's arithmetic, pure: one run's numbers from two snapshots, then
 * medians, ranges, ratios and the noise verdict over all runs, printed as
 * text or one JSON object. No I/O besides the FILE it prints to.
 */
#ifndef LRS_DEMO_SUMMARY_H
#define LRS_DEMO_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "model/snapshot.h"
#include "demo/workload.h"

#define LRS_DEMO_NAME_LEN 256

/* One layout run: the workload's throughput and the locks' deltas. */
struct lrs_demo_run {
	enum lrs_layout layout;
	unsigned int readers;
	double elapsed_s;
	uint64_t bytes;
	double mb_per_s;	   /* 10^6 bytes per second over all readers, as dd prints */
	uint64_t lruvec_contended; /* on the lruvecs of the run's own memcgs */
	uint64_t lruvec_wait_ns;
	uint64_t all_lruvec_wait_ns; /* every lruvec on the machine */
	uint64_t other_contended;    /* all other locks, machine-wide */
	uint64_t other_wait_ns;
	char top_lruvec[LRS_DEMO_NAME_LEN]; /* the run's "path@N0" with the most wait, or "" */
	uint64_t top_lruvec_wait_ns;
	/* who waited on which lruvec, from the per-lruvec waiter tables */
	bool attribution_known;	    /* the snapshot had waiter tables */
	uint64_t own_contended;	    /* on the run's lruvecs by readers of that memcg */
	uint64_t foreign_contended; /* on the run's lruvecs by any other task */
	/*
	 * The run's readers on lruvecs not of their memcg: per-CPU LRU batches
	 * (folio_batch_move_lru) hold folios of whoever ran on that CPU, so the
	 * task that drains one takes other memcgs' locks.
	 */
	uint64_t outside_contended;
	/* the waiter's memcg as the collector saw it (task->cgroups) vs where we put it */
	uint64_t waiter_memcg_right, waiter_memcg_wrong;
};

/* What the run had: its memcgs (cgroup ids) and each reader's memcg id. */
struct lrs_demo_run_ids {
	const uint64_t *memcg_ids;
	size_t nr_memcg_ids;
	const pid_t *pids;
	const uint64_t *pid_memcg_ids; /* parallel to pids */
	size_t nr_pids;
};

/*
 * Fill the lock fields of run from the cumulative snapshots taken at its
 * start (s0, may be NULL: all zero) and end (s1). Returns 0 or -EINVAL.
 */
int lrs_demo_run__from_snapshots(struct lrs_demo_run *run, const struct lrs_snapshot *s0,
				 const struct lrs_snapshot *s1, const struct lrs_demo_run_ids *ids);

struct lrs_range {
	double median, min, max;
};

struct lrs_demo_layout_stats {
	enum lrs_layout layout;
	unsigned int readers;
	size_t nr_runs;
	struct lrs_range mb_per_s;
	struct lrs_range lruvec_contended;
	struct lrs_range lruvec_wait_ns;
	struct lrs_range other_wait_ns;
	char top_lruvec[LRS_DEMO_NAME_LEN]; /* of the run with the median lruvec wait */
	bool attribution_known;
	uint64_t own_contended, foreign_contended, outside_contended; /* summed over runs */
	uint64_t waiter_memcg_right, waiter_memcg_wrong;
};

enum lrs_noise_verdict {
	LRS_NOISE_UNKNOWN, /* fewer than 2 runs of a layout */
	LRS_NOISE_WITHIN,  /* the layouts' ranges overlap */
	LRS_NOISE_OUTSIDE, /* every run of one layout beats every run of the other */
};

struct lrs_demo_summary {
	struct lrs_demo_layout_stats layouts[2]; /* in order of first appearance */
	size_t nr_layouts;
	bool have_ratio;		   /* both layouts ran */
	double wait_ratio;		   /* shared / isolated median lruvec wait; INFINITY if 0 */
	double mb_ratio;		   /* isolated / shared median MB/s */
	double mb_ratio_min, mb_ratio_max; /* worst and best pairing of the ranges */
	enum lrs_noise_verdict mb_verdict, wait_verdict;
};

/* Median of n values (n > 0); v is not modified. */
double lrs_demo__median(const double *v, size_t n);
/* Median, min and max of n values (n > 0). */
struct lrs_range lrs_demo__range(const double *v, size_t n);
/* Ranges a and b (of at least 2 runs each) overlap or not. */
enum lrs_noise_verdict lrs_demo__verdict(const struct lrs_range *a, size_t na,
					 const struct lrs_range *b, size_t nb);

int lrs_demo_summary__compute(const struct lrs_demo_run *runs, size_t nr_runs,
			      struct lrs_demo_summary *out);
/* One sentence on the throughput difference and the noise, honest about runs. */
void lrs_demo_summary__verdict_text(const struct lrs_demo_summary *s, char *buf, size_t len);
void lrs_demo_summary__print_text(const struct lrs_demo_summary *s, FILE *f);
/* One JSON object on one line; runs (may be NULL) are listed as "per_run". */
void lrs_demo_summary__print_json(const struct lrs_demo_summary *s, const struct lrs_demo_run *runs,
				  size_t nr_runs, FILE *f);

#endif

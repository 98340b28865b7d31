/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The waiter rows of bpf/lockstat.bpf.c read back: the rows with a slot in the
 * per-CPU table waiter_counts (their identity in waiter_slots, their copies
 * per CPU summed) and the rows of the shared table waiter_stats, merged into
 * one row per key.
 */
#ifndef LRS_WAITER_ROWS_H
#define LRS_WAITER_ROWS_H

#include <stddef.h>

#include "collector/live/percpu_merge.h"

/* The maps' descriptors, and the possible CPUs (copies in a per-CPU value). */
struct lrs_waiter_maps {
	int slots_fd;  /* waiter_slots */
	int counts_fd; /* waiter_counts */
	int shared_fd; /* waiter_stats */
	int check_fd;  /* waiter_check: check mode's count by key */
	int nr_cpus;
};

/* Every row, merged; *rows is the caller's to free. 0 or -errno. */
int lrs_waiter_rows__read(const struct lrs_waiter_maps *m, struct lrs_waiter_read **rows,
			  size_t *n);

/*
 * Check mode, once detached: each per-CPU row against check_fd's count of
 * the same waits by key, on one line on stderr.
 */
void lrs_waiter_rows__check(const struct lrs_waiter_maps *m);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A drgn walk (drgn-scripts/walk.py, docs/drgn.md): its snapshot plus what
 * only a walk knows: the lock words (in each lruvec's .walk), the walked list
 * lengths next to the counters, lru_check's violations, held locks, page
 * ownership and warnings. collector/walk/ fills it from walk.py's JSON; the
 * views read it.
 */
#ifndef LRS_WALK_H
#define LRS_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* The walk of one lruvec's lists, parallel to snap->lruvecs. */
struct lrs_walk_lists {
	bool walked; /* the JSON had "walked" for it */
	uint64_t walked_pages[LRS_NR_LRU_LISTS];
	uint8_t complete; /* bit per list: walked to the end */
	uint8_t skipped;  /* bit per list: not walked on purpose (6.1's
						 * poisoned unevictable head) or not listed */
};

struct lrs_walk_held {
	char *lruvec;  /* "/lrs-a@N0", or "pgdat->lru_lock (node 0)" */
	int node_lock; /* that node lock's node (before 5.11), else -1 */
	char *tasks;   /* "1 init, 42 kswapd0" or "" */
	size_t nr_tasks;
};

struct lrs_walk_owner {
	char *memcg;
	uint64_t pages;
};

struct lrs_walk {
	struct lrs_snapshot *snap;    /* owned */
	struct lrs_walk_lists *lists; /* snap->nr_lruvecs entries */
	uint64_t memcgs, folios_walked;
	double total_s;
	bool checked; /* lru_check ran: violations_total means something */
	uint64_t violations_total;
	struct lrs_walk_held *held;
	size_t nr_held;
	char *owner_method; /* --page-owner: "memcg_data" ..., else NULL */
	struct lrs_walk_owner *owners;
	size_t nr_owners;
	char **warnings;
	size_t nr_warnings;
};

void lrs_walk__free(struct lrs_walk *walk); /* accepts NULL */

/* "free", "locked", "locked, pending, queue tail cpu1", "?" when not walked. */
const char *lrs_lock_state__format(char *buf, size_t len, const struct lrs_lruvec_walk *w);

#endif

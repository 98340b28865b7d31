/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which memcgs get series of their own on the exporter's page, and which are
 * folded into memcg="other", across snapshots. The rules (docs/metrics.md):
 *
 * - The number of series with a memcg label stays under --max-series. A memcg
 *   is given its page series (lruscope_lru_pages) when first seen, an lruvec
 *   its lock series when its lock is first waited on, each only if they fit;
 *   otherwise they go to memcg="other" of that node, and stay there for as
 *   long as the memcg exists. memcg="other" is reserved from the start.
 * - Deciding only at first sight keeps counters monotonic: a series never
 *   loses a past it had, and "other" never loses one of its members while
 *   it exists. When a folded memcg is removed, its final counts stay in
 *   "other"; so do the counts of memcgs created and removed between two
 *   snapshots.
 * - A removed memcg's own series are gone from the next page on.
 */
#ifndef LRS_EXPORT_SERIES_H
#define LRS_EXPORT_SERIES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/snapshot.h"
#include "ui/text/exposition.h"

struct lrs_series_opts {
	size_t max_series; /* series with a memcg label, "other" included */
	size_t top_locks;  /* other locks listed, by wait */
	bool holders;	   /* the imposed family */
};

/* Series one lruvec's lock costs: total, count, max, histogram buckets + Inf, count, sum. */
#define LRS_SERIES_PER_LOCK \
	(3 + (LRS_EXPO_LE_LAST_LOG2 - LRS_EXPO_LE_FIRST_LOG2) / LRS_EXPO_LE_STEP_LOG2 + 1 + 1 + 2)
#define LRS_SERIES_PER_PAGES LRS_NR_LRU_LISTS
/* ... and at most one sampled-wait series per cause, for lruvecs with own lock series */
#define LRS_SERIES_PER_CAUSES LRS_NR_CAUSES

struct lrs_series;

int lrs_series__new(const struct lrs_series_opts *opts, struct lrs_series **out);
void lrs_series__free(struct lrs_series *s); /* accepts NULL */

/*
 * Fold snap into the page's rows: fills e's lruvecs, locks, imposed and
 * drops; its strings and arrays belong to s and snap, valid until the next
 * update or until snap is freed. 0 or -ENOMEM.
 */
int lrs_series__update(struct lrs_series *s, const struct lrs_snapshot *snap,
		       struct lrs_exposition *e);

/* How many memcgs have own series now, are folded now, were ever folded. */
void lrs_series__memcgs(const struct lrs_series *s, uint64_t *own, uint64_t *folded,
			uint64_t *folded_total);
/* Series with a memcg label the last update wrote. */
size_t lrs_series__count(const struct lrs_series *s);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Causes: the kernel path behind a sampled stack of an lruvec lock.
 *
 * One table (model/causes.c) names the functions of each path, in the page
 * and folio spellings of 5.11 to today. THE RULE: the innermost frame
 * (nearest the lock) that the table names gives the cause; a stack that
 * matches nothing is LRS_CAUSE_UNCLASSIFIED, which every view shows.
 * Pure: no I/O, no allocation.
 */
#ifndef LRS_CAUSES_H
#define LRS_CAUSES_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* The fixed list: the exporter's `cause` label takes exactly these values. */
enum lrs_cause {
	LRS_CAUSE_LRU_ADD_DRAIN,
	LRS_CAUSE_ACTIVATION,
	LRS_CAUSE_RECLAIM,
	LRS_CAUSE_ISOLATION,
	LRS_CAUSE_MEMCG_MOVE,
	LRS_CAUSE_MLOCK,
	LRS_CAUSE_NOTE_COST,
	LRS_CAUSE_THP_SPLIT,
	LRS_CAUSE_FOLIO_FREE,
	LRS_CAUSE_UNCLASSIFIED,
	LRS_NR_CAUSES,
};

/* "lru_add_drain", ...: the key of JSON, CSV and the exporter's label */
const char *lrs_cause__key(enum lrs_cause cause);
/* "lru-add drain", ...: what text, the TUI and the GUI print */
const char *lrs_cause__title(enum lrs_cause cause);

/* The cause of one stack (frames "sym+0x1a", innermost first). */
enum lrs_cause lrs_cause__classify(char *const *frames, size_t nr_frames);

struct lrs_cause_share {
	uint64_t contended; /* sampled */
	uint64_t wait_ns;   /* sampled */
};

/* The sampled wait of one lruvec, by cause. */
struct lrs_causes {
	struct lrs_cause_share by[LRS_NR_CAUSES];
	uint64_t contended, wait_ns; /* all causes */
};

/*
 * Sum lv's stack uses by cause. With prev (lv's lruvec in an earlier
 * snapshot, or NULL) only what happened since: a use that went backwards
 * restarted and counts from zero. A stack id missing from snap's stack
 * table is unclassified.
 */
void lrs_causes__of_lruvec(const struct lrs_snapshot *snap, const struct lrs_lruvec *lv,
			   const struct lrs_lruvec *prev, struct lrs_causes *out);
/*
 * With holders (model/holders.h): the wait lv's holders imposed, since the
 * start, by the cause of each holder's own sampled stack (a holder without
 * one, the unknown holder too, is unclassified; contended counts holds).
 */
void lrs_causes__of_holders(const struct lrs_snapshot *snap, const struct lrs_lruvec *lv,
			    struct lrs_causes *out);
/* Add wait_ns (and one sample per stack) under the cause of a stack id. */
void lrs_causes__add(struct lrs_causes *c, const struct lrs_snapshot *snap, int32_t stack_id,
		     uint64_t contended, uint64_t wait_ns);

/*
 * The causes with any sampled wait or count, by wait then count, largest
 * first, into order; returns how many.
 */
size_t lrs_causes__ranked(const struct lrs_causes *c, enum lrs_cause order[LRS_NR_CAUSES]);
/* Share of the sampled wait in 0..1 (of the count when no wait was sampled). */
double lrs_causes__share(const struct lrs_causes *c, enum lrs_cause cause);
/*
 * "62% reclaim, 30% lru-add drain, 8% unclassified" into buf (at most max
 * causes, then "+N more"); "no sampled stacks" when empty. Returns buf.
 */
char *lrs_causes__summary(const struct lrs_causes *c, size_t max, char *buf, size_t len);

#endif

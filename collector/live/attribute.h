/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Attribution: lock counters from BPF + the lruvec table -> a snapshot.
 * lruvec locks go to their memcg@node (by the cgroup id the BPF side saw
 * at the time of the wait); every other lock is named as well as we can.
 */
#ifndef LRS_ATTRIBUTE_H
#define LRS_ATTRIBUTE_H

#include "collector/live/ksyms.h"
#include "collector/live/lock_collector.h"
#include "collector/live/lruvec_table.h"
#include "collector/live/memcg_paths.h"
#include "model/snapshot.h"

/* Stacks: the caller reads the ips of the ids referenced. */
struct lrs_stack_source {
	int (*ips)(void *ctx, int32_t id, uint64_t *ips); /* returns the frame count */
	void *ctx;
};

/*
 * Fill st's frames from n instruction pointers, symbolized, the tracer's own
 * leading frames (the BPF program, the tracepoint) dropped. 0 or -ENOMEM.
 */
int lrs_stack__symbolize(struct lrs_stack *st, const uint64_t *ips, int n,
			 const struct lrs_ksyms *ksyms);

#define LRS_TOP_WAITERS 16
#define LRS_TOP_STACKS 8

/*
 * Fill snap's lruvecs, other locks and stacks. ksyms may be NULL (no
 * symbols), stacks may be NULL. Returns 0 or -ENOMEM.
 */
int lrs_attribute(const struct lrs_lruvec_table *table, const struct lrs_lockstat_read *rd,
		  const struct lrs_ksyms *ksyms, const struct lrs_stack_source *stacks,
		  struct lrs_path_memory *paths, struct lrs_snapshot *snap);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Lock holders from the live BPF maps into a snapshot. */
#ifndef LRS_HOLDERS_LIVE_H
#define LRS_HOLDERS_LIVE_H

#include "model/holders.h"
#include "model/snapshot.h"

struct lrs_lockstat;
struct lrs_lockstat_read;
struct lrs_holders_exact;
struct lrs_path_memory;
struct lrs_ksyms;
struct lrs_stack_source;

/*
 * Read the holder maps into snap->holders: names from rd (comms of waiters)
 * and paths, holder stacks symbolized into snap->stacks. 0 or -errno.
 */
int lrs_holders__collect(struct lrs_lockstat *ls, const struct lrs_holders_exact *exact,
			 const struct lrs_lockstat_read *rd, struct lrs_path_memory *paths,
			 const struct lrs_ksyms *ksyms, const struct lrs_stack_source *stacks,
			 struct lrs_snapshot *snap);

#endif

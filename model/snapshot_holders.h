/* SPDX-License-Identifier: GPL-2.0 */
/* Attaching lock holders to a snapshot (the snapshot owns them, see model/snapshot.h). */
#ifndef LRS_SNAPSHOT_HOLDERS_H
#define LRS_SNAPSHOT_HOLDERS_H

#include "model/holders.h"
#include "model/snapshot.h"

/*
 * Turn raw rows into snap->holders: rows keyed to snap's lruvecs (by lock
 * address and owner), names resolved, sorted. Holder stacks must already be
 * in snap->stacks to be shown (the caller adds them). Returns 0 or -ENOMEM.
 */
int lrs_holders__attach(struct lrs_snapshot *snap, const struct lrs_holders_read *rd,
			enum lrs_holders_mode mode, const struct lrs_holders_names *names);

#endif

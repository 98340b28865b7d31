/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The path of every memcg the collector has known, by cgroup id: a removed
 * memcg keeps its name. Learnt from each read of the lruvec table: the walk's
 * paths, then those of memcgs created since the last read, which a walk may
 * never have seen (a memcg that lives less than an interval).
 */
#ifndef LRS_MEMCG_PATHS_H
#define LRS_MEMCG_PATHS_H

#include <stddef.h>
#include <stdint.h>

#include "collector/live/lruvec_table.h"
#include "model/u64map.h"

struct lrs_path_memory {
	struct u64map index; /* cgid -> paths[] */
	char **paths;
	size_t nr;
};

void lrs_path_memory__init(struct lrs_path_memory *pm);
void lrs_path_memory__destroy(struct lrs_path_memory *pm);

/*
 * Learn one read's paths: each walked memcg's, then each born memcg's, its
 * parent's path (walked, born before it, or known from earlier) and its name;
 * "/?/name" if its parent was never known, as the walk names an orphan. A
 * newer path (a rename) replaces the older one. Returns 0 or -ENOMEM.
 */
int lrs_path_memory__learn(struct lrs_path_memory *pm, const struct lrs_lruvec_table *table);

/* The path of cgroup id cgid, or NULL if it was never known. */
const char *lrs_path_memory__get(const struct lrs_path_memory *pm, uint64_t cgid);

#endif

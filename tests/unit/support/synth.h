/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic snapshots for unit tests and benches: a plausible memcg tree with
 * cumulative counters that grow with t_ns, waiters, stacks and other locks.
 */
#ifndef LRS_SYNTH_H
#define LRS_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "snapshot.h"

/*
 * nr_memcgs memcgs (the first is "/", id 1) on nodes 0..nr_nodes-1, in tree
 * order. Memcg i > 0 has id i + 1 and is named "lrs-s<i>" under memcg
 * (i - 1) / 16, so memcg 1 is "/lrs-s1" and memcg 17 is "/lrs-s1/lrs-s17".
 * Memcg 1 is the hottest; memcg 3, if there, is removed; every third memcg
 * (i % 3 == 2) never contends. The seed varies the other rates. Counters are
 * rate * t_ns: two calls at different t_ns give positive rates. NULL when out
 * of memory.
 */
struct lrs_snapshot *lrs_synth__snapshot(size_t nr_memcgs, size_t nr_nodes, uint64_t t_ns,
					 unsigned int seed);

/* The path of memcg i as lrs_synth__snapshot() names it. */
char *lrs_synth__path(char *buf, size_t len, size_t i);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthetic snapshots for unit tests and benches: a plausible memcg tree with
 * cumulative counters that grow with t_ns, waiters, stacks and other locks.
 */
#ifndef LRS_SYNTH_H
#define LRS_SYNTH_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

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

/*
 * Holders (model/holders.h) for snap, in mode: on each lruvec of memcg 1
 * ("/lrs-s1", the heavy one) three rows, imposed down: pid 4242 "dd" in
 * "/lrs-s1" (imposed 40 ms x node+1, stack 1), pid 77 "kswapd0" in "/"
 * (10 ms, stack 3), and the unknown holder (pid 0, 2 ms); on memcg 2
 * ("/lrs-s2") one row, pid 5151 "cat" in "/lrs-s2" (3 ms). The matrix:
 * waiter /lrs-s1 x owner /lrs-s1 x holder /lrs-s1 80 ms, waiter /lrs-s1 x
 * owner /lrs-s1 x holder / 20 ms, waiter / x owner /lrs-s1 x holder /lrs-s1
 * 8 ms, waiter /lrs-s2 x owner /lrs-s2 x holder /lrs-s2 3 ms. Replaces
 * snap->holders; 0 or -1 when out of memory.
 */
int lrs_synth__holders(struct lrs_snapshot *snap, int mode);

/* The path of memcg i as lrs_synth__snapshot() names it. */
char *lrs_synth__path(char *buf, size_t len, size_t i);

#endif

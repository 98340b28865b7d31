/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by lruvec_iter.bpf.c and collector/live/lruvec_table.c. The iterator
 * writes into maps, not into its seq_file: a cgroup iterator's output is one
 * read() session of 8 pages (kernel/bpf/cgroup_iter.c), ~150 memcgs of
 * records, while the maps hold any number. Each walk stamps what it wrote
 * with the generation the collector set; older entries are gone memcgs.
 * Memcgs created or renamed between walks are in memcg_names until the
 * collector drains it (read and delete: a name, not a counter).
 */
#ifndef LRS_BPF_LRUVEC_ITER_H
#define LRS_BPF_LRUVEC_ITER_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LRUVEC_ITER_NAME_LEN 128
#define LRUVEC_ITER_NR_LRU 5 /* inactive/active anon, inactive/active file, unevictable */
#define LRUVEC_ITER_MAX_ZONES 8
#define LRUVEC_ITER_ZONE_NAME_LEN 8
#define LRUVEC_ITER_MAX_NODES 64

#define MEMCG_REC_DYING (1U << 0) /* removed (rmdir), not yet freed */
#define MEMCG_REC_NAME_TRUNC (1U << 1)

/* memcgs and memcg_names maps: key = cgroup id (kernfs node id). */
struct memcg_rec {
	__u64 gen;
	__u64 order;			 /* position in the pre-order walk: parents first */
	__u64 parent_cgid;		 /* 0 for the hierarchy's root */
	__u32 level;			 /* 0 for the root */
	__u32 flags;			 /* MEMCG_REC_* */
	char name[LRUVEC_ITER_NAME_LEN]; /* the cgroup directory's name */
};

/* lruvecs map: one memcg x node lruvec. */
struct lruvec_key {
	__u64 cgid;
	__u32 node;
	__u32 pad;
};

struct lruvec_rec {
	__u64 gen;
	__u64 lock_addr; /* &lruvec->lru_lock */
	__u64 lru_pages[LRUVEC_ITER_NR_LRU];
};

/* nodes map (array, index = node id): locks the collector can name. */
struct node_rec {
	__u64 gen;
	__u64 node_lruvec_lock; /* &pgdat->__lruvec.lru_lock */
	__u32 nr_zones;
	__u32 pad;
	__u64 zone_lock[LRUVEC_ITER_MAX_ZONES];
	char zone_name[LRUVEC_ITER_MAX_ZONES][LRUVEC_ITER_ZONE_NAME_LEN];
};

#endif

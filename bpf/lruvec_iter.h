/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by lruvec_iter.bpf.c and collector/lruvec_table.c: the iterator's records. */
#ifndef LRS_BPF_LRUVEC_ITER_H
#define LRS_BPF_LRUVEC_ITER_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LRUVEC_ITER_NAME_LEN 128
#define LRUVEC_ITER_NR_LRU 5	/* inactive/active anon, inactive/active file, unevictable */
#define LRUVEC_ITER_MAX_ZONES 8
#define LRUVEC_ITER_ZONE_NAME_LEN 8

#define LRUVEC_REC_DYING	(1U << 0)	/* the memcg was removed (rmdir), not yet freed */
#define LRUVEC_REC_NAME_TRUNC	(1U << 1)

/* One memcg x node lruvec, as the cgroup iterator saw it. */
struct lruvec_rec {
	__u64 cgid;		/* cgroup id (kernfs node id) */
	__u64 parent_cgid;	/* 0 for the hierarchy's root */
	__u64 lock_addr;	/* &lruvec->lru_lock */
	__u64 pgdat_addr;
	__u64 lru_pages[LRUVEC_ITER_NR_LRU];
	__s32 node;
	__u32 flags;		/* LRUVEC_REC_* */
	__u32 level;		/* 0 for the root */
	__u32 pad;
	char name[LRUVEC_ITER_NAME_LEN];	/* the cgroup directory's name */
};

/* Once per node, with the root memcg: locks the collector can name. */
struct node_rec {
	__u64 magic;		/* NODE_REC_MAGIC: tells it from a lruvec_rec */
	__s32 node;
	__u32 nr_zones;
	__u64 node_lruvec_lock;	/* &pgdat->__lruvec.lru_lock */
	__u64 zone_lock[LRUVEC_ITER_MAX_ZONES];
	char zone_name[LRUVEC_ITER_MAX_ZONES][LRUVEC_ITER_ZONE_NAME_LEN];
};

#define NODE_REC_MAGIC 0x6c72736e6f646521ULL	/* no cgroup id is this large */

#endif

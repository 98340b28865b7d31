/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lruvec table read from the cgroup file system, without the BPF cgroup
 * iterator (kernels before 6.1 have none): memcgs from a walk of the memory
 * hierarchy's directories, each lruvec's LRU sizes from its memcg's
 * memory.numa_stat. Lock addresses stay 0: before 5.11 every memcg's lruvec on
 * a node shares that node's pgdat->lru_lock, which the caller finds apart.
 *
 * A memcg's cgroup id is its directory's inode number: since 5.5 kernfs gives a
 * directory kn->id as its inode number on 64-bit (its file handle is kn->id
 * too); measured on 5.10 for cgroup v2 and v1, whose ids are the memory
 * hierarchy's own.
 */
#ifndef LRS_MEMCG_TABLE_FS_H
#define LRS_MEMCG_TABLE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "collector/live/cgroup_fs.h"
#include "collector/live/lruvec_table.h"

/*
 * One memcg's memory.numa_stat text into pages[node * LRS_NR_LRU_LISTS + list]
 * and present[node] for the nodes it names below nr_nodes (nodes without
 * memory are not named). version 2: one line per LRU list, bytes per node
 * (page_size converts). version 1: pages per node of file, anon and
 * unevictable only; each node's file and anon pages are split into inactive
 * and active as the memcg's own memory.stat (stat_text) splits its totals
 * (all inactive when it has none). Returns 0, or -EINVAL when the text names
 * no node.
 */
int lrs_numa_stat__parse(const char *numa_stat, const char *stat_text, int version,
			 size_t page_size, unsigned int nr_nodes, uint64_t *pages, bool *present);

/*
 * Walk the hierarchy under root (pre-order, children by name) into out: every
 * memcg with its id, parent's id, level and path ("/" for the root), one
 * lruvec per memcg and node that its memory.numa_stat names, and one node
 * entry (locks 0) per node named anywhere. A lruvec's pages are its memcg's
 * own: v2's numa_stat counts descendants too, whose numbers are subtracted
 * (a removed child whose pages are not yet freed is no directory: its pages
 * stay its parent's). A memcg removed while walked is
 * left out; one without memory.numa_stat (a root on some kernels) has no
 * lruvecs. Returns 0 or -errno (root unreadable, out of memory); out is
 * cleared on error and is freed with lrs_lruvec_table__clear().
 */
int lrs_memcg_table_fs__read(const struct lrs_cgroup_root *root, unsigned int nr_nodes,
			     struct lrs_lruvec_table *out);

#endif

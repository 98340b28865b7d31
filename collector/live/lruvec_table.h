/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every memcg x node lruvec with its lock address and LRU sizes, read by the
 * BPF cgroup iterator (bpf/lruvec_iter.bpf.c) once per interval, and the
 * names of memcgs created since the last read (which a walk may never see).
 */
#ifndef LRS_LRUVEC_TABLE_H
#define LRS_LRUVEC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

struct lrs_memcg_info {
	uint64_t cgid;
	uint64_t parent_cgid;
	char *path; /* "/", "/a/b" */
	int level;
	bool dying; /* removed, not yet freed */
};

struct lrs_lruvec_info {
	size_t memcg; /* index into memcgs */
	int node;
	uint64_t lock_addr;
	uint64_t lru_pages[LRS_NR_LRU_LISTS];
};

#define LRS_MAX_ZONES 8

struct lrs_node_info {
	int node;
	uint64_t node_lruvec_lock;
	size_t nr_zones;
	uint64_t zone_lock[LRS_MAX_ZONES];
	char zone_name[LRS_MAX_ZONES][8];
};

/* A memcg created or renamed since the last read: its name, its path not yet known. */
struct lrs_memcg_born {
	uint64_t cgid;
	uint64_t parent_cgid;
	int level;
	char *name; /* the directory's name */
};

struct lrs_lruvec_table {
	struct lrs_memcg_info *memcgs; /* tree order (pre-order walk) */
	size_t nr_memcgs;
	struct lrs_memcg_born *born; /* parents before children (by level) */
	size_t nr_born;
	struct lrs_lruvec_info *lruvecs;
	size_t nr_lruvecs;
	struct lrs_node_info *nodes;
	size_t nr_nodes;
};

/* One walk's raw map entries, as the iterator left them (bpf/lruvec_iter.h). */
struct memcg_rec;
struct lruvec_key;
struct lruvec_rec;
struct node_rec;

struct lrs_lruvec_raw {
	const uint64_t *memcg_ids; /* keys of the memcgs map */
	const struct memcg_rec *memcgs;
	size_t nr_memcgs;
	const struct lruvec_key *lruvec_keys;
	const struct lruvec_rec *lruvecs;
	size_t nr_lruvecs;
	const struct node_rec *nodes; /* index = node id */
	size_t nr_nodes;
	uint64_t gen;		  /* entries of older walks are gone memcgs */
	const uint64_t *born_ids; /* the memcg_names map, drained */
	const struct memcg_rec *born;
	size_t nr_born;
};

/*
 * Build the table from one walk's entries: tree order, paths, per-node
 * lruvecs; and the memcgs born since the last read, parents first.
 */
int lrs_lruvec_table__build(const struct lrs_lruvec_raw *raw, struct lrs_lruvec_table *out);
void lrs_lruvec_table__clear(struct lrs_lruvec_table *table);

/* "/a" + "b" -> "/a/b"; a NULL parent is the root ("/"). NULL if out of memory. */
char *lrs_memcg_child_path(const char *parent_path, const char *name);

/* The iterator's life cycle. */
struct lrs_lruvec_iter;
int lrs_lruvec_iter__prepare(const char *memcg_root, unsigned int nr_nodes, unsigned int max_memcgs,
			     struct lrs_lruvec_iter **out, char *err, size_t err_len);
int lrs_lruvec_iter__read(struct lrs_lruvec_iter *it, struct lrs_lruvec_table *table);
/*
 * Why names of memcgs created between two walks are not recorded (their
 * hooks did not attach), or NULL when they are.
 */
const char *lrs_lruvec_iter__names_unavailable(const struct lrs_lruvec_iter *it);
/* Reads that failed, and memcgs or lruvecs that did not fit in the maps. */
uint64_t lrs_lruvec_iter__read_faults(const struct lrs_lruvec_iter *it);
uint64_t lrs_lruvec_iter__map_full(const struct lrs_lruvec_iter *it);
void lrs_lruvec_iter__destroy(struct lrs_lruvec_iter *it);
struct bpf_object;
const struct bpf_object *lrs_lruvec_iter__object(const struct lrs_lruvec_iter *it);

#endif

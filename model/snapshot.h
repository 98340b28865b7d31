/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One snapshot: absolute, cumulative lock counters at t_ns, plus LRU sizes.
 * Every source (BPF, a recording, drgn JSON) produces this type; the model
 * turns two of them into rates. Plain C structs, no libbpf, no curses.
 */
#ifndef LRS_SNAPSHOT_H
#define LRS_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/limits.h"

enum lrs_lru_list {
	LRS_INACTIVE_ANON,
	LRS_ACTIVE_ANON,
	LRS_INACTIVE_FILE,
	LRS_ACTIVE_FILE,
	LRS_UNEVICTABLE,
	LRS_NR_LRU_LISTS,
};

extern const char *const lrs_lru_list_names[LRS_NR_LRU_LISTS];

/* Counters of one lock, cumulative since the collector started. */
struct lrs_lock_counters {
	uint64_t contended;
	uint64_t wait_ns;
	uint64_t wait_max_ns;
	uint64_t hist[LRS_HIST_BUCKETS]; /* hist[i]: waits in [2^i, 2^(i+1)) ns */
};

/* A task that waited on a lock. */
struct lrs_waiter {
	int32_t pid;
	char comm[LRS_COMM_LEN];
	uint64_t memcg_id; /* the waiter's own memcg (cgroup id), 0 if unknown */
	char *memcg;	   /* its path, or NULL if unknown */
	uint64_t contended;
	uint64_t wait_ns;
};

/* Sampled waiting call stacks of one lock: id into lrs_snapshot.stacks. */
struct lrs_stack_use {
	int32_t id;
	uint64_t contended;
	uint64_t wait_ns;
};

/*
 * What a drgn walk read of one lruvec (collector/walk/walk_import.c): the lock
 * word and the walk's check of the counters. Zero in live snapshots.
 */
struct lrs_lruvec_walk {
	bool known;	      /* set by a walk: the fields below mean something */
	bool locked, pending; /* the lru_lock word's bits */
	bool node_lock;	      /* before 5.11: the lock is the node's pgdat->lru_lock,
				 * shared by every memcg's lruvec on that node */
	uint8_t mismatch;     /* bit per enum lrs_lru_list: walked pages != counter */
	int32_t tail_cpu;     /* CPU of the last queued waiter, -1: no queue */
};

/* One memcg x node lruvec. */
struct lrs_lruvec {
	char *memcg;	    /* cgroup path: "/", "/lrs-a/b" */
	uint64_t memcg_id;  /* cgroup id (kernfs id): stable, never reused */
	uint64_t parent_id; /* 0 for the root */
	int depth;	    /* 0 for the root: for tree indentation */
	int node;
	uint64_t lock_addr;
	bool removed; /* memcg gone (rmdir) but seen contended */
	struct lrs_lock_counters counters;
	struct lrs_waiter *waiters;
	size_t nr_waiters;
	struct lrs_stack_use *stacks;
	size_t nr_stacks;
	uint64_t lru_pages[LRS_NR_LRU_LISTS];
	struct lrs_lruvec_walk walk; /* inline: clones and diffs copy it as is */
};

/* Locks that are not lruvec locks, named as best we can. */
struct lrs_other_lock {
	char *name; /* "zone N0/Normal", "spinlock @ __remove_mapping", ... */
	uint64_t lock_addr;
	uint32_t flags; /* LCB_F_* of the contention tracepoint */
	struct lrs_lock_counters counters;
	struct lrs_stack_use *stacks;
	size_t nr_stacks;
};

struct lrs_stack {
	int32_t id;
	char **frames; /* "sym+0x1a", innermost first */
	size_t nr_frames;
};

/* Events the collector could not account, shown in every view. */
struct lrs_drops {
	uint64_t task;		 /* a wait not counted for want of its begin or end; the sum of: */
	uint64_t task_nested;	 /* a hook of ours ran inside another of ours on its CPU */
	uint64_t task_unmatched; /* an end whose begin was not kept */
	uint64_t task_no_room;	 /* a begin with no room to keep it */
	uint64_t task_lost;	 /* a begin whose end never came */
	uint64_t stack;		 /* a sampled stack could not be taken */
	uint64_t stats_full;	 /* a lock, waiter or stack map was full */
	uint64_t insert_failed;	 /* the kernel refused a new entry though the map had room */
	uint64_t negative_time;	 /* end before begin */
};

/*
 * The live collector's own BPF cost, cumulative: run time and runs of its
 * programs, counted by the kernel while run-time stats are on (the exporter
 * turns them on). known is false everywhere else.
 */
struct lrs_bpf_cost {
	bool known;
	uint64_t run_ns;
	uint64_t runs;
};

/*
 * Which source counted spinlock waits (sleeping locks always come from the
 * contention tracepoints): the tracepoint sees no first waiter on native
 * queued spinlocks and nothing on test-and-set ones; the slowpath hooks see
 * every contended acquisition. LRS_SPIN_UNKNOWN: not said (older recordings,
 * drgn walks).
 */
enum lrs_spin_name {
	LRS_SPIN_UNKNOWN = 0,
	LRS_SPIN_TRACEPOINT,
	LRS_SPIN_SLOWPATH,
	LRS_SPIN_NONE, /* no source can see spinlock waits here */
};

struct lrs_spin_source {
	enum lrs_spin_name name;
	bool first_waiter; /* the first waiter of a spinlock is counted */
	char why[512];
};

/* "tracepoint", "slowpath", "none", or NULL for LRS_SPIN_UNKNOWN; and back (-1: no such name). */
const char *lrs_spin_name__str(enum lrs_spin_name name);
int lrs_spin_name__parse(const char *s);

struct lrs_holders;

struct lrs_snapshot {
	int schema;
	uint64_t t_ns; /* CLOCK_MONOTONIC */
	uint64_t interval_ns;
	char kernel[64];
	int *nodes;
	size_t nr_nodes;
	struct lrs_lruvec *lruvecs; /* tree order: parents before children */
	size_t nr_lruvecs;
	struct lrs_other_lock *other_locks;
	size_t nr_other_locks;
	struct lrs_stack *stacks;
	size_t nr_stacks;
	struct lrs_drops drops;
	char *unavailable; /* "stacks: ..." features that degraded, or NULL */
	struct lrs_bpf_cost bpf_cost;
	struct lrs_spin_source spin_source;
	struct lrs_holders *holders; /* lock holders (model/holders.h), or NULL */
};

/*
 * Before Linux 5.11 a node had one LRU lock (pgdat->lru_lock) that every
 * memcg's pages on it took: its row is this pseudo memcg, memcg_id 0, and its
 * waiters carry their own memcgs. Shown as "N0 (node lock)".
 */
#define LRS_NODE_LOCK_MEMCG "(node lock)"
bool lrs_lruvec__is_node_lock(const struct lrs_lruvec *lv);
/* "path@N0", or "N0 (node lock)"; returns buf. */
char *lrs_lruvec__name(const struct lrs_lruvec *lv, char *buf, size_t len);
/* The same from a memcg path (LRS_NODE_LOCK_MEMCG for a node lock) and a node. */
char *lrs_lruvec__label(const char *memcg, int node, char *buf, size_t len);

struct lrs_snapshot *lrs_snapshot__new(void);
void lrs_snapshot__free(struct lrs_snapshot *snap); /* accepts NULL */

/* Appenders grow the arrays; they return NULL when out of memory. */
struct lrs_lruvec *lrs_snapshot__add_lruvec(struct lrs_snapshot *snap);
struct lrs_other_lock *lrs_snapshot__add_other_lock(struct lrs_snapshot *snap);
struct lrs_stack *lrs_snapshot__add_stack(struct lrs_snapshot *snap);
int lrs_snapshot__add_node(struct lrs_snapshot *snap, int node);

const struct lrs_stack *lrs_snapshot__find_stack(const struct lrs_snapshot *snap, int32_t id);
/* The lruvec of memcg id on node, or NULL. */
const struct lrs_lruvec *lrs_snapshot__find_lruvec(const struct lrs_snapshot *snap,
						   uint64_t memcg_id, int node);
/* Whether d says why its task drops were (a recording made before it did not). */
bool lrs_drops__task_causes(const struct lrs_drops *d);
/* The use of stack id among uses[0..n), or NULL (a delta line counts from it). */
const struct lrs_stack_use *lrs_stack_uses__find(const struct lrs_stack_use *uses, size_t n,
						 int32_t id);
/* lv's waiter pid, or NULL. */
const struct lrs_waiter *lrs_lruvec__find_waiter(const struct lrs_lruvec *lv, int32_t pid);

/* Log2 histogram helpers (pure). */
int lrs_hist__bucket(uint64_t wait_ns);
uint64_t lrs_hist__bucket_low_ns(int bucket);
/* The wait below which fraction q (0..1) of the histogram's waits fall. */
uint64_t lrs_hist__quantile_ns(const uint64_t hist[LRS_HIST_BUCKETS], double q);

#endif

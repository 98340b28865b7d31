/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lock contention collector (bpf/lockstat.bpf.c): prepare (open, size
 * the maps, load), start (attach), read (copy the cumulative maps into plain
 * structs), stop (detach), destroy.
 */
#ifndef LRS_LOCK_COLLECTOR_H
#define LRS_LOCK_COLLECTOR_H

#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

struct lrs_lockstat_opts {
	unsigned int stack_every;
	unsigned int stack_rate;    /* stacks a second per CPU at most; 0: the BPF default */
	unsigned int stack_time;    /* stacks take at most 1/N of a CPU's time; 0: no limit */
	unsigned int stack_cost_ns; /* and at most N ns a wait, on average; 0: no limit */
	unsigned int nr_nodes;
	unsigned int max_locks, max_waiters, max_stacks;
	unsigned int percpu_locks; /* if percpu_locks_set; else from the budget */
	bool percpu_locks_set;
	bool verbose;
	/* holders (model/holders.h): the estimate; exact: reuse exact_last_fd */
	bool track_holders;
	bool exact_holders;
	int exact_last_fd;
	/* spinlock waits from the slowpath hooks (bpf/lockstat_slowpath.bpf.h), on these functions */
	bool spin_slowpath;
	bool slowpath_native, slowpath_pv;
	bool tracepoints;   /* lock:contention_begin/end exist: sleeping locks (and spinlocks) */
	bool no_bpf_loop;   /* before 5.19: the compat hooks, no holder code */
	bool have_task_btf; /* bpf_get_current_task_btf() (5.11+) */
	bool prealloc;	    /* preallocate the maps (no BPF allocator: before 6.1) */
	uint64_t node_data; /* &node_data[0], to find pgdat->lru_lock before 5.11; or 0 */
};

/* Kinds, as bpf/lockstat.h's enum lock_kind. */
#define LRS_LOCK_OTHER 0
#define LRS_LOCK_LRUVEC 1
#define LRS_LOCK_NODE_LRUVEC 2
#define LRS_LOCK_MMAP 3
#define LRS_LOCK_NODE_LOCK 4 /* pgdat->lru_lock, before 5.11 */

struct lrs_lock_row {
	uint64_t lock_addr;
	uint64_t owner_cgid;
	uint32_t kind;
	uint32_t flags;
	int32_t owner_node;
	struct lrs_lock_counters counters;
};

struct lrs_waiter_row {
	uint64_t lock_addr;
	uint64_t owner_cgid;
	uint32_t pid;
	uint64_t waiter_cgid;
	uint64_t contended;
	uint64_t wait_ns;
	char comm[LRS_COMM_LEN];
};

struct lrs_stack_row {
	uint64_t lock_addr;
	uint64_t owner_cgid;
	int32_t stack_id;
	uint64_t contended;
	uint64_t wait_ns;
};

struct lrs_lockstat_read {
	struct lrs_lock_row *locks;
	size_t nr_locks;
	struct lrs_waiter_row *waiters;
	size_t nr_waiters;
	struct lrs_stack_row *stacks;
	size_t nr_stacks;
	struct lrs_drops drops;
};

#define LRS_STACK_DEPTH 32

struct lrs_lockstat;

int lrs_lockstat__prepare(const struct lrs_lockstat_opts *opts, struct lrs_lockstat **out,
			  char *err, size_t err_len);
int lrs_lockstat__start(struct lrs_lockstat *ls, char *err, size_t err_len);
int lrs_lockstat__read(struct lrs_lockstat *ls, struct lrs_lockstat_read *out);
/* The instruction pointers of a sampled stack; returns how many, or -errno. */
int lrs_lockstat__stack(struct lrs_lockstat *ls, int32_t id, uint64_t ips[LRS_STACK_DEPTH]);
struct lrs_holders_read;
/* The holder maps (zeroed if holders are off); 0 or -errno. */
int lrs_lockstat__read_holders(struct lrs_lockstat *ls, struct lrs_holders_read *out);
void lrs_lockstat__stop(struct lrs_lockstat *ls);
void lrs_lockstat__destroy(struct lrs_lockstat *ls);
/* Its BPF object, for the programs' run time (collector/live/bpf_cost.h). */
struct bpf_object;
const struct bpf_object *lrs_lockstat__object(const struct lrs_lockstat *ls);
void lrs_lockstat_read__clear(struct lrs_lockstat_read *rd);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by lockstat.bpf.c and collector/live/lock_collector.c: map keys and values. */
#ifndef LRS_BPF_LOCKSTAT_H
#define LRS_BPF_LOCKSTAT_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define LOCKSTAT_HIST_BUCKETS 32 /* = LRS_HIST_BUCKETS */
#define LOCKSTAT_COMM_LEN 16
#define LOCKSTAT_MAX_NODES 64
#define LOCKSTAT_STACK_DEPTH 32

/* The contention tracepoints' flags (include/trace/events/lock.h). */
#define LCB_F_SPIN (1U << 0)
#define LCB_F_READ (1U << 1)
#define LCB_F_WRITE (1U << 2)
#define LCB_F_RT (1U << 3)
#define LCB_F_PERCPU (1U << 4)
#define LCB_F_MUTEX (1U << 5)

/* What the BPF side could tell about a lock at the time of the wait. */
enum lock_kind {
	LOCK_KIND_OTHER = 0,
	LOCK_KIND_LRUVEC = 1,	   /* a memcg's lruvec: owner_cgid and owner_node set */
	LOCK_KIND_NODE_LRUVEC = 2, /* pgdat->__lruvec (memcg off): owner_node set */
	LOCK_KIND_MMAP = 3,	   /* the waiting task's own mm->mmap_lock */
	LOCK_KIND_NODE_LOCK = 4,   /* pgdat->lru_lock (before 5.11): every memcg's on a node */
};

/*
 * A lock is keyed by its address and, for lruvec locks, the cgroup id of the
 * memcg that owned it at the time of the wait: a freed memcg's lruvec address
 * is reused by the next one, the cgroup id never is.
 */
struct lock_key {
	__u64 lock_addr;
	__u64 owner_cgid; /* 0 unless kind is LOCK_KIND_LRUVEC */
};

struct lock_stat {
	__u64 contended;
	__u64 wait_ns;
	__u64 wait_max_ns;
	__u64 hist[LOCKSTAT_HIST_BUCKETS];
	__u32 flags;	  /* LCB_F_* of the first wait seen */
	__u32 kind;	  /* enum lock_kind */
	__s32 owner_node; /* -1 unless an lruvec */
	__u32 identity;	  /* 1: flags, kind, owner_node are set in this CPU's copy */
};

/* Waiters of lruvec locks (other locks keep only counters and stacks). */
/*
 * A waiter is a task in a memcg: a task that waited, then moved (a reader that
 * waited before joining its container), has a row for each memcg it waited from.
 */
struct waiter_key {
	__u64 lock_addr;
	__u64 owner_cgid;
	__u64 waiter_cgid;
	__u32 pid;
	__u32 pad;
};

struct waiter_stat {
	__u64 contended;
	__u64 wait_ns;
	__u64 waiter_cgid; /* the waiting task's own memcg */
	char comm[LOCKSTAT_COMM_LEN];
};

/*
 * A waiter's row, per CPU: its slot in waiter_counts (a per-CPU array of
 * counters only, every copy starting at zero) and its identity, kept once in
 * waiter_slots. Rows past the per-CPU room are counted in waiter_stats.
 */
struct waiter_count {
	__u64 contended;
	__u64 wait_ns;
};

struct waiter_slot {
	__u32 slot;
	__u32 pad;
	char comm[LOCKSTAT_COMM_LEN];
};

/*
 * lock_stats is a per-CPU map: user space reads one value per possible CPU and
 * merges them (collector/live/percpu_merge.h). waiter_stats and stack_stats
 * are shared maps, one value a row (the same merge, of one copy).
 */

/* Sampled waiting stacks per lock. */
struct stack_key {
	__u64 lock_addr;
	__u64 owner_cgid;
	__s32 stack_id;
	__u32 pad;
};

struct stack_stat {
	__u64 contended;
	__u64 wait_ns;
};

/*
 * Holders: who held an lruvec lock while others waited. The rule,
 * shared by the BPF side and model/holders.c, is documented once, in
 * model/holders.h. Keys and values of the holder maps:
 */
struct holder_last {  /* lock_last: the last contended acquirer of a lock */
	__u64 end_ns; /* its contention_end: when it took the lock */
	__u64 cgid;   /* its memcg */
	__u32 pid;
	__s32 stack_id; /* its own wait's stack, or -1 if not sampled */
	__s64 waiting;	/* tasks waiting on the lock now (begin +1, end -1) */
	__u64 queued;	/* tasks still waiting when it took the lock */
	__u32 cpu;	/* where it took the lock (a spinlock holder stays there) */
	__u32 pad;
};

/* How a wait's holder was found (holders.h, THE RULE): compare counters per basis. */
enum holder_basis {
	HOLDER_BASIS_CHAIN = 0,	   /* rule 1: FIFO hand-over from the last contended acquirer */
	HOLDER_BASIS_RUNNING = 1,  /* rule 2: a task running on another CPU, not waiting */
	HOLDER_BASIS_PROBABLE = 2, /* rule 3: the last contended acquirer, from before */
	HOLDER_BASIS_UNKNOWN = 3,  /* rule 4: nobody */
	HOLDER_NR_BASES = 4,
};

struct holder_key { /* holder_stats */
	__u64 lock_addr;
	__u64 owner_cgid;
	__u32 pid; /* 0: unknown (no contended acquirer seen yet) */
	__u32 pad;
};

/*
 * holder_stats and exact_stats are per-CPU: each CPU counts the waits that
 * ended on it. cgid and stack_id are set in the copy of each CPU that
 * counted a hold (a copy with holds == 0 says nothing).
 */
struct holder_stat {
	__u64 holds;	   /* waits that ended right after one of its holds */
	__u64 hold_ns;	   /* estimated hold time (waiters' view) */
	__u64 imposed_ns;  /* hold time x tasks queued behind it */
	__u64 waiters;	   /* tasks queued behind it, summed over holds */
	__u64 probable_ns; /* part of hold_ns from the weaker rule (see holders.h) */
	__u64 cgid;	   /* the holder's memcg */
	__s32 stack_id;	   /* a sampled stack of its own wait on this lock, or -1 */
	__u32 pad;
};

struct matrix_key { /* matrix_stats */
	__u64 waiter_cgid;
	__u64 owner_cgid;
	__u64 holder_cgid; /* 0: unknown */
};

struct matrix_stat { /* per-CPU, as holder_stat */
	__u64 holds;
	__u64 hold_ns;
	__u64 imposed_ns;
};

/* holder_counts, per-CPU: waits by how their holder was found */
struct holder_counts {
	__u64 unknown;	/* no known holder (rule 4) */
	__u64 probable; /* charged to an earlier acquirer (rule 3) */
	__u64 running;	/* charged to a task seen running (rule 2) */
};

/* exact_last (holders_exact.bpf.c, shared with lockstat.bpf.c): the last acquirer seen. */
struct exact_last {
	__u64 t_ns;
	__u64 cgid;
	__u32 pid;
	__u32 pad;
};

#endif

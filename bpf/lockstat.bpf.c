// SPDX-License-Identifier: GPL-2.0
/*
 * Lock contention per lock, with lruvec locks attributed to their memcg and
 * node at the time of the wait. Hooks: tp_btf/contention_begin and
 * tp_btf/contention_end (Linux 5.19+). Counters are cumulative: user space
 * reads them and never deletes, so nothing is lost between reads.
 *
 * Longer than the other files on purpose: one .bpf.c is one BPF object and
 * one skeleton, and the counters, the waiter table, the stacks and the
 * holders share maps and per-CPU state in the same hot path; split into
 * objects they would need pinned or reused maps and two loads to agree.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "lockstat.h"

#define E2BIG 7	/* errno.h is not for BPF programs */

char LICENSE[] SEC("license") = "GPL";

/* Load-time settings, set by user space before load. */
const volatile __u32 stack_every = 16;	/* a stack on 1 in N waits per CPU; 0: never */
/*
 * and at most one per CPU per this many ns (200 a second): a stack costs
 * about 6 us here (bpf_get_stackid from the lock slow path); 1 in 16 of 65k
 * waits/s per CPU took 2.4% of that CPU.
 */
const volatile __u64 stack_gap_ns = 5000000;
const volatile __u32 nr_nodes = 1;
const volatile bool track_mmap_lock = true;
/* bpf_get_current_task_btf() exists (5.11+); else the task is read with probe reads */
const volatile bool have_task_btf = true;
/*
 * Spinlock waits come from the slowpath hooks (lockstat_slowpath.bpf.h): the
 * tracepoint programs leave plain spinlock waits (flags LCB_F_SPIN) to them.
 */
const volatile bool spin_slowpath = false;

/* Every event we could not account is counted here, never dropped silently. */
__u64 drop_task = 0;		/* end without begin, or nesting deeper than we keep */
__u64 drop_stack = 0;		/* bpf_get_stackid failed */
__u64 drop_stats_full = 0;	/* a map was full */
/*
 * an insert refused though the map had room: the map was in use on this CPU
 * (a wait inside our own map update, on a kernel that traces spinlocks) or
 * the kernel had no memory at hand for a new entry
 */
__u64 drop_insert_failed = 0;
__u64 drop_negative_time = 0;	/* end before begin */

/*
 * Map sizes are set from user space (bpf_map__set_max_entries). The counters
 * are per CPU: every waiter of a hot lock adds to its own CPU's copy, so the
 * common path writes no cache line another CPU writes (user space sums the
 * copies, collector/live/percpu_merge.h). A copy created here holds the
 * init value only on the creating CPU, the others start zeroed: the identity
 * fields (a lock's flags, kind, owner_node; a waiter's memcg and comm) are
 * taken from the copy that has them. All three allocate on use: preallocated,
 * 16,384 locks would take 6 MB a CPU while a busy machine contends on a few
 * hundred.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct lock_key);
	__type(value, struct lock_stat);
} lock_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct waiter_key);
	__type(value, struct waiter_stat);
} waiter_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 8192);
	__type(key, struct stack_key);
	__type(value, struct stack_stat);
} stack_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 2048);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, LOCKSTAT_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* A wait in progress. */
struct pending {
	__u64 lock_addr;
	__u64 start_ns;
	__u64 owner_cgid;
	__u64 waiter_cgid;
	__s32 stack_id;
	__s32 owner_node;
	__u32 flags;
	__u32 kind;
};

/*
 * Spinning waits cannot migrate or sleep, but an interrupt can nest another
 * wait on the same CPU: a small per-CPU stack. Sleeping waits (mutex, rwsem)
 * can migrate: per task.
 */
#define CPU_DEPTH 4
#define TASK_DEPTH 2

struct pending_stack {
	__u32 depth;
	__u32 sample_ctr;
	__u32 busy;		/* one of our programs runs on this CPU (slowpath mode) */
	__u32 pad;
	__u64 last_stack_ns;	/* when this CPU last took a stack */
	struct pending slot[CPU_DEPTH];
};

struct task_pending {
	__u32 depth;
	__u32 pad;
	struct pending slot[TASK_DEPTH];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pending_stack);
} cpu_pending SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_pending);
} task_pending SEC(".maps");

static __always_inline int log2_bucket(__u64 v)
{
	int b = 0;

#pragma unroll
	for (int shift = 32; shift > 0; shift >>= 1) {
		if (v >= (1ULL << shift)) {
			v >>= shift;
			b += shift;
		}
	}
	return b < LOCKSTAT_HIST_BUCKETS ? b : LOCKSTAT_HIST_BUCKETS - 1;
}

/*
 * Each node's pglist_data, learnt from the first lruvec lock classified on it.
 * Once every node's is known, a lock whose would-be lruvec->pgdat is none of
 * them is rejected without reading through that pointer: for most locks it is
 * not a pointer at all, and a probe read of a random address is the costly
 * part of classify() (115 of 290 ns a contention_begin here).
 */
__u64 known_pgdat[LOCKSTAT_MAX_NODES] = {};
__u32 known_nodes = 0;

static __always_inline void learn_pgdat(int node, struct pglist_data *pgdat)
{
	__u64 *slot;
	__u32 i = (__u32)node;

	if (node < 0 || node >= LOCKSTAT_MAX_NODES)
		return;
	/* keep the mask: clang drops it after the range check, and the verifier needs it */
	asm volatile("" : "+r"(i));
	slot = &known_pgdat[i & (LOCKSTAT_MAX_NODES - 1)];
	/* two CPUs may learn it at once: only the one that fills the slot counts it */
	if (!*slot && __sync_val_compare_and_swap(slot, 0, (__u64)pgdat) == 0)
		__sync_fetch_and_add(&known_nodes, 1);
}

/* The node of pgdat if it is a known one; -1 if not; -2 while not all are known. */
static __always_inline int known_node(struct pglist_data *pgdat)
{
	if (known_nodes < nr_nodes)
		return -2;
	for (int n = 0; n < LOCKSTAT_MAX_NODES; n++) {
		if ((__u32)n >= nr_nodes)
			break;
		if (known_pgdat[n] == (__u64)pgdat)
			return n;
	}
	return -1;
}

/* Before 5.11 the LRU lock is the node's: pgdat->lru_lock (CO-RE flavour of the old layout). */
struct pglist_data___old {
	spinlock_t lru_lock;
	int node_id;
} __attribute__((preserve_access_index));

/* &node_data[0] from kallsyms (user space sets it where lruvecs have no lock of their own) */
const volatile __u64 node_data_addr = 0;

/*
 * Is lock a node's pgdat->lru_lock? The would-be pgdat's node_id must lead
 * back to it through node_data[]: a random lock never closes that cycle.
 */
static __always_inline void classify_node_lock(struct pending *p, void *lock, const bool compat)
{
	struct pglist_data___old *pgdat =
		(void *)((char *)lock - bpf_core_field_offset(struct pglist_data___old, lru_lock));
	__u64 back = 0;
	int node;

	if (!node_data_addr)
		return;
	node = known_node((struct pglist_data *)pgdat);
	if (node == -1)
		return;
	if (node == -2) {
		node = BPF_CORE_READ(pgdat, node_id);
		if (node < 0 || node >= LOCKSTAT_MAX_NODES || (__u32)node >= nr_nodes)
			return;
		if (bpf_probe_read_kernel(&back, sizeof(back),
					  (void *)(node_data_addr + (__u64)node * sizeof(__u64))) ||
		    back != (__u64)pgdat)
			return;
		if (!compat)
			learn_pgdat(node, (struct pglist_data *)pgdat);
	}
	p->kind = LOCK_KIND_NODE_LOCK;
	p->owner_node = node;
}

static __always_inline __u64 cgroup_id_of_css(struct cgroup_subsys_state *css)
{
	return css ? BPF_CORE_READ(css, cgroup, kn, id) : 0;
}

/*
 * Is lock the lru_lock of a memcg's lruvec? Follow lock -> lruvec ->
 * mem_cgroup_per_node -> memcg -> nodeinfo[node] and accept only if it leads
 * back to the same mem_cgroup_per_node: a random lock never closes that cycle.
 * Reads are probe reads: a lock that is not an lruvec's reads harmlessly.
 */
static __always_inline void classify(struct pending *p, void *lock, const bool compat)
{
	struct mem_cgroup_per_node *pn, *back = NULL;
	struct lruvec *lruvec;
	struct pglist_data *pgdat;
	struct mem_cgroup *memcg;
	int node;

	p->kind = LOCK_KIND_OTHER;
	p->owner_cgid = 0;
	p->owner_node = -1;

	/* before the per-memcg lock, no field offset of its layout may be relocated */
	if (!bpf_core_field_exists(struct lruvec, lru_lock)) {
		classify_node_lock(p, lock, compat);
		return;
	}
	lruvec = (void *)((char *)lock - bpf_core_field_offset(struct lruvec, lru_lock));
	pn = (void *)((char *)lruvec - bpf_core_field_offset(struct mem_cgroup_per_node, lruvec));
	pgdat = BPF_CORE_READ(lruvec, pgdat);
	if (!pgdat)
		return;
	node = known_node(pgdat);
	if (node == -1)
		return;
	if (node == -2)
		node = BPF_CORE_READ(pgdat, node_id);
	if (node < 0 || node >= LOCKSTAT_MAX_NODES || (__u32)node >= nr_nodes)
		return;
	/* pgdat->__lruvec: the node's own lruvec (all of it when memcg is off) */
	if ((char *)pgdat + bpf_core_field_offset(struct pglist_data, __lruvec) == (char *)lruvec) {
		p->kind = LOCK_KIND_NODE_LRUVEC;
		p->owner_node = node;
		if (!compat)
			learn_pgdat(node, pgdat);
		return;
	}
	memcg = BPF_CORE_READ(pn, memcg);
	if (!memcg)
		return;
	if (bpf_core_read(&back, sizeof(back), &memcg->nodeinfo[node]) || back != pn)
		return;
	p->kind = LOCK_KIND_LRUVEC;
	p->owner_node = node;
	p->owner_cgid = BPF_CORE_READ(memcg, css.cgroup, kn, id);
	if (!compat)
		learn_pgdat(node, pgdat);
}

static __always_inline __u64 current_memcg_cgid(struct task_struct *task)
{
	struct cgroup_subsys_state *css;

	css = BPF_CORE_READ(task, cgroups, subsys[bpf_core_enum_value(enum cgroup_subsys_id,
								      memory_cgrp_id)]);
	return cgroup_id_of_css(css);
}

/*
 * The same for the current task, by direct loads: bpf_get_current_task_btf()
 * is a BTF pointer, so each field is one load, not a helper call (this runs
 * on every lruvec wait).
 */
static __always_inline __u64 own_memcg_cgid(struct task_struct *task)
{
	struct cgroup_subsys_state *css;

	css = task->cgroups->subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)];
	return css ? css->cgroup->kn->id : 0;
}

static __always_inline bool is_own_mmap_lock(struct task_struct *task, void *lock)
{
	struct mm_struct *mm = task->mm;	/* direct load, as above */

	return mm && (char *)mm + bpf_core_field_offset(struct mm_struct, mmap_lock) == (char *)lock;
}

/*
 * ---- Holders ------------------------------------------------------
 * Who held an lruvec lock while others waited, inferred from the FIFO hand-over
 * of queued spinlocks: the rule is written once, in model/holders.h, and
 * model/holders.c is its C model (unit-tested on synthetic streams). Only
 * LOCK_KIND_LRUVEC spinning waits; off unless user space sets track_holders.
 */
const volatile bool track_holders = false;
/* holders_exact.bpf.c is loaded and shares exact_last: compare with the truth */
const volatile bool exact_holders = false;

__u64 holder_drop_full = 0;	/* lock_last, holder_stats, matrix_stats or exact_* full */

/*
 * The holder maps allocate on use, as lock_stats: preallocated they took
 * 4.8 MB (16,384 locks) and put the collector over its 8 MB budget.
 */
/* estimate vs exact, in estimated hold ns: all compared, right memcg, right task */
__u64 cmp_est_ns = 0;
__u64 cmp_memcg_ns = 0;
__u64 cmp_pid_ns = 0;
/* the same per basis (enum holder_basis): which rule errs */
__u64 cmp_basis_est_ns[HOLDER_NR_BASES] = {};
__u64 cmp_basis_memcg_ns[HOLDER_NR_BASES] = {};
__u64 cmp_exact_ns = 0;		/* the exact hold time of the same waits */
__u64 cmp_no_exact = 0;		/* waits with no acquirer seen by the exact hooks */
/*
 * Two naive guesses on the same waits, weighted alike, for the estimate to beat:
 * "a task of the lruvec's memcg" (right memcg when the true holder is of it) and
 * "the last contended acquirer of the lock" (right memcg, right task).
 */
__u64 cmp_owner_memcg_ns = 0;
__u64 cmp_last_memcg_ns = 0;
__u64 cmp_last_pid_ns = 0;

/* a pending wait counted in lock_last.waiting: its end must uncount it */
#define PENDING_F_WAITING (1U << 31)
/* a pending wait begun by the slowpath hooks: only their exit hook ends it */
#define PENDING_F_SLOWPATH (1U << 30)

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct lock_key);
	__type(value, struct holder_last);
} lock_last SEC(".maps");

/*
 * What each wait charges is counted per CPU, as lock_stats: many CPUs queued
 * on one lock charge the same holder, and shared counters would bounce one
 * cache line between them on every hand-over. lock_last stays shared: it is
 * the hand-over record itself, written once per contended acquisition.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct holder_key);
	__type(value, struct holder_stat);
} holder_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, struct matrix_key);
	__type(value, struct matrix_stat);
} matrix_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct holder_counts);
} holder_counts SEC(".maps");

/* exact mode only (sized 1 otherwise): filled by holders_exact.bpf.c and by ends here */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct exact_last);
} exact_last SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct holder_key);
	__type(value, struct holder_stat);
} exact_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 4096);
	__type(key, struct matrix_key);
	__type(value, struct matrix_stat);
} exact_matrix SEC(".maps");

/*
 * Keys and initial values live in a per-CPU scratch, not on the stack: with
 * the caller's frame (account() inlined) the 6.1 verifier's 512-byte limit
 * for a call chain is otherwise exceeded. Tracing programs do not nest on a
 * CPU (the kernel's recursion guard), so one scratch per CPU is enough.
 */
/* rule 2's scan over the other CPUs (scan_cpu) */
struct running_scan {
	__u64 owner_cgid;
	__u64 start_ns;		/* the wait's */
	__u64 cgid;		/* the chosen task's memcg */
	__u32 self_cpu, last_pid;
	__u32 pid;		/* the chosen task, 0: none */
	__s32 score;
};

struct holders_scratch {
	struct lock_key key;
	struct holder_last last_init;
	struct holder_key hk;
	struct matrix_key mk;
	struct holder_stat hinit;
	struct matrix_stat minit;
	struct exact_last mine;
	__u64 hold_ns, queued;
	__s32 stack_id;
	__u32 probable;
	__u32 basis;		/* enum holder_basis of the estimate */
	__u32 prev_pid;		/* the last contended acquirer before this wait's end, 0: none */
	__u64 prev_cgid;	/* its memcg (the naive guess exact mode compares) */
	struct running_scan rs;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct holders_scratch);
} holders_scratch SEC(".maps");

/*
 * Look up key, inserting init first if missing (another CPU may insert it at
 * the same time: then its entry is used; in a per-CPU map, this CPU's zeroed
 * copy of it); NULL, counted in *full, when the map is full.
 */
static __always_inline void *map_lookup_or_init(void *map, const void *key, const void *init,
						__u64 *full)
{
	void *v = bpf_map_lookup_elem(map, key);

	if (v)
		return v;
	long err = bpf_map_update_elem(map, key, init, BPF_NOEXIST);

	v = bpf_map_lookup_elem(map, key);
	if (!v)	/* E2BIG: max_entries reached; anything else is not a full map */
		__sync_fetch_and_add(err == -E2BIG ? full : &drop_insert_failed, 1);
	return v;
}

static __always_inline void *holders_get(void *map, const void *key, const void *init)
{
	return map_lookup_or_init(map, key, init, &holder_drop_full);
}

static __always_inline struct holders_scratch *scratch(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&holders_scratch, &zero);
}

/* At the start of an lruvec wait, before its clock starts: count it as waiting. */
static __always_inline void holders_begin(struct pending *p)
{
	struct holders_scratch *sc = scratch();
	struct holder_last *last;

	if (!sc)
		return;
	sc->key.lock_addr = p->lock_addr;
	sc->key.owner_cgid = p->owner_cgid;
	__builtin_memset(&sc->last_init, 0, sizeof(sc->last_init));
	sc->last_init.stack_id = -1;
	last = holders_get(&lock_last, &sc->key, &sc->last_init);
	if (!last)
		return;
	__sync_fetch_and_add(&last->waiting, 1);
	p->flags |= PENDING_F_WAITING;
}

/*
 * Charge sc->hold_ns (x sc->queued) to sc->hk in stats and sc->mk in matrix,
 * both per-CPU: plain adds to this CPU's copies.
 */
static __always_inline void holders_charge(struct holders_scratch *sc, void *stats, void *matrix)
{
	struct holder_stat *hs;
	struct matrix_stat *ms;
	__u64 hold = sc->hold_ns, queued = sc->queued;

	__builtin_memset(&sc->hinit, 0, sizeof(sc->hinit));
	__builtin_memset(&sc->minit, 0, sizeof(sc->minit));
	hs = holders_get(stats, &sc->hk, &sc->hinit);
	if (hs) {
		/* this CPU's first hold here (the copy may be another CPU's entry, zeroed) */
		if (!hs->holds)
			hs->stack_id = -1;
		hs->holds++;
		hs->hold_ns += hold;
		hs->imposed_ns += hold * queued;
		hs->waiters += queued;
		if (sc->probable)
			hs->probable_ns += hold;
		hs->cgid = sc->mk.holder_cgid;
		if (sc->stack_id >= 0)
			hs->stack_id = sc->stack_id;
	}
	ms = holders_get(matrix, &sc->mk, &sc->minit);
	if (ms) {
		ms->holds++;
		ms->hold_ns += hold;
		ms->imposed_ns += hold * queued;
	}
}

/*
 * The exact mode's view of the same wait: the last acquirer the fentry hooks
 * saw. sc holds the estimate (hk, mk, hold_ns); it is rewritten for the truth.
 */
static __noinline void holders_exact_end(struct pending *p, __u64 now)
{
	struct holders_scratch *sc = scratch();
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct exact_last *ex;
	__u64 est_hold, from;

	if (!sc)
		return;
	est_hold = sc->hold_ns;
	ex = bpf_map_lookup_elem(&exact_last, &p->lock_addr);
	if (ex && ex->pid && ex->pid != pid && ex->t_ns <= now) {
		from = ex->t_ns > p->start_ns ? ex->t_ns : p->start_ns;
		__sync_fetch_and_add(&cmp_est_ns, est_hold);
		__sync_fetch_and_add(&cmp_exact_ns, now - from);
		__sync_fetch_and_add(&cmp_basis_est_ns[sc->basis & (HOLDER_NR_BASES - 1)], est_hold);
		if (sc->hk.pid && sc->mk.holder_cgid == ex->cgid) {
			__sync_fetch_and_add(&cmp_memcg_ns, est_hold);
			__sync_fetch_and_add(&cmp_basis_memcg_ns[sc->basis & (HOLDER_NR_BASES - 1)],
					     est_hold);
		}
		if (sc->hk.pid == ex->pid)
			__sync_fetch_and_add(&cmp_pid_ns, est_hold);
		if (p->owner_cgid == ex->cgid)
			__sync_fetch_and_add(&cmp_owner_memcg_ns, est_hold);
		if (sc->prev_pid && sc->prev_cgid == ex->cgid)
			__sync_fetch_and_add(&cmp_last_memcg_ns, est_hold);
		if (sc->prev_pid == ex->pid)
			__sync_fetch_and_add(&cmp_last_pid_ns, est_hold);
		sc->hk.pid = ex->pid;
		sc->mk.holder_cgid = ex->cgid;
		sc->hold_ns = now - from;
		sc->stack_id = -1;
		sc->probable = 0;
		holders_charge(sc, &exact_stats, &exact_matrix);
	} else {
		__sync_fetch_and_add(&cmp_no_exact, 1);
	}
	/* this waiter now holds the lock: the next one queues behind it */
	sc->mine.t_ns = now;
	sc->mine.cgid = p->waiter_cgid;
	sc->mine.pid = pid;
	sc->mine.pad = 0;
	if (bpf_map_update_elem(&exact_last, &p->lock_addr, &sc->mine, BPF_ANY))
		__sync_fetch_and_add(&holder_drop_full, 1);
}

/*
 * Who runs on the other CPUs (rule 2 of holders.h). A spinlock's holder cannot
 * sleep or be preempted, so the last contended acquirer still on its CPU when
 * our wait began held the lock into it; otherwise whoever took it unseen runs
 * now. Candidates: the task current on each other CPU, not idle, not spinning
 * in a traced wait that began before ours (lruvec locks are innermost: such a
 * task held no L while we waited). A task that began to spin after us stays:
 * the holder often releases L and queues for it again. The best scores 2 if it
 * is in the lruvec's memcg (the usual taker of a memcg's lruvec lock), 1 if it
 * is the last contended acquirer; the first of equals wins.
 *
 * The current task of each CPU comes from sched_switch, not from the
 * scheduler's runqueues: a per-CPU variable is a __ksym only where kallsyms
 * lists data (CONFIG_KALLSYMS_ALL), which many kernels (this machine's) lack.
 */
const volatile __u32 nr_cpus = 1;
#define HOLDERS_MAX_CPUS 1024	/* the scan's bound: costlier than the wait beyond it */

struct cpu_curr {
	__u64 task;		/* the task_struct running there (read with probe reads) */
	__u32 pid;		/* 0: idle, or no switch seen yet */
	__u32 prev_pid;		/* the task the last switch took off this CPU */
	__u64 switch_ns;	/* when */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_curr);
} cpu_curr SEC(".maps");

/*
 * A spinning wait never spans a context switch: a CPU wait still pending here
 * lost its end (its contention_end ran while our program was active on this
 * CPU, and the kernel skips a program that would nest in itself). Left, it
 * would mark the CPU as spinning for good and fill its slots.
 */
static __always_inline void drop_stale_waits(void)
{
	__u32 zero = 0;
	struct pending_stack *cs = bpf_map_lookup_elem(&cpu_pending, &zero);
	struct holder_last *last;
	struct lock_key key;
	__u32 d;

	if (!cs || !cs->depth)
		return;
	d = cs->depth;
	__sync_fetch_and_add(&drop_task, d);
	for (__u32 i = 0; i < CPU_DEPTH; i++) {
		if (i >= d)
			break;
		if (!(cs->slot[i].flags & PENDING_F_WAITING))
			continue;
		key.lock_addr = cs->slot[i].lock_addr;
		key.owner_cgid = cs->slot[i].owner_cgid;
		last = bpf_map_lookup_elem(&lock_last, &key);
		if (last)
			__sync_fetch_and_add(&last->waiting, -1);
	}
	cs->depth = 0;
}

/* loaded only with holders (user space turns autoload off otherwise) */
SEC("tp_btf/sched_switch")
int BPF_PROG(holders_sched_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	__u32 zero = 0;
	struct cpu_curr *c = bpf_map_lookup_elem(&cpu_curr, &zero);

	drop_stale_waits();
	if (c) {
		c->task = (__u64)next;
		c->pid = BPF_CORE_READ(next, pid);
		c->prev_pid = BPF_CORE_READ(prev, pid);
		c->switch_ns = bpf_ktime_get_ns();
	}
	return 0;
}

static __always_inline struct cpu_curr *curr_on(__u32 cpu)
{
	__u32 zero = 0;

	return bpf_map_lookup_percpu_elem(&cpu_curr, &zero, cpu);
}

/* bpf_loop's callback; its state is in the scratch (6.1: 512 stack bytes per call chain) */
static long scan_cpu(__u32 cpu, void *unused)
{
	struct holders_scratch *sc = scratch();
	struct running_scan *rs = sc ? &sc->rs : NULL;
	struct pending_stack *ps;
	struct cpu_curr *c;
	__u32 zero = 0, pid;
	__u64 cgid;
	__s32 score;

	if (!rs)
		return 1;
	if (cpu == rs->self_cpu)
		return 0;
	c = curr_on(cpu);
	pid = c ? c->pid : 0;
	if (!pid)
		return 0;	/* idle */
	ps = bpf_map_lookup_percpu_elem(&cpu_pending, &zero, cpu);
	if (ps && ps->depth && ps->depth <= CPU_DEPTH &&
	    ps->slot[(ps->depth - 1) & (CPU_DEPTH - 1)].start_ns < rs->start_ns)
		return 0;	/* spinning since before our wait: it held no L in it */
	cgid = current_memcg_cgid((struct task_struct *)c->task);
	score = (cgid == rs->owner_cgid ? 2 : 0) + (pid == rs->last_pid ? 1 : 0);
	if (score > rs->score) {
		rs->score = score;
		rs->pid = pid;
		rs->cgid = cgid;
	}
	return 0;
}

/* The holder is the last contended acquirer (rules 1, 2a and 3): its task, memcg, stack. */
static __always_inline void holder_is_last(struct holders_scratch *sc, const struct holder_last *last)
{
	sc->hk.pid = last->pid;
	sc->mk.holder_cgid = last->cgid;
	sc->stack_id = last->stack_id;
}

/* At the end of an lruvec wait: charge the hold it waited behind, then take the lock. */
static __noinline void holders_end(struct pending *p, __u64 now)
{
	struct holders_scratch *sc = scratch();
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	__u32 cpu = bpf_get_smp_processor_id(), zero = 0;
	struct holder_counts *counts = bpf_map_lookup_elem(&holder_counts, &zero);
	struct holder_last *last;
	struct cpu_curr *c;
	__s64 waiting = 0;
	__u64 from;
	bool in_wait, ran_into;

	if (!sc || !counts)
		return;
	/* holders_exact_end reads the estimate from here: none unless set below */
	sc->hold_ns = 0;
	sc->hk.pid = 0;
	sc->mk.holder_cgid = 0;
	sc->prev_pid = 0;
	if (now < p->start_ns)
		return;
	sc->key.lock_addr = p->lock_addr;
	sc->key.owner_cgid = p->owner_cgid;
	__builtin_memset(&sc->last_init, 0, sizeof(sc->last_init));
	sc->last_init.stack_id = -1;
	last = holders_get(&lock_last, &sc->key, &sc->last_init);
	if (!last)
		return;
	sc->hk.lock_addr = p->lock_addr;
	sc->hk.owner_cgid = p->owner_cgid;
	sc->hk.pid = 0;
	sc->hk.pad = 0;
	sc->mk.waiter_cgid = p->waiter_cgid;
	sc->mk.owner_cgid = p->owner_cgid;
	sc->mk.holder_cgid = 0;
	sc->queued = 1;
	sc->stack_id = -1;
	sc->probable = 0;
	if (p->flags & PENDING_F_WAITING)
		waiting = __sync_fetch_and_add(&last->waiting, -1) - 1;
	if (waiting < 0)
		waiting = 0;
	/* did the last contended acquirer take the lock while we waited? */
	in_wait = last->pid && last->pid != pid && last->end_ns >= p->start_ns &&
		  last->end_ns <= now;
	from = in_wait ? last->end_ns : p->start_ns;
	/* if it took it before, was it still on its CPU when our wait began? */
	c = !in_wait && last->pid && last->pid != pid ? curr_on(last->cpu) : NULL;
	ran_into = c && (c->pid == last->pid ||
			 (c->prev_pid == last->pid && c->switch_ns >= p->start_ns));
	if (in_wait) {
		/* rule 1: it took the lock while we queued: it held it until now */
		sc->basis = HOLDER_BASIS_CHAIN;
		holder_is_last(sc, last);
		sc->queued = last->queued ? last->queued : 1;
	} else if (ran_into) {
		/* rule 2a: it held the lock when we began to wait, and still did after */
		sc->basis = HOLDER_BASIS_RUNNING;
		holder_is_last(sc, last);
		sc->probable = 1;
		counts->running++;
	} else {
		/* rule 2b: someone we did not see take it; it runs on another CPU */
		sc->rs.owner_cgid = p->owner_cgid;
		sc->rs.self_cpu = cpu;
		sc->rs.start_ns = p->start_ns;
		sc->rs.last_pid = last->pid;
		sc->rs.pid = 0;
		sc->rs.cgid = 0;
		sc->rs.score = -1;
		bpf_loop(nr_cpus < HOLDERS_MAX_CPUS ? nr_cpus : HOLDERS_MAX_CPUS, scan_cpu, NULL, 0);
		if (sc->rs.pid) {
			sc->basis = HOLDER_BASIS_RUNNING;
			sc->hk.pid = sc->rs.pid;
			sc->mk.holder_cgid = sc->rs.cgid;
			if (sc->rs.pid == last->pid)
				sc->stack_id = last->stack_id;
			sc->probable = 1;
			counts->running++;
		} else if (last->pid && last->pid != pid) {
			/* rule 3: the last contended acquirer, from before: a guess */
			sc->basis = HOLDER_BASIS_PROBABLE;
			holder_is_last(sc, last);
			sc->probable = 1;
			counts->probable++;
		} else {
			sc->basis = HOLDER_BASIS_UNKNOWN;
			counts->unknown++;
		}
	}
	sc->hold_ns = now - from;
	sc->prev_pid = last->pid;
	sc->prev_cgid = last->cgid;
	/* racy across CPUs by design: a torn record misattributes one wait at worst */
	last->end_ns = now;
	last->cgid = p->waiter_cgid;
	last->pid = pid;
	last->cpu = cpu;
	last->stack_id = p->stack_id;
	last->queued = (__u64)waiting;
	holders_charge(sc, &holder_stats, &matrix_stats);
}
/* ---- end of holders ---------------------------------------------------------- */

/*
 * An lru_lock is a spinlock_t: LCB_F_SPIN (a queued spinlock) or, on
 * PREEMPT_RT, LCB_F_RT. Waits with any of these flags are on something else.
 */
#define NOT_A_SPINLOCK_T (LCB_F_MUTEX | LCB_F_READ | LCB_F_WRITE | LCB_F_PERCPU)

/* The waiter's memcg and whether lock is its own mmap_lock, with or without a BTF task. */
static __always_inline __u64 waiter_memcg(void)
{
	if (have_task_btf)
		return own_memcg_cgid(bpf_get_current_task_btf());
	return current_memcg_cgid((struct task_struct *)bpf_get_current_task());
}

static __always_inline bool waits_on_own_mmap_lock(void *lock)
{
	struct task_struct *task;
	struct mm_struct *mm;

	if (have_task_btf)
		return is_own_mmap_lock(bpf_get_current_task_btf(), lock);
	task = (struct task_struct *)bpf_get_current_task();
	mm = BPF_CORE_READ(task, mm);
	return mm && (char *)mm + bpf_core_field_offset(struct mm_struct, mmap_lock) == (char *)lock;
}

/*
 * compat: for kernels before 5.19, whose verifier refuses an atomic
 * compare-and-exchange anywhere in a program, even unreached: a literal, so
 * that such programs hold none.
 */
static __always_inline void fill(struct pending *p, void *ctx, void *lock, __u32 flags,
				 struct pending_stack *cs, const bool compat)
{
	__u64 now;

	p->lock_addr = (__u64)lock;
	p->flags = flags;
	if (flags & NOT_A_SPINLOCK_T) {
		/* a mutex or rwsem: no lruvec's lru_lock, and no probe read to find that out */
		p->kind = LOCK_KIND_OTHER;
		p->owner_cgid = 0;
		p->owner_node = -1;
	} else {
		classify(p, lock, compat);
	}
	if (p->kind == LOCK_KIND_OTHER && track_mmap_lock && waits_on_own_mmap_lock(lock))
		p->kind = LOCK_KIND_MMAP;
	p->waiter_cgid = p->kind == LOCK_KIND_LRUVEC || p->kind == LOCK_KIND_NODE_LOCK ? waiter_memcg() : 0;
	p->stack_id = -1;
	if (stack_every && ++cs->sample_ctr >= stack_every) {
		now = bpf_ktime_get_ns();
		if (now - cs->last_stack_ns >= stack_gap_ns) {
			cs->sample_ctr = 0;
			cs->last_stack_ns = now;
			p->stack_id = bpf_get_stackid(ctx, &stacks, 0);
			if (p->stack_id < 0)
				__sync_fetch_and_add(&drop_stack, 1);
		}
	}
	if (track_holders && p->kind == LOCK_KIND_LRUVEC && (flags & LCB_F_SPIN))
		holders_begin(p);
	/* the clock starts last: the work above is not counted as waiting */
	p->start_ns = bpf_ktime_get_ns();
}

static __always_inline int begin_wait(void *ctx, struct pending_stack *cs, void *lock,
				      unsigned int flags)
{
	struct task_pending *ts;
	__u32 d;

	if (flags & LCB_F_SPIN) {
		d = cs->depth;
		if (d >= CPU_DEPTH) {
			__sync_fetch_and_add(&drop_task, 1);
			return 0;
		}
		fill(&cs->slot[d & (CPU_DEPTH - 1)], ctx, lock, flags, cs, false);
		cs->depth = d + 1;
		return 0;
	}

	ts = bpf_task_storage_get(&task_pending, bpf_get_current_task_btf(), 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts) {
		__sync_fetch_and_add(&drop_task, 1);
		return 0;
	}
	/*
	 * A mutex first spins (LCB_F_SPIN) and then, without an end, begins
	 * again to sleep: carry the spin's start over so the wait is whole.
	 */
	d = cs->depth;
	if (d > 0 && d <= CPU_DEPTH && cs->slot[(d - 1) & (CPU_DEPTH - 1)].lock_addr == (__u64)lock) {
		struct pending *spin = &cs->slot[(d - 1) & (CPU_DEPTH - 1)];

		if (ts->depth < TASK_DEPTH) {
			ts->slot[ts->depth & (TASK_DEPTH - 1)] = *spin;
			ts->slot[ts->depth & (TASK_DEPTH - 1)].flags = flags;
			ts->depth++;
		} else {
			__sync_fetch_and_add(&drop_task, 1);
		}
		cs->depth = d - 1;
		return 0;
	}
	if (ts->depth >= TASK_DEPTH) {
		__sync_fetch_and_add(&drop_task, 1);
		return 0;
	}
	fill(&ts->slot[ts->depth & (TASK_DEPTH - 1)], ctx, lock, flags, cs, false);
	ts->depth++;
	return 0;
}

/*
 * With the slowpath hooks on, none of our programs runs inside another on the
 * same CPU (cs->busy): a map update of ours that waits on a lock of a map ours
 * holds elsewhere is how a program in the slow path deadlocks (an ABBA through
 * hash-map bucket locks). Such a nested wait is dropped, and counted.
 */
static __always_inline bool enter_prog(struct pending_stack *cs)
{
	if (!spin_slowpath)
		return true;
	if (cs->busy) {
		__sync_fetch_and_add(&drop_task, 1);
		return false;
	}
	cs->busy = 1;
	return true;
}

static __always_inline void leave_prog(struct pending_stack *cs)
{
	if (spin_slowpath)
		cs->busy = 0;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(contention_begin, void *lock, unsigned int flags)
{
	__u32 zero = 0;
	struct pending_stack *cs = bpf_map_lookup_elem(&cpu_pending, &zero);

	if (!cs)
		return 0;
	/* a queued spinlock's wait: the slowpath hooks count it, first waiter included */
	if (spin_slowpath && flags == LCB_F_SPIN)
		return 0;
	if (!enter_prog(cs))
		return 0;
	begin_wait(ctx, cs, lock, flags);
	leave_prog(cs);
	return 0;
}

/*
 * Count a finished wait in this CPU's copies (plain adds: no other CPU writes
 * them, and tracing programs do not nest on a CPU). A call of its own: its
 * 300-byte initial value then sits in a frame beside the holder code's, not
 * under it (6.1 allows 512 bytes for a chain of calls).
 */
static __noinline void account(struct pending *p, __u64 now)
{
	struct lock_key key = { .lock_addr = p->lock_addr, .owner_cgid = p->owner_cgid };
	struct lock_stat *st;
	__u64 wait;

	if (now < p->start_ns) {
		__sync_fetch_and_add(&drop_negative_time, 1);
		return;
	}
	wait = now - p->start_ns;

	/* a plain lookup first: the hot path builds no 300-byte init */
	st = bpf_map_lookup_elem(&lock_stats, &key);
	if (!st) {
		struct lock_stat init = {
			.flags = p->flags & ~(PENDING_F_WAITING | PENDING_F_SLOWPATH), .kind = p->kind,
			.owner_node = p->owner_node, .identity = 1,
		};

		st = map_lookup_or_init(&lock_stats, &key, &init, &drop_stats_full);
		if (!st)
			return;
	}
	st->contended++;
	st->wait_ns += wait;
	st->hist[log2_bucket(wait) & (LOCKSTAT_HIST_BUCKETS - 1)]++;
	if (wait > st->wait_max_ns)
		st->wait_max_ns = wait;

	if (p->kind == LOCK_KIND_LRUVEC || p->kind == LOCK_KIND_NODE_LOCK) {
		struct waiter_key wk = {
			.lock_addr = p->lock_addr,
			.owner_cgid = p->owner_cgid,
			.waiter_cgid = p->waiter_cgid,
			.pid = (__u32)bpf_get_current_pid_tgid(),
		};
		struct waiter_stat *ws = bpf_map_lookup_elem(&waiter_stats, &wk);

		if (!ws) {
			struct waiter_stat init = { .waiter_cgid = p->waiter_cgid };

			bpf_get_current_comm(init.comm, sizeof(init.comm));
			ws = map_lookup_or_init(&waiter_stats, &wk, &init, &drop_stats_full);
		}
		if (ws) {
			ws->contended++;
			ws->wait_ns += wait;
		}
	}

	if (p->stack_id >= 0) {
		struct stack_key sk = {
			.lock_addr = p->lock_addr, .owner_cgid = p->owner_cgid, .stack_id = p->stack_id,
		};
		struct stack_stat init = {};
		struct stack_stat *ss = map_lookup_or_init(&stack_stats, &sk, &init, &drop_stats_full);

		if (ss) {
			ss->contended++;
			ss->wait_ns += wait;
		}
	}
}

/* A finished spinning wait: count it, and charge its holder. */
static __always_inline void end_spin(struct pending *p, __u64 now)
{
	account(p, now);
	/* two calls, not nested: each adds its frame to this one's (6.1: 512 in all) */
	if (track_holders && p->kind == LOCK_KIND_LRUVEC)
		holders_end(p, now);
	if (track_holders && exact_holders && p->kind == LOCK_KIND_LRUVEC)
		holders_exact_end(p, now);
}

static __always_inline int end_wait(struct pending_stack *cs, void *lock, __u64 now)
{
	struct task_pending *ts;
	struct pending p;
	__u32 d;

	d = cs->depth;
	if (d > 0 && d <= CPU_DEPTH && cs->slot[(d - 1) & (CPU_DEPTH - 1)].lock_addr == (__u64)lock) {
		/* the slowpath hooks' own wait, inside the slow path: its exit hook ends it */
		if (cs->slot[(d - 1) & (CPU_DEPTH - 1)].flags & PENDING_F_SLOWPATH)
			return 0;
		p = cs->slot[(d - 1) & (CPU_DEPTH - 1)];
		cs->depth = d - 1;
		end_spin(&p, now);
		return 0;
	}
	ts = bpf_task_storage_get(&task_pending, bpf_get_current_task_btf(), 0, 0);
	if (ts) {
		d = ts->depth;
		if (d > 0 && d <= TASK_DEPTH &&
		    ts->slot[(d - 1) & (TASK_DEPTH - 1)].lock_addr == (__u64)lock) {
			p = ts->slot[(d - 1) & (TASK_DEPTH - 1)];
			ts->depth = d - 1;
			account(&p, now);
			return 0;
		}
	}
	/* an end whose begin we never saw (we attached mid-wait, or lost it) */
	__sync_fetch_and_add(&drop_task, 1);
	return 0;
}

SEC("tp_btf/contention_end")
int BPF_PROG(contention_end, void *lock, int ret)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 zero = 0;
	struct pending_stack *cs = bpf_map_lookup_elem(&cpu_pending, &zero);

	if (!cs || !enter_prog(cs))
		return 0;
	end_wait(cs, lock, now);
	leave_prog(cs);
	return 0;
}

#include "lockstat_slowpath.bpf.h"


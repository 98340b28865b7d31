// SPDX-License-Identifier: GPL-2.0
/*
 * Lock contention per lock, with lruvec locks attributed to their memcg and
 * node at the time of the wait. Hooks: tp_btf/contention_begin and
 * tp_btf/contention_end (Linux 5.19+). Counters are cumulative: user space
 * reads them and never deletes, so nothing is lost between reads.
 *
 * One BPF object and one skeleton in six files, included in this order:
 * this one (the waits and their counters), lockstat_classify.bpf.h (which
 * lock a wait is on), lockstat_waiter.bpf.h (who waits: memcg and pid),
 * lockstat_slots.bpf.h (where a lock's counters are), lockstat_holders.bpf.h
 * (who held it) and lockstat_slowpath.bpf.h (the slowpath hooks). They share maps and per-CPU
 * state in one hot path and call each other directly: as separate objects
 * they would need reused maps, and two loads to agree (the holders' file
 * says why that part stays in).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "lockstat.h"

#define E2BIG 7 /* errno.h is not for BPF programs */

char LICENSE[] SEC("license") = "GPL";

/* Load-time settings, set by user space before load. */
const volatile __u32 stack_every = 16; /* a stack on 1 in N waits per CPU; 0: never */
/*
 * and at most one per CPU per this many ns (50 a second): a stack costs
 * about 6 us on a host (bpf_get_stackid from the lock slow path), 40 times
 * what timing a wait costs; 1 in 16 of 65k waits/s per CPU took 2.4% of that
 * CPU. At 200 a second stacks were a third of the run time per wait in the
 * lab guest; 50 a CPU still name a hot lock's callers within a second.
 * User space sets it from --stack-rate.
 */
const volatile __u64 stack_gap_ns = 20000000;
/*
 * and at most 1 / stack_time_factor of the CPU's time: after a stack that took
 * c ns to unwind, the next comes no sooner than c * stack_time_factor ns after
 * its start (0: no such limit). A stack's price is set by how deep the
 * kernel's stack is and how fast the CPU unwinds it, not by how often locks
 * are contended: where waits are few and unwinding slow (under emulation a
 * stack costs tens of timed waits), a cap on the rate alone leaves stacks
 * most of the run time. User space sets it from --stack-cpu.
 */
const volatile __u32 stack_time_factor = 1000;
/*
 * and at most this many ns of unwinding a wait, over each CPU's waits: after
 * a stack that took c ns, the CPU takes the next no sooner than c /
 * stack_cost_ns waits later (0: no such limit). The caps above bound stacks
 * by the clock, this one by the waits they are taken from, which is what a
 * wait's cost is measured against: where a CPU sees a few thousand waits a
 * second and unwinds slowly (a stack tens of waits' worth under emulation),
 * 0.1% of its time is a third of what timing each wait costs. User space
 * sets it from --stack-cost.
 */
const volatile __u32 stack_cost_ns = 50;
/*
 * but a CPU whose last stack is this old takes one on its next look (1 in
 * STACK_LAPSE_LOOK waits, one clock read each) while stack_cost_ns holds
 * stacks back: where waits are few and unwinding slow, that cap alone leaves
 * a CPU without a stack for minutes (150 us a stack under emulation is 3,000
 * waits at 50 ns a wait, a minute at 50 waits a second), and a quiet lock's
 * callers unnamed. User space sets it to 100 of --stack-rate's gaps (2 s);
 * the clock caps above still hold. 0: no lapse.
 */
const volatile __u64 stack_lapse_ns = 2000000000;
#define STACK_LAPSE_LOOK 64
const volatile __u32 nr_nodes = 1;
const volatile bool track_mmap_lock = true;
/* bpf_get_current_task_btf() exists (5.11+); else the task is read with probe reads */
const volatile bool have_task_btf = true;
/*
 * Spinlock waits come from the slowpath hooks (lockstat_slowpath.bpf.h): the
 * tracepoint programs leave plain spinlock waits (flags LCB_F_SPIN) to them.
 */
const volatile bool spin_slowpath = false;
/* lock_stats (per CPU) takes new locks; false: every lock in lock_stats_shared */
const volatile bool percpu_locks = true;
/* lock_stats' slots, and the possible CPUs (the compat programs' share of them) */
const volatile __u32 lock_room = 1;
const volatile __u32 nr_cpus = 1;
/* lock_stats_shared takes the locks lock_stats has no room for; false: drops */
const volatile bool shared_locks = false;
/*
 * A test's switch (LRS_LOSE_ENDS): every Nth spinning wait's end leaves its
 * entry on this CPU's stack, as the kernel does when it skips our end hook
 * (a program does not nest in itself). 0 outside tests.
 */
const volatile __u32 lose_end_every = 0;

/*
 * Set by user space once every program is attached. The programs attach one
 * by one: a wait begun while its begin hook was in and its end hook not yet
 * would stay on this CPU's stack, and a later end of the same lock by
 * another task could take it for its own (that task's wait charged to the
 * first one's memcg, timed from the first one's start). Until then no wait
 * begins and no end is looked at: a wait that ended before is outside the
 * run, not lost (under TCG the hooks take seconds to attach: counted, every
 * end in that time would be a drop). An end after it whose begin came
 * before is counted in drop_task.
 */
__u32 armed = 0;

/* Every event we could not account is counted here, never dropped silently. */
/* a wait not counted for want of its begin or its end; the sum of the four after it */
__u64 drop_task = 0;
__u64 drop_nested = 0;	   /* our hook ran inside another of ours on this CPU: it did nothing */
__u64 drop_unmatched = 0;  /* an end whose begin was not kept (begun before armed, or nested) */
__u64 drop_no_room = 0;	   /* a begin with no room to keep it: nesting deeper than kept */
__u64 drop_lost = 0;	   /* a begin whose end never came: the kernel skipped our end hook */
__u64 drop_stack = 0;	   /* bpf_get_stackid failed */
__u64 drop_stats_full = 0; /* a map was full */
/*
 * an insert refused though the map had room: the map was in use on this CPU
 * (a wait inside our own map update, on a kernel that traces spinlocks) or
 * the kernel had no memory at hand for a new entry
 */
__u64 drop_insert_failed = 0;
__u64 drop_negative_time = 0; /* end before begin */

/*
 * n waits not counted in drop_task, and in why (one of the four above): the
 * causes add up to drop_task (collector.t checks it on a real run).
 */
static __always_inline void drop_wait(__u64 *why, __u64 n)
{
	__sync_fetch_and_add(&drop_task, n);
	__sync_fetch_and_add(why, n);
}

/*
 * Map sizes are set from user space (bpf_map__set_max_entries). A lock's
 * counters are per CPU: every waiter of a hot lock adds to its own CPU's copy,
 * so the common path writes no cache line another CPU writes (user space sums
 * the copies, collector/live/percpu_merge.h). A copy created here holds the
 * init value only on the creating CPU, the others start zeroed: the identity
 * fields (a lock's flags, kind, owner_node) are taken from the copy that has
 * them. lock_stats is a per-CPU array, sized by user space to a memory budget
 * (a per-CPU map that allocates on use makes the kernel's allocator keep a
 * cache of free entries on every CPU that inserts, each entry a copy per CPU,
 * so its memory grows with CPUs squared: 10 MB at 26 CPUs for 99 locks), and
 * lock_slots gives a lock its slot there. A wait finds the slot in the
 * classification cache (lockstat_classify.bpf.h) and adds to an array slot:
 * no hash lookup on the hot path. The shared maps allocate on use: their
 * entries are one copy.
 *
 * A waiter's row is counted the same way, in a per-CPU array of counters
 * (waiter_counts, its slot in waiter_slots, lockstat_waiter_rows.bpf.h), not
 * for a cache line fought over (a task waits on one CPU at a time) but so that
 * the waits of one task in a row find their counters without a hash lookup.
 * The rows past its room, and the stacks, are shared, with atomic adds: a
 * stack's row is written only by a sampled wait (one per CPU per stack_gap_ns
 * at most), and per CPU it would cost memory in CPUs squared for nothing.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct lock_stat);
} lock_stats SEC(".maps");

/*
 * A lock's slot in lock_stats, for ever: user space reads the locks from here.
 * Slots are taken in order (slots_taken); the compat programs, which have no
 * fetching atomic, take each CPU's own share instead (cpu, cpu + nr_cpus, ...).
 * Preallocated: every lock's first wait inserts here, from inside the spinlock
 * slow path too, where an allocation on use (kmalloc before 6.1) can need a
 * lock the waiting task already holds (a slab's, when the lock waited on is
 * taken under it), and that CPU would spin on itself. About 100 bytes a slot.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, struct lock_key);
	__type(value, __u32);
} lock_slots SEC(".maps");

__u64 slots_taken = 0; /* 64 bits: this BPF CPU has no 32-bit compare-and-exchange */

/* no slot known yet: the lock_slots lookup decides */
#define SLOT_NONE 0xffffffffU

/*
 * Locks beyond lock_stats' room: user space sizes lock_stats to a memory budget
 * over the CPU count (each entry is a copy per CPU), and the locks contended
 * after it is full are counted here, shared, with atomic adds. Nothing is
 * lost: only a lock that finds both full is dropped (drops.stats_full).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct lock_key);
	__type(value, struct lock_stat);
} lock_stats_shared SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct waiter_key);
	__type(value, struct waiter_stat);
} waiter_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
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
	__u32 slot; /* the lock's slot in lock_stats, or SLOT_NONE */
	__u32 pid;  /* the waiter, read at its begin; set for lruvec and node locks */
};

/* a pending wait counted in lock_last.waiting: its end must uncount it */
#define PENDING_F_WAITING (1U << 31)
/* a pending wait begun by the slowpath hooks: only their exit hook ends it */
#define PENDING_F_SLOWPATH (1U << 30)

/*
 * Spinning waits cannot migrate or sleep, but an interrupt can nest another
 * wait on the same CPU: a small per-CPU stack. Sleeping waits (mutex, rwsem)
 * can migrate: per task.
 */
#define CPU_DEPTH 4
#define TASK_DEPTH 2

/* A lock's classification as this CPU last made it (lockstat_classify.bpf.h). */
struct class_entry {
	__u64 lock_addr;
	__u64 owner_cgid;
	__s16 owner_node; /* < LOCKSTAT_MAX_NODES, or -1 */
	__u16 kind;
	__u32 gen;  /* classify_gen when it was made */
	__u32 slot; /* the lock's slot in lock_stats once its first wait ended here */
	__u32 pad;
};

#define CLASS_CACHE_SLOTS 16

/* A waiter's row as this CPU last counted one (lockstat_waiter_rows.bpf.h). */
struct waiter_entry {
	__u64 lock_addr;
	__u64 owner_cgid;
	__u64 waiter_cgid;
	__u32 pid;
	__u32 slot; /* its slot in waiter_counts */
};

/* by pid: the tasks that share a CPU keep an entry each */
#define WAITER_CACHE_SLOTS 4

struct pending_stack {
	__u32 depth;
	__u32 sample_ctr;
	__u32 busy;	     /* one of our programs runs on this CPU */
	__u32 compat_slots;  /* lock_stats slots this CPU took (compat programs) */
	__u64 next_stack_ns; /* this CPU takes no stack before then */
	struct pending slot[CPU_DEPTH];
	struct class_entry class_cache[CLASS_CACHE_SLOTS];
	/* the memcg of the css_set this CPU's last lruvec waiter had (waiter_of) */
	__u64 waiter_cset;
	__u64 waiter_cgid;
	__u32 waiter_gen; /* classify_gen when it was read */
	__u32 lose_ctr;	  /* lose_end_every's count */
	__u32 stack_skip; /* waits before this CPU's next stack: stack_cost_ns's cap */
	__u32 pad;
	__u64 last_stack_ns; /* when this CPU took its last stack: stack_lapse_ns */
	struct waiter_entry waiter_cache[WAITER_CACHE_SLOTS];
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

#include "lockstat_classify.bpf.h"
#include "lockstat_waiter.bpf.h"

/*
 * The error of a map update. The JIT calls a map's update directly, and before
 * Linux 6.4 that function returned an int: the upper half of the 64-bit result
 * is not sign-extended (-E2BIG reads 0xfffffff9 on 6.1), so only the low half
 * is the error.
 */
static __always_inline int update_errno(long ret)
{
	return (int)ret;
}

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
	int err = update_errno(bpf_map_update_elem(map, key, init, BPF_NOEXIST));

	v = bpf_map_lookup_elem(map, key);
	if (!v) /* E2BIG: max_entries reached; anything else is not a full map */
		__sync_fetch_and_add(err == -E2BIG ? full : &drop_insert_failed, 1);
	return v;
}

#include "lockstat_slots.bpf.h"
#include "lockstat_waiter_rows.bpf.h"
#include "lockstat_holders.bpf.h"

/*
 * An lru_lock is a spinlock_t: LCB_F_SPIN (a queued spinlock) or, on
 * PREEMPT_RT, LCB_F_RT. Waits with any of these flags are on something else.
 */
#define NOT_A_SPINLOCK_T (LCB_F_MUTEX | LCB_F_READ | LCB_F_WRITE | LCB_F_PERCPU)

/*
 * Take the waiter's stack, and set when this CPU may take the next: after
 * --stack-rate's gap, or its time to unwind times stack_time_factor if that
 * is longer, so that stacks take at most that share of the CPU; and no
 * sooner than its time to unwind over stack_cost_ns waits later, so that
 * they add at most that much to a wait (unless the last is stack_lapse_ns
 * old: fill looks for that). A stack that seemed to take over
 * STACK_TOOK_MAX_NS was interrupted, or its vCPU not running: counted as
 * that long, it does not stop stacks for minutes.
 */
#define STACK_TOOK_MAX_NS 1000000ULL
static __always_inline void sample_stack(struct pending *p, void *ctx, struct pending_stack *cs,
					 __u64 now)
{
	__u64 pause = stack_gap_ns, took;

	cs->sample_ctr = 0;
	p->stack_id = bpf_get_stackid(ctx, &stacks, 0);
	if (p->stack_id < 0)
		__sync_fetch_and_add(&drop_stack, 1);
	if (stack_time_factor || stack_cost_ns) {
		took = bpf_ktime_get_ns() - now;
		if (took > STACK_TOOK_MAX_NS)
			took = STACK_TOOK_MAX_NS;
		if (stack_time_factor && took * stack_time_factor > pause)
			pause = took * stack_time_factor;
		cs->stack_skip = stack_cost_ns ? took / stack_cost_ns : 0;
	}
	cs->next_stack_ns = now + pause;
	cs->last_stack_ns = now;
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
	bool owed;

	p->lock_addr = (__u64)lock;
	p->flags = flags;
	/* a mutex or rwsem is no lruvec's lru_lock: no probe read to find that out */
	classify_cached(p, lock, cs, flags & NOT_A_SPINLOCK_T, compat);
	/*
	 * an mmap_lock is an rwsem, whose waits say read or write: no other wait
	 * (most are spinlocks') fetches the task to compare with its mm
	 */
	if (p->kind == LOCK_KIND_OTHER && track_mmap_lock && (flags & (LCB_F_READ | LCB_F_WRITE)) &&
	    waits_on_own_mmap_lock(lock))
		p->kind = LOCK_KIND_MMAP;
	p->waiter_cgid = 0;
	p->pid = 0;
	if (p->kind == LOCK_KIND_LRUVEC || p->kind == LOCK_KIND_NODE_LOCK)
		waiter_of(p, cs);
	p->stack_id = -1;
	if (stack_every && ++cs->sample_ctr >= stack_every) {
		/* stack_every's count and stack_cost_ns's cap both let this wait's stack be taken */
		owed = cs->sample_ctr > cs->stack_skip;
		if (owed || (stack_lapse_ns && !(cs->sample_ctr % STACK_LAPSE_LOOK))) {
			now = bpf_ktime_get_ns();
			if (now >= cs->next_stack_ns &&
			    (owed || now - cs->last_stack_ns >= stack_lapse_ns)) {
				sample_stack(p, ctx, cs, now);
			} else if (owed) {
				/*
				 * a clock cap still holds: look again stack_every
				 * waits later, not on every wait until it lapses (at
				 * 50 stacks a second, most waits of a busy CPU would
				 * read the clock once more than the wait itself needs)
				 */
				cs->sample_ctr = 0;
				cs->stack_skip = 0;
			}
		}
	}
	if (track_holders && p->kind == LOCK_KIND_LRUVEC && (flags & LCB_F_SPIN))
		holders_begin(p, cs);
	/* the clock starts last: the work above is not counted as waiting */
	p->start_ns = bpf_ktime_get_ns();
}

/*
 * A CPU's stack when it is full: the spinning waits on it over a second old,
 * at its bottom, lost their end (the kernel skipped our end hook, nested in
 * itself) and would keep the CPU's room for good; they are dropped, counted
 * as lost, and the newer ones move down. None is a live wait: the kernel's
 * soft-lockup watchdog fires long before. With holders, sched_switch drops
 * such waits sooner, and uncounts them as waiting (drop_stale_waits). The
 * caller reads the depth again.
 */
#define STALE_SPIN_NS 1000000000ULL
static __always_inline void drop_stale_spins(struct pending_stack *cs, __u32 d)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 old = 0;

	if (track_holders)
		return;
	for (__u32 i = 0; i < CPU_DEPTH; i++) {
		if (i >= d || now - cs->slot[i].start_ns < STALE_SPIN_NS)
			break;
		old = i + 1;
	}
	if (!old)
		return;
	drop_wait(&drop_lost, old);
	for (__u32 i = 0; i < CPU_DEPTH; i++) {
		if (i + old >= d)
			break;
		cs->slot[i] = cs->slot[(i + old) & (CPU_DEPTH - 1)];
	}
	cs->depth = d - old;
}

/*
 * This CPU's depth, read from the map: a value the compiler carried over from
 * a store would reach the verifier without the bound its check gives it.
 */
static __always_inline __u32 cpu_depth(struct pending_stack *cs)
{
	return *(volatile __u32 *)&cs->depth;
}

/* The newest wait this task keeps is on lock. */
static __always_inline bool task_waits_on(struct task_pending *ts, void *lock)
{
	__u32 d = ts->depth;

	return d > 0 && d <= TASK_DEPTH &&
	       ts->slot[(d - 1) & (TASK_DEPTH - 1)].lock_addr == (__u64)lock;
}

static __always_inline int begin_wait(void *ctx, struct pending_stack *cs, void *lock,
				      unsigned int flags)
{
	struct task_pending *ts;
	__u32 d;

	/* a spinlock's or rwlock's wait spins where it began: this CPU's */
	if ((flags & (LCB_F_SPIN | LCB_F_MUTEX)) == LCB_F_SPIN) {
		d = cs->depth;
		if (d >= CPU_DEPTH) {
			drop_stale_spins(cs, d);
			d = cpu_depth(cs);
		}
		if (d >= CPU_DEPTH) {
			drop_wait(&drop_no_room, 1);
			return 0;
		}
		fill(&cs->slot[d & (CPU_DEPTH - 1)], ctx, lock, flags, cs, false);
		cs->depth = d + 1;
		return 0;
	}

	/*
	 * A sleeping lock's wait is the task's, a mutex's spin too: a spin that
	 * fails may schedule, and the task move to another CPU. A mutex waiter
	 * begins again each time it sleeps (LCB_F_MUTEX) and each time it wakes
	 * first and spins (LCB_F_MUTEX | LCB_F_SPIN), with one end for all: one
	 * wait, kept from its first begin (no task begins a second wait on a
	 * lock it waits on).
	 */
	ts = bpf_task_storage_get(&task_pending, bpf_get_current_task_btf(), 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!ts) {
		drop_wait(&drop_no_room, 1);
		return 0;
	}
	if (task_waits_on(ts, lock))
		return 0;
	if (ts->depth >= TASK_DEPTH) {
		drop_wait(&drop_no_room, 1);
		return 0;
	}
	fill(&ts->slot[ts->depth & (TASK_DEPTH - 1)], ctx, lock, flags, cs, false);
	ts->depth++;
	return 0;
}

/*
 * None of our programs runs inside another on the same CPU (cs->busy); such a
 * nested wait is dropped, counted. With the slowpath hooks, a map update of
 * ours that waits on a lock of a map ours holds elsewhere is how a program in
 * the slow path deadlocks (an ABBA through hash-map bucket locks). With the
 * tracepoints, the kernel skips a program nested in itself: a wait that begins
 * and ends inside our contention_end (an interrupt's, or our map update's)
 * would have no end, one inside our contention_begin no begin, and the entry
 * left on this CPU's stack would be taken by a later end of the same lock,
 * perhaps another task's (its wait charged to the first one's memcg, timed
 * from the first one's start).
 */
static __always_inline bool enter_prog(struct pending_stack *cs)
{
	if (cs->busy) {
		drop_wait(&drop_nested, 1);
		return false;
	}
	cs->busy = 1;
	return true;
}

static __always_inline void leave_prog(struct pending_stack *cs)
{
	cs->busy = 0;
}

SEC("tp_btf/contention_begin")
int BPF_PROG(contention_begin, void *lock, unsigned int flags)
{
	__u32 zero = 0;
	struct pending_stack *cs;

	/* a queued spinlock's wait: the slowpath hooks count it, first waiter included */
	if (spin_slowpath && flags == LCB_F_SPIN)
		return 0;
	cs = bpf_map_lookup_elem(&cpu_pending, &zero);
	if (!cs || !armed || !enter_prog(cs))
		return 0;
	begin_wait(ctx, cs, lock, flags);
	leave_prog(cs);
	return 0;
}

/*
 * Count a finished wait: the lock's counters in this CPU's copy (plain adds: no
 * other CPU writes it, and tracing programs do not nest on a CPU), its waiter
 * and stack rows in the shared maps. A call of its own: its
 * 300-byte initial value then sits in a frame beside the holder code's, not
 * under it (6.1 allows 512 bytes for a chain of calls).
 */
static __always_inline void account_body(struct pending *p, __u64 now, struct pending_stack *cs,
					 const bool compat)
{
	struct lock_key key = { .lock_addr = p->lock_addr, .owner_cgid = p->owner_cgid };
	struct lock_stat *st;
	__u64 wait;

	if (now < p->start_ns) {
		__sync_fetch_and_add(&drop_negative_time, 1);
		return;
	}
	wait = now - p->start_ns;

	/* the slot first: the hot path builds no 300-byte init */
	st = percpu_locks ? lock_counters(p, &key, cs) : NULL;
	if (st) {
		count_wait(st, wait);
	} else if (!account_shared(p, &key, wait, cs, compat)) {
		return;
	}
	if (p->kind == LOCK_KIND_LRUVEC || p->kind == LOCK_KIND_NODE_LOCK)
		count_waiter(p, wait, cs, compat);

	if (p->stack_id >= 0) {
		struct stack_key sk = {
			.lock_addr = p->lock_addr,
			.owner_cgid = p->owner_cgid,
			.stack_id = p->stack_id,
		};
		struct stack_stat init = {};
		struct stack_stat *ss =
			map_lookup_or_init(&stack_stats, &sk, &init, &drop_stats_full);

		if (ss) {
			__sync_fetch_and_add(&ss->contended, 1);
			__sync_fetch_and_add(&ss->wait_ns, wait);
		}
	}
}

static __noinline void account(struct pending *p, __u64 now, struct pending_stack *cs)
{
	account_body(p, now, cs, false);
}

/* the compat programs' (before 5.19): no fetching atomic in what they call */
static __noinline void account_compat(struct pending *p, __u64 now, struct pending_stack *cs)
{
	account_body(p, now, cs, true);
}

/* A finished spinning wait: count it, and charge its holder. */
static __always_inline void end_spin(struct pending *p, __u64 now, struct pending_stack *cs)
{
	account(p, now, cs);
	/* two calls, not nested: each adds its frame to this one's (6.1: 512 in all) */
	if (track_holders && p->kind == LOCK_KIND_LRUVEC)
		holders_end(p, now, cs);
	if (track_holders && exact_holders && p->kind == LOCK_KIND_LRUVEC)
		holders_exact_end(p, now);
}

static __always_inline int end_wait(struct pending_stack *cs, void *lock, __u64 now)
{
	struct task_pending *ts;
	__u32 d;

	/*
	 * The wait is counted from where it was kept, not from a copy: it is
	 * popped first, and no program of ours runs nested on this CPU (busy) to
	 * push another into that slot meanwhile.
	 */
	d = cs->depth;
	if (d > 0 && d <= CPU_DEPTH &&
	    cs->slot[(d - 1) & (CPU_DEPTH - 1)].lock_addr == (__u64)lock) {
		if (lose_end_every && ++cs->lose_ctr >= lose_end_every) {
			cs->lose_ctr = 0;
			return 0; /* the test's switch: as if the kernel had skipped this hook */
		}
		cs->depth = d - 1;
		end_spin(&cs->slot[(d - 1) & (CPU_DEPTH - 1)], now, cs);
		return 0;
	}
	ts = bpf_task_storage_get(&task_pending, bpf_get_current_task_btf(), 0, 0);
	if (ts) {
		d = ts->depth;
		if (d > 0 && d <= TASK_DEPTH &&
		    ts->slot[(d - 1) & (TASK_DEPTH - 1)].lock_addr == (__u64)lock) {
			ts->depth = d - 1;
			account(&ts->slot[(d - 1) & (TASK_DEPTH - 1)], now, cs);
			return 0;
		}
	}
	/* an end whose begin we never saw (we attached mid-wait, or lost it) */
	drop_wait(&drop_unmatched, 1);
	return 0;
}

/* The newest wait on this CPU is lock's, begun by the slowpath hooks: their exit ends it. */
static __always_inline bool slowpath_owns(struct pending_stack *cs, void *lock)
{
	__u32 d = cs->depth;

	return d > 0 && d <= CPU_DEPTH &&
	       cs->slot[(d - 1) & (CPU_DEPTH - 1)].lock_addr == (__u64)lock &&
	       (cs->slot[(d - 1) & (CPU_DEPTH - 1)].flags & PENDING_F_SLOWPATH);
}

SEC("tp_btf/contention_end")
int BPF_PROG(contention_end, void *lock, int ret)
{
	__u32 zero = 0;
	struct pending_stack *cs = bpf_map_lookup_elem(&cpu_pending, &zero);
	__u64 now;

	if (!cs || !armed)
		return 0;
	/*
	 * With the slowpath source most ends are of its own spinning waits, which
	 * its exit hook ends: leave them here, before the clock read (half of what
	 * such an end would cost). Only that source makes such waits.
	 */
	if (spin_slowpath && slowpath_owns(cs, lock))
		return 0;
	now = bpf_ktime_get_ns();
	if (!enter_prog(cs))
		return 0;
	end_wait(cs, lock, now);
	leave_prog(cs);
	return 0;
}

#include "lockstat_slowpath.bpf.h"

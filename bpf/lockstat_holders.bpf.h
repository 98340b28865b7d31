/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The holder estimate, part of lockstat.bpf.c.
 *
 * A file of the same object, not an object of its own: contention_end and
 * the slowpath exit hooks call holders_end() on the wait they have just
 * counted; holders_begin() marks the core's pending wait (PENDING_F_WAITING);
 * the sched_switch hook clears the core's cpu_pending; scan_cpu() reads every
 * CPU's. A second object could not be called from the core's programs: it
 * would need hooks of its own on the same events, every shared map reused by
 * fd and its settings kept in step. The 5.10 compat hooks need no object of
 * their own either: their literal compat leaves holders_end() out of them
 * (bpf_loop, a fetching atomic); holders_begin() is inline in their entry,
 * with plain atomic adds only, behind track_holders (--holders is refused
 * where they load: no bpf_loop).
 *
 * Who held an lruvec lock while others waited, inferred from the FIFO hand-over
 * of queued spinlocks: the rule is written once, in model/holders.h, and
 * model/holders.c is its C model (unit-tested on synthetic streams). Only
 * LOCK_KIND_LRUVEC spinning waits; off unless user space sets track_holders.
 */
const volatile bool track_holders = false;
/* holders_exact.bpf.c is loaded and shares exact_last: compare with the truth */
const volatile bool exact_holders = false;

__u64 holder_drop_full = 0; /* lock_last, holder_stats, matrix_stats or exact_* full */

/*
 * The per-CPU holder maps are preallocated and sized by user space to a
 * memory budget, as lock_stats (allocated on use, the kernel's per-CPU caches
 * of free copies grow with CPUs squared); lock_last allocates on use.
 */
/* estimate vs exact, in estimated hold ns: all compared, right memcg, right task */
__u64 cmp_est_ns = 0;
__u64 cmp_memcg_ns = 0;
__u64 cmp_pid_ns = 0;
/* the same per basis (enum holder_basis): which rule errs */
__u64 cmp_basis_est_ns[HOLDER_NR_BASES] = {};
__u64 cmp_basis_memcg_ns[HOLDER_NR_BASES] = {};
__u64 cmp_exact_ns = 0; /* the exact hold time of the same waits */
__u64 cmp_no_exact = 0; /* waits with no acquirer seen by the exact hooks */
/*
 * Two naive guesses on the same waits, weighted alike, for the estimate to beat:
 * "a task of the lruvec's memcg" (right memcg when the true holder is of it) and
 * "the last contended acquirer of the lock" (right memcg, right task).
 */
__u64 cmp_owner_memcg_ns = 0;
__u64 cmp_last_memcg_ns = 0;
__u64 cmp_last_pid_ns = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 16384);
	__type(key, struct lock_key);
	__type(value, struct holder_last);
} lock_last SEC(".maps");

/*
 * The same records for the locks with a slot in lock_stats, at that slot: an
 * array, whose lookup the verifier inlines, where lock_last hashes a 16-byte
 * key twice a wait (its begin, its end). lock_last keeps the records of the
 * waits whose lock had no slot when they began (its first wait; every slot
 * taken). Sized to lock_room by user space with holders.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16384);
	__type(key, __u32);
	__type(value, struct holder_last);
} lock_last_slots SEC(".maps");

/* check mode (classify_check): each use of lock_last_slots, checked against lock_slots */
__u64 last_slot_agreed = 0;
__u64 last_slot_disagreed = 0;
__u64 last_by_key = 0; /* uses of lock_last: the lock had no slot at its wait's begin */

/*
 * What each wait charges is counted per CPU, as lock_stats: many CPUs queued
 * on one lock charge the same holder, and shared counters would bounce one
 * cache line between them on every hand-over. lock_last stays shared: it is
 * the hand-over record itself, written once per contended acquisition.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 16384);
	__type(key, struct holder_key);
	__type(value, struct holder_stat);
} holder_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
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
	__uint(max_entries, 16384);
	__type(key, struct holder_key);
	__type(value, struct holder_stat);
} exact_stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
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
	__u64 self_cset, self_cgid; /* the waiter's css_set and its memcg */
	__u64 start_ns;		    /* the wait's */
	__u64 cgid;		    /* the chosen task's memcg */
	__u32 self_cpu, last_pid;
	__u32 pid; /* the chosen task, 0: none */
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
	__u32 basis;	 /* enum holder_basis of the estimate */
	__u32 prev_pid;	 /* the last contended acquirer before this wait's end, 0: none */
	__u64 prev_cgid; /* its memcg (the naive guess exact mode compares) */
	struct running_scan rs;
	/* the scan's last memcg read from a css_set, for a generation (own_memcg_cgid's cache) */
	__u64 scan_cset, scan_cgid;
	__u32 scan_gen;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct holders_scratch);
} holders_scratch SEC(".maps");

static __always_inline void *holders_get(void *map, const void *key, const void *init)
{
	return map_lookup_or_init(map, key, init, &holder_drop_full);
}

static __always_inline struct holders_scratch *scratch(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&holders_scratch, &zero);
}

/*
 * The hand-over record of p's lock: at its slot if the wait's begin knew one,
 * else in lock_last. The slot is fixed at the begin (p->slot), so that the
 * begin and the end of a wait count it waiting in the same record; only the
 * first wait of a lock, before it has a slot, uses lock_last. NULL when
 * lock_last is full (counted) or, without init, has no record of the lock.
 */
static __always_inline struct holder_last *last_of(const struct pending *p, struct lock_key *key,
						   struct holder_last *init)
{
	__u32 slot = p->slot, *known;
	struct holder_last *rec;

	/* the key is filled only where it is read: the slot path needs none */
	if (slot < lock_room) {
		rec = bpf_map_lookup_elem(&lock_last_slots, &slot);
		/*
		 * check mode: the slot is the one lock_slots gives the lock's key,
		 * and the array has a record there (sized to the lock slots)
		 */
		if (classify_check) {
			key->lock_addr = p->lock_addr;
			key->owner_cgid = p->owner_cgid;
			known = bpf_map_lookup_elem(&lock_slots, key);
			__sync_fetch_and_add(rec && known && *known == slot ? &last_slot_agreed :
									      &last_slot_disagreed,
					     1);
		}
		return rec;
	}
	if (classify_check)
		__sync_fetch_and_add(&last_by_key, 1);
	key->lock_addr = p->lock_addr;
	key->owner_cgid = p->owner_cgid;
	if (!init)
		return bpf_map_lookup_elem(&lock_last, key);
	__builtin_memset(init, 0, sizeof(*init));
	init->stack_id = -1;
	return holders_get(&lock_last, key, init);
}

/*
 * At the start of an lruvec wait, before its clock starts: count it as
 * waiting. A wait the classification cache gave no slot (the lock's first
 * here in this generation) looks it up, for last_of(), and leaves it in the
 * cache (the end's lock_counters() would look it up otherwise).
 */
static __always_inline void holders_begin(struct pending *p, struct pending_stack *cs)
{
	struct holders_scratch *sc = scratch();
	struct holder_last *last;
	__u32 *known;

	if (!sc)
		return;
	if (p->slot == SLOT_NONE && percpu_locks) {
		sc->key.lock_addr = p->lock_addr;
		sc->key.owner_cgid = p->owner_cgid;
		known = bpf_map_lookup_elem(&lock_slots, &sc->key);
		if (known) {
			p->slot = *known;
			remember_slot(cs, &sc->key, p->slot);
		}
	}
	last = last_of(p, &sc->key, &sc->last_init);
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
	__u32 pid = p->pid; /* read at the wait's begin */
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
		__sync_fetch_and_add(&cmp_basis_est_ns[sc->basis & (HOLDER_NR_BASES - 1)],
				     est_hold);
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
/*
 * The CPUs scanned: one more than the highest online CPU when user space
 * loaded us, not every possible one. A VM's hot-plug slots are possible CPUs
 * that never run a task, and the scan runs at contention_end, while this CPU
 * holds the lock: each CPU scanned lengthens the hold every waiter queues
 * behind. A CPU brought online later above it is not scanned: its task is
 * found by rules 1 and 3 only.
 */
const volatile __u32 scan_cpus = 1;
#define HOLDERS_MAX_CPUS 1024 /* the scan's bound: costlier than the wait beyond it */

struct cpu_curr {
	__u64 cset;	 /* the css_set of the task running there (its memcg: scan_cpu) */
	__u32 pid;	 /* 0: idle, or no switch seen yet */
	__u32 prev_pid;	 /* the task the last switch took off this CPU */
	__u64 switch_ns; /* when */
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
	drop_wait(&drop_lost, d);
	for (__u32 i = 0; i < CPU_DEPTH; i++) {
		if (i >= d)
			break;
		if (!(cs->slot[i].flags & PENDING_F_WAITING))
			continue;
		last = last_of(&cs->slot[i], &key, NULL);
		if (last)
			__sync_fetch_and_add(&last->waiting, -1);
	}
	cs->depth = 0;
}

/* loaded only with holders (user space turns autoload off otherwise) */
SEC("tp_btf/sched_switch")
int BPF_PROG(holders_sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 zero = 0;
	struct cpu_curr *c = bpf_map_lookup_elem(&cpu_curr, &zero);

	drop_stale_waits();
	if (c) {
		/*
		 * the task's css_set, from its task_struct, at hand here; not its
		 * memcg: the four loads from there miss the cache, on every switch
		 */
		c->cset = have_task_btf ? (__u64)next->cgroups :
					  (__u64)BPF_CORE_READ(next, cgroups);
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

/* check mode (classify_check): running_memcg's hits, each read again */
__u64 scan_memcg_agreed = 0;
__u64 scan_memcg_disagreed = 0;
__u64 scan_memcg_misses = 0;

/* The memcg of a css_set, read through it: five probe reads. */
static __always_inline __u64 css_set_memcg_read(__u64 cset)
{
	struct css_set *set = (struct css_set *)cset;

	return cgroup_id_of_css(BPF_CORE_READ(
		set, subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)]));
}

/*
 * The memcg of a css_set that a task runs with on another CPU. Most often the
 * waiter's own (tasks of one memcg share one css_set), else the one this
 * CPU's scan read last: a read takes five probe reads a CPU, while the waiter
 * holds the lock. The scan's entry lives for a generation, as
 * own_memcg_cgid's.
 */
static __always_inline __u64 running_memcg(struct holders_scratch *sc, struct running_scan *rs,
					   __u64 cset)
{
	__u32 gen = classify_gen;
	__u64 cgid;

	if (cset == rs->self_cset)
		cgid = rs->self_cgid;
	else if (cset == sc->scan_cset && sc->scan_gen == gen)
		cgid = sc->scan_cgid;
	else {
		if (classify_check)
			__sync_fetch_and_add(&scan_memcg_misses, 1);
		sc->scan_cset = cset;
		sc->scan_cgid = css_set_memcg_read(cset);
		sc->scan_gen = gen;
		return sc->scan_cgid;
	}
	if (classify_check)
		__sync_fetch_and_add(css_set_memcg_read(cset) == cgid ? &scan_memcg_agreed :
									&scan_memcg_disagreed,
				     1);
	return cgid;
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
		return 0; /* idle */
	ps = bpf_map_lookup_percpu_elem(&cpu_pending, &zero, cpu);
	if (ps && ps->depth && ps->depth <= CPU_DEPTH &&
	    ps->slot[(ps->depth - 1) & (CPU_DEPTH - 1)].start_ns < rs->start_ns)
		return 0; /* spinning since before our wait: it held no L in it */
	cgid = running_memcg(sc, rs, c->cset);
	score = (cgid == rs->owner_cgid ? 2 : 0) + (pid == rs->last_pid ? 1 : 0);
	if (score > rs->score) {
		rs->score = score;
		rs->pid = pid;
		rs->cgid = cgid;
	}
	return 0;
}

/* The holder is the last contended acquirer (rules 1, 2a and 3): its task, memcg, stack. */
static __always_inline void holder_is_last(struct holders_scratch *sc,
					   const struct holder_last *last)
{
	sc->hk.pid = last->pid;
	sc->mk.holder_cgid = last->cgid;
	sc->stack_id = last->stack_id;
}

/* At the end of an lruvec wait: charge the hold it waited behind, then take the lock. */
static __noinline void holders_end(struct pending *p, __u64 now, struct pending_stack *cs)
{
	struct holders_scratch *sc = scratch();
	__u32 pid = p->pid; /* read at the wait's begin */
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
	last = last_of(p, &sc->key, &sc->last_init);
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
		/* as this CPU's waiter cache paired them at the wait's begin (waiter_of) */
		sc->rs.self_cset = cs->waiter_gen == classify_gen ? cs->waiter_cset : 0;
		sc->rs.self_cgid = cs->waiter_cgid;
		sc->rs.self_cpu = cpu;
		sc->rs.start_ns = p->start_ns;
		sc->rs.last_pid = last->pid;
		sc->rs.pid = 0;
		sc->rs.cgid = 0;
		sc->rs.score = -1;
		bpf_loop(scan_cpus < HOLDERS_MAX_CPUS ? scan_cpus : HOLDERS_MAX_CPUS, scan_cpu,
			 NULL, 0);
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

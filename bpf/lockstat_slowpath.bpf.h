/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slowpath source of spinlock waits, part of lockstat.bpf.c (one object:
 * it shares cpu_pending and the counters). fentry/fexit on the queued-spinlock
 * slow path, which is entered whenever the fast path failed: before
 * virt_spin_lock() (test-and-set guests) and before the pending-bit spin of
 * the first waiter, both of which lock:contention_begin never sees. Loaded
 * only with --spin-source slowpath (or auto's choice); user space turns the
 * hooks of a function the kernel lacks off.
 *
 * The hazards of a program in this function (a deadlock through map bucket
 * locks; recursion) are met by per-CPU state only on entry, no map update
 * while another of our programs runs on this CPU (enter_prog), and the
 * kernel's own guard against a program nesting in itself.
 */

/* A contended acquisition begins: a wait on this CPU's stack. */
static __always_inline int slowpath_enter(void *ctx, void *lock, const bool compat)
{
	__u32 zero = 0;
	struct pending_stack *cs = bpf_map_lookup_elem(&cpu_pending, &zero);
	__u32 d;

	if (!armed || !cs || !enter_prog(cs))
		return 0;
	d = cs->depth;
	if (d >= CPU_DEPTH) {
		drop_stale_spins(cs, d);
		d = cpu_depth(cs);
	}
	if (d >= CPU_DEPTH) {
		drop_wait(&drop_no_room, 1);
	} else {
		fill(&cs->slot[d & (CPU_DEPTH - 1)], ctx, lock, LCB_F_SPIN | PENDING_F_SLOWPATH, cs,
		     compat);
		cs->depth = d + 1;
	}
	leave_prog(cs);
	return 0;
}

/*
 * The lock is taken. Its wait is the newest of lock's on this CPU's stack;
 * waits above it lost their exit (the kernel skipped a hook that would have
 * nested in itself) and are dropped, counted.
 */
static __always_inline int slowpath_exit(void *lock, const bool compat)
{
	__u64 now = bpf_ktime_get_ns();
	__u32 zero = 0;
	struct pending_stack *cs = bpf_map_lookup_elem(&cpu_pending, &zero);
	struct pending *p;
	__u32 d, found = CPU_DEPTH;

	if (!armed || !cs || !enter_prog(cs))
		return 0;
	d = cs->depth;
	if (d > CPU_DEPTH)
		d = CPU_DEPTH;
	/* newest first; a constant index per step keeps the verifier's bounds */
	for (int at = CPU_DEPTH - 1; at >= 0; at--) {
		if ((__u32)at >= d)
			continue;
		if (cs->slot[at].lock_addr == (__u64)lock &&
		    (cs->slot[at].flags & PENDING_F_SLOWPATH)) {
			found = (__u32)at;
			break;
		}
	}
	if (found >= CPU_DEPTH) {
		/* its entry was not recorded: nested in one of ours, or begun before we attached */
		drop_wait(&drop_unmatched, 1);
		leave_prog(cs);
		return 0;
	}
	if (d - 1 > found)
		drop_wait(&drop_lost, d - 1 - found);
	/* counted where it was kept, as in end_wait: popped first, busy keeps it */
	p = &cs->slot[found & (CPU_DEPTH - 1)];
	cs->depth = found;
	if (compat)
		account_compat(p, now, cs); /* no holder code: fetching atomics, bpf_loop */
	else
		end_spin(p, now, cs);
	leave_prog(cs);
	return 0;
}

/*
 * The hooks of one slow-path function: NAME_enter and NAME_exit. compat: the
 * variant for kernels before 5.19 (holders off there), with no holder code,
 * whose bpf_loop() callback and fetching atomics such a verifier refuses even
 * unreached (it reads every instruction first), and no compare-and-exchange.
 */
#define SLOWPATH_HOOKS(func, name, compat)                            \
	SEC("fentry/" #func)                                          \
	int BPF_PROG(name##_enter, struct qspinlock *lock, __u32 val) \
	{                                                             \
		return slowpath_enter(ctx, lock, compat);             \
	}                                                             \
	SEC("fexit/" #func)                                           \
	int BPF_PROG(name##_exit, struct qspinlock *lock, __u32 val)  \
	{                                                             \
		return slowpath_exit(lock, compat);                   \
	}

SLOWPATH_HOOKS(native_queued_spin_lock_slowpath, slowpath_native, false)
SLOWPATH_HOOKS(__pv_queued_spin_lock_slowpath, slowpath_pv, false)
SLOWPATH_HOOKS(native_queued_spin_lock_slowpath, slowpath_native_compat, true)
SLOWPATH_HOOKS(__pv_queued_spin_lock_slowpath, slowpath_pv_compat, true)

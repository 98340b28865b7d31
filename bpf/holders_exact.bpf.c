// SPDX-License-Identifier: GPL-2.0
/*
 * Holders, exact mode: every acquisition of an lruvec lock that a
 * function boundary shows, as the last acquirer of that lock. Where fentry
 * loads (not on every kernel: probed at start, see collector/live/holders_exact.c).
 *
 * The unlocks are inline spin_unlock*(&lruvec->lru_lock): no hook sees a
 * release. What we can see is the acquirer: fexit of folio_lruvec_lock*
 * (returns the locked lruvec), and fentry of the functions reclaim calls with
 * the lock already taken by an inline spin_lock_irq (isolate_lru_folios,
 * move_folios_to_lru). lockstat.bpf.c's contention_end reads this map (the
 * same fd) to learn who truly held a lock before each waiter got it, and adds
 * each waiter's own acquisition; the hold imposed on that waiter ends at its
 * contention_end, which for a queued spinlock is the release.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "lockstat.h"

char LICENSE[] SEC("license") = "GPL";

__u64 exact_acquisitions = 0;
__u64 exact_drop_full = 0; /* exact_last was full */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__type(key, __u64);
	__type(value, struct exact_last);
} exact_last SEC(".maps");

static __always_inline void note(struct lruvec *lruvec)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct cgroup_subsys_state *css;
	struct exact_last v = {};
	__u64 lock;

	if (!lruvec)
		return;
	lock = (__u64)lruvec + bpf_core_field_offset(struct lruvec, lru_lock);
	css = BPF_CORE_READ(task, cgroups,
			    subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)]);
	v.cgid = css ? BPF_CORE_READ(css, cgroup, kn, id) : 0;
	v.pid = (__u32)bpf_get_current_pid_tgid();
	v.t_ns = bpf_ktime_get_ns();
	__sync_fetch_and_add(&exact_acquisitions, 1);
	if (bpf_map_update_elem(&exact_last, &lock, &v, BPF_ANY))
		__sync_fetch_and_add(&exact_drop_full, 1);
}

SEC("fexit/folio_lruvec_lock")
int BPF_PROG(folio_lruvec_lock_exit, struct folio *folio, struct lruvec *ret)
{
	note(ret);
	return 0;
}

SEC("fexit/folio_lruvec_lock_irq")
int BPF_PROG(folio_lruvec_lock_irq_exit, struct folio *folio, struct lruvec *ret)
{
	note(ret);
	return 0;
}

SEC("fexit/folio_lruvec_lock_irqsave")
int BPF_PROG(folio_lruvec_lock_irqsave_exit, struct folio *folio, unsigned long *flags,
	     struct lruvec *ret)
{
	note(ret);
	return 0;
}

/* called by shrink_{in,}active_list under spin_lock_irq(&lruvec->lru_lock) */
SEC("fentry/isolate_lru_folios")
int BPF_PROG(isolate_lru_folios_entry, unsigned long nr_to_scan, struct lruvec *lruvec)
{
	note(lruvec);
	return 0;
}

SEC("fentry/move_folios_to_lru")
int BPF_PROG(move_folios_to_lru_entry, struct lruvec *lruvec)
{
	note(lruvec);
	return 0;
}

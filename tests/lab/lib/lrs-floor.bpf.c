// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of a lock-wait tracer, for lab-bench (tests/lab/lib/spin_bench.py):
 * at a wait's begin a timestamp, at its end the delta added up, nothing else.
 * Run beside lruscope on the same hooks, its run time per wait is what any
 * tool pays to time a wait there; lruscope's over it is what its attribution,
 * waiters, stacks and histograms add. One slot per CPU: a spinning wait never
 * leaves its CPU (a sleeping lock's may, and then its delta is wrong, not its
 * cost). A bench helper, never shipped.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct slot {
	__u64 start;
	__u64 wait_ns;
	__u64 waits;
};

/* index 0: the tracepoint pair, 1: the slow-path pair */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct slot);
} floor_slots SEC(".maps");

static __always_inline int begin(__u32 source)
{
	struct slot *s = bpf_map_lookup_elem(&floor_slots, &source);

	if (s)
		s->start = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int end(__u32 source)
{
	struct slot *s = bpf_map_lookup_elem(&floor_slots, &source);

	if (s && s->start) {
		s->wait_ns += bpf_ktime_get_ns() - s->start;
		s->waits++;
		s->start = 0;
	}
	return 0;
}

SEC("tp_btf/contention_begin")
int floor_tp_begin(void *ctx)
{
	return begin(0);
}

SEC("tp_btf/contention_end")
int floor_tp_end(void *ctx)
{
	return end(0);
}

/* the loader points these at the kernel's slow path (native or paravirt) */
SEC("fentry/native_queued_spin_lock_slowpath")
int floor_sp_enter(void *ctx)
{
	return begin(1);
}

SEC("fexit/native_queued_spin_lock_slowpath")
int floor_sp_exit(void *ctx)
{
	return end(1);
}

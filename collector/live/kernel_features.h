/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the running kernel's BPF and memory management offer the live
 * collector, from its BTF and release: programs that need more are switched
 * off before load (with a visible "unavailable"), not failed.
 */
#ifndef LRS_KERNEL_FEATURES_H
#define LRS_KERNEL_FEATURES_H

#include <stdbool.h>
#include <stdint.h>

struct lrs_kernel_features {
	bool lruvec_lock; /* struct lruvec has lru_lock: one lock per memcg and node (5.11+) */
	bool task_btf;	  /* bpf_get_current_task_btf(), task storage (5.11+) */
	bool bpf_loop;	  /* bpf_loop() and bpf_map_lookup_percpu_elem() (5.19+) */
	bool mem_alloc; /* BPF's own allocator: maps that allocate on use take no kernel lock (6.1+) */
	bool cgroup_iter;     /* the BPF cgroup iterator (6.1+) */
	uint64_t node_data;   /* &node_data[0] from kallsyms, 0 where data symbols are hidden */
	bool contention_tp;   /* lock:contention_begin/end (5.19+) */
	bool slowpath_native; /* native_queued_spin_lock_slowpath, for fentry */
	bool slowpath_pv;     /* __pv_queued_spin_lock_slowpath (CONFIG_PARAVIRT_SPINLOCKS) */
};

/* Release "5.10.0-32-cloud-amd64" -> 0x050a. */
unsigned int lrs_kernel_version(const char *release);
void lrs_kernel_features__probe(const char *release, struct lrs_kernel_features *f);

#endif

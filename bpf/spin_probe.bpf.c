// SPDX-License-Identifier: GPL-2.0
/*
 * How this kernel takes contended spinlocks, read once at start from two data
 * symbols user space found in kallsyms (KALLSYMS_ALL kernels): the static key
 * virt_spin_lock_key (on: test-and-set under a hypervisor) and pv_ops' slow
 * path (paravirt or native queued). An iterator program, so that it runs where
 * user space asks (one read of its fd) on kernels from 5.8.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 key_addr = 0;    /* &virt_spin_lock_key, 0: unknown */
const volatile __u64 pv_ops_addr = 0; /* &pv_ops, 0: unknown */

int key_enabled = -1;  /* static_key.enabled; -1: not read */
__u64 pv_slowpath = 0; /* pv_ops.lock.queued_spin_lock_slowpath; 0: not read */
int done = 0;

SEC("iter/task")
int read_spin_state(struct bpf_iter__task *ctx)
{
	int enabled;
	__u64 fn;

	if (done)
		return 0;
	done = 1;
	if (key_addr &&
	    !bpf_probe_read_kernel(
		    &enabled, sizeof(enabled),
		    (void *)(key_addr + bpf_core_field_offset(struct static_key, enabled))))
		key_enabled = enabled;
	if (pv_ops_addr && bpf_core_field_exists(struct paravirt_patch_template, lock) &&
	    !bpf_probe_read_kernel(
		    &fn, sizeof(fn),
		    (void *)(pv_ops_addr + bpf_core_field_offset(struct paravirt_patch_template,
								 lock.queued_spin_lock_slowpath))))
		pv_slowpath = fn;
	return 0;
}

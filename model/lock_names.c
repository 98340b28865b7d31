// SPDX-License-Identifier: GPL-2.0
#include <string.h>

#include "model/lock_names.h"
#include "bpf/lockstat.h"

const char *lrs_lock_type_name(uint32_t flags)
{
	if (flags & LCB_F_PERCPU)
		return flags & LCB_F_WRITE ? "pcpu-sem:W" : "pcpu-sem:R";
	if (flags & LCB_F_MUTEX)
		return "mutex";
	if (flags & LCB_F_RT)
		return "rtmutex";
	if (flags & LCB_F_SPIN) {
		if (flags & LCB_F_READ)
			return "rwlock:R";
		if (flags & LCB_F_WRITE)
			return "rwlock:W";
		return "spinlock";
	}
	if (flags & LCB_F_READ)
		return "rwsem:R";
	if (flags & LCB_F_WRITE)
		return "rwsem:W";
	return "lock";
}

static bool has_prefix(const char *frame, const char *const *prefixes, size_t n)
{
	if (!frame)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!strncmp(frame, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

bool lrs_frame_is_tracer(const char *frame)
{
	static const char *const prefixes[] = {
		"bpf_",
		"__bpf_trace_",
		"__traceiter_",
		"trace_contention",
	};

	return has_prefix(frame, prefixes, sizeof(prefixes) / sizeof(prefixes[0]));
}

bool lrs_frame_is_lock_internal(const char *frame)
{
	/* prefixes: one entry covers its _irq, _irqsave, _bh and slowpath forms */
	static const char *const prefixes[] = {
		/* spinlocks and rwlocks, queued and paravirt */
		"queued_spin_lock",
		"native_queued_spin",
		"__pv_queued_spin",
		"pv_queued_spin",
		"pv_wait",
		"pv_hash",
		"_raw_spin_lock",
		"__raw_spin_lock",
		"raw_spin_lock",
		"do_raw_spin_lock",
		"spin_lock",
		"_raw_read_lock",
		"_raw_write_lock",
		"queued_read_lock",
		"queued_write_lock",
		"__lock_text_start",
		"lock_acquire",
		/* sleeping locks */
		"__mutex_lock",
		"mutex_lock",
		"__rwsem_",
		"rwsem_down",
		"down_read",
		"down_write",
		"__down_",
		"rt_mutex",
		"__rt_mutex",
		"rt_spin_lock",
		"percpu_down",
		"__percpu_down",
	};

	return lrs_frame_is_tracer(frame) ||
	       has_prefix(frame, prefixes, sizeof(prefixes) / sizeof(prefixes[0]));
}

size_t lrs_stack_first_caller(const struct lrs_stack *stack)
{
	size_t i = 0;

	while (i + 1 < stack->nr_frames && lrs_frame_is_lock_internal(stack->frames[i]))
		i++;
	return i;
}

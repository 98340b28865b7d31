/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How locks and their stacks are named, for every source and view: the lock
 * type from the contention tracepoint's flags, and which stack frames are
 * the lock's own slow path or the tracer (the same in every waiting stack,
 * so names and views skip them to reach the caller).
 */
#ifndef LRS_LOCK_NAMES_H
#define LRS_LOCK_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* "spinlock", "rwlock:W", "mutex", "rwsem:R", ... from LCB_F_* flags. */
const char *lrs_lock_type_name(uint32_t flags);

/* Whether a frame is the tracer itself: the BPF program and the tracepoint
 * that ran it, never part of what the task waits in. */
bool lrs_frame_is_tracer(const char *frame);

/*
 * Whether a frame ("sym+0x1a") is lock or tracing machinery
 * (_raw_spin_lock_irq, __pv_queued_spin_lock_slowpath, bpf_trace_run2, ...)
 * rather than the code that wanted the lock.
 */
bool lrs_frame_is_lock_internal(const char *frame);

/* The index of the first frame of stack that is not lock machinery; a stack
 * of only such frames gives its last one, which still says something. */
size_t lrs_stack_first_caller(const struct lrs_stack *stack);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Asks the running kernel what collector/live/spin_choice.h needs: the
 * spinlock kind (data symbols read by bpf/spin_probe.bpf.c, the CPU flags,
 * the kernel log) and whether the contention tracepoints and the slowpath
 * functions exist in its BTF.
 */
#ifndef LRS_SPIN_PROBE_H
#define LRS_SPIN_PROBE_H

#include <stdbool.h>

#include "collector/live/spin_choice.h"

/* The slowpath functions, by the name their fentry hooks attach to. */
struct lrs_slowpath_funcs {
	bool native;	/* native_queued_spin_lock_slowpath */
	bool pv;	/* __pv_queued_spin_lock_slowpath (CONFIG_PARAVIRT_SPINLOCKS) */
};

/* Fill facts->kind, kind_why and tracepoint; funcs from BTF. slowpath stays false. */
void lrs_spin_probe__facts(struct lrs_spin_facts *facts, struct lrs_slowpath_funcs *funcs);

#endif

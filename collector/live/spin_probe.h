/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Asks the running kernel what collector/live/spin_choice.h needs: the
 * spinlock kind (data symbols read by bpf/spin_probe.bpf.c, the CPU flags,
 * the kernel log).
 */
#ifndef LRS_SPIN_PROBE_H
#define LRS_SPIN_PROBE_H

#include <stdbool.h>

#include "collector/live/spin_choice.h"

struct lrs_kernel_features;

/*
 * Fill facts->kind and kind_why from the kernel, tracepoint from its features
 * (collector/live/kernel_features.h, which read its BTF). slowpath stays false.
 */
void lrs_spin_probe__facts(const struct lrs_kernel_features *feat, struct lrs_spin_facts *facts);

#endif

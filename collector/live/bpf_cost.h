/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The collector's own cost as the kernel counts it: run time and runs of a
 * BPF object's programs (bpf_prog_info.run_time_ns and run_cnt, non-zero only
 * while run-time stats are on; lrs_bpf_stats__enable turns them on for as
 * long as its fd stays open, and off again when the last such fd closes).
 */
#ifndef LRS_BPF_COST_H
#define LRS_BPF_COST_H

#include <stdint.h>

struct bpf_object;

/* An fd that keeps run-time stats on, or -errno (kernel older than 5.8, no CAP). */
int lrs_bpf_stats__enable(void);
/* Add the run time (ns) and runs of obj's loaded programs to *ns and *runs. */
void lrs_bpf_cost__add(const struct bpf_object *obj, uint64_t *ns, uint64_t *runs);

#endif

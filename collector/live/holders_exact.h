/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Holders, exact mode (bpf/holders_exact.bpf.c): fexit/fentry on the lruvec
 * lock functions, where the kernel lets fentry load. prepare probes (targets
 * missing from the kernel's BTF are not loaded; a load failure is a reason,
 * not an error), start attaches; the map it fills is shared with lockstat.
 */
#ifndef LRS_HOLDERS_EXACT_H
#define LRS_HOLDERS_EXACT_H

#include <stddef.h>
#include <stdint.h>

struct lrs_holders_exact;

/* 0, or -errno with why ("fentry: Operation not permitted") filled in. */
int lrs_holders_exact__prepare(struct lrs_holders_exact **out, char *why, size_t why_len);
int lrs_holders_exact__start(struct lrs_holders_exact *ex, char *why, size_t why_len);
int lrs_holders_exact__map_fd(const struct lrs_holders_exact *ex); /* exact_last */
void lrs_holders_exact__counters(const struct lrs_holders_exact *ex, uint64_t *acquisitions,
				 uint64_t *drop_full);
void lrs_holders_exact__destroy(struct lrs_holders_exact *ex); /* accepts NULL */
struct bpf_object;
const struct bpf_object *lrs_holders_exact__object(const struct lrs_holders_exact *ex);

#endif

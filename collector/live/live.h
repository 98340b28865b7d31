/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live collector: loads the BPF programs (lock contention, lruvec
 * iterator), and turns their maps into snapshots.
 */
#ifndef LRS_COLLECTOR_H
#define LRS_COLLECTOR_H

#include "collector/source.h"

struct lrs_collector_opts {
	double interval_s;	    /* default 1.0 */
	const char *cgroup_root;    /* memory hierarchy mount; NULL: detect v1/v2 */
	unsigned int stack_every;   /* take a waiter stack on 1 in N contentions; 0: none */
	unsigned int stack_rate;    /* and at most this many a second per CPU */
	unsigned int stack_time;    /* and at most 1/N of a CPU's time unwinding; 0: no limit */
	unsigned int stack_cost_ns; /* and at most N ns unwinding a wait, on average; 0: none */
	unsigned int max_locks;	    /* lock map entries */
	unsigned int percpu_locks;  /* of those, with per-CPU counters, if percpu_locks_set */
	bool percpu_locks_set;	    /* else as many as LRS_PERCPU_LOCK_BUDGET holds */
	unsigned int max_waiters;   /* waiter map entries */
	unsigned int max_stacks;    /* stack map entries */
	unsigned int max_memcgs;    /* memcgs the lruvec iterator's maps hold */
	bool verbose;		    /* libbpf messages on stderr */
	bool holders;		    /* track lock holders (model/holders.h) */
	bool holders_exact;	    /* and, where fentry loads, record every acquisition */
	bool bpf_stats;		    /* turn on BPF run-time stats: snapshots carry bpf_cost */
	int spin_source;	    /* enum lrs_spin_request (collector/live/spin_choice.h) */
	const char *ready_file;	    /* the CLI writes the PID here once open returned */
};

void lrs_collector_opts__defaults(struct lrs_collector_opts *opts);

/*
 * Load and attach. On failure returns -errno and writes one line saying what
 * is missing and what to do into err.
 */
int lrs_collector__open(const struct lrs_collector_opts *opts, struct lrs_source **out, char *err,
			size_t err_len);

/* A sysfs node list ("0-3,8") -> highest id + 1 (9); 1 for an empty list. */
unsigned int lrs_node_list__nr(const char *list);

/* Check what loading needs (root or CAP_BPF+CAP_PERFMON, BTF, tracepoints). */
int lrs_collector__check_privileges(char *err, size_t err_len);

#endif

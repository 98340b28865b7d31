/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live collector's options, one shared table that top, gui, report,
 * record and export include (and demo its --spin-source), with their parser.
 */
#ifndef LRS_CLI_COLLECTOR_OPTS_H
#define LRS_CLI_COLLECTOR_OPTS_H

#include "cli/options.h"

/* --max-locks at most: the kernel sizes the map's hash buckets for it when it loads */
#define LRS_MAX_LOCKS_MAX 1048576

enum lrs_collector_key {
	LRS_COPT_CGROUP_ROOT = LRS_OPT_KEY_SHARED,
	LRS_COPT_STACK_EVERY,
	LRS_COPT_STACK_RATE,
	LRS_COPT_STACK_CPU,
	LRS_COPT_STACK_COST,
	LRS_COPT_MAX_LOCKS,
	LRS_COPT_PERCPU_LOCKS,
	LRS_COPT_HOLDERS,
	LRS_COPT_HOLDERS_EXACT,
	LRS_COPT_SPIN_SOURCE,
	LRS_COPT_READY_FILE,
	LRS_COPT_VERBOSE = 'v',
};

/*
 * --cgroup-root, --stack-every, --stack-rate, --stack-cpu, --stack-cost, --max-locks,
 * --percpu-locks, --holders, --holders-exact, the --spin-source table, --ready-file, -v
 */
extern const struct lrs_opt lrs_opts_collector[];
/* --spin-source alone */
extern const struct lrs_opt lrs_opts_spin_source[];

struct lrs_collector_opts;
/*
 * Apply key, one of the collector's options, to opts: 0, or -EINVAL on a bad
 * value (said on stderr, naming the command); -ENOENT when key is none of them.
 */
int lrs_cli__collector_option(const char *cmd, int key, const char *value,
			      struct lrs_collector_opts *opts);
/* --spin-source's value: an enum lrs_spin_request in *out, or -EINVAL (said). */
int lrs_cli__spin_source(const char *cmd, const char *value, int *out);

#endif

// SPDX-License-Identifier: GPL-2.0
/* The live collector's options: their table (help and man page text) and their parser. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/collector_opts.h"
#include "cli/commands.h"
#include "collector/live/live.h"
#include "collector/live/spin_choice.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const struct lrs_opt lrs_opts_spin_source[] = {
	{ "spin-source", LRS_COPT_SPIN_SOURCE, 0, "SRC",
	  "where spinlock waits come from: auto (default: the tracepoint where it sees every "
	  "waiter, else the slow path), tracepoint, or slowpath (fentry on the queued-spinlock "
	  "slow path: first waiters and test-and-set too)",
	  .choices = "auto tracepoint slowpath",
	  .man = "Where spinlock waits (lruvec locks among them) come from.\n"
		 ".B auto\n"
		 "(the default) keeps the tracepoint where it sees every waiter (paravirt\n"
		 "spinlocks, as in KVM guests) and takes the slow path where the tracepoint is\n"
		 "blind (native queued spinlocks: first waiters; test\\-and\\-set spinlocks: every\n"
		 "wait) or absent, saying why.\n"
		 ".B tracepoint\n"
		 "forces the tracepoint (cheaper; blind as above).\n"
		 ".B slowpath\n"
		 "forces the fentry hooks, and fails with one line saying why (status 1) where\n"
		 "they cannot load (a kernel without fentry, or one that refuses it).\n"
		 "The kind of spinlocks is read from the static key\n"
		 ".B virt_spin_lock_key\n"
		 "where kallsyms lists data symbols\n"
		 ".RB ( CONFIG_KALLSYMS_ALL ),\n"
		 "else judged from the CPU flags and the kernel log; the\n"
		 ".B why\n"
		 "text says which, and how sure.\n" },
	{ 0 }
};

const struct lrs_opt lrs_opts_collector[] = {
	{ "cgroup-root", LRS_COPT_CGROUP_ROOT, LRS_OPT_DIR, "PATH",
	  "the memory cgroup mount (default: detect v2, then v1)",
	  .man = "The memory cgroup mount (default: cgroup v2 with the memory controller, else the v1\n"
		 ".B memory\n"
		 "mount). A path on another filesystem is refused as not a cgroup mount (status 1).\n" },
	{ "stack-every", LRS_COPT_STACK_EVERY, 0, "N",
	  "sample a waiter's stack on 1 in N waits, at most --stack-rate a second per CPU "
	  "(default 16; 0: no stacks)",
	  .man = "Sample a waiter's stack on 1 in\n"
		 ".I N\n"
		 "waits, at most\n"
		 ".B \\-\\-stack\\-rate\n"
		 "a second per CPU (default 16; 0 takes no stacks).\n" },
	{ "stack-rate", LRS_COPT_STACK_RATE, 0, "N",
	  "take at most N sampled stacks a second per CPU (default 50)",
	  .man = "Take at most\n"
		 ".I N\n"
		 "sampled stacks a second per CPU (default 50). A stack is unwound in the lock's\n"
		 "slow path: about 6 microseconds on a host, tens under emulation, some 40 times\n"
		 "what timing a wait costs; raise it for a short recording whose causes need many\n"
		 "samples.\n" },
	{ "stack-cpu", LRS_COPT_STACK_CPU, 0, "PCT",
	  "spend at most PCT% of each CPU's time unwinding sampled stacks (default 0.1; 0: only "
	  "--stack-rate limits them)",
	  .man = "Spend at most\n"
		 ".I PCT\n"
		 "percent of each CPU's time unwinding sampled stacks (default 0.1): after a stack\n"
		 "that took\n"
		 ".I t\n"
		 "to unwind, that CPU takes the next no sooner than 100\n"
		 ".IR t / PCT\n"
		 "later. A stack's price is the kernel's stack depth and the CPU's speed, not the\n"
		 "lock's: where waits are few and unwinding slow (under emulation a stack costs\n"
		 "tens of timed waits), a cap on the rate alone leaves stacks most of\n"
		 "lruscope's time. 0 leaves only\n"
		 ".B \\-\\-stack\\-rate\n"
		 "as the limit, for a recording whose causes need every sample.\n" },
	{ "stack-cost", LRS_COPT_STACK_COST, 0, "NS",
	  "spend at most NS nanoseconds unwinding stacks per wait, averaged over each CPU's waits "
	  "(default 50; 0: no such limit)",
	  .man = "Spend at most\n"
		 ".I NS\n"
		 "nanoseconds unwinding sampled stacks per wait, averaged over each CPU's waits\n"
		 "(default 50): after a stack that took\n"
		 ".I t\n"
		 "to unwind, that CPU takes the next no sooner than\n"
		 ".IR t / NS\n"
		 "waits later. The caps above bound stacks by the clock; this one by the waits\n"
		 "they are sampled from, which is what lruscope's cost is measured against: where a\n"
		 "CPU sees a few hundred waits a second, 0.1% of its time is more than timing each\n"
		 "wait costs. A CPU whose last stack is older than 100 /\n"
		 ".B \\-\\-stack\\-rate\n"
		 "seconds (2 s at the default) takes one anyway, looked at on 1 in 64 of the waits\n"
		 "held back: where waits are few and unwinding slow, the cap alone would leave it\n"
		 "without a stack for minutes. 0 leaves the other limits alone, for a recording\n"
		 "whose causes need every sample.\n" },
	{ "max-locks", LRS_COPT_MAX_LOCKS, 0, "N",
	  "locks the BPF maps hold (default 16384, 1 to " STR(
		  LRS_MAX_LOCKS_MAX) "); waits on locks beyond it are counted in drops.stats_full",
	  .man = "Locks the BPF maps hold (default 16384, 1 to " STR(
		  LRS_MAX_LOCKS_MAX) ": the kernel sizes the maps'\n"
				     "hash buckets for it); waits on locks beyond it are counted in\n"
				     ".BR drops.stats_full .\n" },
	{ "percpu-locks", LRS_COPT_PERCPU_LOCKS, 0, "N",
	  "locks counted per CPU, the first contended (default: as many as 4 MiB of per-CPU "
	  "copies hold, at least 128); the others are counted in a shared table, with atomic adds",
	  .man = "Locks whose counters are kept per CPU: the first\n"
		 ".I N\n"
		 "locks contended (default: as many as 4 MiB of per\\-CPU copies hold, at least\n"
		 "128, at most\n"
		 ".BR \\-\\-max\\-locks ).\n"
		 "A per\\-CPU copy spares the CPUs queued on a hot lock a fight over its counters'\n"
		 "cache lines, and costs 296 bytes a CPU; the locks after those are counted in a\n"
		 "shared table with atomic adds, so the kernel memory lruscope takes stays bounded\n"
		 "as CPUs grow. 0 counts every lock in the shared table.\n" },
	{ "holders", LRS_COPT_HOLDERS, 0, NULL,
	  "also infer who held the lruvec locks others waited on (docs/holders.md)",
	  .man = "Also infer who held the lruvec locks others waited on: a holder table and a\n"
		 "memcg x memcg matrix (see\n"
		 ".BR docs/holders.md ).\n" },
	{ "holders-exact", LRS_COPT_HOLDERS_EXACT, 0, NULL,
	  "--holders, and where fentry loads, record every lruvec lock acquisition to measure "
	  "the estimate against the true holders (costs a program run per acquisition)",
	  .man = "As\n"
		 ".BR \\-\\-holders ,\n"
		 "and where the kernel lets fentry and fexit programs load, exact mode: every\n"
		 "acquisition of an lruvec lock that a function boundary shows is recorded, and\n"
		 "each wait's estimated holder is compared with the true one. It runs a program\n"
		 "on every acquisition, contended or not, which\n"
		 ".B \\-\\-holders\n"
		 "alone does not: use it to measure the estimate, not to watch a busy machine.\n" },
	LRS_OPT_GROUP(lrs_opts_spin_source),
	{ "ready-file", LRS_COPT_READY_FILE, 0, "FILE",
	  "once every hook is attached and counting has begun, write lruscope's PID to FILE "
	  "(emptied at the start): a script waits for it before it starts its load",
	  .man = "Once every hook is attached and counting has begun, write lruscope's PID and a\n"
		 "newline to\n"
		 ".IR FILE ,\n"
		 "which is emptied (or created) at the start, so that an old one cannot pass for\n"
		 "it and one that cannot be written fails before anything loads (status 1). Loading\n"
		 "and verifying the programs takes from a fraction of a second to minutes on a slow\n"
		 "or emulated machine: a script that starts lruscope in the background and then\n"
		 "its load waits until\n"
		 ".I FILE\n"
		 "is not empty, so that no wait of its load is missed.\n" },
	{ "verbose", LRS_COPT_VERBOSE, LRS_OPT_SHORT, NULL, "libbpf's messages",
	  .man = "Print libbpf's messages.\n" },
	{ 0 }
};

int lrs_cli__spin_source(const char *cmd, const char *value, int *out)
{
	int req = lrs_spin_request__parse(value);

	if (req < 0) {
		fprintf(stderr,
			"lruscope %s: --spin-source '%s': want auto, tracepoint or slowpath\n", cmd,
			value);
		return -EINVAL;
	}
	*out = req;
	return 0;
}

/* --stack-cpu PCT: stacks take at most 1 / *factor of a CPU (100 / PCT); 0: no limit */
static int parse_stack_cpu(const char *cmd, const char *value, unsigned int *factor)
{
	double pct;

	if (lrs_parse_number(value, 0, 100, &pct) || (pct > 0 && pct < 0.001)) {
		fprintf(stderr,
			"lruscope %s: --stack-cpu '%s': want a percentage of a CPU, 0.001 to 100, "
			"or 0 for no limit\n",
			cmd, value);
		return -EINVAL;
	}
	*factor = pct == 0 ? 0 : (unsigned int)(100 / pct + 0.5);
	return 0;
}

int lrs_cli__collector_option(const char *cmd, int key, const char *value,
			      struct lrs_collector_opts *opts)
{
	switch (key) {
	case LRS_COPT_CGROUP_ROOT:
		opts->cgroup_root = value;
		return 0;
	case LRS_COPT_STACK_EVERY:
		if (lrs_parse_uint(value, 1000000000, &opts->stack_every)) {
			fprintf(stderr,
				"lruscope %s: --stack-every '%s': want a number, 0 for no stacks\n",
				cmd, value);
			return -EINVAL;
		}
		return 0;
	case LRS_COPT_STACK_RATE:
		if (lrs_parse_uint(value, 1000000, &opts->stack_rate) || !opts->stack_rate) {
			fprintf(stderr,
				"lruscope %s: --stack-rate '%s': want a number of stacks a second "
				"per CPU, from 1 to 1000000\n",
				cmd, value);
			return -EINVAL;
		}
		return 0;
	case LRS_COPT_STACK_CPU:
		return parse_stack_cpu(cmd, value, &opts->stack_time);
	case LRS_COPT_STACK_COST:
		if (lrs_parse_uint(value, 1000000, &opts->stack_cost_ns)) {
			fprintf(stderr,
				"lruscope %s: --stack-cost '%s': want nanoseconds a wait, 0 to "
				"1000000, 0 for no limit\n",
				cmd, value);
			return -EINVAL;
		}
		return 0;
	case LRS_COPT_MAX_LOCKS:
		if (lrs_parse_uint(value, (unsigned int)LRS_MAX_LOCKS_MAX, &opts->max_locks) ||
		    !opts->max_locks) {
			fprintf(stderr,
				"lruscope %s: --max-locks '%s': want a number from 1 to %u\n", cmd,
				value, (unsigned int)LRS_MAX_LOCKS_MAX);
			return -EINVAL;
		}
		return 0;
	case LRS_COPT_PERCPU_LOCKS:
		if (lrs_parse_uint(value, (unsigned int)LRS_MAX_LOCKS_MAX, &opts->percpu_locks)) {
			fprintf(stderr,
				"lruscope %s: --percpu-locks '%s': want a number from 0 to %u\n",
				cmd, value, (unsigned int)LRS_MAX_LOCKS_MAX);
			return -EINVAL;
		}
		opts->percpu_locks_set = true;
		return 0;
	case LRS_COPT_HOLDERS_EXACT:
		opts->holders_exact = true;
		/* fall through */
	case LRS_COPT_HOLDERS:
		opts->holders = true;
		return 0;
	case LRS_COPT_SPIN_SOURCE:
		return lrs_cli__spin_source(cmd, value, &opts->spin_source);
	case LRS_COPT_READY_FILE:
		opts->ready_file = value;
		return 0;
	case LRS_COPT_VERBOSE:
		opts->verbose = true;
		return 0;
	default:
		return -ENOENT;
	}
}

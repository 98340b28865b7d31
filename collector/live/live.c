// SPDX-License-Identifier: GPL-2.0
/* The live source: BPF lock contention + the lruvec iterator -> snapshots. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "collector/live/attribute.h"
#include "collector/live/bpf_cost.h"
#include "collector/live/cgroup_fs.h"
#include "collector/live/live.h"
#include "model/clock.h"
#include "collector/live/holders_live.h"
#include "collector/live/holders_exact.h"
#include "collector/live/ksyms.h"
#include "collector/live/lock_collector.h"
#include "collector/live/lruvec_table.h"
#include "collector/live/kernel_features.h"
#include "collector/live/memcg_table_fs.h"
#include "collector/live/spin_probe.h"

void lrs_collector_opts__defaults(struct lrs_collector_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->interval_s = 1.0;
	/* a stack costs 2-3.6 us on this kind of machine: 1 in 16 keeps it near 0.2 us a wait */
	opts->stack_every = 16;
	/* a stack unwinds for 6 us on a host, tens under TCG: 50 a second name a lock's callers */
	opts->stack_rate = 50;
	/*
	 * and at most 0.1% of a CPU: where unwinding is slow and waits few (under
	 * emulation), a cap on the rate alone leaves stacks most of the run time
	 */
	opts->stack_time = 1000;
	/*
	 * and at most 50 ns of unwinding a wait, on average: a ninth of the 450
	 * ns a wait may cost in all; where a CPU sees few waits, 0.1% of its time
	 * is more than that (a CPU whose last stack is 2 s old still takes one)
	 */
	opts->stack_cost_ns = 50;
	opts->max_locks = 16384;
	opts->max_waiters = 16384;
	/* the stack map drops a stack whose hash bucket is taken: room cuts drops */
	opts->max_stacks = 8192;
	opts->max_memcgs = 8192;
}

struct live {
	struct lrs_lockstat *lockstat;
	struct lrs_lruvec_iter *iter;
	struct lrs_ksyms *ksyms;
	struct lrs_path_memory paths;
	struct lrs_cgroup_root root;
	char kernel[64];
	char *unavailable;
	uint64_t last_t_ns;		  /* the previous read, or when counting started */
	bool holders;			  /* holders tracked */
	struct lrs_holders_exact *exact;  /* and their fentry truth, or NULL */
	int stats_fd;			  /* keeps BPF run-time stats on, or -1 */
	unsigned int max_memcgs;	  /* what the lruvec iterator's maps hold */
	struct lrs_spin_source spin;	  /* where spinlock waits come from, and why */
	enum lrs_spin_request spin_req;	  /* --spin-source */
	struct lrs_spin_facts spin_facts; /* what the choice rests on */
	struct lrs_kernel_features features;
	unsigned int nr_nodes;
};

/*
 * "0-3,8" -> 9: the count the BPF side must cover (highest id + 1). Only
 * digits start a number: strtoul would read the "-1" of "0-1" as ULONG_MAX,
 * whose + 1 wraps to 0, and a two-node machine counted as one.
 */
unsigned int lrs_node_list__nr(const char *list)
{
	unsigned long max = 0;

	for (const char *p = list; p && *p;) {
		char *end;
		unsigned long v;

		if (*p < '0' || *p > '9') {
			p++;
			continue;
		}
		v = strtoul(p, &end, 10);
		if (v < 65536 && v + 1 > max)
			max = v + 1;
		p = end;
	}
	return max ? (unsigned int)max : 1;
}

static unsigned int possible_nodes(void)
{
	FILE *f = fopen("/sys/devices/system/node/possible", "r");
	char buf[256];
	unsigned int nr = 1; /* no NUMA sysfs: one node */

	if (!f)
		return nr;
	if (fgets(buf, sizeof(buf), f))
		nr = lrs_node_list__nr(buf);
	fclose(f);
	return nr;
}

static int stack_ips(void *ctx, int32_t id, uint64_t *ips)
{
	struct live *lv = ctx;
	int n = lrs_lockstat__stack(lv->lockstat, id, ips);

	return n < 0 ? 0 : n;
}

/* Features that degraded, and lruvecs the iterator could not list, for the header. */
static int describe_unavailable(struct live *lv, struct lrs_snapshot *snap)
{
	uint64_t faults = lrs_lruvec_iter__read_faults(lv->iter);
	uint64_t full = lrs_lruvec_iter__map_full(lv->iter);
	const char *names = lrs_lruvec_iter__names_unavailable(lv->iter);
	char buf[2048];
	int n = snprintf(buf, sizeof(buf), "%.600s", lv->unavailable ? lv->unavailable : "");

	/* blind spots of the spinlock source, first in line: an empty heatmap is no proof */
	if (lv->spin.name == LRS_SPIN_NONE || !lv->spin.first_waiter)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s%s: %s", n ? "; " : "",
			      lv->spin.name == LRS_SPIN_NONE ? "spinlock waits (lruvec locks too)" :
							       "first spinlock waiters",
			      lv->spin.why);
	if (n >= (int)sizeof(buf) / 2)
		n = (int)sizeof(buf) / 2; /* room for the rest */

	if (names)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%s%s", n ? "; " : "", names);

	if (full && n < (int)sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "%slruvec maps full (%llu): memcgs beyond the first %u are not shown",
			      n ? "; " : "", (unsigned long long)full, lv->max_memcgs);
	if (faults && n < (int)sizeof(buf))
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "%slruvec iterator: %llu unreadable reads", n ? "; " : "",
			      (unsigned long long)faults);
	if (!n)
		return 0;
	snap->unavailable = strdup(buf);
	return snap->unavailable ? 0 : -ENOMEM;
}

/*
 * Every memcg x node with its LRU sizes: from the BPF cgroup iterator, or on
 * kernels without one (before 6.1) from the cgroup file system.
 */
static int read_table(struct live *lv, struct lrs_lruvec_table *table)
{
	if (lv->iter)
		return lrs_lruvec_iter__read(lv->iter, table);
	return lrs_memcg_table_fs__read(&lv->root, lv->nr_nodes, table);
}

static int live_take(struct lrs_source *src, struct lrs_snapshot **out)
{
	struct live *lv = src->ctx;
	struct lrs_lruvec_table table;
	struct lrs_lockstat_read rd;
	struct lrs_stack_source stacks = { .ips = stack_ips, .ctx = lv };
	struct lrs_snapshot *snap = lrs_snapshot__new();
	int err;

	if (!snap)
		return -ENOMEM;
	/* counters first, then the table: a memcg created in between still has a row */
	err = lrs_lockstat__read(lv->lockstat, &rd);
	if (err)
		goto fail;
	err = read_table(lv, &table);
	if (err) {
		lrs_lockstat_read__clear(&rd);
		goto fail;
	}
	snap->t_ns = lrs_now_ns();
	/* what was measured, not what was asked: a report cut short by Ctrl-C is shorter */
	snap->interval_ns = snap->t_ns - lv->last_t_ns;
	lv->last_t_ns = snap->t_ns;
	snprintf(snap->kernel, sizeof(snap->kernel), "%s", lv->kernel);
	snap->spin_source = lv->spin;
	err = lrs_attribute(&table, &rd, lv->ksyms, &stacks, &lv->paths, snap);
	if (!err && lv->holders)
		err = lrs_holders__collect(lv->lockstat, lv->exact, &rd, &lv->paths, lv->ksyms,
					   &stacks, snap);
	if (!err)
		err = describe_unavailable(lv, snap);
	if (lv->stats_fd >= 0) {
		snap->bpf_cost.known = true;
		lrs_bpf_cost__add(lrs_lockstat__object(lv->lockstat), &snap->bpf_cost.run_ns,
				  &snap->bpf_cost.runs);
		lrs_bpf_cost__add(lrs_lruvec_iter__object(lv->iter), &snap->bpf_cost.run_ns,
				  &snap->bpf_cost.runs);
		lrs_bpf_cost__add(lrs_holders_exact__object(lv->exact), &snap->bpf_cost.run_ns,
				  &snap->bpf_cost.runs);
	}
	lrs_lockstat_read__clear(&rd);
	lrs_lruvec_table__clear(&table);
	if (err)
		goto fail;
	*out = snap;
	return 0;
fail:
	lrs_snapshot__free(snap);
	return err;
}

/*
 * One walk before the first interval: a memcg that exists now and is removed
 * before the first read keeps its name. The iterator's mkdir hook is already
 * attached, so from here on every memcg is walked or recorded when created.
 */
static int learn_paths_now(struct live *lv, char *err, size_t err_len)
{
	struct lrs_lruvec_table table;
	int ret = read_table(lv, &table);

	if (!ret) {
		ret = lrs_path_memory__learn(&lv->paths, &table);
		lrs_lruvec_table__clear(&table);
	}
	if (ret)
		snprintf(err, err_len, "lruscope: the first walk of the memory cgroups failed: %s",
			 strerror(-ret));
	return ret;
}

static void live_set_interval(struct lrs_source *src, double interval_s)
{
	src->interval_s = interval_s;
}

static void live_destroy(struct lrs_source *src)
{
	struct live *lv;

	if (!src)
		return;
	lv = src->ctx;
	if (lv) {
		lrs_lockstat__destroy(lv->lockstat);
		lrs_holders_exact__destroy(lv->exact);
		lrs_lruvec_iter__destroy(lv->iter);
		lrs_ksyms__free(lv->ksyms);
		lrs_path_memory__destroy(&lv->paths);
		if (lv->stats_fd >= 0)
			close(lv->stats_fd);
		free(lv->unavailable);
		free(lv);
	}
	free(src);
}

static bool has_cap(int cap)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = {};

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[cap / 32].effective & (1U << (cap % 32));
}

int lrs_collector__check_privileges(char *err, size_t err_len)
{
	if (has_cap(CAP_SYS_ADMIN) || (has_cap(CAP_BPF) && has_cap(CAP_PERFMON)))
		return 0;
	snprintf(err, err_len,
		 "lruscope: loading BPF needs root (or CAP_BPF and CAP_PERFMON): run it with sudo, "
		 "or view a recording without root: lruscope replay FILE");
	return -EPERM;
}

static int check_kernel(const struct utsname *uts, char *err, size_t err_len)
{
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(
			err, err_len,
			"lruscope: kernel %s has no BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF): "
			"the live collector cannot load; recordings and drgn walks still work",
			uts->release);
		return -ENOTSUP;
	}
	if (access("/sys/fs/cgroup", F_OK)) {
		snprintf(err, err_len, "lruscope: no cgroup file system at /sys/fs/cgroup");
		return -ENOTSUP;
	}
	return 0;
}

/* Add what degraded to the header's "unavailable" line (out of memory: left out). */
static void note_unavailable(struct live *lv, const char *what)
{
	char *joined;

	if (!lv->unavailable) {
		lv->unavailable = strdup(what);
		return;
	}
	if (asprintf(&joined, "%s; %s", lv->unavailable, what) < 0)
		return;
	free(lv->unavailable);
	lv->unavailable = joined;
}

/*
 * What the kernel lacks switches programs off: the BPF side's feature flags,
 * map sizes where maps must be preallocated, and a note for the header.
 */
static int kernel_options(struct live *lv, const struct lrs_collector_opts *opts,
			  struct lrs_lockstat_opts *lopts, char *err, size_t err_len)
{
	const struct lrs_kernel_features *f = &lv->features;
	char note[256] = "";

	if (opts->holders && !f->bpf_loop) {
		snprintf(err, err_len,
			 "lruscope: --holders needs bpf_loop() and per-CPU map lookups "
			 "(Linux 5.19+); this kernel is %s: run without --holders",
			 lv->kernel);
		return -ENOTSUP;
	}
	lopts->have_task_btf = f->task_btf;
	lopts->no_bpf_loop = !f->bpf_loop;
	lopts->node_data = f->node_data;
	/*
	 * Before BPF's own allocator (6.1) a map that allocates on use calls the
	 * slab allocator under its bucket lock: from the spinlock slow path that
	 * can deadlock. Such kernels get preallocated maps, smaller.
	 */
	lopts->prealloc = !f->mem_alloc;
	if (lopts->prealloc) {
		lopts->max_locks = lopts->max_locks < 4096 ? lopts->max_locks : 4096;
		lopts->max_waiters = lopts->max_waiters < 4096 ? lopts->max_waiters : 4096;
		lopts->max_stacks = lopts->max_stacks < 1024 ? lopts->max_stacks : 1024;
		snprintf(note, sizeof(note),
			 "maps preallocated (kernel before 6.1): at most %u locks",
			 lopts->max_locks);
	}
	if (!f->lruvec_lock && !f->node_data)
		snprintf(
			note + strlen(note), sizeof(note) - strlen(note),
			"%snode locks: kallsyms lists no node_data, so pgdat->lru_lock waits show as "
			"other locks",
			note[0] ? "; " : "");
	if (note[0])
		note_unavailable(lv, note);
	return 0;
}

/* Load the lock collector, with or without the slowpath hooks (not attached yet). */
static int load_lock_collector(struct live *lv, struct lrs_lockstat_opts *lopts, char *err,
			       size_t err_len)
{
	int ret = lrs_lockstat__prepare(lopts, &lv->lockstat, err, err_len);

	if (ret)
		lv->lockstat = NULL;
	return ret;
}

/*
 * Choose the spinlock waits' source (collector/live/spin_choice.h) and load
 * the collector with it: the slowpath hooks where they are wanted and load,
 * the tracepoints alone otherwise. lv->spin says which, and why. Attached
 * later (start_lock_collector), once every memcg has a name.
 */
static int open_lock_collector(struct live *lv, struct lrs_lockstat_opts *lopts, char *err,
			       size_t err_len)
{
	const struct lrs_kernel_features *feat = &lv->features;
	struct lrs_spin_facts *facts = &lv->spin_facts;
	int ret;

	lrs_spin_probe__facts(feat, facts);
	lopts->tracepoints = facts->tracepoint;
	lopts->slowpath_native = feat->slowpath_native;
	lopts->slowpath_pv = feat->slowpath_pv;
	lopts->spin_slowpath = lrs_spin__want_slowpath(lv->spin_req, facts) &&
			       (feat->slowpath_native || feat->slowpath_pv);
	if (lopts->spin_slowpath) {
		ret = load_lock_collector(lv, lopts, err, err_len);
		if (!ret)
			facts->slowpath = true;
		else
			snprintf(facts->slowpath_why, sizeof(facts->slowpath_why), "%s", err);
	} else if (lv->spin_req == LRS_SPIN_ASK_TRACEPOINT ||
		   (facts->kind == LRS_SPINLOCKS_PARAVIRT && facts->tracepoint)) {
		snprintf(facts->slowpath_why, sizeof(facts->slowpath_why), "not needed");
	}
	ret = lrs_spin__choose(lv->spin_req, facts, &lv->spin, err, err_len);
	if (ret)
		return ret;
	if (facts->slowpath)
		return 0;
	err[0] = 0;
	lopts->spin_slowpath = false;
	return load_lock_collector(lv, lopts, err, err_len);
}

/* Attach; slowpath hooks that load but do not attach fall back as a refused load does. */
static int start_lock_collector(struct live *lv, struct lrs_lockstat_opts *lopts, char *err,
				size_t err_len)
{
	int ret = lrs_lockstat__start(lv->lockstat, err, err_len);

	if (!ret || !lopts->spin_slowpath)
		return ret;
	lrs_lockstat__destroy(lv->lockstat);
	lv->lockstat = NULL;
	lv->spin_facts.slowpath = false;
	snprintf(lv->spin_facts.slowpath_why, sizeof(lv->spin_facts.slowpath_why), "%s", err);
	ret = lrs_spin__choose(lv->spin_req, &lv->spin_facts, &lv->spin, err, err_len);
	if (ret)
		return ret;
	lopts->spin_slowpath = false;
	ret = load_lock_collector(lv, lopts, err, err_len);
	return ret ? ret : lrs_lockstat__start(lv->lockstat, err, err_len);
}

int lrs_collector__open(const struct lrs_collector_opts *opts, struct lrs_source **out, char *err,
			size_t err_len)
{
	struct lrs_source *src = calloc(1, sizeof(*src));
	struct live *lv = calloc(1, sizeof(*lv));
	struct lrs_lockstat_opts lopts = {
		.stack_every = opts->stack_every,
		.stack_rate = opts->stack_rate,
		.stack_time = opts->stack_time,
		.stack_cost_ns = opts->stack_cost_ns,
		.max_locks = opts->max_locks,
		.percpu_locks = opts->percpu_locks,
		.percpu_locks_set = opts->percpu_locks_set,
		.max_waiters = opts->max_waiters,
		.max_stacks = opts->max_stacks,
		.verbose = opts->verbose,
	};
	struct utsname uts;
	unsigned int nr_nodes = possible_nodes();
	int ret;

	if (!src || !lv) {
		free(src);
		free(lv);
		snprintf(err, err_len, "lruscope: out of memory");
		return -ENOMEM;
	}
	src->name = "live";
	src->interval_s = opts->interval_s > 0 ? opts->interval_s : 1.0;
	src->take = live_take;
	src->set_interval = live_set_interval;
	src->destroy = live_destroy;
	src->ctx = lv;
	lv->stats_fd = -1;
	lrs_path_memory__init(&lv->paths);

	ret = lrs_collector__check_privileges(err, err_len);
	if (ret)
		goto fail;
	uname(&uts);
	snprintf(lv->kernel, sizeof(lv->kernel), "%.63s", uts.release);
	ret = check_kernel(&uts, err, err_len);
	if (ret)
		goto fail;

	ret = opts->cgroup_root ? lrs_cgroup_root__from_path(opts->cgroup_root, &lv->root) :
				  lrs_cgroup_root__detect(&lv->root);
	if (ret) {
		if (opts->cgroup_root && ret == -ENOTDIR) /* statfs: neither cgroup2 nor cgroup */
			snprintf(
				err, err_len,
				"lruscope: --cgroup-root %.200s is not a cgroup mount: "
				"name the memory cgroup mount (/sys/fs/cgroup on cgroup v2, "
				"/sys/fs/cgroup/memory on v1), or leave the option out to detect it",
				opts->cgroup_root);
		else if (opts->cgroup_root)
			snprintf(err, err_len,
				 "lruscope: --cgroup-root %.200s: %.100s: name the memory "
				 "cgroup mount, or leave the option out to detect it",
				 opts->cgroup_root,
				 ret == -ENOENT ? "no such directory" : strerror(-ret));
		else
			snprintf(
				err, err_len,
				"lruscope: no memory cgroup hierarchy is mounted (neither cgroup v2 with the "
				"memory controller nor v1 'memory'): lruvecs cannot be attributed");
		goto fail;
	}

	lopts.nr_nodes = lv->nr_nodes = nr_nodes;
	lrs_kernel_features__probe(uts.release, &lv->features);
	ret = kernel_options(lv, opts, &lopts, err, err_len);
	if (ret)
		goto fail;
	lv->holders = lopts.track_holders = opts->holders;
	if (opts->holders_exact && !lrs_holders_exact__prepare(&lv->exact, err, err_len)) {
		lopts.exact_holders = true;
		lopts.exact_last_fd = lrs_holders_exact__map_fd(lv->exact);
	}
	err[0] = 0; /* no exact mode is not an error: the header says "estimated" */
	lv->spin_req = (enum lrs_spin_request)opts->spin_source;
	ret = open_lock_collector(lv, &lopts, err, err_len);
	if (ret)
		goto fail;
	lv->max_memcgs = opts->max_memcgs ? opts->max_memcgs : 8192;
	if (lv->features.cgroup_iter) {
		ret = lrs_lruvec_iter__prepare(lv->root.path, nr_nodes, lv->max_memcgs, &lv->iter,
					       err, err_len);
		if (ret)
			goto fail;
	}
	ret = learn_paths_now(lv, err, err_len);
	if (ret)
		goto fail;
	lv->ksyms = lrs_ksyms__load();
	if (!lv->ksyms || !lv->ksyms->nr)
		note_unavailable(lv, "symbols: /proc/kallsyms unreadable, stacks show addresses");
	else if (!opts->stack_every)
		note_unavailable(lv, "stacks: off (--stack-every 0)");
	/* attached last: a memcg that waits has a name by now */
	ret = start_lock_collector(lv, &lopts, err, err_len);
	if (ret)
		goto fail;
	if (lv->exact && lrs_holders_exact__start(lv->exact, err, err_len)) {
		/* attached nowhere: the estimate alone stays valid */
		lrs_holders_exact__destroy(lv->exact);
		lv->exact = NULL;
		err[0] = 0;
	}
	if (opts->bpf_stats) {
		lv->stats_fd = lrs_bpf_stats__enable();
		if (lv->stats_fd < 0)
			/* the exporter then has no lruscope_bpf_run_seconds_total */
			note_unavailable(lv, "bpf cost: the kernel refused BPF run-time stats");
	}
	lv->last_t_ns = lrs_now_ns();
	*out = src;
	return 0;
fail:
	live_destroy(src);
	return ret;
}

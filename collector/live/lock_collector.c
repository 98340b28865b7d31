// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collector/live/bpf_map_read.h"
#include "collector/live/cpu_list.h"
#include "collector/live/percpu_merge.h"
#include "collector/live/waiter_rows.h"
#include "model/holders.h"
#include "collector/live/lock_collector.h"
#include "bpf/lockstat.h"
#include "lockstat.skel.h"

_Static_assert(LOCKSTAT_HIST_BUCKETS == LRS_HIST_BUCKETS, "histogram sizes differ");
_Static_assert(LOCKSTAT_STACK_DEPTH == LRS_STACK_DEPTH, "stack depths differ");

struct lrs_lockstat {
	struct lockstat_bpf *skel;
	bool attached;
	bool holders;
	bool spin_slowpath;
	int nr_cpus; /* possible CPUs: copies in a per-CPU map's value */
};

static bool verbose_libbpf;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	if (level == LIBBPF_DEBUG && !verbose_libbpf)
		return 0;
	if (!verbose_libbpf)
		return 0; /* the caller reports failures in one line */
	return vfprintf(stderr, fmt, args);
}

/* The slowpath hooks of the functions this kernel has, full or compat (before 5.19). */
static void set_slowpath_autoload(struct lockstat_bpf *skel, const struct lrs_lockstat_opts *o)
{
	bool native = o->spin_slowpath && o->slowpath_native,
	     pv = o->spin_slowpath && o->slowpath_pv;
	bool full = !o->no_bpf_loop;

	bpf_program__set_autoload(skel->progs.slowpath_native_enter, native && full);
	bpf_program__set_autoload(skel->progs.slowpath_native_exit, native && full);
	bpf_program__set_autoload(skel->progs.slowpath_pv_enter, pv && full);
	bpf_program__set_autoload(skel->progs.slowpath_pv_exit, pv && full);
	bpf_program__set_autoload(skel->progs.slowpath_native_compat_enter, native && !full);
	bpf_program__set_autoload(skel->progs.slowpath_native_compat_exit, native && !full);
	bpf_program__set_autoload(skel->progs.slowpath_pv_compat_enter, pv && !full);
	bpf_program__set_autoload(skel->progs.slowpath_pv_compat_exit, pv && !full);
}

/* Clear BPF_F_NO_PREALLOC: every map that allocates on use allocates at load instead. */
static void preallocate_maps(struct lockstat_bpf *skel)
{
	struct bpf_map *map;

	bpf_object__for_each_map(map, skel->obj)
		if (bpf_map__map_flags(map) & BPF_F_NO_PREALLOC &&
		    bpf_map__type(map) != BPF_MAP_TYPE_TASK_STORAGE)
			bpf_map__set_map_flags(map, bpf_map__map_flags(map) & ~BPF_F_NO_PREALLOC);
}

/* A per-CPU map's entries, its default size at most: as many as budget holds over nr_cpus. */
static void bound_per_cpu(struct bpf_map *map, size_t value_size, size_t budget, unsigned int min,
			  int nr_cpus)
{
	bpf_map__set_max_entries(map, lrs_percpu__room(value_size, budget, min,
						       bpf_map__max_entries(map), nr_cpus));
}

int lrs_lockstat__prepare(const struct lrs_lockstat_opts *opts, struct lrs_lockstat **out,
			  char *err, size_t err_len)
{
	struct lrs_lockstat *ls = calloc(1, sizeof(*ls));
	const char *check;
	unsigned int room, lock_room;
	int ret;

	if (!ls)
		return -ENOMEM;
	verbose_libbpf = opts->verbose;
	libbpf_set_print(libbpf_print);
	ls->skel = lockstat_bpf__open();
	if (!ls->skel) {
		ret = -errno;
		snprintf(err, err_len, "lock collector: cannot open the BPF object: %s",
			 strerror(errno));
		goto fail;
	}
	ls->skel->rodata->stack_every = opts->stack_every;
	if (opts->stack_rate)
		ls->skel->rodata->stack_gap_ns = 1000000000ULL / opts->stack_rate;
	/* the cost cap lapses after 100 of the rate cap's gaps: 2 s at 50 stacks a second */
	ls->skel->rodata->stack_lapse_ns = 100 * ls->skel->rodata->stack_gap_ns;
	ls->skel->rodata->stack_time_factor = opts->stack_time;
	ls->skel->rodata->stack_cost_ns = opts->stack_cost_ns;
	/* a test's switch: every hit of the classification and waiter memcg caches checked */
	check = getenv("LRS_CHECK_CLASSIFY");
	ls->skel->rodata->classify_check = check && strcmp(check, "1") == 0;
	/* a test's switch: every Nth spinning wait's end lost, as the kernel may skip our hook */
	check = getenv("LRS_LOSE_ENDS");
	ls->skel->rodata->lose_end_every = check && *check ? (__u32)strtoul(check, NULL, 10) : 0;
	ls->skel->rodata->nr_nodes = opts->nr_nodes;
	bpf_map__set_max_entries(ls->skel->maps.stack_stats, opts->max_stacks);
	bpf_map__set_max_entries(ls->skel->maps.stacks, opts->max_stacks);
	if (!opts->stack_every)
		bpf_map__set_max_entries(ls->skel->maps.stacks, 1);
	ls->skel->rodata->track_holders = opts->track_holders;
	ret = libbpf_num_possible_cpus();
	if (ret <= 0) {
		snprintf(err, err_len,
			 "lock collector: cannot count the possible CPUs (%s): is /sys mounted?",
			 strerror(ret ? -ret : EINVAL));
		ret = ret ? ret : -EINVAL;
		goto fail;
	}
	ls->nr_cpus = ret;
	/* the holders' scan covers the CPUs that run tasks, not the hot-plug slots */
	ret = lrs_cpu_list__online_span();
	ls->skel->rodata->scan_cpus = (__u32)(ret > 0 && ret < ls->nr_cpus ? ret : ls->nr_cpus);
	/* max_locks in all: the first room per CPU, the rest in the shared table */
	room = opts->percpu_locks_set ? opts->percpu_locks :
					lrs_percpu__lock_room(opts->max_locks, ls->nr_cpus);
	room = room < opts->max_locks ? room : opts->max_locks;
	lock_room = room; /* the hand-over records' array has a record per lock slot */
	ls->skel->rodata->percpu_locks = room > 0;
	ls->skel->rodata->shared_locks = room < opts->max_locks;
	bpf_map__set_max_entries(ls->skel->maps.lock_stats, room ? room : 1);
	bpf_map__set_max_entries(ls->skel->maps.lock_slots, room ? room : 1);
	ls->skel->rodata->lock_room = room;
	ls->skel->rodata->nr_cpus = (__u32)ls->nr_cpus;
	bpf_map__set_max_entries(ls->skel->maps.lock_stats_shared,
				 room < opts->max_locks ? opts->max_locks - room : 1);
	/*
	 * max_waiters in all, the first room per CPU; the compat programs (no
	 * compare-and-exchange to take a slot with) count every row shared
	 */
	room = opts->no_bpf_loop ? 0 : lrs_percpu__waiter_room(opts->max_waiters, ls->nr_cpus);
	/* a test's switch: fewer per-CPU rows, so that a small load takes the shared path too */
	check = getenv("LRS_PERCPU_WAITERS");
	if (room && check && *check && strtoul(check, NULL, 10) < room)
		room = (unsigned int)strtoul(check, NULL, 10);
	ls->skel->rodata->percpu_waiters = room > 0;
	ls->skel->rodata->waiter_room = room;
	bpf_map__set_max_entries(ls->skel->maps.waiter_counts, room ? room : 1);
	bpf_map__set_max_entries(ls->skel->maps.waiter_slots, room ? room : 1);
	bpf_map__set_max_entries(ls->skel->maps.waiter_check,
				 room && ls->skel->rodata->classify_check ? room : 1);
	bpf_map__set_max_entries(ls->skel->maps.waiter_stats,
				 room < opts->max_waiters ? opts->max_waiters - room : 1);
	bpf_program__set_autoload(ls->skel->progs.holders_sched_switch, opts->track_holders);
	if (!opts->track_holders)
		bpf_map__set_max_entries(ls->skel->maps.cpu_curr, 1);
	ls->skel->rodata->exact_holders = opts->track_holders && opts->exact_holders;
	ls->holders = opts->track_holders;
	if (!opts->track_holders) {
		bpf_map__set_max_entries(ls->skel->maps.lock_last, 1);
		bpf_map__set_max_entries(ls->skel->maps.lock_last_slots, 1);
		bpf_map__set_max_entries(ls->skel->maps.holder_stats, 1);
		bpf_map__set_max_entries(ls->skel->maps.matrix_stats, 1);
	} else {
		bpf_map__set_max_entries(ls->skel->maps.lock_last_slots, lock_room ? lock_room : 1);
		bound_per_cpu(ls->skel->maps.holder_stats, sizeof(struct holder_stat),
			      LRS_PERCPU_HOLDER_BUDGET, LRS_PERCPU_HOLDER_MIN, ls->nr_cpus);
		bound_per_cpu(ls->skel->maps.matrix_stats, sizeof(struct matrix_stat),
			      LRS_PERCPU_MATRIX_BUDGET, LRS_PERCPU_MATRIX_MIN, ls->nr_cpus);
	}
	if (ls->skel->rodata->exact_holders) {
		bound_per_cpu(ls->skel->maps.exact_stats, sizeof(struct holder_stat),
			      LRS_PERCPU_HOLDER_BUDGET, LRS_PERCPU_HOLDER_MIN, ls->nr_cpus);
		bound_per_cpu(ls->skel->maps.exact_matrix, sizeof(struct matrix_stat),
			      LRS_PERCPU_MATRIX_BUDGET, LRS_PERCPU_MATRIX_MIN, ls->nr_cpus);
		ret = bpf_map__reuse_fd(ls->skel->maps.exact_last, opts->exact_last_fd);
		if (ret) {
			snprintf(err, err_len,
				 "lock collector: sharing the exact holders' map failed: %s",
				 strerror(-ret));
			goto fail;
		}
	} else {
		bpf_map__set_max_entries(ls->skel->maps.exact_last, 1);
		bpf_map__set_max_entries(ls->skel->maps.exact_stats, 1);
		bpf_map__set_max_entries(ls->skel->maps.exact_matrix, 1);
	}
	ls->skel->rodata->spin_slowpath = opts->spin_slowpath;
	ls->skel->rodata->have_task_btf = opts->have_task_btf;
	ls->skel->rodata->node_data_addr = opts->node_data;
	if (opts->prealloc)
		preallocate_maps(ls->skel);
	if (!opts->tracepoints) /* task storage (5.11+) serves the tracepoints' sleeping waits only */
		bpf_map__set_autocreate(ls->skel->maps.task_pending, false);
	set_slowpath_autoload(ls->skel, opts);
	bpf_program__set_autoload(ls->skel->progs.contention_begin, opts->tracepoints);
	bpf_program__set_autoload(ls->skel->progs.contention_end, opts->tracepoints);
	ret = lockstat_bpf__load(ls->skel);
	if (ret) {
		if (opts->spin_slowpath)
			snprintf(err, err_len,
				 "fentry/fexit on the spinlock slow path refused (%s)",
				 strerror(-ret));
		else
			snprintf(
				err, err_len,
				"lock collector: loading the BPF programs failed (%s); run with -v for the "
				"verifier's log",
				strerror(-ret));
		goto fail;
	}
	ls->spin_slowpath = opts->spin_slowpath;
	*out = ls;
	return 0;
fail:
	lrs_lockstat__destroy(ls);
	return ret;
}

int lrs_lockstat__start(struct lrs_lockstat *ls, char *err, size_t err_len)
{
	int ret = lockstat_bpf__attach(ls->skel);

	if (ret) {
		if (ls->spin_slowpath)
			snprintf(err, err_len,
				 "attaching fentry/fexit to the spinlock slow path failed (%s)",
				 strerror(-ret));
		else
			snprintf(err, err_len,
				 "lock collector: attaching to lock:contention_begin/end failed "
				 "(%s): they need Linux 5.19+",
				 strerror(-ret));
		return ret;
	}
	/* every hook is in: waits may begin (see armed in lockstat.bpf.c) */
	ls->skel->bss->armed = 1;
	ls->attached = true;
	return 0;
}

/* Read a per-CPU map: its keys, and nr_cpus copies of each value, stride bytes apart. */
static int read_percpu_map(const struct lrs_lockstat *ls, const struct bpf_map *map,
			   size_t key_size, size_t value_size, void **keys, char **values,
			   size_t *stride, size_t *n)
{
	*stride = lrs_percpu__stride(value_size);
	return lrs_bpf_map__read_all(bpf_map__fd(map), key_size, *stride * (size_t)ls->nr_cpus,
				     keys, (void **)values, n);
}

/* Read a shared map as read_percpu_map does, as one copy: the same merge takes it. */
static int read_shared_map(const struct bpf_map *map, size_t key_size, size_t value_size,
			   void **keys, char **values, size_t *stride, size_t *n)
{
	*stride = value_size;
	return lrs_bpf_map__read_all(bpf_map__fd(map), key_size, value_size, keys, (void **)values,
				     n);
}

/*
 * The locks with a slot in lock_stats: lock_slots' keys, each one's slot, and
 * the copies per CPU of slots [0, highest in use] (not the whole preallocated
 * array), each slot's stride x nr_cpus bytes as read_percpu_map gives them.
 */
static int read_slot_locks(const struct lrs_lockstat *ls, struct lock_key **keys, __u32 **slots,
			   char **copies, size_t *stride, size_t *n)
{
	__u32 hi = 0;
	int ret;

	ret = lrs_bpf_map__read_all(bpf_map__fd(ls->skel->maps.lock_slots), sizeof(**keys),
				    sizeof(**slots), (void **)keys, (void **)slots, n);
	if (ret)
		return ret;
	for (size_t i = 0; i < *n; i++)
		hi = (*slots)[i] >= hi ? (*slots)[i] + 1 : hi;
	*stride = lrs_percpu__stride(sizeof(struct lock_stat));
	*copies = malloc(hi ? hi * *stride * ls->nr_cpus : 1);
	if (!*copies)
		return -ENOMEM;
	return lrs_bpf_map__read_array(bpf_map__fd(ls->skel->maps.lock_stats), hi,
				       *stride * (size_t)ls->nr_cpus, *copies);
}

static struct lrs_waiter_maps waiter_maps(const struct lrs_lockstat *ls)
{
	return (struct lrs_waiter_maps){
		.slots_fd = bpf_map__fd(ls->skel->maps.waiter_slots),
		.counts_fd = bpf_map__fd(ls->skel->maps.waiter_counts),
		.shared_fd = bpf_map__fd(ls->skel->maps.waiter_stats),
		.check_fd = bpf_map__fd(ls->skel->maps.waiter_check),
		.nr_cpus = ls->nr_cpus,
	};
}

static void lock_row(struct lrs_lock_row *r, const struct lock_key *k, const struct lock_stat *v)
{
	r->lock_addr = k->lock_addr;
	r->owner_cgid = k->owner_cgid;
	r->kind = v->kind;
	r->flags = v->flags;
	r->owner_node = v->owner_node;
	r->counters.contended = v->contended;
	r->counters.wait_ns = v->wait_ns;
	r->counters.wait_max_ns = v->wait_max_ns;
	memcpy(r->counters.hist, v->hist, sizeof(r->counters.hist));
}

int lrs_lockstat__read(struct lrs_lockstat *ls, struct lrs_lockstat_read *rd)
{
	struct lock_key *lk = NULL, *shk = NULL;
	struct lrs_waiter_read *wr = NULL;
	struct lrs_waiter_maps wmaps;
	__u32 *slots = NULL;
	struct stack_key *sk = NULL;
	char *lv = NULL, *shv = NULL, *sv = NULL;
	struct lrs_lock_read *reads = NULL;
	size_t n, stride, nsh = 0, sh_stride;
	int ret;

	/* no cached classification outlives the next interval (lockstat_classify.bpf.h) */
	ls->skel->bss->classify_gen++;

	memset(rd, 0, sizeof(*rd));
	ret = read_slot_locks(ls, &lk, &slots, &lv, &stride, &n);
	if (ret)
		goto out;
	ret = read_shared_map(ls->skel->maps.lock_stats_shared, sizeof(*shk),
			      sizeof(struct lock_stat), (void **)&shk, &shv, &sh_stride, &nsh);
	if (ret)
		goto out;
	reads = calloc(n + nsh ? n + nsh : 1, sizeof(*reads));
	rd->locks = calloc(n + nsh ? n + nsh : 1, sizeof(*rd->locks));
	if (!reads || !rd->locks) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		reads[i].key = lk[i];
		lrs_percpu__merge_lock(lv + slots[i] * stride * ls->nr_cpus, stride, ls->nr_cpus,
				       &reads[i].stat);
	}
	rd->nr_locks = lrs_percpu__add_shared_locks(reads, n, shk, shv, sh_stride, nsh);
	for (size_t i = 0; i < rd->nr_locks; i++)
		lock_row(&rd->locks[i], &reads[i].key, &reads[i].stat);

	wmaps = waiter_maps(ls);
	ret = lrs_waiter_rows__read(&wmaps, &wr, &n);
	if (ret)
		goto out;
	rd->waiters = calloc(n ? n : 1, sizeof(*rd->waiters));
	if (!rd->waiters) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct lrs_waiter_row *r = &rd->waiters[i];

		r->lock_addr = wr[i].key.lock_addr;
		r->owner_cgid = wr[i].key.owner_cgid;
		r->pid = wr[i].key.pid;
		r->waiter_cgid = wr[i].key.waiter_cgid;
		r->contended = wr[i].stat.contended;
		r->wait_ns = wr[i].stat.wait_ns;
		memcpy(r->comm, wr[i].stat.comm, sizeof(r->comm));
		r->comm[sizeof(r->comm) - 1] = 0;
	}
	rd->nr_waiters = n;

	ret = read_shared_map(ls->skel->maps.stack_stats, sizeof(*sk), sizeof(struct stack_stat),
			      (void **)&sk, &sv, &stride, &n);
	if (ret)
		goto out;
	rd->stacks = calloc(n ? n : 1, sizeof(*rd->stacks));
	if (!rd->stacks) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct lrs_stack_row *r = &rd->stacks[i];
		struct stack_stat v;

		lrs_percpu__merge_stack(sv + i * stride, stride, 1, &v);
		r->lock_addr = sk[i].lock_addr;
		r->owner_cgid = sk[i].owner_cgid;
		r->stack_id = sk[i].stack_id;
		r->contended = v.contended;
		r->wait_ns = v.wait_ns;
	}
	rd->nr_stacks = n;

	rd->drops.task = ls->skel->bss->drop_task;
	rd->drops.task_nested = ls->skel->bss->drop_nested;
	rd->drops.task_unmatched = ls->skel->bss->drop_unmatched;
	rd->drops.task_no_room = ls->skel->bss->drop_no_room;
	rd->drops.task_lost = ls->skel->bss->drop_lost;
	rd->drops.stack = ls->skel->bss->drop_stack;
	rd->drops.stats_full = ls->skel->bss->drop_stats_full;
	rd->drops.insert_failed = ls->skel->bss->drop_insert_failed;
	rd->drops.negative_time = ls->skel->bss->drop_negative_time;
out:
	free(reads);
	free(lk);
	free(slots);
	free(lv);
	free(shk);
	free(shv);
	free(wr);
	free(sk);
	free(sv);
	if (ret)
		lrs_lockstat_read__clear(rd);
	return ret;
}

/* ---- holders ---- */

static int read_holder_map(const struct lrs_lockstat *ls, const struct bpf_map *map,
			   struct lrs_holder_tally **out, size_t *nr_out)
{
	struct holder_key *k = NULL;
	char *v = NULL;
	size_t n = 0, stride;
	int ret = read_percpu_map(ls, map, sizeof(*k), sizeof(struct holder_stat), (void **)&k, &v,
				  &stride, &n);

	if (ret)
		return ret;
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct lrs_holder_tally *t = &(*out)[i];
		struct holder_stat hs;

		lrs_percpu__merge_holder(v + i * stride * ls->nr_cpus, stride, ls->nr_cpus, &hs);
		t->lock_addr = k[i].lock_addr;
		t->owner_cgid = k[i].owner_cgid;
		t->pid = k[i].pid;
		t->cgid = hs.cgid;
		t->holds = hs.holds;
		t->hold_ns = hs.hold_ns;
		t->imposed_ns = hs.imposed_ns;
		t->waiters = hs.waiters;
		t->probable_ns = hs.probable_ns;
		t->stack_id = hs.stack_id;
	}
	*nr_out = n;
out:
	free(k);
	free(v);
	return ret;
}

static int read_matrix_map(const struct lrs_lockstat *ls, const struct bpf_map *map,
			   struct lrs_matrix_tally **out, size_t *nr_out)
{
	struct matrix_key *k = NULL;
	char *v = NULL;
	size_t n = 0, stride;
	int ret = read_percpu_map(ls, map, sizeof(*k), sizeof(struct matrix_stat), (void **)&k, &v,
				  &stride, &n);

	if (ret)
		return ret;
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		struct matrix_stat ms;

		lrs_percpu__merge_matrix(v + i * stride * ls->nr_cpus, stride, ls->nr_cpus, &ms);
		(*out)[i].waiter_cgid = k[i].waiter_cgid;
		(*out)[i].owner_cgid = k[i].owner_cgid;
		(*out)[i].holder_cgid = k[i].holder_cgid;
		(*out)[i].holds = ms.holds;
		(*out)[i].hold_ns = ms.hold_ns;
		(*out)[i].imposed_ns = ms.imposed_ns;
	}
	*nr_out = n;
out:
	free(k);
	free(v);
	return ret;
}

/* holder_counts: one element, a copy per CPU, summed. */
static int read_holder_counts(const struct lrs_lockstat *ls, struct holder_counts *out)
{
	size_t stride = lrs_percpu__stride(sizeof(*out));
	char *copies = calloc((size_t)ls->nr_cpus, stride);
	__u32 zero = 0;
	int ret = 0;

	if (!copies)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(ls->skel->maps.holder_counts), &zero, copies))
		ret = -errno;
	else
		lrs_percpu__merge_holder_counts(copies, stride, ls->nr_cpus, out);
	free(copies);
	return ret;
}

int lrs_lockstat__read_holders(struct lrs_lockstat *ls, struct lrs_holders_read *rd)
{
	struct lrs_holders_counters *c = &rd->counters;
	struct holder_counts counts;
	int ret = 0;

	memset(rd, 0, sizeof(*rd));
	if (!ls->holders)
		return 0;
	ret = read_holder_map(ls, ls->skel->maps.holder_stats, &rd->holders, &rd->nr_holders);
	if (!ret)
		ret = read_matrix_map(ls, ls->skel->maps.matrix_stats, &rd->matrix, &rd->nr_matrix);
	if (!ret && ls->skel->rodata->exact_holders)
		ret = read_holder_map(ls, ls->skel->maps.exact_stats, &rd->exact, &rd->nr_exact);
	if (!ret && ls->skel->rodata->exact_holders)
		ret = read_matrix_map(ls, ls->skel->maps.exact_matrix, &rd->exact_matrix,
				      &rd->nr_exact_matrix);
	if (!ret)
		ret = read_holder_counts(ls, &counts);
	if (ret) {
		lrs_holders_read__clear(rd);
		return ret;
	}
	c->unknown = counts.unknown;
	c->probable = counts.probable;
	c->running = counts.running;
	for (int b = 0; b < LRS_NR_BASES; b++) {
		c->cmp_basis_est_ns[b] = ls->skel->bss->cmp_basis_est_ns[b];
		c->cmp_basis_memcg_ns[b] = ls->skel->bss->cmp_basis_memcg_ns[b];
	}
	c->drop_full = ls->skel->bss->holder_drop_full;
	c->cmp_est_ns = ls->skel->bss->cmp_est_ns;
	c->cmp_memcg_ns = ls->skel->bss->cmp_memcg_ns;
	c->cmp_pid_ns = ls->skel->bss->cmp_pid_ns;
	c->cmp_exact_ns = ls->skel->bss->cmp_exact_ns;
	c->cmp_no_exact = ls->skel->bss->cmp_no_exact;
	c->cmp_owner_memcg_ns = ls->skel->bss->cmp_owner_memcg_ns;
	c->cmp_last_memcg_ns = ls->skel->bss->cmp_last_memcg_ns;
	c->cmp_last_pid_ns = ls->skel->bss->cmp_last_pid_ns;
	return 0;
}

int lrs_lockstat__stack(struct lrs_lockstat *ls, int32_t id, uint64_t ips[LRS_STACK_DEPTH])
{
	int n = 0;

	memset(ips, 0, sizeof(uint64_t) * LRS_STACK_DEPTH);
	if (bpf_map_lookup_elem(bpf_map__fd(ls->skel->maps.stacks), &id, ips))
		return -errno;
	while (n < LRS_STACK_DEPTH && ips[n])
		n++;
	return n;
}

/* check mode's verdict on one fast path: how often it agreed with the slow one */
static void print_check(const char *what, const char *uses, __u64 agreed, __u64 disagreed,
			__u64 other, const char *other_what)
{
	fprintf(stderr, "lruscope: %s check: %llu %s agreed, %llu disagreed, %llu %s\n", what,
		(unsigned long long)agreed, uses, (unsigned long long)disagreed,
		(unsigned long long)other, other_what);
}

void lrs_lockstat__stop(struct lrs_lockstat *ls)
{
	if (ls && ls->attached) {
		lockstat_bpf__detach(ls->skel);
		ls->attached = false;
		if (ls->skel->rodata->classify_check)
			fprintf(stderr,
				"lruscope: classification cache check: %llu hits agreed, "
				"%llu disagreed, %llu misses; sleeping locks: %llu misses, "
				"%llu of them took over an lruvec or node entry\n",
				(unsigned long long)ls->skel->bss->classify_hits,
				(unsigned long long)ls->skel->bss->classify_mismatches,
				(unsigned long long)ls->skel->bss->classify_misses,
				(unsigned long long)ls->skel->bss->classify_sleeping_misses,
				(unsigned long long)ls->skel->bss->classify_sleeping_evictions);
		if (ls->skel->rodata->classify_check)
			print_check("waiter memcg cache", "hits", ls->skel->bss->waiter_cache_hits,
				    ls->skel->bss->waiter_cache_mismatches,
				    ls->skel->bss->waiter_cache_misses, "misses");
		if (ls->skel->rodata->classify_check && ls->holders)
			print_check("hand-over record", "uses by slot",
				    ls->skel->bss->last_slot_agreed,
				    ls->skel->bss->last_slot_disagreed, ls->skel->bss->last_by_key,
				    "by key");
		if (ls->skel->rodata->classify_check && ls->holders)
			print_check("running memcg cache", "hits", ls->skel->bss->scan_memcg_agreed,
				    ls->skel->bss->scan_memcg_disagreed,
				    ls->skel->bss->scan_memcg_misses, "misses");
		if (ls->skel->rodata->classify_check && ls->skel->rodata->percpu_waiters) {
			struct lrs_waiter_maps wmaps = waiter_maps(ls);

			lrs_waiter_rows__check(&wmaps);
		}
	}
}

const struct bpf_object *lrs_lockstat__object(const struct lrs_lockstat *ls)
{
	return ls && ls->skel ? ls->skel->obj : NULL;
}

void lrs_lockstat__destroy(struct lrs_lockstat *ls)
{
	if (!ls)
		return;
	lrs_lockstat__stop(ls);
	lockstat_bpf__destroy(ls->skel);
	free(ls);
}

void lrs_lockstat_read__clear(struct lrs_lockstat_read *rd)
{
	free(rd->locks);
	free(rd->waiters);
	free(rd->stacks);
	memset(rd, 0, sizeof(*rd));
}

// SPDX-License-Identifier: GPL-2.0
/* Synthetic snapshots: a memcg tree with counters that grow with time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/holders.h"
#include "synth.h"

#define SYNTH_FANOUT 16

static const char *const stack1[] = {
	"folio_batch_move_lru+0x1a4",
	"folio_add_lru+0x5c",
	"filemap_add_folio+0x9e",
	"page_cache_ra_unbounded+0x110",
	"filemap_get_pages+0x2c1",
	"filemap_read+0x14d",
	"vfs_read+0x23d",
	"ksys_read+0x6f",
};
static const char *const stack2[] = {
	"folio_batch_move_lru+0x1a4",
	"folio_mark_accessed+0x92",
	"filemap_read+0x1f8",
	"vfs_read+0x23d",
	"ksys_read+0x6f",
	"do_syscall_64+0x58",
};
static const char *const stack3[] = {
	"shrink_active_list+0x7e", "shrink_lruvec+0x5a1", "shrink_node+0x2d4",
	"balance_pgdat+0x320",	   "kswapd+0x1f0",	  "kthread+0xe8",
};
static const char *const stack4[] = {
	"shrink_lruvec+0x4c9",	     "shrink_node+0x2d4",
	"do_try_to_free_pages+0xd2", "try_to_free_mem_cgroup_pages+0x104",
	"try_charge_memcg+0x1b3",    "__mem_cgroup_charge+0x44",
	"filemap_add_folio+0x3a",
};
static const char *const stack5[] = {
	"__remove_mapping+0x5e",
	"shrink_folio_list+0x6b8",
	"shrink_lruvec+0x4c9",
	"shrink_node+0x2d4",
};
static const char *const stack6[] = {
	"__filemap_add_folio+0x1e2",
	"filemap_add_folio+0x3a",
	"page_cache_ra_unbounded+0x110",
	"filemap_get_pages+0x2c1",
};

static const struct {
	const char *const *frames;
	size_t nr;
} stacks[] = {
	{ stack1, 8 }, { stack2, 6 }, { stack3, 6 }, { stack4, 7 }, { stack5, 4 }, { stack6, 4 },
};

static const char *const other_names[] = {
	"spinlock @ __remove_mapping",
	"spinlock @ __filemap_add_folio",
	"zone N0/Normal",
	"pgdat N0 __lruvec",
	"spinlock @ try_to_wake_up",
	"rwsem mmap_lock",
	"spinlock @ free_pcppages_bulk",
	"zone N0/DMA32",
	"spinlock @ rmqueue_bulk",
	"spinlock @ __mod_timer",
	"spinlock @ percpu_counter_add",
	"spinlock @ d_alloc",
};

/* splitmix64: a deterministic uniform value in [0, 1) per (seed, a, b, salt). */
static double uniform(unsigned int seed, uint64_t a, uint64_t b, uint64_t salt)
{
	uint64_t z = ((uint64_t)seed << 40) ^ (a << 16) ^ (b << 4) ^ salt;

	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (double)(z >> 11) / (double)(1ULL << 53);
}

char *lrs_synth__path(char *buf, size_t len, size_t i)
{
	char tail[256];

	if (i == 0) {
		snprintf(buf, len, "/");
		return buf;
	}
	if ((i - 1) / SYNTH_FANOUT == 0) {
		snprintf(buf, len, "/lrs-s%zu", i);
		return buf;
	}
	lrs_synth__path(tail, sizeof(tail), (i - 1) / SYNTH_FANOUT);
	snprintf(buf, len, "%s/lrs-s%zu", tail, i);
	return buf;
}

static int depth_of(size_t i)
{
	int d = 0;

	while (i) {
		i = (i - 1) / SYNTH_FANOUT;
		d++;
	}
	return d;
}

/* Counters of a lock that waits rate_per_s times a second, avg_ns each, at t_s. */
static void counters_fill(struct lrs_lock_counters *c, double rate_per_s, double avg_ns, double t_s)
{
	static const double weights[4] = { 0.25, 0.5, 0.2, 0.05 };
	int b = lrs_hist__bucket((uint64_t)avg_ns);

	memset(c, 0, sizeof(*c));
	if (rate_per_s <= 0)
		return;
	/* each bucket grows on its own: every counter stays monotonic in t */
	for (int k = 0; k < 4; k++) {
		int bucket = b - 1 + k;
		uint64_t n;

		if (bucket < 0 || bucket >= LRS_HIST_BUCKETS)
			continue;
		n = (uint64_t)(rate_per_s * weights[k] * t_s);
		c->hist[bucket] += n;
		c->contended += n;
		c->wait_ns +=
			n * (uint64_t)(1.5 * (double)lrs_hist__bucket_low_ns(bucket ? bucket : 1));
	}
	if (c->contended)
		c->wait_max_ns = (2ULL << (b + 2)) - 1;
}

static int add_waiters(struct lrs_lruvec *lv, size_t i, int node, double rate, double avg_ns,
		       double t_s)
{
	static const double share[3] = { 0.55, 0.3, 0.15 };
	static const char *const comms[3] = { "dd", "readtwice" };

	lv->waiters = calloc(3, sizeof(*lv->waiters));
	if (!lv->waiters)
		return -1;
	lv->nr_waiters = 3;
	for (int k = 0; k < 3; k++) {
		struct lrs_waiter *w = &lv->waiters[k];

		w->contended = (uint64_t)(rate * share[k] * t_s);
		w->wait_ns = (uint64_t)(rate * share[k] * t_s * avg_ns);
		if (k < 2) {
			w->pid = (int32_t)(10000 + i * 4 + (size_t)k);
			snprintf(w->comm, sizeof(w->comm), "%s", comms[k]);
			w->memcg_id = lv->memcg_id;
			w->memcg = strdup(lv->memcg);
		} else {
			/* reclaim from outside: kswapd runs in the root memcg */
			w->pid = 90 + node;
			snprintf(w->comm, sizeof(w->comm), "kswapd%d", node);
			w->memcg_id = 1;
			w->memcg = strdup("/");
		}
		if (!w->memcg)
			return -1;
	}
	return 0;
}

static int add_stack_uses(struct lrs_lruvec *lv, size_t i, double rate, double avg_ns, double t_s)
{
	static const double share[3] = { 0.5, 0.3, 0.2 };
	const int32_t ids[3] = { 1, 2, (i % 2) ? 3 : 4 };

	lv->stacks = calloc(3, sizeof(*lv->stacks));
	if (!lv->stacks)
		return -1;
	lv->nr_stacks = 3;
	for (int k = 0; k < 3; k++) {
		lv->stacks[k].id = ids[k];
		/* stacks are sampled: 1 in 8 */
		lv->stacks[k].contended = (uint64_t)(rate * share[k] * t_s / 8);
		lv->stacks[k].wait_ns = (uint64_t)(rate * share[k] * t_s / 8 * avg_ns);
	}
	return 0;
}

static int add_lruvec(struct lrs_snapshot *s, size_t i, int node, size_t nr_nodes, double t_s,
		      unsigned int seed)
{
	struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);
	char path[256];
	double rate = 0, avg_ns = 0, u = uniform(seed, i, (uint64_t)node, 1);

	if (!lv)
		return -1;
	lv->memcg = strdup(lrs_synth__path(path, sizeof(path), i));
	if (!lv->memcg)
		return -1;
	lv->memcg_id = i + 1;
	lv->parent_id = i ? (i - 1) / SYNTH_FANOUT + 1 : 0;
	lv->depth = depth_of(i);
	lv->node = node;
	lv->lock_addr = 0xffff888200000000ULL + (i * nr_nodes + (size_t)node) * 0x800;
	lv->removed = i == 3;

	if (i == 0) {
		rate = node == 0 ? 3000 : 800;
		avg_ns = 1500;
	} else if (i == 1) {
		rate = node == 0 ? 40000 : 12000;
		avg_ns = 6000;
	} else if (i % 3 != 2) {
		rate = 5 * pow(10, 3 * u);
		avg_ns = 400 * pow(2, 4 * uniform(seed, i, (uint64_t)node, 2));
	}
	counters_fill(&lv->counters, rate, avg_ns, t_s);
	if (rate > 0 && (add_waiters(lv, i, node, rate, avg_ns, t_s) ||
			 add_stack_uses(lv, i, rate, avg_ns, t_s)))
		return -1;

	lv->lru_pages[LRS_INACTIVE_ANON] = (uint64_t)(200 * u);
	lv->lru_pages[LRS_ACTIVE_ANON] = (uint64_t)(800 * u);
	lv->lru_pages[LRS_INACTIVE_FILE] =
		1000 + (uint64_t)(40000 * u) + ((uint64_t)t_s * 37) % 500;
	lv->lru_pages[LRS_ACTIVE_FILE] = 300 + (uint64_t)(9000 * u);
	lv->lru_pages[LRS_UNEVICTABLE] = i == 0 ? 12 : 0;
	return 0;
}

/* Depth-first from memcg i: parents before children, as the kernel walks them. */
static int add_tree(struct lrs_snapshot *s, size_t i, size_t nr_memcgs, size_t nr_nodes, double t_s,
		    unsigned int seed)
{
	for (size_t n = 0; n < nr_nodes; n++)
		if (add_lruvec(s, i, (int)n, nr_nodes, t_s, seed))
			return -1;
	for (size_t c = i * SYNTH_FANOUT + 1; c <= i * SYNTH_FANOUT + SYNTH_FANOUT; c++) {
		if (c >= nr_memcgs)
			break;
		if (add_tree(s, c, nr_memcgs, nr_nodes, t_s, seed))
			return -1;
	}
	return 0;
}

static int add_stacks(struct lrs_snapshot *s)
{
	for (size_t k = 0; k < sizeof(stacks) / sizeof(stacks[0]); k++) {
		struct lrs_stack *st = lrs_snapshot__add_stack(s);

		if (!st)
			return -1;
		st->id = (int32_t)k + 1;
		st->frames = calloc(stacks[k].nr, sizeof(*st->frames));
		if (!st->frames)
			return -1;
		for (size_t f = 0; f < stacks[k].nr; f++) {
			st->frames[f] = strdup(stacks[k].frames[f]);
			if (!st->frames[f])
				return -1;
			st->nr_frames++;
		}
	}
	return 0;
}

static int add_others(struct lrs_snapshot *s, double t_s)
{
	for (size_t k = 0; k < sizeof(other_names) / sizeof(other_names[0]); k++) {
		struct lrs_other_lock *ol = lrs_snapshot__add_other_lock(s);

		if (!ol)
			return -1;
		ol->name = strdup(other_names[k]);
		if (!ol->name)
			return -1;
		ol->lock_addr = 0xffff888100400000ULL + k * 0x1040;
		ol->flags = 0;
		counters_fill(&ol->counters, 8000.0 / (double)(k + 1), 2000, t_s);
		if (k < 2) {
			ol->stacks = calloc(1, sizeof(*ol->stacks));
			if (!ol->stacks)
				return -1;
			ol->nr_stacks = 1;
			ol->stacks[0].id = (int32_t)(5 + k);
			ol->stacks[0].contended = ol->counters.contended / 8;
			ol->stacks[0].wait_ns = ol->counters.wait_ns / 8;
		}
	}
	return 0;
}

struct lrs_snapshot *lrs_synth__snapshot(size_t nr_memcgs, size_t nr_nodes, uint64_t t_ns,
					 unsigned int seed)
{
	struct lrs_snapshot *s = lrs_snapshot__new();
	double t_s = (double)t_ns / 1e9;

	if (!s)
		return NULL;
	s->t_ns = t_ns;
	s->interval_ns = 1000000000ULL;
	snprintf(s->kernel, sizeof(s->kernel), "6.18.0-synth");
	for (size_t n = 0; n < nr_nodes; n++)
		if (lrs_snapshot__add_node(s, (int)n))
			goto fail;
	if (nr_memcgs && add_tree(s, 0, nr_memcgs, nr_nodes, t_s, seed))
		goto fail;
	if (add_stacks(s) || add_others(s, t_s))
		goto fail;
	s->drops.task = (uint64_t)t_s / 100;
	s->drops.task_unmatched = s->drops.task - s->drops.task / 4;
	s->drops.task_lost = s->drops.task / 4;
	s->drops.stack = (uint64_t)t_s / 10;
	return s;
fail:
	lrs_snapshot__free(s);
	return NULL;
}

/* ---- holders ------------------------------------------------------ */

static int synth_row(struct lrs_holders *h, uint64_t lv_id, int node, int32_t pid, const char *comm,
		     uint64_t id, const char *memcg, uint64_t imposed_ns, uint64_t holds,
		     uint64_t waiters, int32_t stack_id)
{
	struct lrs_holder_row *r = &h->rows[h->nr_rows++];

	r->lruvec_memcg_id = lv_id;
	r->node = node;
	r->pid = pid;
	snprintf(r->comm, sizeof(r->comm), "%s", comm);
	r->memcg_id = id;
	r->memcg = memcg ? strdup(memcg) : NULL;
	r->holds = holds;
	r->hold_ns = imposed_ns / (waiters && holds ? (waiters + holds - 1) / holds : 1);
	r->imposed_ns = imposed_ns;
	r->waiters = waiters;
	r->stack_id = stack_id;
	return memcg && !r->memcg ? -1 : 0;
}

static int synth_cell(struct lrs_holders *h, uint64_t w, const char *wp, uint64_t o, const char *op,
		      uint64_t hd, const char *hp, uint64_t imposed_ns)
{
	struct lrs_matrix_cell *c = &h->cells[h->nr_cells++];

	c->waiter_id = w;
	c->owner_id = o;
	c->holder_id = hd;
	c->waiter = strdup(wp);
	c->owner = strdup(op);
	c->holder = strdup(hp);
	c->holds = imposed_ns / 1000000;
	c->hold_ns = imposed_ns / 2;
	c->imposed_ns = imposed_ns;
	return c->waiter && c->owner && c->holder ? 0 : -1;
}

int lrs_synth__holders(struct lrs_snapshot *snap, int mode)
{
	struct lrs_holders *h = calloc(1, sizeof(*h));
	size_t nr = 0;
	int err = 0;

	if (!h)
		return -1;
	h->mode = (enum lrs_holders_mode)mode;
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		nr += snap->lruvecs[i].memcg_id == 2 ? 3 : snap->lruvecs[i].memcg_id == 3;
	h->rows = calloc(nr ? nr : 1, sizeof(*h->rows));
	h->cells = calloc(4, sizeof(*h->cells));
	if (!h->rows || !h->cells) {
		lrs_holders__free(h);
		return -1;
	}
	for (size_t i = 0; i < snap->nr_lruvecs && !err; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[i];
		uint64_t k = (uint64_t)lv->node + 1;

		if (lv->memcg_id == 2) {
			err |= synth_row(h, 2, lv->node, 4242, "dd", 2, "/lrs-s1", 40000000 * k, 30,
					 45, 1);
			err |= synth_row(h, 2, lv->node, 77, "kswapd0", 1, "/", 10000000, 8, 8, 3);
			err |= synth_row(h, 2, lv->node, 0, "", 0, NULL, 2000000, 5, 5, -1);
		} else if (lv->memcg_id == 3) {
			err |= synth_row(h, 3, lv->node, 5151, "cat", 3, "/lrs-s2", 3000000, 2, 2,
					 2);
		}
	}
	err |= synth_cell(h, 2, "/lrs-s1", 2, "/lrs-s1", 2, "/lrs-s1", 80000000);
	err |= synth_cell(h, 2, "/lrs-s1", 2, "/lrs-s1", 1, "/", 20000000);
	err |= synth_cell(h, 1, "/", 2, "/lrs-s1", 2, "/lrs-s1", 8000000);
	err |= synth_cell(h, 3, "/lrs-s2", 3, "/lrs-s2", 3, "/lrs-s2", 3000000);
	h->counters.unknown = 5;
	h->counters.probable = 40;
	if (mode == LRS_HOLDERS_EXACT) {
		h->counters.cmp_est_ns = 100000000;
		h->counters.cmp_memcg_ns = 93000000;
		h->counters.cmp_pid_ns = 80000000;
	}
	if (err) {
		lrs_holders__free(h);
		return -1;
	}
	lrs_holders__free(snap->holders);
	snap->holders = h;
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* The model: rates between two snapshots, history, and the shared view state. */
#include <errno.h>
#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/u64map.h"

const char *const lrs_sort_names[LRS_NR_SORTS] = { "wait", "count", "max", "name" };
const char *const lrs_metric_names[LRS_NR_METRICS] = { "wait/s", "LRU pages" };

struct lrs_model *lrs_model__new(size_t history_cap)
{
	struct lrs_model *model = calloc(1, sizeof(*model));

	if (!model)
		return NULL;
	model->history_cap = history_cap ? history_cap : 1;
	model->history_index = calloc(1, sizeof(struct u64map));
	if (!model->history_index) {
		free(model);
		return NULL;
	}
	return model;
}

static void rows__free(struct lrs_model *model)
{
	for (size_t i = 0; i < model->nr_rows; i++)
		free(model->rows[i].cells);
	free(model->rows);
	free(model->visible);
	free(model->others);
	model->rows = NULL;
	model->visible = NULL;
	model->others = NULL;
	model->nr_rows = model->nr_visible = model->nr_others = 0;
}

void lrs_model__free(struct lrs_model *model)
{
	if (!model)
		return;
	rows__free(model);
	for (size_t i = 0; i < model->nr_history; i++)
		free(model->history[i].wait_code);
	free(model->history);
	if (model->history_index)
		u64map__destroy(model->history_index);
	free(model->history_index);
	lrs_snapshot__free(model->prev);
	lrs_snapshot__free(model->cur);
	free(model);
}

/* A counter that went backwards means the source restarted: count from zero. */
static uint64_t delta(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : cur;
}

static void counters__delta(const struct lrs_lock_counters *cur,
			    const struct lrs_lock_counters *prev, uint64_t *contended,
			    uint64_t *wait_ns, uint64_t *hist)
{
	static const struct lrs_lock_counters zero;

	if (!prev)
		prev = &zero;
	*contended = delta(cur->contended, prev->contended);
	*wait_ns = delta(cur->wait_ns, prev->wait_ns);
	if (hist)
		for (int i = 0; i < LRS_HIST_BUCKETS; i++)
			hist[i] = delta(cur->hist[i], prev->hist[i]);
}

static double per_s(uint64_t v, double interval_s)
{
	return interval_s > 0 ? (double)v / interval_s : 0;
}

static long node_index(const struct lrs_snapshot *snap, int node)
{
	for (size_t i = 0; i < snap->nr_nodes; i++)
		if (snap->nodes[i] == node)
			return (long)i;
	return -1;
}

static int build_rows(struct lrs_model *model)
{
	const struct lrs_snapshot *cur = model->cur, *prev = model->prev;
	struct u64map prev_index, row_index;
	int err = -ENOMEM;

	u64map__init(&prev_index);
	u64map__init(&row_index);
	if (prev)
		for (size_t i = 0; i < prev->nr_lruvecs; i++)
			if (u64map__set(&prev_index,
					u64map__key2(prev->lruvecs[i].memcg_id,
						     (uint64_t)prev->lruvecs[i].node),
					i))
				goto out;

	model->rows = calloc(cur->nr_lruvecs ? cur->nr_lruvecs : 1, sizeof(*model->rows));
	if (!model->rows)
		goto out;
	for (size_t i = 0; i < cur->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &cur->lruvecs[i];
		const struct lrs_lruvec *plv = NULL;
		struct lrs_row *row;
		struct lrs_cell *cell;
		size_t r, p;
		long n = node_index(cur, lv->node);

		if (n < 0)
			continue; /* a node the snapshot does not list: malformed input */
		if (!u64map__get(&row_index, lv->memcg_id, &r)) {
			r = model->nr_rows++;
			row = &model->rows[r];
			row->memcg_id = lv->memcg_id;
			row->memcg = lv->memcg;
			row->depth = lv->depth;
			row->cells =
				calloc(model->nr_nodes ? model->nr_nodes : 1, sizeof(*row->cells));
			if (!row->cells || u64map__set(&row_index, lv->memcg_id, r))
				goto out;
		}
		row = &model->rows[r];
		row->removed |= lv->removed;
		if (prev &&
		    u64map__get(&prev_index, u64map__key2(lv->memcg_id, (uint64_t)lv->node), &p))
			plv = &prev->lruvecs[p];
		cell = &row->cells[n];
		cell->lruvec = lv;
		/* the first snapshot is a baseline: no rates yet */
		if (prev)
			counters__delta(&lv->counters, plv ? &plv->counters : NULL,
					&cell->contended, &cell->wait_ns, cell->hist);
		cell->wait_ns_per_s = per_s(cell->wait_ns, model->interval_s);
		cell->contended_per_s = per_s(cell->contended, model->interval_s);
		row->contended += cell->contended;
		row->wait_ns += cell->wait_ns;
		if (lv->counters.wait_max_ns > row->wait_max_ns)
			row->wait_max_ns = lv->counters.wait_max_ns;
		model->lruvec_contended += cell->contended;
		model->lruvec_wait_ns += cell->wait_ns;
		if (cell->wait_ns_per_s > model->max_cell_wait_ns_per_s)
			model->max_cell_wait_ns_per_s = cell->wait_ns_per_s;
		if (lrs_lruvec__lru_total(lv) > model->max_cell_lru_pages)
			model->max_cell_lru_pages = lrs_lruvec__lru_total(lv);
	}
	err = 0;
out:
	u64map__destroy(&prev_index);
	u64map__destroy(&row_index);
	return err;
}

static int cmp_others(const void *a, const void *b)
{
	const struct lrs_other_row *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return x->lock->lock_addr < y->lock->lock_addr ? -1 :
							 x->lock->lock_addr > y->lock->lock_addr;
}

static int build_others(struct lrs_model *model)
{
	const struct lrs_snapshot *cur = model->cur, *prev = model->prev;
	struct u64map prev_index;
	int err = -ENOMEM;

	u64map__init(&prev_index);
	if (prev)
		for (size_t i = 0; i < prev->nr_other_locks; i++)
			if (u64map__set(&prev_index, prev->other_locks[i].lock_addr, i))
				goto out;
	model->others =
		calloc(cur->nr_other_locks ? cur->nr_other_locks : 1, sizeof(*model->others));
	if (!model->others)
		goto out;
	for (size_t i = 0; i < cur->nr_other_locks; i++) {
		const struct lrs_other_lock *ol = &cur->other_locks[i];
		struct lrs_other_row *row = &model->others[model->nr_others];
		size_t p;

		row->lock = ol;
		if (prev)
			counters__delta(&ol->counters,
					u64map__get(&prev_index, ol->lock_addr, &p) ?
						&prev->other_locks[p].counters :
						NULL,
					&row->contended, &row->wait_ns, NULL);
		row->wait_ns_per_s = per_s(row->wait_ns, model->interval_s);
		model->other_contended += row->contended;
		model->other_wait_ns += row->wait_ns;
		model->nr_others++;
	}
	qsort(model->others, model->nr_others, sizeof(*model->others), cmp_others);
	err = 0;
out:
	u64map__destroy(&prev_index);
	return err;
}

uint16_t lrs_history__encode(double wait_ns_per_s)
{
	double code;

	if (!(wait_ns_per_s > 0))
		return 0;
	code = log2(1.0 + wait_ns_per_s) * 1024.0;
	return code >= 65535.0 ? 65535 : (uint16_t)(code + 0.5);
}

double lrs_history__decode(uint16_t code)
{
	return code ? exp2((double)code / 1024.0) - 1.0 : 0;
}

/* Drop the history of lruvecs unseen for a whole ring: memcgs that are gone. */
static int history__prune(struct lrs_model *model)
{
	struct u64map *index = model->history_index;
	size_t kept = 0;

	if (model->pushes < model->history_cap)
		return 0;
	for (size_t i = 0; i < model->nr_history; i++) {
		struct lrs_history *h = &model->history[i];

		if (h->last_push + model->history_cap < model->pushes) {
			free(h->wait_code);
			continue;
		}
		model->history[kept++] = *h;
	}
	if (kept == model->nr_history)
		return 0;
	model->nr_history = kept;
	u64map__clear(index);
	for (size_t i = 0; i < kept; i++)
		if (u64map__set(index,
				u64map__key2(model->history[i].memcg_id,
					     (uint64_t)model->history[i].node),
				i))
			return -ENOMEM;
	return 0;
}

static struct lrs_history *history__get(struct lrs_model *model, uint64_t memcg_id, int node)
{
	struct u64map *index = model->history_index;
	uint64_t key = u64map__key2(memcg_id, (uint64_t)node);
	struct lrs_history *h;
	size_t i;

	if (u64map__get(index, key, &i))
		return &model->history[i];
	if ((model->nr_history & (model->nr_history - 1)) == 0) {
		size_t cap = model->nr_history ? model->nr_history * 2 : 16;
		void *p = realloc(model->history, cap * sizeof(*model->history));

		if (!p)
			return NULL;
		model->history = p;
	}
	h = &model->history[model->nr_history];
	memset(h, 0, sizeof(*h));
	h->memcg_id = memcg_id;
	h->node = node;
	h->wait_code = calloc(model->history_cap, sizeof(*h->wait_code));
	if (!h->wait_code || u64map__set(index, key, model->nr_history)) {
		free(h->wait_code);
		return NULL;
	}
	return &model->history[model->nr_history++];
}

static int history__push(struct lrs_model *model)
{
	size_t slot = model->history_head;

	/* the slot being overwritten belongs to every lruvec: clear it first */
	for (size_t i = 0; i < model->nr_history; i++)
		model->history[i].wait_code[slot] = 0;
	for (size_t r = 0; r < model->nr_rows; r++) {
		const struct lrs_row *row = &model->rows[r];

		for (size_t n = 0; n < model->nr_nodes; n++) {
			struct lrs_history *h;

			if (!row->cells[n].lruvec)
				continue;
			h = history__get(model, row->memcg_id, model->nodes[n]);
			if (!h)
				return -ENOMEM;
			h->wait_code[slot] = lrs_history__encode(row->cells[n].wait_ns_per_s);
			h->last_push = model->pushes;
		}
	}
	model->history_head = (slot + 1) % model->history_cap;
	if (model->history_len < model->history_cap)
		model->history_len++;
	return history__prune(model);
}

const struct lrs_history *lrs_model__history(const struct lrs_model *model, uint64_t memcg_id,
					     int node)
{
	size_t i;

	if (!u64map__get(model->history_index, u64map__key2(memcg_id, (uint64_t)node), &i))
		return NULL;
	return &model->history[i];
}

double lrs_history__at(const struct lrs_model *model, const struct lrs_history *h, size_t i)
{
	size_t oldest = (model->history_head + model->history_cap - model->history_len) %
			model->history_cap;

	if (i >= model->history_len)
		return 0;
	return lrs_history__decode(h->wait_code[(oldest + i) % model->history_cap]);
}

int lrs_model__push(struct lrs_model *model, struct lrs_snapshot *snap)
{
	int err;

	if (!snap)
		return -EINVAL;
	lrs_snapshot__free(model->prev);
	/*
	 * A snapshot of 1,000 memcgs x 8 nodes is ~16,000 small blocks: without
	 * this, glibc keeps the freed ones and RSS grows by a third.
	 */
	malloc_trim(0);
	model->prev = model->cur;
	model->cur = snap;
	rows__free(model);
	model->nodes = snap->nodes;
	model->nr_nodes = snap->nr_nodes;
	model->interval_s = model->prev && snap->t_ns > model->prev->t_ns ?
				    (double)(snap->t_ns - model->prev->t_ns) / 1e9 :
				    0;
	model->lruvec_contended = model->lruvec_wait_ns = 0;
	model->other_contended = model->other_wait_ns = 0;
	model->max_cell_wait_ns_per_s = 0;
	model->max_cell_lru_pages = 0;
	model->pushes++;

	err = build_rows(model);
	if (!err)
		err = build_others(model);
	if (!err && model->prev)
		err = history__push(model);
	if (err)
		return err;
	lrs_model__refresh_view(model);
	return 0;
}

uint64_t lrs_lruvec__lru_total(const struct lrs_lruvec *lv)
{
	uint64_t sum = 0;

	for (int i = 0; lv && i < LRS_NR_LRU_LISTS; i++)
		sum += lv->lru_pages[i];
	return sum;
}

bool lrs_lruvec_walk__busy(const struct lrs_lruvec_walk *w)
{
	return w->locked || w->pending || w->tail_cpu >= 0;
}

#define NODE_BITS 1024 /* Linux's MAX_NUMNODES at most (NODES_SHIFT 10) */

size_t lrs_snapshot__walk_locks_busy(const struct lrs_snapshot *s)
{
	uint64_t seen[NODE_BITS / 64] = { 0 };
	size_t busy = 0;

	for (size_t i = 0; s && i < s->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &s->lruvecs[i];
		unsigned int n = (unsigned int)lv->node % NODE_BITS;

		if (!lrs_lruvec_walk__busy(&lv->walk))
			continue;
		if (lv->walk.node_lock) {
			if (seen[n / 64] & (1ull << (n % 64)))
				continue;
			seen[n / 64] |= 1ull << (n % 64);
		}
		busy++;
	}
	return busy;
}

double lrs_cell__value(const struct lrs_cell *cell, enum lrs_metric metric)
{
	if (!cell)
		return 0;
	if (metric == LRS_METRIC_LRU_PAGES)
		return (double)lrs_lruvec__lru_total(cell->lruvec);
	return cell->wait_ns_per_s;
}

double lrs_model__metric_max(const struct lrs_model *model)
{
	if (model->metric == LRS_METRIC_LRU_PAGES)
		return (double)model->max_cell_lru_pages;
	return model->max_cell_wait_ns_per_s;
}

static const struct lrs_model *sort_model; /* qsort has no context argument */

/* A path's byte for ordering: '/' before every other, so a parent's subtree stays together. */
static int path_rank(char c)
{
	return c == '/' ? 1 : c ? (unsigned char)c + 1 : 0;
}

/*
 * Paths in byte order, a component at a time: "/a", "/a/b", "/a-c", so the
 * name sort is the tree with siblings in alphabetical order. No path last.
 */
static int cmp_paths(const char *a, const char *b)
{
	if (!a || !b)
		return !a - !b;
	while (*a && *a == *b)
		a++, b++;
	return path_rank(*a) - path_rank(*b);
}

static int cmp_rows(const void *a, const void *b)
{
	const struct lrs_row *x = &sort_model->rows[*(const size_t *)a];
	const struct lrs_row *y = &sort_model->rows[*(const size_t *)b];
	uint64_t vx = 0, vy = 0;
	int c;

	switch (sort_model->sort) {
	case LRS_SORT_WAIT:
		vx = x->wait_ns, vy = y->wait_ns;
		break;
	case LRS_SORT_COUNT:
		vx = x->contended, vy = y->contended;
		break;
	case LRS_SORT_MAX:
		vx = x->wait_max_ns, vy = y->wait_max_ns;
		break;
	default:
		break;
	}
	if (vx != vy)
		return vx < vy ? 1 : -1;
	/* ties, and the name sort, by path */
	c = cmp_paths(x->memcg, y->memcg);
	if (c)
		return c;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

void lrs_model__refresh_view(struct lrs_model *model)
{
	free(model->visible);
	model->nr_visible = 0;
	model->visible = calloc(model->nr_rows ? model->nr_rows : 1, sizeof(*model->visible));
	if (!model->visible)
		return;
	for (size_t i = 0; i < model->nr_rows; i++) {
		const struct lrs_row *row = &model->rows[i];

		/* a removed memcg is worth a row only while its lruvec is still waited on */
		if (row->removed && !row->contended)
			continue;
		if (!model->filter[0] || (row->memcg && strstr(row->memcg, model->filter)))
			model->visible[model->nr_visible++] = i;
	}
	sort_model = model;
	qsort(model->visible, model->nr_visible, sizeof(*model->visible), cmp_rows);
	sort_model = NULL;

	/* keep the selection on its memcg; fall back to the first row */
	if (lrs_model__selected_index(model) < 0)
		model->sel_memcg_id = model->nr_visible ? model->rows[model->visible[0]].memcg_id :
							  0;
	if (model->sel_node_idx >= model->nr_nodes)
		model->sel_node_idx = model->nr_nodes ? model->nr_nodes - 1 : 0;
}

long lrs_model__selected_index(const struct lrs_model *model)
{
	for (size_t i = 0; i < model->nr_visible; i++)
		if (model->rows[model->visible[i]].memcg_id == model->sel_memcg_id)
			return (long)i;
	return -1;
}

const struct lrs_row *lrs_model__selected_row(const struct lrs_model *model)
{
	long i = lrs_model__selected_index(model);

	return i < 0 ? NULL : &model->rows[model->visible[i]];
}

const struct lrs_cell *lrs_model__selected_cell(const struct lrs_model *model)
{
	const struct lrs_row *row = lrs_model__selected_row(model);

	if (!row || model->sel_node_idx >= model->nr_nodes)
		return NULL;
	return &row->cells[model->sel_node_idx];
}

void lrs_model__select_index(struct lrs_model *model, long i)
{
	if (!model->nr_visible)
		return;
	if (i < 0)
		i = 0;
	if (i >= (long)model->nr_visible)
		i = (long)model->nr_visible - 1;
	model->sel_memcg_id = model->rows[model->visible[i]].memcg_id;
}

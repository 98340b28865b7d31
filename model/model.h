/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model: what every view reads. It turns the last two snapshots into
 * per-interval rates per memcg x node, keeps a history ring per lruvec, and
 * holds what its rows are computed from and the views share: sort, filter,
 * selection and metric (the screens' own state is ui/action.h's). It knows
 * nothing of curses, SDL or libbpf.
 */
#ifndef LRS_MODEL_H
#define LRS_MODEL_H

#include "model/snapshot.h"

enum lrs_sort {
	LRS_SORT_WAIT,	/* wait time in the interval, all nodes */
	LRS_SORT_COUNT, /* contended count in the interval */
	LRS_SORT_MAX,	/* longest single wait seen */
	LRS_SORT_NAME,	/* cgroup path, alphabetical: a tree, siblings in order */
	LRS_NR_SORTS,
};

extern const char *const lrs_sort_names[LRS_NR_SORTS];

/* What a heatmap cell's colour says (key m): a walk has only LRU sizes. */
enum lrs_metric {
	LRS_METRIC_WAIT,      /* lock wait ns per second of the interval */
	LRS_METRIC_LRU_PAGES, /* pages on the lruvec's LRU lists, now */
	LRS_NR_METRICS,
};

extern const char *const lrs_metric_names[LRS_NR_METRICS];

/* One lruvec over the last interval. */
struct lrs_cell {
	const struct lrs_lruvec *lruvec; /* in model->cur; NULL: no lruvec on that node */
	uint64_t contended;		 /* in the interval */
	uint64_t wait_ns;		 /* in the interval */
	uint64_t hist[LRS_HIST_BUCKETS]; /* in the interval */
	double wait_ns_per_s;
	double contended_per_s;
};

/* One memcg: a row of the heatmap, one cell per node. */
struct lrs_row {
	uint64_t memcg_id;
	const char *memcg;
	int depth;
	bool removed;
	struct lrs_cell *cells; /* model->nr_nodes cells */
	uint64_t contended;	/* all nodes, in the interval */
	uint64_t wait_ns;	/* all nodes, in the interval */
	uint64_t wait_max_ns;	/* all nodes, cumulative */
};

struct lrs_other_row {
	const struct lrs_other_lock *lock;
	uint64_t contended;
	uint64_t wait_ns;
	double wait_ns_per_s;
};

/*
 * History: wait ns per second of each lruvec, one value per snapshot, kept
 * as a 16-bit log code (0.07% steps) so 1,000 memcgs x 8 nodes x 600
 * snapshots fit in under 10 MB.
 */
#define LRS_HISTORY_DEFAULT 600

struct lrs_history {
	uint64_t memcg_id;
	int node;
	uint64_t last_push;  /* model->pushes when last seen */
	uint16_t *wait_code; /* ring of model->history_cap codes */
};

uint16_t lrs_history__encode(double wait_ns_per_s);
double lrs_history__decode(uint16_t code);

struct lrs_model {
	struct lrs_snapshot *prev, *cur; /* owned */
	double interval_s;		 /* between prev and cur */
	int *nodes;			 /* = cur->nodes */
	size_t nr_nodes;

	struct lrs_row *rows; /* one per memcg, tree order */
	size_t nr_rows;
	size_t *visible; /* indices into rows: filtered and sorted */
	size_t nr_visible;
	struct lrs_other_row *others; /* sorted by wait, descending */
	size_t nr_others;

	/* totals over the interval */
	uint64_t lruvec_contended, lruvec_wait_ns;
	uint64_t other_contended, other_wait_ns;
	double max_cell_wait_ns_per_s; /* for the colour scale */
	uint64_t max_cell_lru_pages;   /* the same for LRS_METRIC_LRU_PAGES */

	/* what the rows and the colour scale follow (the views change them) */
	enum lrs_sort sort;
	enum lrs_metric metric; /* what the cells show; LRS_METRIC_WAIT by default */
	char filter[256];	/* substring of the cgroup path; "" shows all */
	uint64_t sel_memcg_id;	/* selection survives refreshes and re-sorts */
	size_t sel_node_idx;

	/* history ring, newest at (history_head - 1) */
	struct lrs_history *history;
	size_t nr_history;
	void *history_index; /* (memcg id, node) -> history entry */
	size_t history_cap;
	size_t history_len; /* valid entries, <= history_cap */
	size_t history_head;

	uint64_t pushes; /* snapshots pushed so far */
};

struct lrs_model *lrs_model__new(size_t history_cap);
void lrs_model__free(struct lrs_model *model); /* accepts NULL */

/*
 * Take ownership of snap and recompute. The first push only sets the
 * baseline: rates need two snapshots. Returns 0 or -errno.
 */
int lrs_model__push(struct lrs_model *model, struct lrs_snapshot *snap);

/* Re-apply sort and filter (after changing model->sort or model->filter). */
void lrs_model__refresh_view(struct lrs_model *model);

/* The selected row and cell, or NULL when nothing is visible. */
const struct lrs_row *lrs_model__selected_row(const struct lrs_model *model);
const struct lrs_cell *lrs_model__selected_cell(const struct lrs_model *model);
/* Index in model->visible of the selected row, or -1. */
long lrs_model__selected_index(const struct lrs_model *model);
/* Select visible row i, clamped to the rows there are (none: nothing changes). */
void lrs_model__select_index(struct lrs_model *model, long i);

/* Pages on all LRU lists of lv (0 for NULL). */
uint64_t lrs_lruvec__lru_total(const struct lrs_lruvec *lv);
/* A walked lock word that is locked, pending or has a queue. */
bool lrs_lruvec_walk__busy(const struct lrs_lruvec_walk *w);
/*
 * Busy lock words of a walk, each lock once: a node's pgdat->lru_lock (before 5.11)
 * counts once however many memcgs share it.
 */
size_t lrs_snapshot__walk_locks_busy(const struct lrs_snapshot *s);
/* A cell's value under metric: what its colour and number show (pure). */
double lrs_cell__value(const struct lrs_cell *cell, enum lrs_metric metric);
/* The top of the colour scale under the model's metric. */
double lrs_model__metric_max(const struct lrs_model *model);

/* History of one lruvec, or NULL. */
const struct lrs_history *lrs_model__history(const struct lrs_model *model, uint64_t memcg_id,
					     int node);
/* The i-th oldest valid history value in wait ns per s (0 <= i < history_len). */
double lrs_history__at(const struct lrs_model *model, const struct lrs_history *h, size_t i);

#endif

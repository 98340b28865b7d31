// SPDX-License-Identifier: GPL-2.0
/* Lock holders as a snapshot carries them: free, accuracy, rows of an lruvec, the matrix. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/holders.h"
#include "model/u64map.h"

void lrs_holder_rows__free(struct lrs_holder_row *rows, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(rows[i].memcg);
	free(rows);
}

void lrs_matrix_cells__free(struct lrs_matrix_cell *cells, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(cells[i].waiter);
		free(cells[i].owner);
		free(cells[i].holder);
	}
	free(cells);
}

void lrs_holders__free(struct lrs_holders *h)
{
	if (!h)
		return;
	lrs_holder_rows__free(h->rows, h->nr_rows);
	lrs_matrix_cells__free(h->cells, h->nr_cells);
	lrs_holder_rows__free(h->exact_rows, h->nr_exact_rows);
	lrs_matrix_cells__free(h->exact_cells, h->nr_exact_cells);
	free(h);
}

static int clone_rows(struct lrs_holder_row **dst, const struct lrs_holder_row *src, size_t nr)
{
	*dst = calloc(nr ? nr : 1, sizeof(**dst));
	if (!*dst)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		(*dst)[i] = src[i];
		(*dst)[i].memcg = src[i].memcg ? strdup(src[i].memcg) : NULL;
		if (src[i].memcg && !(*dst)[i].memcg)
			return -ENOMEM;
	}
	return 0;
}

static int clone_cells(struct lrs_matrix_cell **dst, const struct lrs_matrix_cell *src, size_t nr)
{
	*dst = calloc(nr ? nr : 1, sizeof(**dst));
	if (!*dst)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct lrs_matrix_cell *c = &(*dst)[i];

		*c = src[i];
		c->waiter = src[i].waiter ? strdup(src[i].waiter) : NULL;
		c->owner = src[i].owner ? strdup(src[i].owner) : NULL;
		c->holder = src[i].holder ? strdup(src[i].holder) : NULL;
		if ((src[i].waiter && !c->waiter) || (src[i].owner && !c->owner) ||
		    (src[i].holder && !c->holder))
			return -ENOMEM;
	}
	return 0;
}

struct lrs_holders *lrs_holders__clone(const struct lrs_holders *h)
{
	struct lrs_holders *c;

	if (!h)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->mode = h->mode;
	c->counters = h->counters;
	/* counts are set first: a partial copy is freed whole (unset strings are NULL) */
	c->nr_rows = h->nr_rows;
	c->nr_cells = h->nr_cells;
	c->nr_exact_rows = h->nr_exact_rows;
	c->nr_exact_cells = h->nr_exact_cells;
	if (clone_rows(&c->rows, h->rows, h->nr_rows) ||
	    clone_cells(&c->cells, h->cells, h->nr_cells) ||
	    clone_rows(&c->exact_rows, h->exact_rows, h->nr_exact_rows) ||
	    clone_cells(&c->exact_cells, h->exact_cells, h->nr_exact_cells)) {
		if (!c->rows)
			c->nr_rows = 0;
		if (!c->cells)
			c->nr_cells = 0;
		if (!c->exact_rows)
			c->nr_exact_rows = 0;
		if (!c->exact_cells)
			c->nr_exact_cells = 0;
		lrs_holders__free(c);
		return NULL;
	}
	return c;
}

void lrs_holders_read__clear(struct lrs_holders_read *rd)
{
	free(rd->holders);
	free(rd->exact);
	free(rd->matrix);
	free(rd->exact_matrix);
	memset(rd, 0, sizeof(*rd));
}

const char *lrs_holders__mode_name(enum lrs_holders_mode mode)
{
	switch (mode) {
	case LRS_HOLDERS_ESTIMATED:
		return "estimated";
	case LRS_HOLDERS_EXACT:
		return "exact (fentry)";
	default:
		return "off";
	}
}

double lrs_holders__accuracy(const struct lrs_holders *h)
{
	if (!h || h->mode != LRS_HOLDERS_EXACT || !h->counters.cmp_est_ns)
		return -1;
	return (double)h->counters.cmp_memcg_ns / (double)h->counters.cmp_est_ns;
}

size_t lrs_holders__rows_of(const struct lrs_holders *h, uint64_t memcg_id, int node, size_t *first)
{
	size_t i = 0, n = 0;

	*first = 0;
	if (!h)
		return 0;
	while (i < h->nr_rows &&
	       (h->rows[i].lruvec_memcg_id != memcg_id || h->rows[i].node != node))
		i++;
	*first = i;
	while (i + n < h->nr_rows && h->rows[i + n].lruvec_memcg_id == memcg_id &&
	       h->rows[i + n].node == node)
		n++;
	return n;
}

struct id_total {
	uint64_t id, total;
};

static int cmp_total(const void *a, const void *b)
{
	const struct id_total *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Distinct ids by total imposed, the top max into ids. */
static int top_ids(const struct lrs_holders *h, bool rows, bool by_holder, size_t max,
		   uint64_t *ids, size_t *nr)
{
	struct id_total *t = calloc(h->nr_cells ? h->nr_cells : 1, sizeof(*t));
	struct u64map seen;
	size_t n = 0, at;

	if (!t)
		return -ENOMEM;
	u64map__init(&seen);
	for (size_t i = 0; i < h->nr_cells; i++) {
		const struct lrs_matrix_cell *c = &h->cells[i];
		uint64_t id = rows ? c->waiter_id : by_holder ? c->holder_id : c->owner_id;

		if (!u64map__get(&seen, id, &at)) {
			at = n++;
			t[at].id = id;
			if (u64map__set(&seen, id, at)) {
				free(t);
				u64map__destroy(&seen);
				return -ENOMEM;
			}
		}
		t[at].total += c->imposed_ns;
	}
	qsort(t, n, sizeof(*t), cmp_total);
	*nr = n < max ? n : max;
	for (size_t i = 0; i < *nr; i++)
		ids[i] = t[i].id;
	free(t);
	u64map__destroy(&seen);
	return 0;
}

int lrs_holders__fold(const struct lrs_holders *h, bool by_holder, size_t max, uint64_t *row_ids,
		      size_t *nr_rows, uint64_t *col_ids, size_t *nr_cols, uint64_t *vals)
{
	int err;

	*nr_rows = *nr_cols = 0;
	if (!h)
		return 0;
	err = top_ids(h, true, by_holder, max, row_ids, nr_rows);
	if (!err)
		err = top_ids(h, false, by_holder, max, col_ids, nr_cols);
	if (err)
		return err;
	memset(vals, 0, max * max * sizeof(*vals));
	for (size_t i = 0; i < h->nr_cells; i++) {
		const struct lrs_matrix_cell *c = &h->cells[i];
		uint64_t col = by_holder ? c->holder_id : c->owner_id;
		size_t r = 0, k = 0;

		while (r < *nr_rows && row_ids[r] != c->waiter_id)
			r++;
		while (k < *nr_cols && col_ids[k] != col)
			k++;
		if (r < *nr_rows && k < *nr_cols)
			vals[r * max + k] += c->imposed_ns;
	}
	return 0;
}

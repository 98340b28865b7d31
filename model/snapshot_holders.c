// SPDX-License-Identifier: GPL-2.0
/* Lock holders in a snapshot: in the model, holders and snapshot, without a cycle. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/holders.h"
#include "model/snapshot.h"
#include "model/snapshot_holders.h"
#include "model/u64map.h"

static int cmp_row(const void *a, const void *b)
{
	const struct lrs_holder_row *x = a, *y = b;

	if (x->lruvec_memcg_id != y->lruvec_memcg_id)
		return x->lruvec_memcg_id < y->lruvec_memcg_id ? -1 : 1;
	if (x->node != y->node)
		return x->node - y->node;
	if (x->imposed_ns != y->imposed_ns)
		return x->imposed_ns < y->imposed_ns ? 1 : -1;
	return x->pid - y->pid;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct lrs_matrix_cell *x = a, *y = b;

	if (x->imposed_ns != y->imposed_ns)
		return x->imposed_ns < y->imposed_ns ? 1 : -1;
	return x->hold_ns < y->hold_ns ? 1 : x->hold_ns > y->hold_ns ? -1 : 0;
}

static int dup_name(char **dst, const struct lrs_holders_names *names, uint64_t cgid)
{
	const char *s = names && names->memcg && cgid ? names->memcg(names->ctx, cgid) : NULL;

	*dst = NULL;
	if (!s)
		return 0;
	*dst = strdup(s);
	return *dst ? 0 : -ENOMEM;
}

static int rows_from(struct lrs_holder_row **out, size_t *nr_out, const struct lrs_snapshot *snap,
		     const struct u64map *lruvec_index, const struct lrs_holder_tally *t, size_t nr,
		     const struct lrs_holders_names *names)
{
	struct lrs_holder_row *rows = calloc(nr ? nr : 1, sizeof(*rows));
	size_t n = 0;

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct lrs_holder_row *r = &rows[n];
		const struct lrs_lruvec *lv;
		const char *comm;
		size_t li;

		if (!u64map__get(lruvec_index, u64map__key2(t[i].lock_addr, t[i].owner_cgid), &li))
			continue; /* an lruvec the snapshot has no row for */
		lv = &snap->lruvecs[li];
		r->lruvec_memcg_id = lv->memcg_id;
		r->node = lv->node;
		r->pid = (int32_t)t[i].pid;
		r->memcg_id = t[i].cgid;
		r->holds = t[i].holds;
		r->hold_ns = t[i].hold_ns;
		r->imposed_ns = t[i].imposed_ns;
		r->waiters = t[i].waiters;
		r->probable_ns = t[i].probable_ns;
		r->stack_id = t[i].stack_id;
		comm = t[i].pid && names && names->comm ?
			       names->comm(names->ctx, t[i].lock_addr, t[i].owner_cgid, t[i].pid) :
			       NULL;
		strncpy(r->comm, comm ? comm : (t[i].pid ? "?" : "(unknown)"), sizeof(r->comm) - 1);
		n++;
		if (dup_name(&r->memcg, names, t[i].cgid)) {
			lrs_holder_rows__free(rows, n);
			return -ENOMEM;
		}
	}
	qsort(rows, n, sizeof(*rows), cmp_row);
	*out = rows;
	*nr_out = n;
	return 0;
}

static int cells_from(struct lrs_matrix_cell **out, size_t *nr_out,
		      const struct lrs_matrix_tally *m, size_t nr,
		      const struct lrs_holders_names *names)
{
	struct lrs_matrix_cell *cells = calloc(nr ? nr : 1, sizeof(*cells));

	if (!cells)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct lrs_matrix_cell *c = &cells[i];

		c->waiter_id = m[i].waiter_cgid;
		c->owner_id = m[i].owner_cgid;
		c->holder_id = m[i].holder_cgid;
		c->holds = m[i].holds;
		c->hold_ns = m[i].hold_ns;
		c->imposed_ns = m[i].imposed_ns;
		if (dup_name(&c->waiter, names, c->waiter_id) ||
		    dup_name(&c->owner, names, c->owner_id) ||
		    dup_name(&c->holder, names, c->holder_id)) {
			lrs_matrix_cells__free(cells, i + 1);
			return -ENOMEM;
		}
	}
	qsort(cells, nr, sizeof(*cells), cmp_cell);
	*out = cells;
	*nr_out = nr;
	return 0;
}

int lrs_holders__attach(struct lrs_snapshot *snap, const struct lrs_holders_read *rd,
			enum lrs_holders_mode mode, const struct lrs_holders_names *names)
{
	struct lrs_holders *h = calloc(1, sizeof(*h));
	struct u64map index;
	int err = -ENOMEM;

	u64map__init(&index);
	if (!h)
		goto out;
	h->mode = mode;
	h->counters = rd->counters;
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		if (u64map__set(&index,
				u64map__key2(snap->lruvecs[i].lock_addr, snap->lruvecs[i].memcg_id),
				i))
			goto out;
	if (rows_from(&h->rows, &h->nr_rows, snap, &index, rd->holders, rd->nr_holders, names) ||
	    cells_from(&h->cells, &h->nr_cells, rd->matrix, rd->nr_matrix, names) ||
	    rows_from(&h->exact_rows, &h->nr_exact_rows, snap, &index, rd->exact, rd->nr_exact,
		      names) ||
	    cells_from(&h->exact_cells, &h->nr_exact_cells, rd->exact_matrix, rd->nr_exact_matrix,
		       names))
		goto out;
	lrs_holders__free(snap->holders);
	snap->holders = h;
	h = NULL;
	err = 0;
out:
	lrs_holders__free(h);
	u64map__destroy(&index);
	return err;
}

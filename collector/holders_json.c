// SPDX-License-Identifier: GPL-2.0
/* snapshot->holders as the "holders" object of the snapshot JSON. */
#include <stdio.h>

#include "holders.h"
#include "json_writer.h"

static const struct lrs_lruvec *lruvec_of(const struct lrs_snapshot *snap,
					  const struct lrs_holder_row *r)
{
	return lrs_snapshot__find_lruvec(snap, r->lruvec_memcg_id, r->node);
}

static void write_rows(struct lrs_json *j, const char *key, const struct lrs_snapshot *snap,
		       const struct lrs_holder_row *rows, size_t nr)
{
	lrs_json__key(j, key);
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < nr; i++) {
		const struct lrs_holder_row *r = &rows[i];
		const struct lrs_lruvec *lv = lruvec_of(snap, r);
		char name[512];

		snprintf(name, sizeof(name), "%s@N%d", lv && lv->memcg ? lv->memcg : "?", r->node);
		lrs_json__obj_begin(j);
		lrs_json__key(j, "lruvec");
		lrs_json__str(j, name);
		lrs_json__key(j, "lruvec_memcg_id");
		lrs_json__u64(j, r->lruvec_memcg_id);
		lrs_json__key(j, "node");
		lrs_json__i64(j, r->node);
		lrs_json__key(j, "pid");
		lrs_json__i64(j, r->pid);
		lrs_json__key(j, "comm");
		lrs_json__str(j, r->comm);
		lrs_json__key(j, "memcg");
		lrs_json__str(j, r->memcg);
		lrs_json__key(j, "memcg_id");
		lrs_json__u64(j, r->memcg_id);
		lrs_json__key(j, "holds");
		lrs_json__u64(j, r->holds);
		lrs_json__key(j, "hold_ns");
		lrs_json__u64(j, r->hold_ns);
		lrs_json__key(j, "imposed_ns");
		lrs_json__u64(j, r->imposed_ns);
		lrs_json__key(j, "waiters");
		lrs_json__u64(j, r->waiters);
		lrs_json__key(j, "probable_ns");
		lrs_json__u64(j, r->probable_ns);
		lrs_json__key(j, "stack");
		lrs_json__i64(j, r->stack_id);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

static void write_cells(struct lrs_json *j, const char *key, const struct lrs_matrix_cell *c,
			size_t nr)
{
	lrs_json__key(j, key);
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < nr; i++) {
		lrs_json__obj_begin(j);
		lrs_json__key(j, "waiter");
		lrs_json__str(j, c[i].waiter);
		lrs_json__key(j, "waiter_id");
		lrs_json__u64(j, c[i].waiter_id);
		lrs_json__key(j, "owner");
		lrs_json__str(j, c[i].owner);
		lrs_json__key(j, "owner_id");
		lrs_json__u64(j, c[i].owner_id);
		lrs_json__key(j, "holder");
		lrs_json__str(j, c[i].holder);
		lrs_json__key(j, "holder_id");
		lrs_json__u64(j, c[i].holder_id);
		lrs_json__key(j, "holds");
		lrs_json__u64(j, c[i].holds);
		lrs_json__key(j, "hold_ns");
		lrs_json__u64(j, c[i].hold_ns);
		lrs_json__key(j, "imposed_ns");
		lrs_json__u64(j, c[i].imposed_ns);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

void lrs_holders__write_json(struct lrs_json *j, const struct lrs_snapshot *snap)
{
	const struct lrs_holders *h = snap->holders;
	const struct lrs_holders_counters *c;

	if (!h)
		return;
	c = &h->counters;
	lrs_json__key(j, "holders");
	lrs_json__obj_begin(j);
	lrs_json__key(j, "mode");
	lrs_json__str(j, lrs_holders__mode_name(h->mode));
	write_rows(j, "rows", snap, h->rows, h->nr_rows);
	write_cells(j, "matrix", h->cells, h->nr_cells);
	lrs_json__key(j, "counters");
	lrs_json__obj_begin(j);
	lrs_json__key(j, "unknown");
	lrs_json__u64(j, c->unknown);
	lrs_json__key(j, "probable");
	lrs_json__u64(j, c->probable);
	lrs_json__key(j, "drop_full");
	lrs_json__u64(j, c->drop_full);
	lrs_json__obj_end(j);
	if (h->mode == LRS_HOLDERS_EXACT) {
		write_rows(j, "exact_rows", snap, h->exact_rows, h->nr_exact_rows);
		write_cells(j, "exact_matrix", h->exact_cells, h->nr_exact_cells);
		lrs_json__key(j, "compare");
		lrs_json__obj_begin(j);
		lrs_json__key(j, "est_ns");
		lrs_json__u64(j, c->cmp_est_ns);
		lrs_json__key(j, "right_memcg_ns");
		lrs_json__u64(j, c->cmp_memcg_ns);
		lrs_json__key(j, "right_task_ns");
		lrs_json__u64(j, c->cmp_pid_ns);
		lrs_json__key(j, "exact_ns");
		lrs_json__u64(j, c->cmp_exact_ns);
		lrs_json__key(j, "no_exact");
		lrs_json__u64(j, c->cmp_no_exact);
		lrs_json__key(j, "acquisitions");
		lrs_json__u64(j, c->exact_acquisitions);
		lrs_json__key(j, "exact_drop_full");
		lrs_json__u64(j, c->exact_drop_full);
		lrs_json__key(j, "accuracy_memcg");
		lrs_json__dbl(j, lrs_holders__accuracy(h));
		lrs_json__obj_end(j);
	}
	lrs_json__obj_end(j);
}

// SPDX-License-Identifier: GPL-2.0
/* snapshot->holders as the "holders" object of the snapshot JSON, and read back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json/holders_json.h"
#include "model/json/json_reader.h"
#include "model/json/json_writer.h"

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
	lrs_json__key(j, "running");
	lrs_json__u64(j, c->running);
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
		lrs_json__key(j, "baselines");
		lrs_json__obj_begin(j);
		lrs_json__key(j, "lruvec_memcg");
		lrs_json__obj_begin(j);
		lrs_json__key(j, "right_memcg_ns");
		lrs_json__u64(j, c->cmp_owner_memcg_ns);
		lrs_json__obj_end(j);
		lrs_json__key(j, "last_acquirer");
		lrs_json__obj_begin(j);
		lrs_json__key(j, "right_memcg_ns");
		lrs_json__u64(j, c->cmp_last_memcg_ns);
		lrs_json__key(j, "right_task_ns");
		lrs_json__u64(j, c->cmp_last_pid_ns);
		lrs_json__obj_end(j);
		lrs_json__obj_end(j);
		lrs_json__key(j, "by_basis");
		lrs_json__obj_begin(j);
		for (int b = 0; b < LRS_NR_BASES; b++) {
			lrs_json__key(j, lrs_holder_basis__name(b));
			lrs_json__obj_begin(j);
			lrs_json__key(j, "est_ns");
			lrs_json__u64(j, c->cmp_basis_est_ns[b]);
			lrs_json__key(j, "right_memcg_ns");
			lrs_json__u64(j, c->cmp_basis_memcg_ns[b]);
			lrs_json__obj_end(j);
		}
		lrs_json__obj_end(j);
		lrs_json__obj_end(j);
	}
	lrs_json__obj_end(j);
}

/* ---- reading it back (recordings, report -i) --------------------------------- */

static int bad(char *err, size_t err_len, const char *what)
{
	if (err && err_len)
		snprintf(err, err_len, "\"holders\": %s", what);
	return -EINVAL;
}

static int get_u64(const struct lrs_jval *o, const char *key, uint64_t *out)
{
	const struct lrs_jval *v = lrs_jval__get(o, key);

	*out = 0;
	return v ? lrs_jval__u64(v, out) : 0;	/* absent: 0 */
}

static int get_str(const struct lrs_jval *o, const char *key, char **out)
{
	const struct lrs_jval *v = lrs_jval__get(o, key);
	const char *s = lrs_jval__str(v);

	*out = NULL;
	if (!v || v->type == LRS_JNULL)
		return 0;
	if (!s)
		return -EINVAL;
	*out = strdup(s);
	return *out ? 0 : -ENOMEM;
}

static int read_rows(const struct lrs_jval *arr, struct lrs_holder_row **out, size_t *nr_out)
{
	struct lrs_holder_row *rows;
	size_t n = 0;
	int err = 0;

	*out = NULL;
	*nr_out = 0;
	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return -EINVAL;
	rows = calloc(arr->u.arr.len ? arr->u.arr.len : 1, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	for (; n < arr->u.arr.len; n++) {
		const struct lrs_jval *o = arr->u.arr.items[n];
		struct lrs_holder_row *r = &rows[n];
		const char *comm;
		int64_t v;

		r->stack_id = -1;
		if (!lrs_jval__is(o, LRS_JOBJ)) {
			err = -EINVAL;
			break;
		}
		if (get_u64(o, "lruvec_memcg_id", &r->lruvec_memcg_id) ||
		    lrs_jval__int(lrs_jval__get(o, "node"), &r->node) ||
		    lrs_jval__i64(lrs_jval__get(o, "pid"), &v) || v < 0 || v > INT32_MAX ||
		    get_u64(o, "memcg_id", &r->memcg_id) || get_u64(o, "holds", &r->holds) ||
		    get_u64(o, "hold_ns", &r->hold_ns) || get_u64(o, "imposed_ns", &r->imposed_ns) ||
		    get_u64(o, "waiters", &r->waiters) || get_u64(o, "probable_ns", &r->probable_ns)) {
			err = -EINVAL;
			break;
		}
		r->pid = (int32_t)v;
		if (!lrs_jval__i64(lrs_jval__get(o, "stack"), &v) && v >= -1 && v <= INT32_MAX)
			r->stack_id = (int32_t)v;
		comm = lrs_jval__str(lrs_jval__get(o, "comm"));
		snprintf(r->comm, sizeof(r->comm), "%s", comm ? comm : "");
		err = get_str(o, "memcg", &r->memcg);
		if (err)
			break;
	}
	if (err) {
		for (size_t i = 0; i <= n && i < arr->u.arr.len; i++)
			free(rows[i].memcg);
		free(rows);
		return err;
	}
	*out = rows;
	*nr_out = n;
	return 0;
}

static void cells_free(struct lrs_matrix_cell *c, size_t nr)
{
	for (size_t i = 0; c && i < nr; i++) {
		free(c[i].waiter);
		free(c[i].owner);
		free(c[i].holder);
	}
	free(c);
}

static int read_cells(const struct lrs_jval *arr, struct lrs_matrix_cell **out, size_t *nr_out)
{
	struct lrs_matrix_cell *cells;
	size_t n = 0;
	int err = 0;

	*out = NULL;
	*nr_out = 0;
	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return -EINVAL;
	cells = calloc(arr->u.arr.len ? arr->u.arr.len : 1, sizeof(*cells));
	if (!cells)
		return -ENOMEM;
	for (; n < arr->u.arr.len; n++) {
		const struct lrs_jval *o = arr->u.arr.items[n];
		struct lrs_matrix_cell *c = &cells[n];

		if (!lrs_jval__is(o, LRS_JOBJ) || get_u64(o, "waiter_id", &c->waiter_id) ||
		    get_u64(o, "owner_id", &c->owner_id) || get_u64(o, "holder_id", &c->holder_id) ||
		    get_u64(o, "holds", &c->holds) || get_u64(o, "hold_ns", &c->hold_ns) ||
		    get_u64(o, "imposed_ns", &c->imposed_ns)) {
			err = -EINVAL;
			break;
		}
		err = get_str(o, "waiter", &c->waiter);
		if (!err)
			err = get_str(o, "owner", &c->owner);
		if (!err)
			err = get_str(o, "holder", &c->holder);
		if (err)
			break;
	}
	if (err) {
		cells_free(cells, n < arr->u.arr.len ? n + 1 : n);
		return err;
	}
	*out = cells;
	*nr_out = n;
	return 0;
}

int lrs_holders__read_json(const struct lrs_jval *obj, struct lrs_holders **out, char *err,
			   size_t err_len)
{
	const struct lrs_jval *counters, *cmp, *base;
	struct lrs_holders *h;
	struct lrs_holders_counters *c;
	const char *mode;
	int ret;

	*out = NULL;
	if (!obj || obj->type == LRS_JNULL)
		return 0;
	if (obj->type != LRS_JOBJ)
		return bad(err, err_len, "not an object");
	mode = lrs_jval__str(lrs_jval__get(obj, "mode"));
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	c = &h->counters;
	if (mode && !strcmp(mode, lrs_holders__mode_name(LRS_HOLDERS_EXACT)))
		h->mode = LRS_HOLDERS_EXACT;
	else if (mode && !strcmp(mode, lrs_holders__mode_name(LRS_HOLDERS_ESTIMATED)))
		h->mode = LRS_HOLDERS_ESTIMATED;
	else {
		lrs_holders__free(h);
		return bad(err, err_len, "unknown \"mode\"");
	}
	ret = read_rows(lrs_jval__get(obj, "rows"), &h->rows, &h->nr_rows);
	if (!ret)
		ret = read_cells(lrs_jval__get(obj, "matrix"), &h->cells, &h->nr_cells);
	if (!ret)
		ret = read_rows(lrs_jval__get(obj, "exact_rows"), &h->exact_rows, &h->nr_exact_rows);
	if (!ret)
		ret = read_cells(lrs_jval__get(obj, "exact_matrix"), &h->exact_cells,
				 &h->nr_exact_cells);
	counters = lrs_jval__get(obj, "counters");
	if (!ret && counters && (get_u64(counters, "unknown", &c->unknown) ||
				 get_u64(counters, "probable", &c->probable) ||
				 get_u64(counters, "running", &c->running) ||
				 get_u64(counters, "drop_full", &c->drop_full)))
		ret = -EINVAL;
	cmp = lrs_jval__get(obj, "compare");
	if (!ret && cmp && (get_u64(cmp, "est_ns", &c->cmp_est_ns) ||
			    get_u64(cmp, "right_memcg_ns", &c->cmp_memcg_ns) ||
			    get_u64(cmp, "right_task_ns", &c->cmp_pid_ns) ||
			    get_u64(cmp, "exact_ns", &c->cmp_exact_ns) ||
			    get_u64(cmp, "no_exact", &c->cmp_no_exact) ||
			    get_u64(cmp, "acquisitions", &c->exact_acquisitions) ||
			    get_u64(cmp, "exact_drop_full", &c->exact_drop_full)))
		ret = -EINVAL;
	base = lrs_jval__get(cmp, "baselines");
	if (!ret && base && (get_u64(lrs_jval__get(base, "lruvec_memcg"), "right_memcg_ns",
				     &c->cmp_owner_memcg_ns) ||
			     get_u64(lrs_jval__get(base, "last_acquirer"), "right_memcg_ns",
				     &c->cmp_last_memcg_ns) ||
			     get_u64(lrs_jval__get(base, "last_acquirer"), "right_task_ns",
				     &c->cmp_last_pid_ns)))
		ret = -EINVAL;
	for (int b = 0; !ret && cmp && b < LRS_NR_BASES; b++) {
		const struct lrs_jval *basis = lrs_jval__get(lrs_jval__get(cmp, "by_basis"),
							     lrs_holder_basis__name(b));

		if (basis && (get_u64(basis, "est_ns", &c->cmp_basis_est_ns[b]) ||
			      get_u64(basis, "right_memcg_ns", &c->cmp_basis_memcg_ns[b])))
			ret = -EINVAL;
	}
	if (ret) {
		lrs_holders__free(h);
		return ret == -ENOMEM ? ret : bad(err, err_len, "a row, cell or counter is malformed");
	}
	*out = h;
	return 0;
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

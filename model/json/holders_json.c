// SPDX-License-Identifier: GPL-2.0
/* snapshot->holders as the "holders" object of the snapshot JSON, and read back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json/holders_json.h"
#include "model/json/json_get.h"
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

/* Members of o that are absent or u64s (absent: left as they are, zero here). */
struct u64_member {
	const char *key;
	uint64_t *out;
};

static int read_u64s(const struct lrs_jval *o, const struct u64_member *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lrs_jval__opt_u64(NULL, o, m[i].key, m[i].out))
			return -EINVAL;
	return 0;
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
		const struct u64_member u[] = {
			{ "lruvec_memcg_id", &r->lruvec_memcg_id },
			{ "memcg_id", &r->memcg_id },
			{ "holds", &r->holds },
			{ "hold_ns", &r->hold_ns },
			{ "imposed_ns", &r->imposed_ns },
			{ "waiters", &r->waiters },
			{ "probable_ns", &r->probable_ns },
		};
		const char *comm;
		int64_t v;

		r->stack_id = -1;
		if (!lrs_jval__is(o, LRS_JOBJ)) {
			err = -EINVAL;
			break;
		}
		if (read_u64s(o, u, sizeof(u) / sizeof(u[0])) ||
		    lrs_jval__int(lrs_jval__get(o, "node"), &r->node) ||
		    lrs_jval__i64(lrs_jval__get(o, "pid"), &v) || v < 0 || v > INT32_MAX) {
			err = -EINVAL;
			break;
		}
		r->pid = (int32_t)v;
		if (!lrs_jval__i64(lrs_jval__get(o, "stack"), &v) && v >= -1 && v <= INT32_MAX)
			r->stack_id = (int32_t)v;
		comm = lrs_jval__str(lrs_jval__get(o, "comm"));
		snprintf(r->comm, sizeof(r->comm), "%s", comm ? comm : "");
		err = lrs_jval__opt_strdup(NULL, o, "memcg", &r->memcg);
		if (err)
			break;
	}
	if (err) {
		lrs_holder_rows__free(rows, n < arr->u.arr.len ? n + 1 : n);
		return err;
	}
	*out = rows;
	*nr_out = n;
	return 0;
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

		const struct u64_member u[] = {
			{ "waiter_id", &c->waiter_id }, { "owner_id", &c->owner_id },
			{ "holder_id", &c->holder_id }, { "holds", &c->holds },
			{ "hold_ns", &c->hold_ns },	{ "imposed_ns", &c->imposed_ns },
		};

		if (!lrs_jval__is(o, LRS_JOBJ) || read_u64s(o, u, sizeof(u) / sizeof(u[0]))) {
			err = -EINVAL;
			break;
		}
		err = lrs_jval__opt_strdup(NULL, o, "waiter", &c->waiter);
		if (!err)
			err = lrs_jval__opt_strdup(NULL, o, "owner", &c->owner);
		if (!err)
			err = lrs_jval__opt_strdup(NULL, o, "holder", &c->holder);
		if (err)
			break;
	}
	if (err) {
		lrs_matrix_cells__free(cells, n < arr->u.arr.len ? n + 1 : n);
		return err;
	}
	*out = cells;
	*nr_out = n;
	return 0;
}

/* "counters" and "compare" (with its "baselines" and "by_basis"). */
static int read_counters(const struct lrs_jval *obj, struct lrs_holders_counters *c)
{
	const struct lrs_jval *cmp = lrs_jval__get(obj, "compare");
	const struct lrs_jval *base = lrs_jval__get(cmp, "baselines");
	const struct u64_member counted[] = {
		{ "unknown", &c->unknown },
		{ "probable", &c->probable },
		{ "running", &c->running },
		{ "drop_full", &c->drop_full },
	};
	const struct u64_member compared[] = {
		{ "est_ns", &c->cmp_est_ns },
		{ "right_memcg_ns", &c->cmp_memcg_ns },
		{ "right_task_ns", &c->cmp_pid_ns },
		{ "exact_ns", &c->cmp_exact_ns },
		{ "no_exact", &c->cmp_no_exact },
		{ "acquisitions", &c->exact_acquisitions },
		{ "exact_drop_full", &c->exact_drop_full },
	};
	const struct u64_member last[] = {
		{ "right_memcg_ns", &c->cmp_last_memcg_ns },
		{ "right_task_ns", &c->cmp_last_pid_ns },
	};

	if (read_u64s(lrs_jval__get(obj, "counters"), counted,
		      sizeof(counted) / sizeof(counted[0])) ||
	    read_u64s(cmp, compared, sizeof(compared) / sizeof(compared[0])) ||
	    lrs_jval__opt_u64(NULL, lrs_jval__get(base, "lruvec_memcg"), "right_memcg_ns",
			      &c->cmp_owner_memcg_ns) ||
	    read_u64s(lrs_jval__get(base, "last_acquirer"), last, sizeof(last) / sizeof(last[0])))
		return -EINVAL;
	for (int b = 0; b < LRS_NR_BASES; b++) {
		const struct lrs_jval *basis =
			lrs_jval__get(lrs_jval__get(cmp, "by_basis"), lrs_holder_basis__name(b));

		if (lrs_jval__opt_u64(NULL, basis, "est_ns", &c->cmp_basis_est_ns[b]) ||
		    lrs_jval__opt_u64(NULL, basis, "right_memcg_ns", &c->cmp_basis_memcg_ns[b]))
			return -EINVAL;
	}
	return 0;
}

int lrs_holders__read_json(const struct lrs_jval *obj, struct lrs_holders **out, char *err,
			   size_t err_len)
{
	struct lrs_holders *h;
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
		ret = read_rows(lrs_jval__get(obj, "exact_rows"), &h->exact_rows,
				&h->nr_exact_rows);
	if (!ret)
		ret = read_cells(lrs_jval__get(obj, "exact_matrix"), &h->exact_cells,
				 &h->nr_exact_cells);
	if (!ret)
		ret = read_counters(obj, &h->counters);
	if (ret) {
		lrs_holders__free(h);
		return ret == -ENOMEM ? ret :
					bad(err, err_len, "a row, cell or counter is malformed");
	}
	*out = h;
	return 0;
}

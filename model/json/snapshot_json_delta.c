// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot as a delta line over the one before (docs/recording-format.md):
 * the sections whose keys did not change hold only what changed, their
 * cumulative counters as increments.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "model/json/json_writer.h"
#include "model/json/snapshot_json.h"
#include "model/json/snapshot_json_internal.h"
#include "model/snapshot_diff.h"

/* An increment, modulo 2^64: exact whatever the counters did. */
static void write_inc(struct lrs_json *j, const char *key, uint64_t cur, uint64_t prev)
{
	if (key)
		lrs_json__key(j, key);
	lrs_json__i64(j, (int64_t)(cur - prev));
}

/* contended, wait_ns, hist as increments; wait_max_ns as is. Only what changed. */
static void write_counters_delta(struct lrs_json *j, const struct lrs_lock_counters *c,
				 const struct lrs_lock_counters *p)
{
	int last = 0;

	if (c->contended != p->contended)
		write_inc(j, "contended", c->contended, p->contended);
	if (c->wait_ns != p->wait_ns)
		write_inc(j, "wait_ns", c->wait_ns, p->wait_ns);
	if (c->wait_max_ns != p->wait_max_ns) {
		lrs_json__key(j, "wait_max_ns");
		lrs_json__u64(j, c->wait_max_ns);
	}
	for (int i = 0; i < LRS_HIST_BUCKETS; i++)
		if (c->hist[i] != p->hist[i])
			last = i + 1;
	if (!last)
		return;
	lrs_json__key(j, "hist");
	lrs_json__arr_begin(j);
	for (int i = 0; i < last; i++)
		write_inc(j, NULL, c->hist[i], p->hist[i]);
	lrs_json__arr_end(j);
}

static bool uses_same(const struct lrs_stack_use *a, size_t na, const struct lrs_stack_use *b,
		      size_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na * sizeof(*a)));
}

static void write_uses_delta(struct lrs_json *j, const struct lrs_stack_use *u, size_t n,
			     const struct lrs_stack_use *prev, size_t nprev)
{
	if (uses_same(u, n, prev, nprev))
		return;
	lrs_json__key(j, "stacks");
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct lrs_stack_use *b = lrs_stack_uses__find(prev, nprev, u[i].id);

		lrs_json__obj_begin(j);
		lrs_json__key(j, "id");
		lrs_json__i64(j, u[i].id);
		write_inc(j, "contended", u[i].contended, b ? b->contended : 0);
		write_inc(j, "wait_ns", u[i].wait_ns, b ? b->wait_ns : 0);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

static bool str_same(const char *a, const char *b)
{
	return (!a || !b) ? a == b : !strcmp(a, b);
}

static bool waiters_same(const struct lrs_lruvec *a, const struct lrs_lruvec *b)
{
	if (a->nr_waiters != b->nr_waiters)
		return false;
	for (size_t i = 0; i < a->nr_waiters; i++) {
		const struct lrs_waiter *x = &a->waiters[i], *y = &b->waiters[i];

		if (x->pid != y->pid || strncmp(x->comm, y->comm, LRS_COMM_LEN) ||
		    x->memcg_id != y->memcg_id || !str_same(x->memcg, y->memcg) ||
		    x->contended != y->contended || x->wait_ns != y->wait_ns)
			return false;
	}
	return true;
}

/* What changed in one lruvec, keyed by memcg_id and node. */
static void write_lruvec_delta(struct lrs_json *j, const struct lrs_lruvec *lv,
			       const struct lrs_lruvec *p, bool full)
{
	lrs_json__obj_begin(j);
	lrs_json__key(j, "memcg_id");
	lrs_json__u64(j, lv->memcg_id);
	lrs_json__key(j, "node");
	lrs_json__i64(j, lv->node);
	if (full || !str_same(lv->memcg, p->memcg)) {
		lrs_json__key(j, "memcg");
		lrs_json__str(j, lv->memcg);
	}
	if (full || lv->parent_id != p->parent_id) {
		lrs_json__key(j, "parent_id");
		lrs_json__u64(j, lv->parent_id);
	}
	if (full || lv->depth != p->depth) {
		lrs_json__key(j, "depth");
		lrs_json__i64(j, lv->depth);
	}
	if (full || lv->lock_addr != p->lock_addr)
		lrs_json__addr(j, "lock", lv->lock_addr);
	if (lv->removed != p->removed) {
		lrs_json__key(j, "removed");
		lrs_json__bool(j, lv->removed);
	}
	write_counters_delta(j, &lv->counters, &p->counters);
	if (!waiters_same(lv, p)) {
		lrs_json__key(j, "waiters");
		lrs_json__arr_begin(j);
		for (size_t i = 0; i < lv->nr_waiters; i++) {
			const struct lrs_waiter *w = &lv->waiters[i];
			const struct lrs_waiter *b = lrs_lruvec__find_waiter(p, w->pid);

			lrs_json__obj_begin(j);
			lrs_snapshot_json__write_waiter_id(j, w);
			write_inc(j, "contended", w->contended, b ? b->contended : 0);
			write_inc(j, "wait_ns", w->wait_ns, b ? b->wait_ns : 0);
			lrs_json__obj_end(j);
		}
		lrs_json__arr_end(j);
	}
	write_uses_delta(j, lv->stacks, lv->nr_stacks, p->stacks, p->nr_stacks);
	if (memcmp(lv->lru_pages, p->lru_pages, sizeof(lv->lru_pages)))
		lrs_snapshot_json__write_lru_pages(j, lv);
	lrs_json__obj_end(j);
}

static void write_other_delta(struct lrs_json *j, const struct lrs_other_lock *ol,
			      const struct lrs_other_lock *p, bool full)
{
	lrs_json__obj_begin(j);
	lrs_json__addr(j, "lock", ol->lock_addr);
	if (full || !str_same(ol->name, p->name)) {
		lrs_json__key(j, "name");
		lrs_json__str(j, ol->name);
	}
	if (full || ol->flags != p->flags) {
		lrs_json__key(j, "flags");
		lrs_json__u64(j, ol->flags);
	}
	write_counters_delta(j, &ol->counters, &p->counters);
	write_uses_delta(j, ol->stacks, ol->nr_stacks, p->stacks, p->nr_stacks);
	lrs_json__obj_end(j);
}

/* A section is a delta when its keys are the previous line's, in the same order. */
static bool lruvec_keys_same(const struct lrs_snapshot *a, const struct lrs_snapshot *b)
{
	if (a->nr_lruvecs != b->nr_lruvecs)
		return false;
	for (size_t i = 0; i < a->nr_lruvecs; i++)
		if (a->lruvecs[i].memcg_id != b->lruvecs[i].memcg_id ||
		    a->lruvecs[i].node != b->lruvecs[i].node)
			return false;
	return true;
}

static bool other_keys_same(const struct lrs_snapshot *a, const struct lrs_snapshot *b)
{
	if (a->nr_other_locks != b->nr_other_locks)
		return false;
	for (size_t i = 0; i < a->nr_other_locks; i++)
		if (a->other_locks[i].lock_addr != b->other_locks[i].lock_addr)
			return false;
	return true;
}

int lrs_snapshot__write_json_delta(const struct lrs_snapshot *snap, const struct lrs_snapshot *prev,
				   FILE *f)
{
	bool d_lruvecs, d_others, d_stacks;
	struct lrs_json j;

	if (!prev)
		return lrs_snapshot__write_json(snap, f);
	d_lruvecs = lruvec_keys_same(snap, prev);
	d_others = other_keys_same(snap, prev);
	d_stacks = lrs_stacks__equal(snap, prev);

	lrs_json__init(&j, f);
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "schema");
	lrs_json__i64(&j, snap->schema);
	lrs_json__key(&j, "delta");
	lrs_json__arr_begin(&j);
	if (d_lruvecs)
		lrs_json__str(&j, "lruvecs");
	if (d_others)
		lrs_json__str(&j, "other_locks");
	if (d_stacks)
		lrs_json__str(&j, "stacks");
	lrs_json__arr_end(&j);
	lrs_snapshot_json__write_head_fields(&j, snap);

	/*
	 * A section whose keys changed (a memcg came or went) is written whole,
	 * as increments over zero; the others hold only what changed.
	 */
	lrs_json__key(&j, "lruvecs");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		static const struct lrs_lruvec zero_lruvec;

		if (!d_lruvecs)
			write_lruvec_delta(&j, &snap->lruvecs[i], &zero_lruvec, true);
		else if (!lrs_lruvec__equal(&snap->lruvecs[i], &prev->lruvecs[i]))
			write_lruvec_delta(&j, &snap->lruvecs[i], &prev->lruvecs[i], false);
	}
	lrs_json__arr_end(&j);

	lrs_json__key(&j, "other_locks");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		static const struct lrs_other_lock zero_other;

		if (!d_others)
			write_other_delta(&j, &snap->other_locks[i], &zero_other, true);
		else if (!lrs_other_lock__equal(&snap->other_locks[i], &prev->other_locks[i]))
			write_other_delta(&j, &snap->other_locks[i], &prev->other_locks[i], false);
	}
	lrs_json__arr_end(&j);

	if (!d_stacks)
		lrs_snapshot_json__write_stacks(&j, snap);
	/* drops and unavailable as a full line has them; holders whole on every line, when tracked */
	lrs_snapshot_json__write_tail(&j, snap);
	lrs_json__obj_end(&j);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

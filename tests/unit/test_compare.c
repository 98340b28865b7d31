// SPDX-License-Identifier: GPL-2.0
/* 'lruscope diff': per-interval samples of recordings, matching by path, the rows' verdicts. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/compare.h"
#include "support/noise.h"

/* this cmocka has no assert_double_equal */
#define assert_near(x, y, eps) assert_true(fabs((double)(x) - (double)(y)) <= (eps))

/* ---- runs of synthetic snapshots -------------------------------------------- */

struct lv_spec {
	const char *path;
	uint64_t id;
	int node;
	double wait_ns_per_s; /* mean; each interval noisy around it */
};

/* A recording of n snapshots 1 s apart, cumulative counters; each wait is 2 us. */
static struct lrs_cmp_run *make_run(const struct lv_spec *lvs, size_t nr, size_t n,
				    unsigned int seed, double lock_wait)
{
	struct lrs_cmp_run *run = lrs_cmp_run__new();
	uint64_t wait[16] = { 0 }, lock = 0;

	lrs_noise__seed(0x2545f4914f6cdd1dULL * (seed + 1));
	for (size_t t = 0; t < n; t++) {
		struct lrs_snapshot *s = lrs_snapshot__new();
		struct lrs_other_lock *ol;

		s->t_ns = (t + 1) * 1000000000ULL;
		lrs_snapshot__add_node(s, 0);
		for (size_t i = 0; i < nr; i++) {
			struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

			if (t)
				wait[i] += (uint64_t)lrs_noise__skewed(lvs[i].wait_ns_per_s);
			lv->memcg = strdup(lvs[i].path);
			lv->memcg_id = lvs[i].id;
			lv->node = lvs[i].node;
			lv->counters.wait_ns = wait[i];
			lv->counters.contended = wait[i] / 2000;
		}
		if (t)
			lock += (uint64_t)lrs_noise__skewed(lock_wait);
		ol = lrs_snapshot__add_other_lock(s);
		ol->name = strdup("spinlock @ __remove_mapping");
		ol->lock_addr = 0xffff888100000040ULL;
		ol->counters.wait_ns = lock;
		ol->counters.contended = lock / 1000;
		assert_int_equal(lrs_cmp_run__push(run, s), 0);
		lrs_snapshot__free(s);
	}
	return run;
}

static const struct lrs_cmp_test default_test = { LRS_COMPARE_ALPHA, LRS_COMPARE_MIN_CHANGE };

static const struct lrs_cmp_row *row_of(const struct lrs_compare *c, enum lrs_cmp_kind kind,
					const char *name, int node)
{
	for (size_t i = 0; i < c->nr_rows; i++)
		if (c->rows[i].kind == kind && !strcmp(c->rows[i].name, name) &&
		    c->rows[i].node == node)
			return &c->rows[i];
	return NULL;
}

static void test_same_distribution_no_significant_change(void **state)
{
	const struct lv_spec a[] = { { "/", 1, 0, 0 },
				     { "/lrs-x", 20, 0, 3e6 },
				     { "/lrs-y", 21, 0, 1e6 } };
	/* the same memcgs with other cgroup ids, as after a reboot: matched by path */
	const struct lv_spec b[] = { { "/", 1, 0, 0 },
				     { "/lrs-y", 97, 0, 1e6 },
				     { "/lrs-x", 98, 0, 3e6 } };
	struct lrs_cmp_run *ra = make_run(a, 3, 31, 1, 5e5), *rb = make_run(b, 3, 31, 2, 5e5);
	struct lrs_compare *c = NULL;
	const struct lrs_cmp_row *x;

	assert_int_equal(lrs_cmp_run__samples(ra), 30);
	assert_near(lrs_cmp_run__duration_s(ra), 30.0, 1e-9);
	assert_int_equal(lrs_compare(ra, rb, &default_test, &c), 0);
	assert_int_equal(c->nr_significant, 0);
	assert_int_equal(c->samples_a, 30);
	assert_int_equal(c->samples_b, 30);
	/* totals first, then lruvecs, then the lock; "/" never waited: left out */
	assert_int_equal(c->nr_rows, 5);
	assert_int_equal(c->nr_idle, 1);
	assert_int_equal(c->rows[0].kind, LRS_CMP_TOTAL);
	assert_string_equal(c->rows[0].name, "lruvec locks");
	assert_string_equal(c->rows[1].name, "other locks");
	assert_int_equal(c->rows[4].kind, LRS_CMP_LOCK);
	x = row_of(c, LRS_CMP_LRUVEC, "/lrs-x", 0);
	assert_non_null(x);
	assert_int_equal(x->side, LRS_CMP_BOTH);
	assert_true(x->wait.a > 2e6 && x->wait.a < 4e6);
	assert_true(x->wait.ratio > 0.8 && x->wait.ratio < 1.25);
	assert_false(x->wait.significant);
	assert_false(x->contended.significant);
	lrs_compare__free(c);
	lrs_cmp_run__free(ra);
	lrs_cmp_run__free(rb);
}

/* One lruvec at rate ns/s, 31 snapshots 1 s apart, each interval within 0.5% of it. */
static struct lrs_cmp_run *steady_run(double rate, unsigned int seed)
{
	struct lrs_cmp_run *run = lrs_cmp_run__new();
	uint64_t wait = 0;

	lrs_noise__seed(0x9e3779b97f4a7c15ULL * (seed + 1));
	for (size_t t = 0; t < 31; t++) {
		struct lrs_snapshot *s = lrs_snapshot__new();
		struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

		s->t_ns = (t + 1) * 1000000000ULL;
		if (t)
			wait += (uint64_t)(rate * (0.995 + 0.01 * lrs_noise__uniform()));
		lv->memcg = strdup("/lrs-s");
		lv->memcg_id = 30;
		lv->counters.wait_ns = wait;
		lv->counters.contended = wait / 2000;
		assert_int_equal(lrs_cmp_run__push(run, s), 0);
		lrs_snapshot__free(s);
	}
	return run;
}

/* Steady rates: a 5% change is far beyond the intervals' noise, and still under the least change. */
static void test_small_change_not_significant(void **state)
{
	struct lrs_cmp_run *ra = steady_run(1e6, 1), *up5 = steady_run(1.05e6, 2);
	struct lrs_cmp_run *up20 = steady_run(1.2e6, 3), *down15 = steady_run(0.85e6, 4);
	const struct lrs_cmp_test any = { LRS_COMPARE_ALPHA, 0 };
	struct lrs_compare *c = NULL;
	const struct lrs_cmp_row *r;

	assert_int_equal(lrs_compare(ra, up5, &default_test, &c), 0);
	r = row_of(c, LRS_CMP_LRUVEC, "/lrs-s", 0);
	assert_true(r->wait.p < 1e-6);
	assert_near(r->wait.ratio, 1.05, 0.01);
	assert_false(r->wait.significant);
	assert_false(r->contended.significant);
	assert_false(c->rows[0].wait.significant); /* the lruvec total, the same series */
	assert_int_equal(c->nr_significant, 0);
	assert_near(c->test.min_change, LRS_COMPARE_MIN_CHANGE, 1e-12);
	lrs_compare__free(c);
	/* with no least change, the test alone decides */
	assert_int_equal(lrs_compare(ra, up5, &any, &c), 0);
	assert_true(row_of(c, LRS_CMP_LRUVEC, "/lrs-s", 0)->wait.significant);
	assert_int_equal(c->nr_significant, 1);
	lrs_compare__free(c);
	/* 20% up and 15% down are past 10% */
	assert_int_equal(lrs_compare(ra, up20, &default_test, &c), 0);
	assert_true(row_of(c, LRS_CMP_LRUVEC, "/lrs-s", 0)->wait.significant);
	lrs_compare__free(c);
	assert_int_equal(lrs_compare(ra, down15, &default_test, &c), 0);
	assert_true(row_of(c, LRS_CMP_LRUVEC, "/lrs-s", 0)->wait.significant);
	lrs_compare__free(c);
	lrs_cmp_run__free(ra);
	lrs_cmp_run__free(up5);
	lrs_cmp_run__free(up20);
	lrs_cmp_run__free(down15);
}

static void test_shifted_memcg_significant_and_first(void **state)
{
	const struct lv_spec a[] = { { "/lrs-x", 20, 0, 3e6 },
				     { "/lrs-y", 21, 0, 1e6 },
				     { "/lrs-gone", 22, 0, 2e5 } };
	const struct lv_spec b[] = { { "/lrs-x", 40, 0, 3e6 },
				     { "/lrs-y", 41, 0, 5e6 },
				     { "/lrs-new", 42, 0, 4e5 } };
	struct lrs_cmp_run *ra = make_run(a, 3, 21, 3, 5e5), *rb = make_run(b, 3, 21, 4, 5e5);
	struct lrs_compare *c = NULL;
	const struct lrs_cmp_row *y, *gone, *added;

	assert_int_equal(lrs_compare(ra, rb, &default_test, &c), 0);
	assert_int_equal(c->nr_significant, 1);
	/* the first row after the totals is the 5x memcg */
	assert_int_equal(c->rows[2].kind, LRS_CMP_LRUVEC);
	assert_string_equal(c->rows[2].name, "/lrs-y");
	y = &c->rows[2];
	assert_true(y->wait.significant);
	assert_true(y->contended.significant);
	assert_true(y->wait.p < 1e-4);
	assert_true(y->wait.ratio > 4 && y->wait.ratio < 6.5);
	assert_false(row_of(c, LRS_CMP_LRUVEC, "/lrs-x", 0)->wait.significant);
	/* one side only, listed as such, after the significant change */
	gone = row_of(c, LRS_CMP_LRUVEC, "/lrs-gone", 0);
	added = row_of(c, LRS_CMP_LRUVEC, "/lrs-new", 0);
	assert_non_null(gone);
	assert_non_null(added);
	assert_int_equal(gone->side, LRS_CMP_ONLY_A);
	assert_int_equal(added->side, LRS_CMP_ONLY_B);
	assert_true(isinf(added->wait.ratio));
	assert_true(isnan(added->wait.p));
	assert_false(added->wait.significant);
	assert_near(gone->wait.ratio, 0, 1e-12);
	assert_string_equal(c->rows[3].name, "/lrs-new");
	assert_string_equal(c->rows[4].name, "/lrs-gone");
	/* the lruvec total moved with /lrs-y */
	assert_true(c->rows[0].wait.significant);
	/* the heatmaps' grid: memcgs in that order, one node */
	struct lrs_cmp_grid grid;

	assert_int_equal(lrs_cmp_grid__init(&grid, c), 0);
	assert_int_equal(grid.nr_memcgs, 4);
	assert_string_equal(grid.memcgs[0], "/lrs-y");
	assert_string_equal(grid.memcgs[3], "/lrs-x");
	assert_int_equal(grid.nr_nodes, 1);
	assert_int_equal(grid.nr_columns, 1); /* no "all" column on one node */
	assert_ptr_equal(lrs_compare__lruvec(c, "/lrs-y", 0), y);
	assert_null(lrs_compare__lruvec(c, "/lrs-y", 1));
	lrs_cmp_grid__clear(&grid);
	lrs_compare__free(c);
	lrs_cmp_run__free(ra);
	lrs_cmp_run__free(rb);
}

/*
 * One memcg on two nodes: its wait moves from one node's lruvec to the other's
 * while its sum holds. Both lruvecs changed; the memcg did not. A memcg that
 * waited on one node only has no sum of its own (it would repeat its lruvec).
 */
static void test_memcg_sum_over_nodes(void **state)
{
	const struct lv_spec a[] = { { "/lrs-m", 20, 0, 2e6 },
				     { "/lrs-m", 20, 1, 2e6 },
				     { "/lrs-one", 21, 0, 1e6 } };
	const struct lv_spec b[] = { { "/lrs-m", 40, 0, 1e6 },
				     { "/lrs-m", 40, 1, 3e6 },
				     { "/lrs-one", 41, 0, 1e6 } };
	const struct lv_spec up[] = { { "/lrs-m", 60, 0, 4e6 },
				      { "/lrs-m", 60, 1, 4e6 },
				      { "/lrs-one", 61, 0, 1e6 } };
	struct lrs_cmp_run *ra = make_run(a, 3, 31, 5, 5e5), *rb = make_run(b, 3, 31, 6, 5e5);
	struct lrs_cmp_run *rup = make_run(up, 3, 31, 7, 5e5);
	struct lrs_compare *c = NULL;
	const struct lrs_cmp_row *m;

	assert_int_equal(lrs_compare(ra, rb, &default_test, &c), 0);
	/* after the totals, before the lruvecs */
	assert_int_equal(c->rows[2].kind, LRS_CMP_MEMCG);
	m = row_of(c, LRS_CMP_MEMCG, "/lrs-m", -1);
	assert_ptr_equal(m, &c->rows[2]);
	assert_near(m->wait.a,
		    row_of(c, LRS_CMP_LRUVEC, "/lrs-m", 0)->wait.a +
			    row_of(c, LRS_CMP_LRUVEC, "/lrs-m", 1)->wait.a,
		    1e-6);
	assert_near(m->wait.ratio, 1.0, 0.1);
	assert_false(m->wait.significant);
	assert_true(row_of(c, LRS_CMP_LRUVEC, "/lrs-m", 0)->wait.significant);
	assert_true(row_of(c, LRS_CMP_LRUVEC, "/lrs-m", 1)->wait.significant);
	assert_null(row_of(c, LRS_CMP_MEMCG, "/lrs-one", -1));
	assert_int_equal(c->nr_significant, 2);
	/* memcg sums are no lruvecs: not counted as never contended, not in the heatmaps' grid */
	assert_int_equal(c->nr_idle, 0);
	struct lrs_cmp_grid grid;

	assert_int_equal(lrs_cmp_grid__init(&grid, c), 0);
	assert_int_equal(grid.nr_memcgs, 2);
	assert_int_equal(grid.nr_nodes, 2);
	/* the heatmaps' "all" column: the memcg's sum, or its one lruvec */
	assert_int_equal(grid.nr_columns, 3);
	assert_ptr_equal(lrs_compare__memcg(c, "/lrs-m"), m);
	assert_ptr_equal(lrs_compare__memcg(c, "/lrs-one"),
			 row_of(c, LRS_CMP_LRUVEC, "/lrs-one", 0));
	assert_null(lrs_compare__memcg(c, "/lrs-none"));
	lrs_cmp_grid__clear(&grid);
	lrs_compare__free(c);
	/* twice the wait on both nodes: the sum changed too */
	assert_int_equal(lrs_compare(ra, rup, &default_test, &c), 0);
	m = row_of(c, LRS_CMP_MEMCG, "/lrs-m", -1);
	assert_true(m->wait.significant);
	assert_near(m->wait.ratio, 2.0, 0.3);
	assert_int_equal(c->nr_significant, 3);
	lrs_compare__free(c);
	lrs_cmp_run__free(ra);
	lrs_cmp_run__free(rb);
	lrs_cmp_run__free(rup);
}

static void test_counter_reset_and_removed_memcg_path_reused(void **state)
{
	struct lrs_cmp_run *run = lrs_cmp_run__new();
	struct lrs_compare *c = NULL;
	/* /lrs-z is removed and made again (new id) with its counter from 0 */
	const uint64_t ids[] = { 5, 5, 9, 9 }, waits[] = { 1000, 3000, 500, 1500 };

	for (size_t t = 0; t < 4; t++) {
		struct lrs_snapshot *s = lrs_snapshot__new();
		struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

		s->t_ns = (t + 1) * 2000000000ULL;
		lv->memcg = strdup("/lrs-z");
		lv->memcg_id = ids[t];
		lv->counters.wait_ns = waits[t];
		assert_int_equal(lrs_cmp_run__push(run, s), 0);
		if (t == 3)
			assert_int_equal(lrs_cmp_run__push(run, s), -EINVAL); /* not later */
		lrs_snapshot__free(s);
	}
	assert_int_equal(lrs_compare(run, run, &default_test, &c), 0);
	/* 2000 + 500 (from zero under the new id) + 1000 over 6 s */
	assert_near(row_of(c, LRS_CMP_LRUVEC, "/lrs-z", 0)->wait.a, 3500.0 / 6, 1e-9);
	assert_int_equal(c->nr_significant, 0);
	lrs_compare__free(c);
	lrs_cmp_run__free(run);
}

/*
 * One collector records two layouts in turn: the first layout's memcg, removed before the
 * second recording began, is still in its snapshots (removed, its counters frozen). It is
 * no part of the second run: the first run's only, not a sample of zeros in both.
 */
static void test_removed_memcg_carried_over_is_not_in_the_run(void **state)
{
	struct lrs_cmp_run *a = lrs_cmp_run__new(), *b = lrs_cmp_run__new();
	struct lrs_compare *c = NULL;

	for (size_t t = 0; t < 6; t++) {
		for (int side = 0; side < 2; side++) {
			struct lrs_snapshot *s = lrs_snapshot__new();
			struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

			s->t_ns = (t + 1 + side * 100) * 1000000000ULL;
			lv->memcg = strdup("/lrs-shared");
			lv->memcg_id = 7;
			/* in a it waits; in b it is gone from the start, counts frozen */
			lv->counters.wait_ns = side ? 90000 : 15000 * (t + 1);
			lv->counters.contended = lv->counters.wait_ns / 1000;
			lv->removed = side;
			if (side) { /* b's own memcg waits */
				lv = lrs_snapshot__add_lruvec(s);
				lv->memcg = strdup("/lrs-c0");
				lv->memcg_id = 8;
				lv->counters.wait_ns = 1000 * (t + 1);
				lv->counters.contended = t + 1;
			}
			assert_int_equal(lrs_cmp_run__push(side ? b : a, s), 0);
			lrs_snapshot__free(s);
		}
	}
	assert_int_equal(lrs_compare(a, b, &default_test, &c), 0);
	assert_int_equal(row_of(c, LRS_CMP_LRUVEC, "/lrs-shared", 0)->side, LRS_CMP_ONLY_A);
	assert_int_equal(row_of(c, LRS_CMP_LRUVEC, "/lrs-c0", 0)->side, LRS_CMP_ONLY_B);
	lrs_compare__free(c);
	lrs_cmp_run__free(a);
	lrs_cmp_run__free(b);
}

/* ---- a kernel of one lock per node against one of a lock per memcg ------------ */

/*
 * A recording of two containers on node 0, n snapshots 1 s apart, each
 * interval's wait noisy around its rate: with node_lock, every wait is on the
 * node's one lock (5.10), waited by both containers' tasks, c0 at rate[0] and
 * c1 at rate[1] ns/s; without, each container waits on its own lruvec (6.1),
 * and the root's lruvec waits 'root' ns/s with no waiter listed. sum[i]: the
 * wait of c0, c1 and the root in all.
 */
static struct lrs_cmp_run *make_node_run(bool node_lock, const double rate[2], double root,
					 size_t n, unsigned int seed, uint64_t sum[3])
{
	struct lrs_cmp_run *run = lrs_cmp_run__new();
	static const char *const memcgs[] = { "/lrs-c0", "/lrs-c1" };

	lrs_noise__seed(0x9e3779b97f4a7c15ULL * (seed + 3));
	sum[0] = sum[1] = sum[2] = 0;
	for (size_t t = 0; t < n; t++) {
		struct lrs_snapshot *s = lrs_snapshot__new();
		struct lrs_lruvec *lv = NULL;

		s->t_ns = (t + 1) * 1000000000ULL;
		lrs_snapshot__add_node(s, 0);
		for (int i = 0; i < 2; i++) {
			struct lrs_waiter *w;

			if (!lv || !node_lock) {
				lv = lrs_snapshot__add_lruvec(s);
				lv->memcg = strdup(node_lock ? LRS_NODE_LOCK_MEMCG : memcgs[i]);
				lv->memcg_id = node_lock ? 0 : 40 + (uint64_t)i;
				lv->waiters = calloc(2, sizeof(*lv->waiters));
			}
			if (t)
				sum[i] += (uint64_t)lrs_noise__skewed(rate[i]);
			w = &lv->waiters[lv->nr_waiters++];
			w->pid = 100 + i;
			w->memcg = strdup(memcgs[i]);
			w->memcg_id = 40 + (uint64_t)i;
			w->wait_ns = sum[i];
			w->contended = w->wait_ns / 1000;
			lv->counters.wait_ns += w->wait_ns;
			lv->counters.contended += w->contended;
		}
		if (!node_lock) {
			lv = lrs_snapshot__add_lruvec(s);
			lv->memcg = strdup("/");
			lv->memcg_id = 1;
			if (t)
				sum[2] += (uint64_t)lrs_noise__skewed(root);
			lv->counters.wait_ns = sum[2];
			lv->counters.contended = lv->counters.wait_ns / 1000;
		}
		assert_int_equal(lrs_cmp_run__push(run, s), 0);
		lrs_snapshot__free(s);
	}
	return run;
}

static void test_node_lock_against_memcg_locks(void **state)
{
	const double before[2] = { 4e8, 2e8 }, after[2] = { 1e6, 3e6 };
	uint64_t sa[3], sb[3], sb2[3];
	struct lrs_cmp_run *a = make_node_run(true, before, 0, 31, 1, sa);
	struct lrs_cmp_run *b = make_node_run(false, after, 5e5, 31, 2, sb);
	struct lrs_cmp_run *b2 = make_node_run(false, after, 5e5, 31, 3, sb2);
	struct lrs_compare *c = NULL;
	const struct lrs_cmp_row *r;

	assert_int_equal(lrs_compare(a, b, &default_test, &c), 0);
	assert_true(c->node_locks);
	/* the node's one lock against the sum of its memcgs' lruvecs, the root's included */
	r = row_of(c, LRS_CMP_NODE, "N0", 0);
	assert_non_null(r);
	assert_int_equal(r->side, LRS_CMP_BOTH);
	assert_near(r->wait.a, (double)(sa[0] + sa[1]) / 30, 1);
	assert_near(r->wait.b, (double)(sb[0] + sb[1] + sb[2]) / 30, 1);
	assert_true(r->wait.significant);
	/* each container's own tasks' wait, matched by path, whichever lock they waited on */
	for (int i = 0; i < 2; i++) {
		r = row_of(c, LRS_CMP_WAITER, i ? "/lrs-c1" : "/lrs-c0", -1);
		assert_non_null(r);
		assert_int_equal(r->side, LRS_CMP_BOTH);
		assert_near(r->wait.a, (double)sa[i] / 30, 1);
		assert_near(r->wait.b, (double)sb[i] / 30, 1);
		assert_true(r->wait.significant);
	}
	/* the node lock is an lruvec row of A alone, and no memcg of its own */
	assert_int_equal(row_of(c, LRS_CMP_LRUVEC, LRS_NODE_LOCK_MEMCG, 0)->side, LRS_CMP_ONLY_A);
	assert_null(row_of(c, LRS_CMP_MEMCG, LRS_NODE_LOCK_MEMCG, -1));
	lrs_compare__free(c);

	/* two kernels of a lock per memcg: no node or waiter rows, as ever */
	assert_int_equal(lrs_compare(b, b2, &default_test, &c), 0);
	assert_false(c->node_locks);
	for (size_t i = 0; i < c->nr_rows; i++)
		assert_true(c->rows[i].kind != LRS_CMP_NODE && c->rows[i].kind != LRS_CMP_WAITER);
	lrs_compare__free(c);
	lrs_cmp_run__free(a);
	lrs_cmp_run__free(b);
	lrs_cmp_run__free(b2);
}

/* ---- causes of sampled stacks, and pauses ------------------------------------ */

/* One stack per cause, its frames innermost first. */
static const char *const cause_frames[][2] = {
	{ "shrink_inactive_list+0x1a", "shrink_lruvec+0x40" }, /* reclaim */
	{ "folio_mark_accessed+0x10", "filemap_read+0x22" },   /* activation */
	{ "lru_add_drain_cpu+0x5", "lru_add_drain+0x9" },      /* lru-add drain */
	{ "mystery_fn+0x1", "do_syscall_64+0x40" },	       /* unclassified */
};
#define NR_CAUSE_STACKS 4

/*
 * A recording of one lruvec, /lrs-c on node 0, n snapshots 1 s apart (at
 * pause_at, if not 0, 10 s after the one before): each stack of
 * cause_frames samples rate[k] ns/s of wait, noisy; the lruvec waits their sum.
 */
static struct lrs_cmp_run *make_cause_run(const double rate[NR_CAUSE_STACKS], size_t n,
					  unsigned int seed, size_t pause_at)
{
	struct lrs_cmp_run *run = lrs_cmp_run__new();
	uint64_t used[NR_CAUSE_STACKS] = { 0 }, all = 0, t_ns = 0;

	lrs_noise__seed(0x9e3779b97f4a7c15ULL * (seed + 7));
	for (size_t t = 0; t < n; t++) {
		struct lrs_snapshot *s = lrs_snapshot__new();
		struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

		t_ns += t && t == pause_at ? 10000000000ULL : 1000000000ULL;
		s->t_ns = t_ns;
		s->interval_ns = 1000000000ULL;
		lv->memcg = strdup("/lrs-c");
		lv->memcg_id = 30;
		lv->stacks = calloc(NR_CAUSE_STACKS, sizeof(*lv->stacks));
		for (int k = 0; k < NR_CAUSE_STACKS; k++) {
			struct lrs_stack *st = lrs_snapshot__add_stack(s);
			uint64_t w = t ? (uint64_t)lrs_noise__skewed(rate[k]) : 0;

			st->id = k + 1;
			st->frames = calloc(2, sizeof(*st->frames));
			st->frames[0] = strdup(cause_frames[k][0]);
			st->frames[1] = strdup(cause_frames[k][1]);
			st->nr_frames = 2;
			used[k] += w;
			all += w;
			if (used[k])
				lv->stacks[lv->nr_stacks++] =
					(struct lrs_stack_use){ .id = k + 1,
								.contended = used[k] / 2000 + 1,
								.wait_ns = used[k] };
		}
		lv->counters.wait_ns = all;
		lv->counters.contended = all / 2000;
		assert_int_equal(lrs_cmp_run__push(run, s), 0);
		lrs_snapshot__free(s);
	}
	return run;
}

static const struct lrs_cmp_cause *cause_of(const struct lrs_cmp_row *r, enum lrs_cause cause)
{
	for (size_t i = 0; i < r->nr_causes; i++)
		if (r->causes[i].cause == cause)
			return &r->causes[i];
	return NULL;
}

static void test_causes_grown_unchanged_one_sided(void **state)
{
	/* reclaim 5x, activation unchanged, lru-add drain only in B, a little unclassified */
	const double a_rate[NR_CAUSE_STACKS] = { 2e5, 1e5, 0, 2e4 };
	const double b_rate[NR_CAUSE_STACKS] = { 1e6, 1e5, 1e5, 2e4 };
	struct lrs_cmp_run *ra = make_cause_run(a_rate, 31, 1, 0),
			   *rb = make_cause_run(b_rate, 31, 2, 0);
	struct lrs_compare *c = NULL;
	const struct lrs_cmp_row *r;
	const struct lrs_cmp_cause *reclaim, *act, *drain, *unc;

	assert_int_equal(lrs_compare(ra, rb, &default_test, &c), 0);
	r = row_of(c, LRS_CMP_LRUVEC, "/lrs-c", 0);
	assert_non_null(r);
	assert_int_equal(r->nr_causes, 4);
	reclaim = cause_of(r, LRS_CAUSE_RECLAIM);
	act = cause_of(r, LRS_CAUSE_ACTIVATION);
	drain = cause_of(r, LRS_CAUSE_LRU_ADD_DRAIN);
	unc = cause_of(r, LRS_CAUSE_UNCLASSIFIED);
	assert_non_null(reclaim);
	assert_non_null(act);
	assert_non_null(drain);
	assert_non_null(unc);
	/* the 5x cause: significant, ratio about 5, first */
	assert_ptr_equal(&r->causes[0], reclaim);
	assert_true(reclaim->wait.significant);
	assert_true(reclaim->wait.ratio > 4 && reclaim->wait.ratio < 6.5);
	assert_int_equal(reclaim->side, LRS_CMP_BOTH);
	assert_true(reclaim->share_b > reclaim->share_a);
	/* unchanged: not significant */
	assert_false(act->wait.significant);
	assert_true(act->wait.ratio > 0.7 && act->wait.ratio < 1.4);
	assert_false(unc->wait.significant);
	/* sampled in B only: listed as such, zeros in A against B's waits */
	assert_int_equal(drain->side, LRS_CMP_ONLY_B);
	assert_near(drain->wait.a, 0, 1e-12);
	assert_near(drain->share_a, 0, 1e-12);
	assert_true(drain->share_b > 0);
	assert_true(isinf(drain->wait.ratio));
	assert_true(drain->wait.significant);
	/* significant ones first: reclaim, drain, then the others */
	assert_ptr_equal(&r->causes[1], drain);
	assert_near(reclaim->share_a + act->share_a + drain->share_a + unc->share_a, 1, 1e-9);
	lrs_compare__free(c);
	lrs_cmp_run__free(ra);
	lrs_cmp_run__free(rb);
}

static void test_causes_unclassified_shown_untested_without_stacks(void **state)
{
	const double a_rate[NR_CAUSE_STACKS] = { 2e5, 1e5, 0, 0 };
	const double none[NR_CAUSE_STACKS] = { 0, 0, 0, 0 };
	struct lrs_cmp_run *ra = make_cause_run(a_rate, 21, 3, 0),
			   *rb = make_cause_run(a_rate, 21, 4, 0);
	struct lrs_cmp_run *rn = make_cause_run(none, 21, 5, 0);
	struct lrs_compare *c = NULL;
	const struct lrs_cmp_row *r;
	const struct lrs_cmp_cause *unc;

	assert_int_equal(lrs_compare(ra, rb, &default_test, &c), 0);
	r = row_of(c, LRS_CMP_LRUVEC, "/lrs-c", 0);
	/* nothing unclassified sampled: still listed, at 0, last */
	assert_int_equal(r->nr_causes, 3);
	unc = cause_of(r, LRS_CAUSE_UNCLASSIFIED);
	assert_non_null(unc);
	assert_ptr_equal(unc, &r->causes[2]);
	assert_near(unc->wait.b, 0, 1e-12);
	for (size_t i = 0; i < r->nr_causes; i++)
		assert_false(r->causes[i].wait.significant);
	lrs_compare__free(c);
	/* no stack sampled in B (and no wait there): A's causes listed, not tested */
	assert_int_equal(lrs_compare(ra, rn, &default_test, &c), 0);
	r = row_of(c, LRS_CMP_LRUVEC, "/lrs-c", 0);
	assert_non_null(r);
	assert_int_equal(r->nr_causes, 3);
	for (size_t i = 0; i < r->nr_causes; i++)
		assert_true(isnan(r->causes[i].wait.p));
	assert_int_equal(cause_of(r, LRS_CAUSE_RECLAIM)->side, LRS_CMP_ONLY_A);
	lrs_compare__free(c);
	lrs_cmp_run__free(ra);
	lrs_cmp_run__free(rb);
	lrs_cmp_run__free(rn);
}

static void test_pause_is_no_sample(void **state)
{
	const double rate[NR_CAUSE_STACKS] = { 2e5, 0, 0, 0 };
	/* 21 snapshots, the 11th 10 s after the 10th: 19 intervals of 1 s and a pause */
	struct lrs_cmp_run *run = make_cause_run(rate, 21, 6, 10);

	assert_int_equal(lrs_cmp_run__samples(run), 19);
	assert_int_equal(lrs_cmp_run__pauses(run), 1);
	assert_near(lrs_cmp_run__duration_s(run), 19.0, 1e-9);
	lrs_cmp_run__free(run);
}

/*
 * A lruvec first seen at interval 150 of 200: its series starts past twice the
 * first allocation of 64 samples (a memcg made late in a long recording).
 */
static void test_series_first_seen_late(void **state)
{
	struct lrs_cmp_run *run = lrs_cmp_run__new();
	const struct lrs_cmp_row *r;
	struct lrs_compare *c;
	uint64_t wait = 0;

	for (size_t t = 0; t < 201; t++) {
		struct lrs_snapshot *s = lrs_snapshot__new();
		struct lrs_lruvec *lv;

		s->t_ns = (t + 1) * 1000000000ULL;
		lrs_snapshot__add_node(s, 0);
		if (t >= 150) {
			lv = lrs_snapshot__add_lruvec(s);
			lv->memcg = strdup("/late");
			lv->memcg_id = 7;
			wait += t > 150 ? 1000000 : 0;
			lv->counters.wait_ns = wait;
			lv->counters.contended = wait / 2000;
		}
		assert_int_equal(lrs_cmp_run__push(run, s), 0);
		lrs_snapshot__free(s);
	}
	assert_int_equal(lrs_cmp_run__samples(run), 200);
	assert_int_equal(lrs_compare(run, run, &default_test, &c), 0);
	r = row_of(c, LRS_CMP_LRUVEC, "/late", 0);
	assert_non_null(r);
	/* 50 intervals of 1 ms/s over 200 s; the same run on both sides */
	assert_near(r->wait.a, 50 * 1e6 / 200, 1e-3);
	assert_near(r->wait.b, r->wait.a, 1e-9);
	assert_false(r->wait.significant);
	lrs_compare__free(c);
	lrs_cmp_run__free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_distribution_no_significant_change),
		cmocka_unit_test(test_small_change_not_significant),
		cmocka_unit_test(test_shifted_memcg_significant_and_first),
		cmocka_unit_test(test_memcg_sum_over_nodes),
		cmocka_unit_test(test_counter_reset_and_removed_memcg_path_reused),
		cmocka_unit_test(test_removed_memcg_carried_over_is_not_in_the_run),
		cmocka_unit_test(test_node_lock_against_memcg_locks),
		cmocka_unit_test(test_causes_grown_unchanged_one_sided),
		cmocka_unit_test(test_causes_unclassified_shown_untested_without_stacks),
		cmocka_unit_test(test_pause_is_no_sample),
		cmocka_unit_test(test_series_first_seen_late),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

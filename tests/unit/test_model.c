// SPDX-License-Identifier: GPL-2.0
/* The model: deltas, rates, rows per memcg, sort, filter, selection, history. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/model.h"
#include "ui/action.h"

static struct lrs_lruvec *add_lv(struct lrs_snapshot *s, const char *path, uint64_t id, int node,
				 uint64_t contended, uint64_t wait_ns)
{
	struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

	lv->memcg = strdup(path);
	lv->memcg_id = id;
	lv->node = node;
	lv->counters.contended = contended;
	lv->counters.wait_ns = wait_ns;
	lv->counters.hist[lrs_hist__bucket(wait_ns / (contended ? contended : 1))] = contended;
	lv->counters.wait_max_ns = wait_ns;
	return lv;
}

static struct lrs_snapshot *snap_at(uint64_t t_ns, uint64_t a_wait, uint64_t b_wait)
{
	struct lrs_snapshot *s = lrs_snapshot__new();

	s->t_ns = t_ns;
	lrs_snapshot__add_node(s, 0);
	lrs_snapshot__add_node(s, 1);
	add_lv(s, "/", 1, 0, 0, 0);
	add_lv(s, "/", 1, 1, 0, 0);
	add_lv(s, "/lrs-a", 10, 0, a_wait / 1000, a_wait);
	add_lv(s, "/lrs-a", 10, 1, 0, 0);
	add_lv(s, "/lrs-b", 11, 0, b_wait / 1000, b_wait);
	add_lv(s, "/lrs-b", 11, 1, 1, b_wait / 2);
	return s;
}

static void test_first_push_is_baseline(void **state)
{
	struct lrs_model *m = lrs_model__new(8);

	assert_int_equal(lrs_model__push(m, snap_at(1000000000, 5000000, 1000000)), 0);
	assert_int_equal(m->nr_rows, 3);
	assert_int_equal(m->nr_nodes, 2);
	assert_int_equal(m->lruvec_wait_ns, 0);
	assert_int_equal(m->history_len, 0);
	lrs_model__free(m);
}

static void test_rates_between_two_snapshots(void **state)
{
	struct lrs_model *m = lrs_model__new(8);

	lrs_model__push(m, snap_at(1000000000, 5000000, 1000000));
	lrs_model__push(m, snap_at(3000000000, 9000000, 1000000));
	assert_true(m->interval_s > 1.99 && m->interval_s < 2.01);
	/* /lrs-a node 0 waited 4 ms more in 2 s: 2 ms/s */
	const struct lrs_row *a = &m->rows[1];
	assert_string_equal(a->memcg, "/lrs-a");
	assert_int_equal(a->cells[0].wait_ns, 4000000);
	assert_true(a->cells[0].wait_ns_per_s > 1999999.0 && a->cells[0].wait_ns_per_s < 2000001.0);
	assert_int_equal(a->cells[0].contended, 4000);
	assert_int_equal(m->lruvec_wait_ns, 4000000);
	assert_int_equal(m->rows[2].wait_ns, 0);
	/* the wait sort puts /lrs-a first */
	assert_int_equal(m->visible[0], 1);
	lrs_model__free(m);
}

static void test_counter_reset_counts_from_zero(void **state)
{
	struct lrs_model *m = lrs_model__new(8);

	lrs_model__push(m, snap_at(1000000000, 9000000, 0));
	lrs_model__push(m, snap_at(2000000000, 3000000, 0));
	assert_int_equal(m->rows[1].cells[0].wait_ns, 3000000);
	lrs_model__free(m);
}

static void test_new_lruvec_counts_from_zero_and_removed_flag(void **state)
{
	struct lrs_model *m = lrs_model__new(8);
	struct lrs_snapshot *s2 = snap_at(2000000000, 0, 0);
	struct lrs_lruvec *gone = add_lv(s2, "/lrs-gone", 99, 0, 7, 7000);

	gone->removed = true;
	lrs_model__push(m, snap_at(1000000000, 0, 0));
	lrs_model__push(m, s2);
	assert_int_equal(m->nr_rows, 4);
	assert_true(m->rows[3].removed);
	assert_int_equal(m->rows[3].wait_ns, 7000);
	assert_int_equal(m->nr_visible, 4);
	/* once nobody waits on it any more, the removed memcg leaves the view */
	struct lrs_snapshot *s3 = snap_at(3000000000, 0, 0);
	add_lv(s3, "/lrs-gone", 99, 0, 7, 7000)->removed = true;
	lrs_model__push(m, s3);
	assert_int_equal(m->nr_rows, 4);
	assert_int_equal(m->nr_visible, 3);
	assert_false(lrs_action__reaction(LRS_ACT_METRIC_NEXT) & LRS_REACT_USER_MOVED);
	assert_true(lrs_action__reaction(LRS_ACT_END) & LRS_REACT_USER_MOVED);
	lrs_model__free(m);
}

static void test_sort_filter_and_selection(void **state)
{
	struct lrs_model *m = lrs_model__new(8);
	struct lrs_view_state vs;

	lrs_view_state__init(&vs);
	lrs_model__push(m, snap_at(1000000000, 0, 0));
	lrs_model__push(m, snap_at(2000000000, 1000000, 8000000));
	/* wait sort: /lrs-b (8 ms + 4 ms) before /lrs-a */
	assert_string_equal(m->rows[m->visible[0]].memcg, "/lrs-b");
	/* the first snapshot selected the first row then ("/"): it stays selected */
	assert_int_equal(m->sel_memcg_id, 1);
	lrs_action__apply(LRS_ACT_HOME, m, &vs, 1);
	assert_int_equal(m->sel_memcg_id, 11);
	lrs_action__apply(LRS_ACT_DOWN, m, &vs, 1);
	assert_int_equal(m->sel_memcg_id, 10);
	/* the selection follows its memcg through a re-sort */
	lrs_action__apply(LRS_ACT_SORT_NEXT, m, &vs, 1); /* count */
	lrs_action__apply(LRS_ACT_SORT_NEXT, m, &vs, 1); /* max */
	lrs_action__apply(LRS_ACT_SORT_NEXT, m, &vs, 1); /* name */
	assert_int_equal(m->sort, LRS_SORT_NAME);
	assert_string_equal(m->rows[m->visible[0]].memcg, "/");
	assert_int_equal(m->sel_memcg_id, 10);
	lrs_action__apply(LRS_ACT_END, m, &vs, 1);
	assert_int_equal(m->sel_memcg_id, 11);
	lrs_action__apply(LRS_ACT_RIGHT, m, &vs, 1);
	lrs_action__apply(LRS_ACT_RIGHT, m, &vs, 1);
	assert_int_equal(m->sel_node_idx, 1);
	assert_int_equal(lrs_model__selected_cell(m)->wait_ns, 4000000);
	/* a filter that hides the selection moves it to the first match */
	strcpy(m->filter, "lrs-a");
	lrs_model__refresh_view(m);
	assert_int_equal(m->nr_visible, 1);
	assert_int_equal(m->sel_memcg_id, 10);
	strcpy(m->filter, "nothing-matches");
	lrs_model__refresh_view(m);
	assert_int_equal(m->nr_visible, 0);
	assert_null(lrs_model__selected_row(m));
	lrs_model__free(m);
}

/* The name sort is alphabetical by path, and a tree: each memcg right under its parent. */
static void test_name_sort_alphabetical_tree(void **state)
{
	static const char *const made[] = { "/", "/zeta", "/a-c", "/a", "/a/b", "/a/a", "/m" };
	static const char *const want[] = { "/", "/a", "/a/a", "/a/b", "/a-c", "/m", "/zeta" };
	struct lrs_model *m = lrs_model__new(8);
	struct lrs_snapshot *s = lrs_snapshot__new();

	lrs_snapshot__add_node(s, 0);
	/* the kernel's order, which is not the alphabet's; none waits, so ties too */
	for (size_t i = 0; i < sizeof(made) / sizeof(made[0]); i++)
		add_lv(s, made[i], 1 + i, 0, 0, 0);
	lrs_model__push(m, s);
	m->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(m);
	assert_int_equal(m->nr_visible, 7);
	for (size_t i = 0; i < m->nr_visible; i++)
		assert_string_equal(m->rows[m->visible[i]].memcg, want[i]);
	/* a wait sort's ties are by name too */
	m->sort = LRS_SORT_WAIT;
	lrs_model__refresh_view(m);
	for (size_t i = 0; i < m->nr_visible; i++)
		assert_string_equal(m->rows[m->visible[i]].memcg, want[i]);
	lrs_model__free(m);
}

static void test_history_ring_and_encoding(void **state)
{
	struct lrs_model *m = lrs_model__new(3);

	for (int i = 0; i <= 5; i++)
		lrs_model__push(m, snap_at((uint64_t)(i + 1) * 1000000000,
					   (uint64_t)i * i * 1000000, 0));
	/* waits per s: 1, 3, 5, 7, 9 ms/s; a ring of 3 keeps 5, 7, 9 */
	const struct lrs_history *h = lrs_model__history(m, 10, 0);
	assert_non_null(h);
	assert_int_equal(m->history_len, 3);
	double want[3] = { 5e6, 7e6, 9e6 };
	for (int i = 0; i < 3; i++) {
		double got = lrs_history__at(m, h, (size_t)i);
		assert_true(got > want[i] * 0.999 && got < want[i] * 1.001);
	}
	assert_int_equal(lrs_history__encode(0), 0);
	assert_true(lrs_history__decode(lrs_history__encode(1e11)) > 0.999e11);
	lrs_model__free(m);
}

static void test_history_forgets_memcgs_gone_for_a_ring(void **state)
{
	struct lrs_model *m = lrs_model__new(2);

	lrs_model__push(m, snap_at(1000000000, 0, 0));
	lrs_model__push(m, snap_at(2000000000, 0, 0));
	assert_non_null(lrs_model__history(m, 11, 0));
	for (int i = 3; i < 8; i++) {
		struct lrs_snapshot *s = lrs_snapshot__new();

		s->t_ns = (uint64_t)i * 1000000000;
		lrs_snapshot__add_node(s, 0);
		add_lv(s, "/", 1, 0, 0, 0);
		lrs_model__push(m, s);
	}
	assert_null(lrs_model__history(m, 11, 0));
	assert_non_null(lrs_model__history(m, 1, 0));
	lrs_model__free(m);
}

static void test_hist_buckets_and_quantiles(void **state)
{
	uint64_t hist[LRS_HIST_BUCKETS] = { 0 };

	assert_int_equal(lrs_hist__bucket(0), 0);
	assert_int_equal(lrs_hist__bucket(1), 0);
	assert_int_equal(lrs_hist__bucket(2), 1);
	assert_int_equal(lrs_hist__bucket(1023), 9);
	assert_int_equal(lrs_hist__bucket(1024), 10);
	assert_int_equal(lrs_hist__bucket(~0ULL), LRS_HIST_BUCKETS - 1);
	hist[10] = 90; /* 1-2 us */
	hist[20] = 10; /* 1-2 ms */
	assert_int_equal(lrs_hist__quantile_ns(hist, 0.5), 2048);
	assert_int_equal(lrs_hist__quantile_ns(hist, 0.99), 2097152);
	memset(hist, 0, sizeof(hist));
	assert_int_equal(lrs_hist__quantile_ns(hist, 0.5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_push_is_baseline),
		cmocka_unit_test(test_rates_between_two_snapshots),
		cmocka_unit_test(test_counter_reset_counts_from_zero),
		cmocka_unit_test(test_new_lruvec_counts_from_zero_and_removed_flag),
		cmocka_unit_test(test_sort_filter_and_selection),
		cmocka_unit_test(test_name_sort_alphabetical_tree),
		cmocka_unit_test(test_history_ring_and_encoding),
		cmocka_unit_test(test_history_forgets_memcgs_gone_for_a_ring),
		cmocka_unit_test(test_hist_buckets_and_quantiles),
	};

	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}

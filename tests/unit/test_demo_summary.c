// SPDX-License-Identifier: GPL-2.0
/* The demo's arithmetic: run deltas, medians, ranges, ratios, noise verdict, JSON. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "demo/demo_summary.h"

static void test_median_odd_even(void **state)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	assert_true(lrs_demo__median(odd, 3) == 3);
	assert_true(lrs_demo__median(even, 4) == 2.5);
	assert_true(lrs_demo__median(one, 1) == 7);
	/* the input is not reordered */
	assert_true(odd[0] == 5 && odd[1] == 1 && odd[2] == 3);
}

static void test_range(void **state)
{
	double v[] = { 10, 30, 20 };
	struct lrs_range r = lrs_demo__range(v, 3);

	assert_true(r.median == 20 && r.min == 10 && r.max == 30);
}

static void test_verdict(void **state)
{
	struct lrs_range a = { 100, 90, 110 }, b = { 130, 120, 140 }, c = { 105, 95, 125 };

	assert_int_equal(lrs_demo__verdict(&a, 3, &b, 3), LRS_NOISE_OUTSIDE);
	assert_int_equal(lrs_demo__verdict(&b, 3, &a, 3), LRS_NOISE_OUTSIDE);
	assert_int_equal(lrs_demo__verdict(&a, 3, &c, 3), LRS_NOISE_WITHIN);
	assert_int_equal(lrs_demo__verdict(&a, 1, &b, 3), LRS_NOISE_UNKNOWN);
}

static struct lrs_demo_run mkrun(enum lrs_layout layout, double mbs, uint64_t wait_ns,
				 const char *top)
{
	struct lrs_demo_run r;

	memset(&r, 0, sizeof(r));
	r.layout = layout;
	r.readers = 8;
	r.mb_per_s = mbs;
	r.lruvec_wait_ns = wait_ns;
	r.lruvec_contended = wait_ns / 1000;
	r.other_wait_ns = 5000;
	snprintf(r.top_lruvec, sizeof(r.top_lruvec), "%s", top);
	return r;
}

static void test_summary_ratios_and_noise(void **state)
{
	struct lrs_demo_run runs[] = {
		mkrun(LRS_LAYOUT_SHARED, 2000, 100000000, "/lrs-demo-shared@N0"),
		mkrun(LRS_LAYOUT_ISOLATED, 2600, 4000000, "/lrs-demo-c1@N0"),
		mkrun(LRS_LAYOUT_SHARED, 2200, 120000000, "/lrs-demo-shared@N0"),
		mkrun(LRS_LAYOUT_ISOLATED, 2400, 5000000, "/lrs-demo-c0@N0"),
		mkrun(LRS_LAYOUT_SHARED, 2100, 80000000, "/lrs-demo-shared@N0"),
		mkrun(LRS_LAYOUT_ISOLATED, 2500, 6000000, "/lrs-demo-c2@N0"),
	};
	struct lrs_demo_summary s;

	assert_int_equal(lrs_demo_summary__compute(runs, 6, &s), 0);
	assert_int_equal(s.nr_layouts, 2);
	assert_int_equal(s.layouts[0].layout, LRS_LAYOUT_SHARED);
	assert_int_equal(s.layouts[0].nr_runs, 3);
	assert_true(s.layouts[0].mb_per_s.median == 2100);
	assert_true(s.layouts[1].mb_per_s.median == 2500);
	assert_true(s.have_ratio);
	assert_true(fabs(s.wait_ratio - 20.0) < 1e-9); /* 100 ms / 5 ms */
	assert_true(fabs(s.mb_ratio - 2500.0 / 2100) < 1e-9);
	assert_true(fabs(s.mb_ratio_min - 2400.0 / 2200) < 1e-9);
	assert_true(fabs(s.mb_ratio_max - 2600.0 / 2000) < 1e-9);
	assert_int_equal(s.mb_verdict, LRS_NOISE_OUTSIDE);
	assert_int_equal(s.wait_verdict, LRS_NOISE_OUTSIDE);
	/* the top lruvec comes from the run with the median wait */
	assert_string_equal(s.layouts[1].top_lruvec, "/lrs-demo-c0@N0");
}

static void test_summary_within_noise_and_single_runs(void **state)
{
	struct lrs_demo_run runs[] = {
		mkrun(LRS_LAYOUT_SHARED, 2000, 1000, "a@N0"),
		mkrun(LRS_LAYOUT_ISOLATED, 2100, 0, ""),
		mkrun(LRS_LAYOUT_SHARED, 2300, 1000, "a@N0"),
		mkrun(LRS_LAYOUT_ISOLATED, 1900, 0, ""),
	};
	struct lrs_demo_summary s;
	char text[512];

	assert_int_equal(lrs_demo_summary__compute(runs, 4, &s), 0);
	assert_int_equal(s.mb_verdict, LRS_NOISE_WITHIN);
	assert_true(isinf(s.wait_ratio)); /* isolated never waited */
	lrs_demo_summary__verdict_text(&s, text, sizeof(text));
	assert_non_null(strstr(text, "within run-to-run noise"));

	assert_int_equal(lrs_demo_summary__compute(runs, 2, &s), 0);
	assert_int_equal(s.mb_verdict, LRS_NOISE_UNKNOWN);
	lrs_demo_summary__verdict_text(&s, text, sizeof(text));
	assert_non_null(strstr(text, "cannot tell"));

	assert_int_equal(lrs_demo_summary__compute(runs, 1, &s), 0);
	assert_false(s.have_ratio);
	assert_int_equal(lrs_demo_summary__compute(NULL, 0, &s), -EINVAL);
}

static struct lrs_lruvec *add_lv(struct lrs_snapshot *s, const char *path, uint64_t id,
				 uint64_t contended, uint64_t wait_ns)
{
	struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

	lv->memcg = strdup(path);
	lv->memcg_id = id;
	lv->node = 0;
	lv->counters.contended = contended;
	lv->counters.wait_ns = wait_ns;
	return lv;
}

static void add_waiter(struct lrs_lruvec *lv, int pid, uint64_t memcg_id, uint64_t contended)
{
	lv->waiters = realloc(lv->waiters, (lv->nr_waiters + 1) * sizeof(*lv->waiters));
	memset(&lv->waiters[lv->nr_waiters], 0, sizeof(*lv->waiters));
	lv->waiters[lv->nr_waiters].pid = pid;
	lv->waiters[lv->nr_waiters].memcg_id = memcg_id;
	lv->waiters[lv->nr_waiters].contended = contended;
	lv->nr_waiters++;
}

static void test_run_from_snapshots(void **state)
{
	struct lrs_snapshot *s0 = lrs_snapshot__new(), *s1 = lrs_snapshot__new();
	struct lrs_lruvec *lv;
	struct lrs_other_lock *ol;
	uint64_t memcgs[] = { 20, 21 };
	pid_t pids[] = { 100, 101, 102 };
	uint64_t pid_memcgs[] = { 20, 20, 21 };
	struct lrs_demo_run_ids ids = { memcgs, 2, pids, pid_memcgs, 3 };
	struct lrs_demo_run run = { 0 };

	lrs_snapshot__add_node(s0, 0);
	lrs_snapshot__add_node(s1, 0);
	add_lv(s0, "/", 1, 50, 50000);
	lv = add_lv(s0, "/lrs-demo-c0", 20, 10, 10000);
	add_waiter(lv, 100, 20, 10);
	ol = lrs_snapshot__add_other_lock(s0);
	ol->name = strdup("zone N0/Normal");
	ol->lock_addr = 0xabc;
	ol->counters.contended = 5;
	ol->counters.wait_ns = 500;

	lv = add_lv(s1, "/", 1, 60, 80000);		 /* +30000 outside the demo */
	add_waiter(lv, 102, 1, 4);			 /* a reader on root's lock: outside */
	lv = add_lv(s1, "/lrs-demo-c0", 20, 40, 70000);	 /* +30 / +60000 */
	add_waiter(lv, 100, 20, 25);			 /* +15 own */
	add_waiter(lv, 101, 20, 15);			 /* +15 own, new */
	lv = add_lv(s1, "/lrs-demo-c1", 21, 7, 9000000); /* new memcg: all of it */
	add_waiter(lv, 102, 21, 5);			 /* own */
	add_waiter(lv, 100, 21, 2);			 /* reader of c0 on c1's lock: foreign,
							   and seen in the wrong memcg */
	add_waiter(lv, 999, 0, 100);			 /* not a reader: foreign */
	ol = lrs_snapshot__add_other_lock(s1);
	ol->name = strdup("zone N0/Normal");
	ol->lock_addr = 0xabc;
	ol->counters.contended = 8;
	ol->counters.wait_ns = 800;

	assert_int_equal(lrs_demo_run__from_snapshots(&run, s0, s1, &ids), 0);
	assert_int_equal(run.lruvec_contended, 30 + 7);
	assert_int_equal(run.lruvec_wait_ns, 60000 + 9000000);
	assert_int_equal(run.all_lruvec_wait_ns, 30000 + 60000 + 9000000);
	assert_int_equal(run.other_contended, 3);
	assert_int_equal(run.other_wait_ns, 300);
	assert_string_equal(run.top_lruvec, "/lrs-demo-c1@N0");
	assert_true(run.attribution_known);
	assert_int_equal(run.own_contended, 15 + 15 + 5);
	assert_int_equal(run.foreign_contended, 2 + 100);
	assert_int_equal(run.outside_contended, 4);
	assert_int_equal(run.waiter_memcg_wrong, 2 + 4); /* 102 is in 21, seen in 1 */
	assert_int_equal(run.waiter_memcg_right, 15 + 15 + 5);

	/* no start snapshot: everything counts */
	assert_int_equal(lrs_demo_run__from_snapshots(&run, NULL, s1, &ids), 0);
	assert_int_equal(run.lruvec_contended, 47);
	assert_int_equal(lrs_demo_run__from_snapshots(&run, s0, NULL, &ids), -EINVAL);
	lrs_snapshot__free(s0);
	lrs_snapshot__free(s1);
}

static void test_json_shape(void **state)
{
	struct lrs_demo_run runs[] = {
		mkrun(LRS_LAYOUT_SHARED, 2000, 100000000, "/lrs-\"q\"@N0"),
		mkrun(LRS_LAYOUT_ISOLATED, 2600, 0, "/lrs-demo-c1@N0"),
	};
	struct lrs_demo_summary s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_int_equal(lrs_demo_summary__compute(runs, 2, &s), 0);
	lrs_demo_summary__print_json(&s, runs, 2, f);
	fclose(f);
	assert_non_null(strstr(buf, "{\"layouts\": [{\"layout\": \"shared\", \"readers\": 8,"));
	assert_non_null(strstr(buf, "\"mb_per_s\": 2000.0"));
	assert_non_null(strstr(buf, "\"lruvec_wait_ns\": 100000000"));
	assert_non_null(strstr(buf, "\"top_lruvec\": \"/lrs-\\\"q\\\"@N0\""));
	/* isolated never waited: the ratio is infinite, which JSON spells null */
	assert_non_null(strstr(buf, "\"ratio\": {\"lruvec_wait\": null, \"mb_per_s\": 1.300"));
	assert_non_null(strstr(buf, "\"per_run\": ["));
	assert_int_equal(strchr(buf, '\n') - buf, (long)len - 1); /* one line */
	free(buf);
}

static void test_text_table(void **state)
{
	struct lrs_demo_run runs[] = {
		mkrun(LRS_LAYOUT_SHARED, 2000, 100000000, "/lrs-demo-shared@N0"),
		mkrun(LRS_LAYOUT_ISOLATED, 2600, 5000000, "/lrs-demo-c1@N0"),
	};
	struct lrs_demo_summary s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	lrs_demo_summary__compute(runs, 2, &s);
	lrs_demo_summary__print_text(&s, f);
	fclose(f);
	assert_non_null(strstr(buf, "throughput MB/s"));
	assert_non_null(strstr(buf, "shared/isolated 20.0x"));
	assert_non_null(strstr(buf, "isolated/shared 1.30x"));
	assert_non_null(strstr(buf, "/lrs-demo-shared@N0"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd_even),
		cmocka_unit_test(test_range),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_summary_ratios_and_noise),
		cmocka_unit_test(test_summary_within_noise_and_single_runs),
		cmocka_unit_test(test_run_from_snapshots),
		cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_text_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

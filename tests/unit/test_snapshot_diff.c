// SPDX-License-Identifier: GPL-2.0
/* The difference of two snapshots (model/snapshot_diff.c): what a report over an interval shows. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "model/snapshot_diff.h"
#include "support/synth.h"

static void test_diff(void **state)
{
	struct lrs_snapshot *a = lrs_synth__snapshot(10, 2, 2000000000ULL, 1);
	struct lrs_snapshot *b = lrs_synth__snapshot(10, 2, 12000000000ULL, 1), *d;
	const struct lrs_lruvec *la, *lb, *ld;

	b->spin_source.name = LRS_SPIN_NONE; /* the last snapshot's source: a report -i says it */
	snprintf(b->spin_source.why, sizeof(b->spin_source.why), "blind");
	/* the task drops' causes count over the interval as the other counters */
	a->drops.task_nested = 5, b->drops.task_nested = 12;
	a->drops.task_unmatched = 10, b->drops.task_unmatched = 30;
	b->drops.task_no_room = 1;
	a->drops.task_lost = 4, b->drops.task_lost = 6;
	assert_int_equal(lrs_snapshot__diff(a, b, &d), 0);
	assert_int_equal(d->spin_source.name, LRS_SPIN_NONE);
	assert_string_equal(d->spin_source.why, "blind");
	assert_true(d->interval_ns == 10000000000ULL);
	assert_int_equal(d->nr_lruvecs, b->nr_lruvecs);
	la = lrs_snapshot__find_lruvec(a, 2, 0);
	lb = lrs_snapshot__find_lruvec(b, 2, 0);
	ld = lrs_snapshot__find_lruvec(d, 2, 0);
	assert_true(ld->counters.contended == lb->counters.contended - la->counters.contended);
	assert_true(ld->counters.wait_ns == lb->counters.wait_ns - la->counters.wait_ns);
	assert_true(ld->counters.wait_max_ns == lb->counters.wait_max_ns);
	for (int i = 0; i < LRS_HIST_BUCKETS; i++)
		assert_true(ld->counters.hist[i] == lb->counters.hist[i] - la->counters.hist[i]);
	assert_true(ld->waiters[0].wait_ns == lb->waiters[0].wait_ns - la->waiters[0].wait_ns);
	assert_true(ld->stacks[0].wait_ns == lb->stacks[0].wait_ns - la->stacks[0].wait_ns);
	assert_true(d->other_locks[0].counters.contended ==
		    b->other_locks[0].counters.contended - a->other_locks[0].counters.contended);
	assert_true(d->drops.stack == b->drops.stack - a->drops.stack);
	assert_true(d->drops.task_nested == 7 && d->drops.task_unmatched == 20 &&
		    d->drops.task_no_room == 1 && d->drops.task_lost == 2);
	lrs_snapshot__free(d);
	/* a counter that went backwards (restart) counts from zero */
	assert_int_equal(lrs_snapshot__diff(b, a, &d), 0);
	ld = lrs_snapshot__find_lruvec(d, 2, 0);
	assert_true(ld->counters.contended == la->counters.contended);
	lrs_snapshot__free(d);
	lrs_snapshot__free(a);
	lrs_snapshot__free(b);
}

/*
 * A task that waited from two memcgs (a reader that waited before joining its container)
 * has two waiter rows of one pid: each counts from its own row at the start.
 */
static void test_diff_waiter_of_two_memcgs(void **state)
{
	struct lrs_snapshot *a = lrs_synth__snapshot(10, 2, 2000000000ULL, 1), *b, *d;
	struct lrs_lruvec *la, *lb;
	const struct lrs_lruvec *ld;

	la = &a->lruvecs[0];
	assert_true(la->nr_waiters >= 2);
	la->waiters[1].pid = la->waiters[0].pid;
	la->waiters[1].memcg_id = la->waiters[0].memcg_id + 100;
	la->waiters[0].contended = 1000;
	la->waiters[1].contended = 10;
	b = lrs_snapshot__clone(a);
	b->t_ns += 1000000000ULL;
	lb = &b->lruvecs[0];
	lb->waiters[0].contended += 3;
	lb->waiters[1].contended += 50;
	assert_int_equal(lrs_snapshot__diff(a, b, &d), 0);
	ld = lrs_snapshot__find_lruvec(d, la->memcg_id, la->node);
	assert_non_null(ld);
	for (size_t i = 0; i < ld->nr_waiters; i++) {
		if (ld->waiters[i].pid != la->waiters[0].pid)
			continue;
		assert_true(ld->waiters[i].contended ==
			    (ld->waiters[i].memcg_id == la->waiters[0].memcg_id ? 3 : 50));
	}
	lrs_snapshot__free(d);
	lrs_snapshot__free(a);
	lrs_snapshot__free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_diff_waiter_of_two_memcgs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

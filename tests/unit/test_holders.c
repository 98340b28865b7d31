// SPDX-License-Identifier: GPL-2.0
/* The holder estimator (collector/holders.c) on synthetic contention streams. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "holders.h"

#define L1 0x1000
#define L2 0x2000
#define OWNER 7

static void ev(struct lrs_holder_est *e, enum lrs_holder_ev type, uint64_t t, uint32_t cpu,
	       uint32_t pid, uint64_t memcg, uint64_t lock)
{
	struct lrs_holder_event x = {
		.type = type, .t_ns = t, .cpu = cpu, .pid = pid, .memcg = memcg, .lock_addr = lock,
		.owner_cgid = OWNER, .stack_id = (int32_t)pid,
	};

	assert_int_equal(lrs_holder_est__feed(e, &x), 0);
}

#define B(t, cpu, pid, memcg, lock) ev(e, LRS_HOLDER_BEGIN, t, cpu, pid, memcg, lock)
#define E(t, cpu, pid, memcg, lock) ev(e, LRS_HOLDER_END, t, cpu, pid, memcg, lock)

/* A queue of three on one lock: each hold goes to the one before, FIFO. */
static void test_fifo_chain(void **state)
{
	struct lrs_holder_est *e;
	const struct lrs_holder_tally *a, *b, *u;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	B(100, 0, 10, 1, L1);	/* A waits */
	B(110, 1, 20, 2, L1);	/* B waits */
	B(120, 2, 30, 2, L1);	/* C waits */
	E(200, 0, 10, 1, L1);	/* A gets it: holder before it unknown */
	E(500, 1, 20, 2, L1);	/* B gets it: A held 300 ns, C queued too */
	E(650, 2, 30, 2, L1);	/* C gets it: B held 150 ns */
	a = lrs_holder_est__find(e, L1, 10);
	b = lrs_holder_est__find(e, L1, 20);
	u = lrs_holder_est__find(e, L1, 0);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(u);
	assert_int_equal(a->hold_ns, 300);
	assert_int_equal(a->holds, 1);
	assert_int_equal(a->waiters, 2);	/* B and C queued when A took it */
	assert_int_equal(a->imposed_ns, 600);
	assert_int_equal(a->cgid, 1);
	assert_int_equal(a->stack_id, 10);	/* A's own wait stack */
	assert_int_equal(a->probable_ns, 0);
	assert_int_equal(b->hold_ns, 150);
	assert_int_equal(b->waiters, 1);
	assert_int_equal(u->hold_ns, 100);	/* A's own wait: unknown holder */
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.unknown, 1);
	assert_int_equal(c.probable, 0);
	assert_int_equal(c.drop_task, 0);
	lrs_holder_est__free(e);
}

/* Interleaved locks: each lock has its own chain. */
static void test_interleaved_locks(void **state)
{
	struct lrs_holder_est *e;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	B(0, 0, 1, 1, L1);
	B(5, 1, 2, 2, L2);
	B(10, 2, 3, 3, L1);
	B(15, 3, 4, 4, L2);
	E(20, 0, 1, 1, L1);
	E(25, 1, 2, 2, L2);
	E(70, 2, 3, 3, L1);	/* behind 1 on L1: 50 */
	E(95, 3, 4, 4, L2);	/* behind 2 on L2: 70 */
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->hold_ns, 50);
	assert_int_equal(lrs_holder_est__find(e, L2, 2)->hold_ns, 70);
	assert_null(lrs_holder_est__find(e, L1, 2));
	assert_null(lrs_holder_est__find(e, L2, 1));
	lrs_holder_est__free(e);
}

/* An interrupt on a CPU already spinning on L1 contends on L2: both waits stay whole. */
static void test_nested_on_one_cpu(void **state)
{
	struct lrs_holder_est *e;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	B(0, 1, 9, 9, L2);	/* 9 waits on L2 on cpu 1 */
	E(10, 1, 9, 9, L2);	/* 9 holds L2 from 10 */
	B(20, 0, 1, 1, L1);	/* task 1 spins on L1 on cpu 0 */
	B(30, 0, 1, 1, L2);	/* an irq on cpu 0 spins on L2 */
	E(60, 0, 1, 1, L2);	/* irq got L2: 9 held it (probable: came after 9 took it) */
	E(90, 0, 1, 1, L1);	/* task 1 got L1: no holder known */
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.drop_task, 0);
	assert_int_equal(lrs_holder_est__find(e, L2, 9)->hold_ns, 30);
	assert_int_equal(lrs_holder_est__find(e, L2, 9)->probable_ns, 30);
	assert_int_equal(lrs_holder_est__find(e, L1, 0)->hold_ns, 70);
	assert_int_equal(c.probable, 1);
	lrs_holder_est__free(e);
}

/* Missed events: an end without begin is dropped; a lost end charges the older holder. */
static void test_missed_events(void **state)
{
	struct lrs_holder_est *e;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	E(5, 0, 1, 1, L1);	/* begin lost */
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.drop_task, 1);
	B(10, 0, 1, 1, L1);
	B(11, 1, 2, 2, L1);
	B(12, 2, 3, 3, L1);
	E(20, 0, 1, 1, L1);
	/* task 2's end is lost (its CPU's slot stays): 3 is charged to 1, for 1's and 2's holds */
	E(80, 2, 3, 3, L1);
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->hold_ns, 60);
	assert_null(lrs_holder_est__find(e, L1, 2));
	lrs_holder_est__free(e);
}

/* The matrix: cells (waiter memcg, owner memcg, holder memcg), imposed = hold x queued. */
static void test_matrix(void **state)
{
	struct lrs_holder_est *e;
	const struct lrs_matrix_tally *m;
	size_t n, found = 0;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	for (int i = 0; i < 10; i++) {
		uint64_t t = (uint64_t)i * 1000;

		B(t, 0, 100, 50, L1);		/* the heavy memcg 50 */
		B(t + 1, 1, 200, 60, L1);	/* the light one, 60, queues behind it */
		E(t + 10, 0, 100, 50, L1);
		E(t + 410, 1, 200, 60, L1);	/* 50 held it 400 ns */
	}
	m = lrs_holder_est__matrix(e, &n);
	for (size_t i = 0; i < n; i++)
		if (m[i].waiter_cgid == 60 && m[i].holder_cgid == 50) {
			assert_int_equal(m[i].owner_cgid, OWNER);
			assert_int_equal(m[i].holds, 10);
			assert_int_equal(m[i].hold_ns, 4000);
			assert_int_equal(m[i].imposed_ns, 4000);
			found++;
		}
	assert_int_equal(found, 1);
	lrs_holder_est__free(e);
}

/* A snapshot's holders fold into a matrix ordered by total. */
static void test_fold(void **state)
{
	struct lrs_matrix_cell cells[] = {
		{ .waiter_id = 2, .owner_id = 2, .holder_id = 1, .imposed_ns = 900 },
		{ .waiter_id = 1, .owner_id = 1, .holder_id = 1, .imposed_ns = 100 },
		{ .waiter_id = 2, .owner_id = 2, .holder_id = 2, .imposed_ns = 50 },
	};
	struct lrs_holders h = { .mode = LRS_HOLDERS_ESTIMATED, .cells = cells, .nr_cells = 3 };
	uint64_t rows[4], cols[4], vals[16];
	size_t nr, nc;

	assert_int_equal(lrs_holders__fold(&h, true, 4, rows, &nr, cols, &nc, vals), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(nc, 2);
	assert_int_equal(rows[0], 2);
	assert_int_equal(cols[0], 1);	/* memcg 1 holds the most */
	assert_int_equal(vals[0 * 4 + 0], 900);
	assert_int_equal(vals[0 * 4 + 1], 50);
	assert_int_equal(vals[1 * 4 + 0], 100);
	assert_int_equal(lrs_holders__fold(&h, false, 4, rows, &nr, cols, &nc, vals), 0);
	assert_int_equal(cols[0], 2);	/* by owner: memcg 2's lruvec */
	assert_int_equal(vals[0 * 4 + 0], 950);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_chain),
		cmocka_unit_test(test_interleaved_locks),
		cmocka_unit_test(test_nested_on_one_cpu),
		cmocka_unit_test(test_missed_events),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* A loop's ticks (model/clock.c): the grid keeps its phase, the ticks passed over are counted. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/clock.h"

static void test_on_time(void **state)
{
	uint64_t skipped = 0;

	/* woken early or on time: the next tick, nothing skipped */
	assert_true(lrs_clock__next_tick(10.0, 1.0, 10.2, &skipped) == 11.0);
	assert_true(lrs_clock__next_tick(10.0, 1.0, 11.0, &skipped) == 11.0);
	assert_int_equal(skipped, 0);
}

static void test_behind_keeps_the_grid(void **state)
{
	uint64_t skipped = 0;
	double next = 0;
	int taken = 0;

	/* done at 10, now 11.5: tick 11 passed over, the next is 12, not 12.5 */
	assert_true(lrs_clock__next_tick(10.0, 1.0, 11.5, &skipped) == 12.0);
	assert_int_equal(skipped, 1);
	/* 3.25 intervals late: 11, 12 and 13 passed over (done at 10), the next is 14 */
	skipped = 0;
	assert_true(lrs_clock__next_tick(10.0, 1.0, 13.25, &skipped) == 14.0);
	assert_int_equal(skipped, 3);
	/* a caller that counts nothing (record: its timestamps show the gap) passes NULL */
	assert_true(lrs_clock__next_tick(10.0, 1.0, 13.25, NULL) == 14.0);
	/*
	 * a loop whose every snapshot ends 1.1 intervals after its tick, for 20 intervals:
	 * the ticks it took and those it skipped add up to the time it ran (a grid started
	 * again at each late end would lose a tenth of an interval each time, uncounted)
	 */
	skipped = 0;
	for (next = 1.0; next <= 20.0;) {
		taken++;
		next = lrs_clock__next_tick(next, 1.0, next + 1.1, &skipped);
	}
	assert_int_equal((uint64_t)taken + skipped, 20);
	assert_true(next == 21.0);
}

static void test_no_interval(void **state)
{
	uint64_t skipped = 0;

	assert_true(lrs_clock__next_tick(5.0, 0.0, 9.0, &skipped) == 5.0);
	assert_int_equal(skipped, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_on_time),
		cmocka_unit_test(test_behind_keeps_the_grid),
		cmocka_unit_test(test_no_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

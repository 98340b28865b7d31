// SPDX-License-Identifier: GPL-2.0
/* 'lruscope diff': the Mann-Whitney U test (model/compare_stats.c) on small and noisy samples. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/compare.h"
#include "support/noise.h"

/* this cmocka has no assert_double_equal */
#define assert_near(x, y, eps) assert_true(fabs((double)(x) - (double)(y)) <= (eps))

static void test_mwu_exact_small_samples(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	const double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };
	const double mixed_a[] = { 1, 4, 5, 8, 9 }, mixed_b[] = { 2, 3, 6, 7, 10 };

	/* fully separated: 2 of the C(6,3) = 20 splits are as extreme */
	assert_near(lrs_stats__mann_whitney_p(a, 3, b, 3), 0.1, 1e-12);
	/* 2 of C(10,5) = 252: below 1% */
	assert_near(lrs_stats__mann_whitney_p(a5, 5, b5, 5), 2.0 / 252, 1e-12);
	assert_true(lrs_stats__mann_whitney_p(b5, 5, a5, 5) < 0.01);
	/* interleaved: nowhere near */
	assert_true(lrs_stats__mann_whitney_p(mixed_a, 5, mixed_b, 5) > 0.5);
	/* too few samples: not tested */
	assert_true(isnan(lrs_stats__mann_whitney_p(a, 2, b, 3)));
}

static void test_mwu_ties_and_all_equal(void **state)
{
	const double zeros[8] = { 0 }, some[8] = { 0, 0, 0, 0, 0, 0, 0, 5 };

	assert_near(lrs_stats__mann_whitney_p(zeros, 8, zeros, 8), 1.0, 1e-12);
	/* one burst in eight intervals is noise */
	assert_true(lrs_stats__mann_whitney_p(zeros, 8, some, 8) > 0.1);
}

static void test_mwu_equal_distributions_not_significant(void **state)
{
	double a[60], b[60];
	int alarms = 0;

	/* 20 pairs of noisy samples of one distribution: 1% expects 0.2 alarms */
	for (unsigned int seed = 1; seed <= 20; seed++) {
		lrs_noise__seed(0x9e3779b97f4a7c15ULL * seed);
		for (size_t i = 0; i < 60; i++) {
			a[i] = lrs_noise__skewed(2e6);
			b[i] = lrs_noise__skewed(2e6);
		}
		alarms += lrs_stats__mann_whitney_p(a, 60, b, 60) < LRS_COMPARE_ALPHA;
	}
	assert_true(alarms <= 1);
}

static void test_mwu_shifted_is_significant(void **state)
{
	double a[30], b[30];

	lrs_noise__seed(42);
	for (size_t i = 0; i < 30; i++) {
		a[i] = lrs_noise__skewed(2e6);
		b[i] = lrs_noise__skewed(2.6e6); /* 30% more, well inside a's spread */
	}
	assert_true(lrs_stats__mann_whitney_p(a, 30, b, 30) < LRS_COMPARE_ALPHA);
	for (size_t i = 0; i < 30; i++)
		b[i] = lrs_noise__skewed(10e6);
	assert_true(lrs_stats__mann_whitney_p(a, 30, b, 30) < 1e-6);
}

static void test_mwu_autocorrelation_widens(void **state)
{
	/* a slow drift: neighbours alike, so fewer independent samples than 40 */
	double a[40], b[40], shuffled_a[40], shuffled_b[40];
	double p_drift, p_iid;

	for (size_t i = 0; i < 40; i++) {
		a[i] = 100 + (double)i;
		b[i] = 110 + (double)i;
		shuffled_a[i] = 100 + (double)((i * 17) % 40);
		shuffled_b[i] = 110 + (double)((i * 17) % 40);
	}
	/* the same values, in time order and shuffled */
	p_drift = lrs_stats__mann_whitney_p(a, 40, b, 40);
	p_iid = lrs_stats__mann_whitney_p(shuffled_a, 40, shuffled_b, 40);
	assert_true(p_drift > p_iid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mwu_exact_small_samples),
		cmocka_unit_test(test_mwu_ties_and_all_equal),
		cmocka_unit_test(test_mwu_equal_distributions_not_significant),
		cmocka_unit_test(test_mwu_shifted_is_significant),
		cmocka_unit_test(test_mwu_autocorrelation_widens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Mann-Whitney U for 'lruscope diff'. Interval rates of a lock are few (a
 * minute of recording is 60), skewed (waits come in bursts) and often tied
 * (an idle lock's are all 0): a rank test assumes no distribution, and an
 * exact count of the splits handles the smallest samples, where the normal
 * approximation would never reach 1%.
 */
#include <math.h>
#include <stdlib.h>

#include "model/compare.h"

struct ranked {
	double v;
	size_t i; /* index into a (i < na) or into b (i - na) */
};

static int cmp_ranked(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	return a->v < b->v ? -1 : a->v > b->v;
}

/* Lag-1 autocorrelation of n values in time order; 0 when they do not vary. */
static double lag1_autocorrelation(const double *v, size_t n)
{
	double mean = 0, num = 0, den = 0;

	for (size_t i = 0; i < n; i++)
		mean += v[i] / (double)n;
	for (size_t i = 0; i < n; i++) {
		den += (v[i] - mean) * (v[i] - mean);
		if (i + 1 < n)
			num += (v[i] - mean) * (v[i + 1] - mean);
	}
	return den > 0 ? num / den : 0;
}

/*
 * The two samples' lag-1 autocorrelation, pooled (weighted by their lengths,
 * each corrected for its -1/n small-sample bias), when beyond what
 * independent samples show by chance (1.96 / sqrt(na + nb)), else 0; at most 0.8.
 */
static double pooled_autocorrelation(const double *a, size_t na, const double *b, size_t nb)
{
	double r = ((lag1_autocorrelation(a, na) + 1.0 / (double)na) * (double)na +
		    (lag1_autocorrelation(b, nb) + 1.0 / (double)nb) * (double)nb) /
		   (double)(na + nb);

	return r > 1.96 / sqrt((double)(na + nb)) ? fmin(r, 0.8) : 0;
}

/* C(n, k) as a double, or INFINITY past limit (enough to decide exact or not). */
static double choose_upto(size_t n, size_t k, double limit)
{
	double c = 1;

	if (k > n - k)
		k = n - k;
	for (size_t i = 1; i <= k; i++) {
		c = c * (double)(n - k + i) / (double)i;
		if (c > limit)
			return INFINITY;
	}
	return c;
}

/*
 * Exact two-sided p: the share of the C(N, na) ways of giving na of the
 * pooled ranks to a whose rank sum is at least as far from its mean as the
 * observed one. Walks the combinations in lexicographic order.
 */
static double exact_p(const double *rank, size_t n, size_t na, double observed)
{
	size_t idx[64];
	double mean = (double)na * (double)(n + 1) / 2, far = fabs(observed - mean) - 1e-9;
	double extreme = 0, total = 0;

	for (size_t i = 0; i < na; i++)
		idx[i] = i;
	for (;;) {
		double sum = 0;
		size_t k;

		for (size_t i = 0; i < na; i++)
			sum += rank[idx[i]];
		total++;
		if (fabs(sum - mean) >= far)
			extreme++;
		for (k = na; k-- > 0;)
			if (idx[k] != k + n - na)
				break;
		if (k == (size_t)-1)
			break;
		idx[k]++;
		for (size_t i = k + 1; i < na; i++)
			idx[i] = idx[i - 1] + 1;
	}
	return extreme / total;
}

double lrs_stats__mann_whitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb;
	struct ranked *r;
	double *rank, *rank_a, *rank_b, ties = 0, sum_a = 0, p;

	if (na < LRS_COMPARE_MIN_SAMPLES || nb < LRS_COMPARE_MIN_SAMPLES)
		return NAN;
	r = calloc(n, sizeof(*r));
	rank = calloc(n, sizeof(*rank)); /* by pooled index: a's then b's */
	if (!r || !rank) {
		free(r);
		free(rank);
		return NAN;
	}
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked){ .v = i < na ? a[i] : b[i - na], .i = i };
	qsort(r, n, sizeof(*r), cmp_ranked);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && r[j + 1].v == r[i].v)
			j++;
		/* ranks i+1 .. j+1 share their mean */
		for (size_t k = i; k <= j; k++)
			rank[r[k].i] = (double)(i + j + 2) / 2;
		ties += pow((double)(j - i + 1), 3) - (double)(j - i + 1);
		i = j + 1;
	}
	free(r);
	for (size_t i = 0; i < na; i++)
		sum_a += rank[i];
	if (ties == pow((double)n, 3) - (double)n) {
		p = 1; /* every value the same: nothing to tell apart */
	} else if (na <= 64 && choose_upto(n, na, LRS_MWU_EXACT_MAX) <= LRS_MWU_EXACT_MAX) {
		p = exact_p(rank, n, na, sum_a);
	} else {
		double u = sum_a - (double)na * (double)(na + 1) / 2,
		       mean = (double)na * (double)nb / 2;
		double var = (double)na * (double)nb / 12 *
			     ((double)(n + 1) - ties / ((double)n * (double)(n - 1)));
		double rho, z;

		rank_a = rank;
		rank_b = rank + na;
		rho = pooled_autocorrelation(rank_a, na, rank_b, nb);
		var *= (1 + rho) / (1 - rho);
		z = fmax(fabs(u - mean) - 0.5, 0) / sqrt(var);
		p = erfc(z / sqrt(2));
	}
	free(rank);
	return fmin(p, 1);
}

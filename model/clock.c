// SPDX-License-Identifier: GPL-2.0
#include <time.h>

#include "model/clock.h"

uint64_t lrs_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

double lrs_now_s(void)
{
	return (double)lrs_now_ns() / 1e9;
}

double lrs_clock__next_tick(double done, double interval, double now, uint64_t *skipped)
{
	double after = done + interval;
	uint64_t k;

	if (now <= after || interval <= 0)
		return after;
	k = (uint64_t)((now - after) / interval) + 1;
	if (skipped)
		*skipped += k;
	return after + (double)k * interval;
}

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

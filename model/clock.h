/* SPDX-License-Identifier: GPL-2.0 */
/* Monotonic time, for intervals, deadlines and rates: one clock for every layer. */
#ifndef LRS_CLOCK_H
#define LRS_CLOCK_H

#include <stdint.h>

double lrs_now_s(void);
uint64_t lrs_now_ns(void);

/*
 * A loop's tick after the one at done, on its grid of one tick per interval:
 * done + interval, or, when now is already past that (the loop fell behind),
 * the first tick after now, with *skipped (unless NULL) counting the ticks passed over (a
 * burst to catch up would measure nothing). The grid keeps its phase: one
 * started again at now would lose each late wake's part of an interval, and
 * the ticks taken and skipped would no longer add up to the time run.
 */
double lrs_clock__next_tick(double done, double interval, double now, uint64_t *skipped);

#endif

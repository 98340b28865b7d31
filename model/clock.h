/* SPDX-License-Identifier: GPL-2.0 */
/* Monotonic time, for intervals, deadlines and rates: one clock for every layer. */
#ifndef LRS_CLOCK_H
#define LRS_CLOCK_H

#include <stdint.h>

double lrs_now_s(void);
uint64_t lrs_now_ns(void);

#endif

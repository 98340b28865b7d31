/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Deterministic noise for unit tests: a xorshift generator, so that a test's
 * samples are the same on every run, and a skewed spread around a rate (a
 * rate per interval is never normal).
 */
#ifndef LRS_NOISE_H
#define LRS_NOISE_H

#include <stdint.h>

/* start the sequence over from seed (not 0) */
void lrs_noise__seed(uint64_t seed);
/* the next number of the sequence, in [0, 1) */
double lrs_noise__uniform(void);
/* rate * (0.3 .. 2.0), most of it under rate: (0.3 + 1.4 u^3 + 0.3 v) */
double lrs_noise__skewed(double rate);

#endif

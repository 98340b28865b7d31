// SPDX-License-Identifier: GPL-2.0
/* Deterministic noise for unit tests (noise.h). */
#include "noise.h"

static uint64_t state = 1;

void lrs_noise__seed(uint64_t seed)
{
	state = seed ? seed : 1; /* xorshift stays at 0 */
}

double lrs_noise__uniform(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (double)(state >> 11) / 9007199254740992.0;
}

double lrs_noise__skewed(double rate)
{
	double u = lrs_noise__uniform();

	return rate * (0.3 + 1.4 * u * u * u + 0.3 * lrs_noise__uniform());
}

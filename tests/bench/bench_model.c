// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's model with 1,000 memcgs x 8 nodes and 10 minutes of
 * history at 1 s: time per push and resident memory (budget: 32 MB RSS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "model/model.h"
#include "support/synth.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long rss_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, resident = 0;

	if (f) {
		if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * 4;
}

int main(void)
{
	const size_t memcgs = 1000, nodes = 8, pushes = LRS_HISTORY_DEFAULT + 1;
	struct lrs_model *model = lrs_model__new(LRS_HISTORY_DEFAULT);
	double t0, push_s = 0;
	long rss0 = rss_kb(), rss;
	const double budget_mb = 32.0;

	for (size_t i = 0; i < pushes; i++) {
		struct lrs_snapshot *snap =
			lrs_synth__snapshot(memcgs, nodes, (uint64_t)(i + 1) * 1000000000ULL, 7);

		t0 = now_s();
		if (lrs_model__push(model, snap)) {
			fprintf(stderr, "bench_model: push failed\n");
			return 1;
		}
		push_s += now_s() - t0;
	}
	rss = rss_kb();
	printf("model push, %zu memcgs x %zu nodes: %.2f ms per snapshot\n", memcgs, nodes,
	       push_s / (double)pushes * 1e3);
	printf("model RSS with %zu snapshots of history: %.1f MB (%.1f MB before), budget %.0f MB: ratio %.2f\n",
	       model->history_len, rss / 1024.0, rss0 / 1024.0, budget_mb,
	       rss / 1024.0 / budget_mb);
	lrs_model__free(model);
	return rss / 1024.0 <= budget_mb ? 0 : 1;
}

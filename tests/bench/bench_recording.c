// SPDX-License-Identifier: GPL-2.0
/*
 * Recording size and read speed from synthetic snapshots.
 *   bench_recording write FILE MEMCGS NODES SECONDS [noisy]
 *   bench_recording read FILE
 * 'noisy' jitters every counter increment (real waits are not a constant
 * rate, which compresses far better than life).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collector/replay/recording.h"
#include "support/synth.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* Add a random, growing offset to every cumulative counter. */
static void jitter(struct lrs_snapshot *s, uint64_t *acc, uint64_t *state)
{
	size_t k = 0;

	for (size_t i = 0; i < s->nr_lruvecs; i++) {
		struct lrs_lruvec *lv = &s->lruvecs[i];

		if (!lv->counters.contended)
			continue;
		acc[k] += rnd(state) % (lv->counters.contended / (s->t_ns / 1000000000ULL) + 1);
		lv->counters.contended += acc[k];
		lv->counters.wait_ns += acc[k] * 997;
		for (int b = 0; b < LRS_HIST_BUCKETS; b++)
			if (lv->counters.hist[b])
				lv->counters.hist[b] += acc[k] / 3;
		for (size_t w = 0; w < lv->nr_waiters; w++) {
			lv->waiters[w].contended += acc[k] / (w + 2);
			lv->waiters[w].wait_ns += acc[k] * 991 / (w + 2);
		}
		for (size_t w = 0; w < lv->nr_stacks; w++) {
			lv->stacks[w].contended += acc[k] / (8 * (w + 2));
			lv->stacks[w].wait_ns += acc[k] * 983 / (8 * (w + 2));
		}
		k++;
	}
}

static int bench_write(const char *path, size_t memcgs, size_t nodes, unsigned int secs, bool noisy)
{
	struct lrs_recording_header hdr = { .schema = LRS_SCHEMA_VERSION,
					    .interval_ns = 1000000000ULL };
	struct lrs_recording_writer *w;
	uint64_t *acc = calloc(memcgs * nodes + 1, sizeof(*acc)), state = 88172645463325252ULL;
	FILE *f = fopen(path, "wb");
	int err;

	if (!f || !acc) {
		fprintf(stderr, "bench_recording: %s: %s\n", path, strerror(errno));
		return 1;
	}
	snprintf(hdr.kernel, sizeof(hdr.kernel), "6.18.0-synth");
	err = lrs_recording_writer__open(&w, f, lrs_zkind__from_name(path), &hdr);
	for (unsigned int t = 1; !err && t <= secs; t++) {
		struct lrs_snapshot *s =
			lrs_synth__snapshot(memcgs, nodes, (uint64_t)t * 1000000000ULL, 7);

		if (!s) {
			err = -ENOMEM;
			break;
		}
		if (noisy)
			jitter(s, acc, &state);
		err = lrs_recording_writer__write(w, s);
		lrs_snapshot__free(s);
	}
	if (!err)
		err = lrs_recording_writer__close(w, NULL);
	fclose(f);
	free(acc);
	if (err) {
		fprintf(stderr, "bench_recording: writing %s: %s\n", path, strerror(-err));
		return 1;
	}
	return 0;
}

static int bench_read(const char *path)
{
	struct lrs_recording *rec;
	struct lrs_snapshot *s;
	char err[600];
	size_t n = 0;
	double start = now_s(), secs;
	int ret;

	if (lrs_recording__open(&rec, path, 0, err, sizeof(err))) {
		fprintf(stderr, "bench_recording: %s\n", err);
		return 1;
	}
	while (!(ret = lrs_recording__next(rec, &s))) {
		lrs_snapshot__free(s);
		n++;
	}
	secs = now_s() - start;
	if (ret != -ENODATA) {
		fprintf(stderr, "bench_recording: %s\n", lrs_recording__error(rec));
		lrs_recording__close(rec);
		return 1;
	}
	lrs_recording__close(rec);
	printf("%zu snapshots in %.3f s: %.0f snapshots/s\n", n, secs,
	       secs > 0 ? (double)n / secs : 0);
	return 0;
}

int main(int argc, char **argv)
{
	/* tests/bench/run.sh runs every bench binary bare: the script drives this one */
	if (argc == 1) {
		printf("bench_recording: measured by tests/bench/recording_bench.sh\n");
		return 0;
	}
	if (argc >= 6 && !strcmp(argv[1], "write"))
		return bench_write(argv[2], strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10),
				   (unsigned int)strtoul(argv[5], NULL, 10),
				   argc > 6 && !strcmp(argv[6], "noisy"));
	if (argc == 3 && !strcmp(argv[1], "read"))
		return bench_read(argv[2]);
	fprintf(stderr, "usage: bench_recording write FILE MEMCGS NODES SECONDS [noisy]\n"
			"       bench_recording read FILE\n");
	return 2;
}

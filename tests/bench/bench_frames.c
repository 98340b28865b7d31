// SPDX-License-Identifier: GPL-2.0
/*
 * Frame time of the TUI with 1,000 memcgs x 8 nodes (budget: 2 ms a frame,
 * docs/performance.md). The frames go through curses into a pseudo-terminal whose
 * other end is drained, as a terminal would; each frame moves the selection
 * so the screen really changes. Prints "tui frame 1000x8: X ms (budget 2 ms)"
 * where X is the CPU time a frame costs (this thread's: a busy two-core
 * machine preempts, and wall time would measure the neighbours), then wall
 * time percentiles; then the same for the time view (key t), on one node, and
 * on all nodes summed without the detail pane (the most strips), over a
 * history as wide as the screen.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/synth.h"
#include "ui/tui/tui.h"

#define NR_MEMCGS 1000
#define NR_NODES 8
#define LINES_ 50
#define COLS_ 160
#define BUDGET_MS 2.0
#define NR_PUSHES 131 /* a history for the whole strip: 160 columns hold 128 cells */

static double clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The terminal's side: read and discard what curses writes, until EOF. */
static pid_t drain_start(int master, int slave)
{
	pid_t pid = fork();

	if (pid == 0) {
		char buf[65536];

		close(slave); /* EOF (EIO) once the parent closes its end */
		while (read(master, buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	return pid;
}

/*
 * NR_PUSHES snapshots one second apart whose waits change from one interval
 * to the next (x1 to x4): the strips get runs of several colours, as live.
 * *push_ms: the last push.
 */
static struct lrs_model *model__build(double *push_ms)
{
	struct lrs_model *model = lrs_model__new(LRS_HISTORY_DEFAULT);
	double counter_s = 100, t0;

	for (int k = 0; model && k < NR_PUSHES; k++) {
		struct lrs_snapshot *s =
			lrs_synth__snapshot(NR_MEMCGS, NR_NODES, (uint64_t)(counter_s * 1e9), 7);

		if (!s) {
			lrs_model__free(model);
			return NULL;
		}
		/* synth counters are rate x time: a later counter time is more waiting */
		s->t_ns = (100 + (uint64_t)k) * 1000000000ULL;
		t0 = now_ms();
		lrs_model__push(model, s);
		*push_ms = now_ms() - t0;
		counter_s += 1 + 0.5 * (k % 7);
	}
	return model;
}

struct frames_result {
	double cpu_ms;			  /* per frame */
	double median_ms, p99_ms, max_ms; /* wall */
};

/* Draw frames frames, moving the selection each time; ms holds frames values. */
static void frames__run(struct lrs_tui *tui, struct lrs_model *model, int frames, double *ms,
			struct frames_result *r)
{
	double cpu0 = clock_ms(CLOCK_THREAD_CPUTIME_ID), t0;

	for (int i = 0; i < frames; i++) {
		/* walk down the rows and across the nodes: scrolling, a new detail pane */
		lrs_action__apply(LRS_ACT_DOWN, model, lrs_tui__view_state(tui), 10);
		lrs_action__apply((i / NR_NODES) % 2 ? LRS_ACT_LEFT : LRS_ACT_RIGHT, model,
				  lrs_tui__view_state(tui), 10);
		t0 = now_ms();
		lrs_tui__draw(tui, model);
		ms[i] = now_ms() - t0;
	}
	r->cpu_ms = (clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0) / frames;
	qsort(ms, (size_t)frames, sizeof(*ms), cmp_double);
	r->median_ms = ms[frames / 2];
	r->p99_ms = ms[frames * 99 / 100];
	r->max_ms = ms[frames - 1];
}

static void frames__print(const char *view, int frames, const struct frames_result *r)
{
	printf("tui frame %dx%d%s: %.3f ms (budget %.0f ms)\n", NR_MEMCGS, NR_NODES, view,
	       r->cpu_ms, BUDGET_MS);
	printf("  %d frames %dx%d, wall: median %.3f ms, p99 %.3f ms, max %.3f ms\n", frames, COLS_,
	       LINES_, r->median_ms, r->p99_ms, r->max_ms);
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 1000;
	struct lrs_tui_opts opts = { 0 };
	struct frames_result heat, time1, time_all;
	struct lrs_model *model;
	struct lrs_tui *tui = NULL;
	double push_ms = 0, *ms;
	int master, slave, err;
	FILE *out, *in;
	pid_t drain;

	if (frames < 10)
		frames = 10;
	ms = calloc((size_t)frames, sizeof(*ms));
	model = model__build(&push_ms);
	if (!model || !ms) {
		fprintf(stderr, "bench_frames: out of memory\n");
		return 1;
	}

	if (openpty(&master, &slave, NULL, NULL, NULL)) {
		fprintf(stderr, "bench_frames: openpty: %s\n", strerror(errno));
		return 1;
	}
	drain = drain_start(master, slave);
	out = fdopen(slave, "w");
	in = fopen("/dev/null", "r");
	setenv("LC_ALL", "C.UTF-8", 1);
	err = lrs_tui__open(&tui, &opts, "xterm-256color", out, in);
	if (err) {
		fprintf(stderr, "bench_frames: curses: %s\n", strerror(-err));
		return 1;
	}
	lrs_tui__resize(tui, LINES_, COLS_);
	lrs_tui__set_source(tui, "synth", 1.0);
	model->sort = LRS_SORT_WAIT;
	lrs_model__refresh_view(model);

	frames__run(tui, model, frames, ms, &heat);
	lrs_tui__set_time_view(tui, true, false);
	frames__run(tui, model, frames, ms, &time1);
	/* the worst case: every node summed, on the most rows */
	lrs_tui__set_time_view(tui, true, true);
	lrs_tui__view_state(tui)->show_detail = false;
	frames__run(tui, model, frames, ms, &time_all);
	lrs_tui__close(tui);
	fclose(out);
	fclose(in);
	close(master);
	waitpid(drain, NULL, 0);

	frames__print("", frames, &heat);
	printf("  model push %.1f ms, history %zu snapshots\n", push_ms, model->history_len);
	frames__print(" time view", frames, &time1);
	frames__print(" time view, all nodes, no detail pane", frames, &time_all);
	lrs_model__free(model);
	free(ms);
	return heat.cpu_ms <= BUDGET_MS && time1.cpu_ms <= BUDGET_MS &&
			       time_all.cpu_ms <= BUDGET_MS ?
		       0 :
		       1;
}

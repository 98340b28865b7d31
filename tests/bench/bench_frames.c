// SPDX-License-Identifier: GPL-2.0
/*
 * Frame time of the TUI with 1,000 memcgs x 8 nodes (budget: 2 ms a frame,
 * DESIGN.md). The frames go through curses into a pseudo-terminal whose
 * other end is drained, as a terminal would; each frame moves the selection
 * so the screen really changes. Prints "tui frame 1000x8: X ms (budget 2 ms)"
 * where X is the CPU time a frame costs (this thread's: a busy two-core
 * machine preempts, and wall time would measure the neighbours), then wall
 * time percentiles.
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
#include "tui.h"

#define NR_MEMCGS 1000
#define NR_NODES 8
#define LINES_ 50
#define COLS_ 160
#define BUDGET_MS 2.0

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

		close(slave);	/* EOF (EIO) once the parent closes its end */
		while (read(master, buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	return pid;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 1000;
	struct lrs_tui_opts opts = { 0 };
	struct lrs_model *model = lrs_model__new(LRS_HISTORY_DEFAULT);
	struct lrs_snapshot *a, *b;
	struct lrs_tui *tui = NULL;
	double t0, push_ms, *ms, cpu0, cpu_ms;
	int master, slave, err;
	FILE *out, *in;
	pid_t drain;

	if (frames < 10)
		frames = 10;
	ms = calloc((size_t)frames, sizeof(*ms));
	a = lrs_synth__snapshot(NR_MEMCGS, NR_NODES, 100ULL * 1000000000ULL, 7);
	b = lrs_synth__snapshot(NR_MEMCGS, NR_NODES, 101ULL * 1000000000ULL, 7);
	if (!model || !ms || !a || !b) {
		fprintf(stderr, "bench_frames: out of memory\n");
		return 1;
	}
	lrs_model__push(model, a);
	t0 = now_ms();
	lrs_model__push(model, b);
	push_ms = now_ms() - t0;

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

	cpu0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; i < frames; i++) {
		/* walk down the rows and across the nodes: scrolling, a new detail pane */
		lrs_model__apply(model, LRS_ACT_DOWN, 10);
		lrs_model__apply(model, (i / NR_NODES) % 2 ? LRS_ACT_LEFT : LRS_ACT_RIGHT, 10);
		t0 = now_ms();
		lrs_tui__draw(tui, model);
		ms[i] = now_ms() - t0;
	}
	cpu_ms = (clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0) / frames;
	lrs_tui__close(tui);
	fclose(out);
	fclose(in);
	close(master);
	waitpid(drain, NULL, 0);

	qsort(ms, (size_t)frames, sizeof(*ms), cmp_double);
	printf("tui frame %dx%d: %.3f ms (budget %.0f ms)\n", NR_MEMCGS, NR_NODES, cpu_ms,
	       BUDGET_MS);
	printf("  %d frames %dx%d, wall: median %.3f ms, p99 %.3f ms, max %.3f ms; model push %.1f ms\n",
	       frames, COLS_, LINES_, ms[frames / 2], ms[frames * 99 / 100], ms[frames - 1], push_ms);
	lrs_model__free(model);
	free(ms);
	return cpu_ms <= BUDGET_MS ? 0 : 1;
}

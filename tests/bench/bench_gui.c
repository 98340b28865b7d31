// SPDX-License-Identifier: GPL-2.0
/*
 * Frame time of the GUI with 1,000 memcgs x 8 nodes, drawn by SDL's software
 * renderer into a 1280x800 frame (no display, no GPU: the worst case; budget
 * 8 ms a frame, docs/performance.md). Two kinds of frame: input frames (the selection
 * moves: new heatmap rows, detail panel and histogram heatmap) and data
 * frames (a new snapshot: every texture rebuilt). Prints
 * "gui frame 1000x8: X ms (budget 8 ms)"; exits 1 over budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/gui/gui_internal.h"
#include "model/holders.h"
#include "support/synth.h"

#define NR_MEMCGS 1000
#define NR_NODES 8
#define HISTORY 120
#define BUDGET_MS 8.0

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int push(struct lrs_model *model, struct lrs_gui *gui, int k)
{
	struct lrs_snapshot *s =
		lrs_synth__snapshot(NR_MEMCGS, NR_NODES, (uint64_t)(100 + k) * 1000000000ull, 7);

	/* with holders: the side panel's holder lines and matrix are in the frame */
	if (!s || lrs_synth__holders(s, LRS_HOLDERS_ESTIMATED) || lrs_model__push(model, s))
		return -1;
	lrs_gui__observe(gui, model);
	return 0;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 300, data_frames;
	struct lrs_gui_opts opts = { .screenshot = "/dev/null", .width = 1280, .height = 800 };
	struct lrs_model *model = lrs_model__new(LRS_HISTORY_DEFAULT);
	struct lrs_gui *gui = NULL;
	double *ms, *dms, t0, cpu0, cpu_ms;
	int k = 0;
	bool ok;

	if (frames < 20)
		frames = 20;
	data_frames = frames / 10;
	ms = calloc((size_t)frames, sizeof(*ms));
	dms = calloc((size_t)data_frames, sizeof(*dms));
	if (!model || !ms || !dms || lrs_gui__open(&gui, &opts)) {
		fprintf(stderr,
			"bench_gui: cannot set up (out of memory, or no font: see above)\n");
		return 1;
	}
	lrs_gui__set_source(gui, "synth", 1.0);
	for (; k < HISTORY; k++)
		if (push(model, gui, k)) {
			fprintf(stderr, "bench_gui: out of memory\n");
			return 1;
		}
	model->sort = LRS_SORT_WAIT;
	lrs_model__refresh_view(model);
	lrs_gui__draw(gui, model); /* warm: glyph atlas, textures */

	cpu0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	for (int i = 0; i < frames; i++) {
		lrs_action__apply(LRS_ACT_DOWN, model, &gui->state, 10);
		lrs_action__apply((i / NR_NODES) % 2 ? LRS_ACT_LEFT : LRS_ACT_RIGHT, model,
				  &gui->state, 10);
		gui__lanes_compute(gui, model); /* as the loop does after an action */
		t0 = clock_ms(CLOCK_MONOTONIC);
		lrs_gui__draw(gui, model);
		ms[i] = clock_ms(CLOCK_MONOTONIC) - t0;
	}
	cpu_ms = (clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0) / frames;
	for (int i = 0; i < data_frames; i++) {
		if (push(model, gui, k++))
			return 1;
		t0 = clock_ms(CLOCK_MONOTONIC);
		lrs_gui__draw(gui, model);
		dms[i] = clock_ms(CLOCK_MONOTONIC) - t0;
	}
	lrs_gui__close(gui);
	lrs_model__free(model);

	qsort(ms, (size_t)frames, sizeof(*ms), cmp_double);
	qsort(dms, (size_t)data_frames, sizeof(*dms), cmp_double);
	printf("gui frame %dx%d: %.3f ms (budget %.0f ms)\n", NR_MEMCGS, NR_NODES, cpu_ms,
	       BUDGET_MS);
	printf("  %d input frames 1280x800, software renderer, wall: median %.3f ms, p99 %.3f ms, "
	       "max %.3f ms\n",
	       frames, ms[frames / 2], ms[frames * 99 / 100], ms[frames - 1]);
	printf("  %d data frames (new snapshot, textures rebuilt), wall: median %.3f ms, max %.3f ms\n",
	       data_frames, dms[data_frames / 2], dms[data_frames - 1]);
	ok = cpu_ms <= BUDGET_MS;
	free(ms);
	free(dms);
	return ok ? 0 : 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The GUI draws a model built from synthetic snapshots into a headless
 * software-rendered frame, saved as PNG and read back: the hot cell has the
 * colour the scale gives its value, the legend runs along viridis, text is
 * there, the time heatmaps have columns. No display needed. The frames are
 * kept under $LRS_BUILD/tests/gui/ to look at.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "model/holders.h"
#include "ui/gui/png.h"
#include "support/png_read.h"
#include "support/synth.h"

#define NR_SNAPS 90

struct frame {
	uint32_t *px;
	int w, h;
};

static char out_dir[512];

static void out_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", out_dir, name);
}

/*
 * A model of nr_memcgs x nr_nodes after NR_SNAPS snapshots a second apart
 * whose load swells and ebbs: the synthetic counters run on a clock that
 * speeds up and slows down.
 */
static struct lrs_model *model_build(struct lrs_gui *gui, size_t nr_memcgs, size_t nr_nodes)
{
	struct lrs_model *model = lrs_model__new(LRS_HISTORY_DEFAULT);
	double load_s = 100;

	assert_non_null(model);
	for (int k = 0; k < NR_SNAPS; k++) {
		struct lrs_snapshot *s;

		load_s += 1 + 0.85 * sin(k / 6.0) * (k % 17 == 0 ? 0.2 : 1);
		s = lrs_synth__snapshot(nr_memcgs, nr_nodes, (uint64_t)(load_s * 1e9), 7);
		assert_non_null(s);
		s->t_ns = (uint64_t)(100 + k) * 1000000000ull;
		s->interval_ns = 1000000000ull;
		snprintf(s->kernel, sizeof(s->kernel), "6.18.0-synthetic");
		assert_int_equal(lrs_model__push(model, s), 0);
		if (k == 1) {
			/* select the hottest, as the loop does until the user moves */
			model->sel_memcg_id = 2; /* "/lrs-s1", synth's hottest */
			model->sel_node_idx = 0;
		}
		if (gui)
			lrs_gui__observe(gui, model);
	}
	return model;
}

static struct lrs_gui *gui_open(const char *png, int w, int h)
{
	struct lrs_gui_opts opts = { .screenshot = png, .width = w, .height = h };
	struct lrs_gui *gui = NULL;

	assert_int_equal(lrs_gui__open(&gui, &opts), 0);
	lrs_gui__set_source(gui, "synthetic", 1.0);
	return gui;
}

static void frame_load(struct frame *f, const char *path)
{
	assert_int_equal(lrs_png__read(path, &f->px, &f->w, &f->h), 0);
}

static uint32_t px_at(const struct frame *f, int x, int y)
{
	assert_true(x >= 0 && y >= 0 && x < f->w && y < f->h);
	return f->px[y * f->w + x] & 0xffffff;
}

static uint32_t rgb24(struct lrs_rgb c)
{
	return (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
}

static bool rgb_near(uint32_t a, struct lrs_rgb b, int tol)
{
	return abs((int)(a >> 16 & 0xff) - b.r) <= tol && abs((int)(a >> 8 & 0xff) - b.g) <= tol &&
	       abs((int)(a & 0xff) - b.b) <= tol;
}

/* Pixels in r that are not bg: text or marks drawn there. */
static int ink(const struct frame *f, const struct lrs_gui_rect *r, struct lrs_rgb bg)
{
	int n = 0;

	for (int y = r->y; y < r->y + r->h && y < f->h; y++)
		for (int x = r->x; x < r->x + r->w && x < f->w; x++)
			n += px_at(f, x, y) != rgb24(bg);
	return n;
}

static void check_frame(struct lrs_gui *gui, const struct lrs_model *model, const struct frame *f)
{
	const struct lrs_gui_layout *l = &gui->layout;
	long si = lrs_model__selected_index(model);
	const struct lrs_cell *cell = lrs_model__selected_cell(model);
	struct lrs_gui_rect r;
	int x, y, cols = 0;

	assert_int_equal(f->w, gui->px_w);
	assert_int_equal(f->h, gui->px_h);

	/* the hot cell: the selected one; sampled inside its frame, left of its text */
	assert_non_null(cell);
	assert_true(si >= (long)gui->top && si < (long)(gui->top + l->rows_fit));
	x = lrs_gui_layout__node_x(l, model->sel_node_idx) + 4 * (int)gui->scale;
	y = l->names.y + (int)(si - (long)gui->top) * l->row_h + l->row_h / 2;
	assert_true(cell->wait_ns_per_s > 0);
	assert_true(rgb_near(
		px_at(f, x, y),
		lrs_gui_colour__value(cell->wait_ns_per_s, gui->scale_max, LRS_GUI_DECADES), 0));
	/* the scale's top is the hottest now or in the time heatmap's history */
	assert_true(gui->scale_max >= model->max_cell_wait_ns_per_s);
	assert_true(cell->wait_ns_per_s >= model->max_cell_wait_ns_per_s);
	/* a row that never contends (every third memcg): the zero colour */
	for (size_t i = gui->top; i < gui->top + l->rows_fit && i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];

		if (row->cells[0].wait_ns_per_s > 0 || !row->cells[0].lruvec)
			continue;
		y = l->names.y + (int)(i - gui->top) * l->row_h + l->row_h / 2;
		assert_int_equal(px_at(f, lrs_gui_layout__node_x(l, 0) + 4, y),
				 rgb24(LRS_GUI_ZERO));
		break;
	}

	/* the legend: viridis from left to right, and its tick labels under it */
	r = l->legend_bar;
	for (int i = 0; i <= 8; i++) {
		double t = i / 8.0;
		uint32_t p = px_at(f, r.x + (int)lround(t * (r.w - 1)), r.y + r.h / 2);

		assert_true(rgb_near(p, lrs_gui_colour__map(t), 12));
	}
	r.y += r.h + 2;
	r.h = l->line_h;
	assert_true(ink(f, &r, LRS_GUI_BG) > 50);

	/* text renders: the header, the heatmap's names, the side panel, the status line */
	assert_true(ink(f, &l->header, LRS_GUI_BG) > 500);
	assert_true(ink(f, &l->names, LRS_GUI_BG) > 200);
	r = l->side;
	r.h = 10 * l->line_h;
	assert_true(ink(f, &r, LRS_GUI_PANEL) > 500);
	assert_true(ink(f, &l->status, LRS_GUI_BG) > 200);

	/* the time heatmap has columns: the newest NR_SNAPS - 1 of the first lane are coloured */
	assert_true(l->nr_lanes > 0);
	y = l->time_plot.y + l->lane_h / 2;
	for (size_t c = 0; c < l->columns; c++) {
		int x0, x1;

		lrs_gui_layout__column_span(l, &l->time_plot, c, &x0, &x1);
		if (x1 > x0 && px_at(f, x0, y) != rgb24(LRS_GUI_PANEL))
			cols++;
	}
	if (l->time_plot.w >= (int)l->columns)
		assert_int_equal(cols, NR_SNAPS - 1);
	else
		assert_true(cols >= (NR_SNAPS - 1) * l->time_plot.w / (int)l->columns - 2);
	assert_true(cols <= NR_SNAPS);
	/* and the histogram heatmap: some of its newest column is coloured */
	x = l->hist_plot.x + l->hist_plot.w - 1;
	r = (struct lrs_gui_rect){ x, l->hist_plot.y, 1, l->hist_plot.h };
	assert_true(ink(f, &r, LRS_GUI_PANEL) > 0);
	/* its oldest column holds nothing yet */
	r.x = l->hist_plot.x;
	assert_int_equal(ink(f, &r, LRS_GUI_PANEL), 0);
}

static void test_render_synth(void **state)
{
	char path[600];
	struct lrs_gui *gui;
	struct lrs_model *model;
	struct frame f = { 0 };

	out_path(path, sizeof(path), "gui-synth.png");
	gui = gui_open(path, 1280, 800);
	model = model_build(gui, 200, 4);
	lrs_gui__draw(gui, model);
	assert_int_equal(lrs_gui__save_png(gui, path), 0);
	frame_load(&f, path);
	check_frame(gui, model, &f);
	free(f.px);
	lrs_gui__close(gui);
	lrs_model__free(model);
}

/* A HiDPI frame: twice the pixels, twice the text, the same checks. */
static void test_render_hidpi(void **state)
{
	char path[600];
	struct lrs_gui *gui;
	struct lrs_model *model;
	struct frame f = { 0 };

	setenv("LRS_GUI_SCALE", "2", 1);
	out_path(path, sizeof(path), "gui-hidpi.png");
	gui = gui_open(path, 1000, 700);
	unsetenv("LRS_GUI_SCALE");
	assert_int_equal(gui->px_w, 2000);
	assert_true(lrs_gui_font__line_h(gui->font) >= 28);
	model = model_build(gui, 40, 2);
	lrs_gui__draw(gui, model);
	assert_int_equal(lrs_gui__save_png(gui, path), 0);
	frame_load(&f, path);
	check_frame(gui, model, &f);
	free(f.px);
	lrs_gui__close(gui);
	lrs_model__free(model);
}

/* 1,000 memcgs x 8 nodes, a small window, the tree sort, a selection far down. */
static void test_render_big_small_window(void **state)
{
	char path[600];
	struct lrs_gui *gui;
	struct lrs_model *model;
	struct frame f = { 0 };

	out_path(path, sizeof(path), "gui-1000x8-small.png");
	gui = gui_open(path, 640, 480);
	model = model_build(gui, 1000, 8);
	model->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(model);
	lrs_action__apply(LRS_ACT_END, model, &gui->state, 10);
	lrs_gui__draw(gui, model);
	/* the selection scrolled into view */
	assert_true(lrs_model__selected_index(model) >= (long)gui->top);
	assert_true(lrs_model__selected_index(model) < (long)(gui->top + gui->layout.rows_fit));
	assert_int_equal(gui->layout.side.w, 0); /* too narrow for the panel */
	assert_int_equal(lrs_gui__save_png(gui, path), 0);
	frame_load(&f, path);
	assert_int_equal(f.w, 640);
	free(f.px);
	/* the LRU-pages metric: cells coloured on the pages scale */
	lrs_action__apply(LRS_ACT_METRIC_NEXT, model, &gui->state, 1);
	lrs_gui__draw(gui, model);
	{
		const struct lrs_cell *cell = lrs_model__selected_cell(model);
		long si = lrs_model__selected_index(model);
		int x = lrs_gui_layout__node_x(&gui->layout, model->sel_node_idx) + 4;
		int y = gui->layout.names.y + (int)(si - (long)gui->top) * gui->layout.row_h +
			gui->layout.row_h / 2;

		assert_int_equal(lrs_gui__save_png(gui, path), 0);
		frame_load(&f, path);
		assert_true(rgb_near(
			px_at(&f, x, y),
			lrs_gui_colour__value(lrs_cell__value(cell, LRS_METRIC_LRU_PAGES),
					      lrs_model__metric_max(model), LRS_GUI_DECADES),
			0));
		free(f.px);
	}
	/* help over it, and a filter that matches nothing: still draws */
	gui->state.show_help = true;
	snprintf(model->filter, sizeof(model->filter), "no-such-memcg");
	lrs_model__refresh_view(model);
	lrs_gui__draw(gui, model);
	lrs_gui__close(gui);
	lrs_model__free(model);
}

/* Before the second snapshot there are no rates: the frame says so, nothing breaks. */
static void test_render_first_snapshot(void **state)
{
	char path[600];
	struct lrs_gui *gui;
	struct lrs_model *model = lrs_model__new(10);
	struct frame f = { 0 };

	out_path(path, sizeof(path), "gui-empty.png");
	gui = gui_open(path, 800, 600);
	lrs_gui__draw(gui, model); /* no snapshot at all */
	assert_int_equal(lrs_model__push(model, lrs_synth__snapshot(5, 1, 1000000000ull, 1)), 0);
	lrs_gui__observe(gui, model);
	lrs_gui__draw(gui, model);
	assert_int_equal(lrs_gui__save_png(gui, path), 0);
	frame_load(&f, path);
	assert_true(ink(f.px ? &f : NULL, &gui->layout.header, LRS_GUI_BG) > 100);
	free(f.px);
	lrs_gui__close(gui);
	lrs_model__free(model);
}

static void test_font_errors(void **state)
{
	struct lrs_gui_opts opts = { .screenshot = "/dev/null",
				     .font_path = "/nonexistent/font.ttf" };
	struct lrs_gui *gui = (struct lrs_gui *)1;

	assert_true(lrs_gui__open(&gui, &opts) < 0);
	assert_null(gui);
	lrs_gui__close(NULL);
	assert_string_equal(lrs_gui_font__find("/x.ttf"), "/x.ttf");
}

static void test_keys(void **state)
{
	assert_int_equal(lrs_gui__key_action(SDLK_q), LRS_ACT_QUIT);
	assert_int_equal(lrs_gui__key_action(SDLK_s), LRS_ACT_SORT_NEXT);
	assert_int_equal(lrs_gui__key_action(SDLK_p), LRS_ACT_PAUSE);
	assert_int_equal(lrs_gui__key_action(SDLK_EQUALS), LRS_ACT_INTERVAL_UP);
	assert_int_equal(lrs_gui__key_action(SDLK_MINUS), LRS_ACT_INTERVAL_DOWN);
	assert_int_equal(lrs_gui__key_action(SDLK_SLASH), LRS_ACT_FILTER);
	assert_int_equal(lrs_gui__key_action(SDLK_h), LRS_ACT_HELP);
	assert_int_equal(lrs_gui__key_action(SDLK_RETURN), LRS_ACT_DETAIL);
	assert_int_equal(lrs_gui__key_action(SDLK_UP), LRS_ACT_UP);
	assert_int_equal(lrs_gui__key_action(SDLK_j), LRS_ACT_DOWN);
	assert_int_equal(lrs_gui__key_action(SDLK_LEFT), LRS_ACT_LEFT);
	assert_int_equal(lrs_gui__key_action(SDLK_l), LRS_ACT_RIGHT);
	assert_int_equal(lrs_gui__key_action(SDLK_PAGEDOWN), LRS_ACT_PAGE_DOWN);
	assert_int_equal(lrs_gui__key_action(SDLK_g), LRS_ACT_HOME);
	assert_int_equal(lrs_gui__key_action(SDLK_END), LRS_ACT_END);
	assert_int_equal(lrs_gui__key_action(SDLK_m), LRS_ACT_METRIC_NEXT);
	assert_int_equal(lrs_gui__key_action(SDLK_z), LRS_ACT_NONE);
}

/*
 * Holders: the side panel lists the selected lruvec's holders and
 * draws the memcg x memcg matrix as a small heatmap on the wait colour scale
 * (its top: the largest cell); x hides it, c switches its columns.
 */
static void test_render_holders(void **state)
{
	char path[600];
	struct lrs_gui *gui;
	struct lrs_model *model;
	struct frame f = { 0 };
	const struct lrs_gui_rect *c;
	struct lrs_gui_rect r;
	int x, y;

	out_path(path, sizeof(path), "gui-holders.png");
	gui = gui_open(path, 1280, 800);
	model = model_build(gui, 40, 2);
	assert_int_equal(lrs_synth__holders(model->cur, LRS_HOLDERS_ESTIMATED), 0);
	lrs_gui__draw(gui, model);
	assert_int_equal(lrs_gui__save_png(gui, path), 0);
	frame_load(&f, path);
	check_frame(gui, model, &f);

	/* by lruvec owner: rows /lrs-s1, /, /lrs-s2; columns /lrs-s1, /lrs-s2 */
	assert_int_equal(gui->mx_rows, 3);
	assert_int_equal(gui->mx_cols, 2);
	assert_int_equal(gui->mx.row_ids[0], 2);
	assert_int_equal(gui->mx.col_ids[0], 2);
	assert_int_equal(gui->mx.max, 100000000);
	c = &gui->mx_cells;
	assert_true(c->x > gui->layout.side.x &&
		    c->x + 2 * c->w <= gui->layout.side.x + gui->layout.side.w);
	/* the hottest cell: the top of the scale, sampled left of its number */
	x = c->x + 3;
	y = c->y + c->h / 2;
	assert_true(rgb_near(px_at(&f, x, y), lrs_gui_colour__value(1e8, 1e8, LRS_GUI_DECADES), 0));
	/* / x /lrs-s1 (8 ms): lower on the scale, another colour */
	assert_true(rgb_near(px_at(&f, x, y + c->h),
			     lrs_gui_colour__value(8e6, 1e8, LRS_GUI_DECADES), 0));
	assert_false(rgb_near(px_at(&f, x, y + c->h),
			      lrs_gui_colour__value(1e8, 1e8, LRS_GUI_DECADES), 8));
	/* /lrs-s1 x /lrs-s2: nothing, the zero colour */
	assert_true(rgb_near(px_at(&f, x + c->w, y), LRS_GUI_ZERO, 0));
	/* the numbers are written in the cells */
	r = (struct lrs_gui_rect){ c->x + c->w / 2, c->y + 2, c->w / 2 - 2, c->h - 4 };
	assert_true(ink(&f, &r, lrs_gui_colour__value(1e8, 1e8, LRS_GUI_DECADES)) > 10);
	/* the holder lines above the matrix: text in the panel between waiters and matrix */
	r = (struct lrs_gui_rect){ gui->layout.side.x, c->y - 8 * gui->layout.line_h,
				   gui->layout.side.w, 6 * gui->layout.line_h };
	assert_true(ink(&f, &r, LRS_GUI_PANEL) > 500);
	free(f.px);

	/* c: columns by holder's memcg: /lrs-s1 80 ms (the top), / 20 ms */
	gui->matrix_by_holder = true;
	lrs_gui__draw(gui, model);
	assert_int_equal(lrs_gui__save_png(gui, path), 0);
	frame_load(&f, path);
	assert_int_equal(gui->mx_cols, 3);
	assert_int_equal(gui->mx.col_ids[0], 2);
	assert_int_equal(gui->mx.max, 80000000);
	assert_true(rgb_near(px_at(&f, gui->mx_cells.x + 3, gui->mx_cells.y + gui->mx_cells.h / 2),
			     lrs_gui_colour__value(8e7, 8e7, LRS_GUI_DECADES), 0));
	assert_true(rgb_near(px_at(&f, gui->mx_cells.x + gui->mx_cells.w + 3,
				   gui->mx_cells.y + gui->mx_cells.h / 2),
			     lrs_gui_colour__value(2e7, 8e7, LRS_GUI_DECADES), 0));
	free(f.px);

	/* x hides it */
	gui->matrix_hidden = true;
	lrs_gui__draw(gui, model);
	assert_int_equal(gui->mx_rows, 0);
	lrs_gui__close(gui);
	lrs_model__free(model);
}

int main(void)
{
	const char *build = getenv("LRS_BUILD");
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_render_synth),
		cmocka_unit_test(test_render_hidpi),
		cmocka_unit_test(test_render_big_small_window),
		cmocka_unit_test(test_render_first_snapshot),
		cmocka_unit_test(test_font_errors),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_render_holders),
	};

	/* the frames kept to look at; a fresh tree has no build/tests yet (the sanitized run first) */
	snprintf(out_dir, sizeof(out_dir), "%s", build && *build ? build : "build");
	mkdir(out_dir, 0755);
	strncat(out_dir, "/tests", sizeof(out_dir) - strlen(out_dir) - 1);
	mkdir(out_dir, 0755);
	strncat(out_dir, "/gui", sizeof(out_dir) - strlen(out_dir) - 1);
	mkdir(out_dir, 0755);
	return cmocka_run_group_tests(tests, NULL, NULL);
}

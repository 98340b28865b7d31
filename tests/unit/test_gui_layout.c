// SPDX-License-Identifier: GPL-2.0
/* The GUI's pure maths: panels for a window size, hit testing, ticks, colours, PNG. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_layout.h"
#include "ui/gui/png.h"
#include "support/png_read.h"

static void layout_for(struct lrs_gui_layout *l, int w, int h, size_t nodes)
{
	struct lrs_gui_layout_in in = {
		.width = w,
		.height = h,
		.line_h = 16,
		.char_w = 8,
		.pad = 8,
		.nr_nodes = nodes,
		.name_chars = 20,
		.nr_lanes = 12,
		.columns = 600,
		.hist_lo = 8,
		.hist_hi = 22,
	};

	lrs_gui_layout__compute(l, &in);
}

static bool inside(const struct lrs_gui_rect *in, const struct lrs_gui_rect *out)
{
	return in->x >= out->x && in->y >= out->y && in->x + in->w <= out->x + out->w &&
	       in->y + in->h <= out->y + out->h;
}

static bool overlap(const struct lrs_gui_rect *a, const struct lrs_gui_rect *b)
{
	if (!a->w || !a->h || !b->w || !b->h)
		return false;
	return a->x < b->x + b->w && b->x < a->x + a->w && a->y < b->y + b->h && b->y < a->y + a->h;
}

static void test_panels(void **state)
{
	static const int sizes[][2] = {
		{ 1280, 800 }, { 2560, 1600 }, { 800, 600 }, { 1920, 1080 }
	};

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct lrs_gui_layout l;
		struct lrs_gui_rect win = { 0, 0, sizes[s][0], sizes[s][1] };
		const struct lrs_gui_rect *p[] = { &l.header,  &l.heatmap, &l.legend, &l.timemap,
						   &l.histmap, &l.side,	   &l.status };

		layout_for(&l, win.w, win.h, 8);
		for (size_t i = 0; i < 7; i++) {
			assert_true(inside(p[i], &win));
			for (size_t j = i + 1; j < 7; j++)
				assert_false(overlap(p[i], p[j]));
		}
		/* top down in the main column */
		assert_true(l.heatmap.y < l.legend.y && l.legend.y < l.timemap.y &&
			    l.timemap.y < l.histmap.y);
		assert_int_equal(l.status.y + l.status.h <= win.h, 1);
		assert_true(l.rows_fit > 0);
		assert_true(inside(&l.grid, &l.heatmap));
		assert_true(inside(&l.time_plot, &l.timemap));
		assert_true(inside(&l.hist_plot, &l.histmap));
		assert_true(inside(&l.legend_bar, &l.legend));
		/* the two time plots share their x axis */
		assert_int_equal(l.time_plot.x, l.hist_plot.x);
		assert_int_equal(l.time_plot.w, l.hist_plot.w);
		/* every bucket equally tall */
		assert_int_equal(l.hist_plot.h % (l.hist_hi - l.hist_lo + 1), 0);
		assert_int_equal(l.nr_node_cols, 8);
	}
	/* wide windows have a side panel; narrow ones give it up for the heatmaps */
	{
		struct lrs_gui_layout l;

		layout_for(&l, 1280, 800, 8);
		assert_true(l.side.w > 0);
		layout_for(&l, 560, 600, 8);
		assert_int_equal(l.side.w, 0);
		assert_true(l.heatmap.w > 0);
	}
	/* a tiny window: nothing but no crash, no negative sizes */
	{
		struct lrs_gui_layout l;

		layout_for(&l, 20, 20, 8);
		assert_true(l.heatmap.w >= 0 && l.heatmap.h >= 0);
		assert_int_equal(l.rows_fit, 0);
		layout_for(&l, 0, 0, 0);
	}
}

static void test_node_scroll(void **state)
{
	struct lrs_gui_layout_in in = { .width = 1000,
					.height = 700,
					.line_h = 16,
					.char_w = 8,
					.pad = 8,
					.nr_nodes = 64,
					.name_chars = 20,
					.columns = 10,
					.hist_lo = 0,
					.hist_hi = 31 };
	struct lrs_gui_layout l;

	lrs_gui_layout__compute(&l, &in);
	assert_true(l.nr_node_cols < 64);
	assert_int_equal(l.first_node, 0);
	in.sel_node_idx = 63;
	lrs_gui_layout__compute(&l, &in);
	assert_int_equal(l.first_node + l.nr_node_cols, 64);
	assert_true(lrs_gui_layout__node_x(&l, 63) >= l.grid.x);
	assert_int_equal(lrs_gui_layout__node_x(&l, 0), -1);
	/* moving left keeps the scroll until the selection leaves the view */
	in.first_node = l.first_node;
	in.sel_node_idx = l.first_node;
	lrs_gui_layout__compute(&l, &in);
	assert_int_equal(l.first_node, in.first_node);
}

static void test_hit(void **state)
{
	struct lrs_gui_layout l;
	struct lrs_gui_hit h;
	int x0, x1, y0, y1;

	layout_for(&l, 1280, 800, 8);
	/* the middle of row 2's cell of node 3, with the view scrolled by 10 */
	h = lrs_gui_layout__hit(&l, lrs_gui_layout__node_x(&l, 3) + l.cell_w / 2,
				l.grid.y + 2 * l.row_h + l.row_h / 2, 10, 100);
	assert_int_equal(h.part, LRS_GUI_CELL);
	assert_int_equal(h.row, 12);
	assert_int_equal(h.node, 3);
	/* the cell's edges */
	h = lrs_gui_layout__hit(&l, lrs_gui_layout__node_x(&l, 3), l.grid.y, 0, 100);
	assert_int_equal(h.node, 3);
	assert_int_equal(h.row, 0);
	h = lrs_gui_layout__hit(&l, lrs_gui_layout__node_x(&l, 3) - 1, l.grid.y + l.row_h - 1, 0,
				100);
	assert_int_equal(h.node, 2);
	assert_int_equal(h.row, 0);
	/* the name column */
	h = lrs_gui_layout__hit(&l, l.names.x + 1, l.names.y + 1, 0, 100);
	assert_int_equal(h.part, LRS_GUI_NAME);
	/* past the last row */
	h = lrs_gui_layout__hit(&l, l.grid.x + 1, l.grid.y + 5 * l.row_h + 1, 0, 5);
	assert_int_equal(h.part, LRS_GUI_NOTHING);
	/* a column heading */
	h = lrs_gui_layout__hit(&l, lrs_gui_layout__node_x(&l, 1) + 1, l.colhdr_y + 1, 0, 5);
	assert_int_equal(h.part, LRS_GUI_COLHDR);
	assert_int_equal(h.node, 1);
	/* every time column's span hits that column, in both plots */
	for (size_t c = 0; c < l.columns; c += 7) {
		lrs_gui_layout__column_span(&l, &l.time_plot, c, &x0, &x1);
		if (x1 <= x0)
			continue; /* more columns than pixels: some are narrower than one */
		h = lrs_gui_layout__hit(&l, x0, l.time_plot.y, 0, 0);
		assert_int_equal(h.part, LRS_GUI_LANE);
		assert_int_equal(h.column, c);
		assert_int_equal(h.lane, 0);
		h = lrs_gui_layout__hit(&l, x1 - 1, l.hist_plot.y + l.hist_plot.h - 1, 0, 0);
		assert_int_equal(h.part, LRS_GUI_BUCKET);
		assert_int_equal(h.column, c);
		assert_int_equal(h.bucket, l.hist_lo);
	}
	lrs_gui_layout__column_span(&l, &l.time_plot, l.columns - 1, &x0, &x1);
	assert_int_equal(x1, l.time_plot.x + l.time_plot.w);
	/* buckets: top is hist_hi, each span hits its bucket */
	for (int b = l.hist_lo; b <= l.hist_hi; b++) {
		lrs_gui_layout__bucket_span(&l, b, &y0, &y1);
		assert_true(y1 > y0);
		h = lrs_gui_layout__hit(&l, l.hist_plot.x + 1, y0, 0, 0);
		assert_int_equal(h.bucket, b);
		h = lrs_gui_layout__hit(&l, l.hist_plot.x + 1, y1 - 1, 0, 0);
		assert_int_equal(h.bucket, b);
	}
	/* the last lane */
	h = lrs_gui_layout__hit(&l, l.time_plot.x + 1, l.time_plot.y + l.time_plot.h - 1, 0, 0);
	assert_int_equal(h.lane, l.nr_lanes - 1);
	/* the legend: 0 at the left end, 1 at the right */
	h = lrs_gui_layout__hit(&l, l.legend_bar.x, l.legend_bar.y, 0, 0);
	assert_int_equal(h.part, LRS_GUI_LEGEND);
	assert_true(h.t == 0);
	h = lrs_gui_layout__hit(&l, l.legend_bar.x + l.legend_bar.w - 1, l.legend_bar.y, 0, 0);
	assert_true(fabs(h.t - 1) < 1e-9);
	h = lrs_gui_layout__hit(&l, l.side.x + 5, l.side.y + 5, 0, 0);
	assert_int_equal(h.part, LRS_GUI_SIDE);
}

static void test_time_ticks(void **state)
{
	struct lrs_gui_tick t[16];
	size_t n;

	/* 600 snapshots of 1 s, room for 7 labels: every 2 minutes */
	n = lrs_gui_layout__time_ticks(600, 7, t, 16);
	assert_int_equal(n, 6);
	assert_string_equal(t[0].label, "now");
	assert_true(t[0].frac == 1);
	assert_string_equal(t[1].label, "-2m");
	assert_string_equal(t[5].label, "-10m");
	assert_true(fabs(t[5].frac) < 1e-9);
	/* short spans: seconds */
	n = lrs_gui_layout__time_ticks(20, 5, t, 16);
	assert_int_equal(n, 5);
	assert_string_equal(t[1].label, "-5s");
	assert_true(fabs(t[1].frac - 0.75) < 1e-9);
	/* ticks descend in frac and never exceed the room */
	for (size_t room = 1; room < 12; room++) {
		n = lrs_gui_layout__time_ticks(437, room, t, 16);
		assert_true(n <= room && n >= 1);
		for (size_t i = 1; i < n; i++)
			assert_true(t[i].frac < t[i - 1].frac && t[i].frac >= 0);
	}
	n = lrs_gui_layout__time_ticks(7200, 3, t, 16);
	assert_string_equal(t[1].label, "-1h");
	assert_int_equal(lrs_gui_layout__time_ticks(0, 5, t, 16), 0);
}

static void test_bucket_ticks(void **state)
{
	struct lrs_gui_tick t[32];
	size_t n;
	int lo, hi;

	n = lrs_gui_layout__bucket_ticks(10, 20, 11, t, 32);
	assert_int_equal(n, 11);
	assert_string_equal(t[0].label, "1.0us");
	assert_true(t[0].frac == 0);
	n = lrs_gui_layout__bucket_ticks(10, 20, 3, t, 32);
	assert_true(n <= 3 && n >= 2);
	for (size_t i = 1; i < n; i++)
		assert_true(t[i].frac > t[i - 1].frac && t[i].frac < 1);
	lrs_gui_layout__bucket_range(12, 14, 12, &lo, &hi);
	assert_true(lo <= 10 && hi >= 16 && hi - lo + 1 >= 12);
	lrs_gui_layout__bucket_range(1, 0, 12, &lo, &hi);
	assert_true(lo <= 10 && hi >= 20);
	lrs_gui_layout__bucket_range(0, 31, 12, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 31);
	lrs_gui_layout__bucket_range(30, 31, 12, &lo, &hi);
	assert_int_equal(hi, 31);
	assert_int_equal(hi - lo + 1, 12);
}

static void test_tooltip(void **state)
{
	struct lrs_gui_rect r;

	r = lrs_gui_layout__tooltip(100, 100, 200, 80, 1280, 800);
	assert_true(r.x > 100 && r.y > 100);
	/* near the right and bottom edges it flips to stay inside */
	r = lrs_gui_layout__tooltip(1270, 790, 200, 80, 1280, 800);
	assert_true(r.x + r.w <= 1280 && r.y + r.h <= 800 && r.x >= 0 && r.y >= 0);
	r = lrs_gui_layout__tooltip(5, 5, 2000, 80, 1280, 800);
	assert_int_equal(r.x, 0);
}

static void test_colour_map(void **state)
{
	double prev_l = -1, prev_8 = -2;

	/* viridis: dark purple to yellow, lightness rising all the way */
	for (int i = 0; i <= 256; i++) {
		struct lrs_rgb c = lrs_gui_colour__map(i / 256.0);
		double l = lrs_gui_colour__lightness(c);

		/*
		 * 8-bit rounding may dip a neighbour by a few hundredths of L* (one
		 * just-noticeable difference is about 1); every 8th step is lighter.
		 */
		assert_true(l > prev_l - 0.1);
		if (i % 8 == 0) {
			assert_true(l > prev_8 + 1);
			prev_8 = l;
		}
		prev_l = l;
	}
	assert_int_equal(lrs_gui_colour__map(0).r, 68);
	assert_int_equal(lrs_gui_colour__map(1).g, 231);
	assert_int_equal(lrs_gui_colour__map(7).g, 231);
	assert_int_equal(lrs_gui_colour__map(NAN).r, 68);
	/* the zero colour is off the map: grey, darker than the map's bottom */
	assert_true(lrs_gui_colour__lightness(LRS_GUI_ZERO) <
		    lrs_gui_colour__lightness(lrs_gui_colour__map(0)) + 10);
	assert_true(LRS_GUI_ZERO.r == LRS_GUI_ZERO.b || abs(LRS_GUI_ZERO.r - LRS_GUI_ZERO.b) < 12);
	/* text contrast */
	assert_int_equal(lrs_gui_colour__text_on(lrs_gui_colour__map(1)).r, 0);
	assert_int_equal(lrs_gui_colour__text_on(lrs_gui_colour__map(0)).r, 255);
}

static void test_colour_scale(void **state)
{
	double max = 40e6, ticks[8], prev = -2;
	size_t n;

	assert_true(lrs_gui_colour__t(0, max, 3) < 0);
	assert_true(lrs_gui_colour__t(-5, max, 3) < 0);
	assert_true(lrs_gui_colour__t(NAN, max, 3) < 0);
	assert_true(lrs_gui_colour__t(max, max, 3) == 1);
	assert_true(lrs_gui_colour__t(max * 3, max, 3) == 1);
	assert_true(fabs(lrs_gui_colour__t(max / 10, max, 3) - 2.0 / 3) < 1e-9);
	assert_true(lrs_gui_colour__t(max / 1e6, max, 3) == 0);
	assert_true(lrs_gui_colour__t(5, 0, 3) == 1);
	for (double v = 1; v < max * 2; v *= 1.3) {
		double t = lrs_gui_colour__t(v, max, 3);

		assert_true(t >= prev);
		prev = t;
		/* value_at inverts t inside the scale */
		if (t > 0 && t < 1)
			assert_true(fabs(lrs_gui_colour__value_at(t, max, 3) / v - 1) < 1e-9);
	}
	assert_memory_equal(&(struct lrs_rgb[]){ lrs_gui_colour__value(0, max, 3) }[0],
			    &(struct lrs_rgb[]){ LRS_GUI_ZERO }[0], sizeof(struct lrs_rgb));
	n = lrs_gui_colour__ticks(40e6, 3, ticks, 8);
	assert_int_equal(n, 3); /* 100us, 1ms, 10ms per s */
	assert_true(fabs(ticks[0] - 1e5) < 1e-3 && fabs(ticks[2] - 1e7) < 1e-3);
	n = lrs_gui_colour__ticks(1e6, 3, ticks, 8);
	assert_int_equal(n, 4);
	/* under a decade: the two ends */
	n = lrs_gui_colour__ticks(5e6, 0.5, ticks, 8);
	assert_int_equal(n, 2);
	assert_true(ticks[1] == 5e6);
	assert_int_equal(lrs_gui_colour__ticks(0, 3, ticks, 8), 0);
}

static void test_png_round_trip(void **state)
{
	char path[] = "/tmp/lrs-test-png-XXXXXX";
	uint32_t px[37 * 23], *back = NULL;
	int fd = mkstemp(path), w, h;

	assert_true(fd >= 0);
	close(fd);
	for (int i = 0; i < 37 * 23; i++)
		px[i] = 0xff000000u | (uint32_t)(i * 2654435761u & 0xffffff);
	for (int i = 0; i < 37; i++) /* a repeated row: the Up filter */
		px[5 * 37 + i] = px[4 * 37 + i];
	for (int y = 8; y < 16; y++) /* gradients: Sub, Average, Paeth */
		for (int i = 0; i < 37; i++)
			px[y * 37 + i] = 0xff000000u | (uint32_t)(i * 7 + y) << 16 |
					 (uint32_t)(i * 3 * y & 0xff) << 8 | (uint32_t)(y * 9 + i);
	assert_int_equal(lrs_png__write(path, px, 37, 23, 37 * 4), 0);
	assert_int_equal(lrs_png__read(path, &back, &w, &h), 0);
	assert_int_equal(w, 37);
	assert_int_equal(h, 23);
	assert_memory_equal(px, back, sizeof(px));
	free(back);
	assert_int_equal(lrs_png__write("/nonexistent/dir/x.png", px, 37, 23, 37 * 4), -ENOENT);
	assert_int_equal(lrs_png__write(path, px, 0, 23, 0), -EINVAL);
	/* a PNG that is not ours is refused, not misread */
	{
		FILE *f = fopen(path, "wb");

		fputs("not a png", f);
		fclose(f);
	}
	assert_int_equal(lrs_png__read(path, &back, &w, &h), -EINVAL);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_panels),
		cmocka_unit_test(test_node_scroll),
		cmocka_unit_test(test_hit),
		cmocka_unit_test(test_time_ticks),
		cmocka_unit_test(test_bucket_ticks),
		cmocka_unit_test(test_tooltip),
		cmocka_unit_test(test_colour_map),
		cmocka_unit_test(test_colour_scale),
		cmocka_unit_test(test_png_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* Layout maths: number formatting, path fitting, screen parts, scrolling. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "ui/help.h"
#include "ui/keymap.h"
#include "ui/layout.h"

static void test_fmt_ns(void **state)
{
	char b[32];

	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 0), "0");
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 950), "950ns");
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 4500), "4.5us");
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 12.3e6), "12.3ms");
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 123e6), "123ms");
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 1.2e9), "1.2s");
	/* rounding never makes a 4-digit number: 999.7us is 1.0ms */
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 999.7e3), "1.0ms");
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 99.97e3), "100us");
	/* seconds are the last unit */
	assert_string_equal(lrs_fmt__ns(b, sizeof(b), 1234e9), "1234s");
}

static void test_fmt_rate(void **state)
{
	char b[32];

	assert_string_equal(lrs_fmt__rate_ns(b, sizeof(b), 0), "0");
	assert_string_equal(lrs_fmt__rate_ns(b, sizeof(b), -5), "0");
	assert_string_equal(lrs_fmt__rate_ns(b, sizeof(b), 12.3e6), "12.3ms/s");
	assert_string_equal(lrs_fmt__rate_ns(b, sizeof(b), 0.4), "0.4ns/s");
	assert_string_equal(lrs_fmt__rate_ns(b, sizeof(b), 1.5e9), "1.5s/s");
	/* every rate up to 10 s/s fits the cell */
	for (double v = 0.1; v < 10e9; v *= 1.37)
		assert_true(strlen(lrs_fmt__rate_ns(b, sizeof(b), v)) <= LRS_CELL_WAIT_W);
	/* a short buffer truncates, never overflows */
	assert_string_equal(lrs_fmt__rate_ns(b, 4, 12.3e6), "12.");
}

static void test_fmt_count(void **state)
{
	char b[32];

	assert_string_equal(lrs_fmt__count(b, sizeof(b), 0), "0");
	assert_string_equal(lrs_fmt__count(b, sizeof(b), 7), "7");
	assert_string_equal(lrs_fmt__count(b, sizeof(b), 950), "950");
	assert_string_equal(lrs_fmt__count(b, sizeof(b), 0.5), "0.5");
	assert_string_equal(lrs_fmt__count(b, sizeof(b), 4500), "4.5k");
	assert_string_equal(lrs_fmt__count(b, sizeof(b), 12345), "12k");
	assert_string_equal(lrs_fmt__count(b, sizeof(b), 1.2e6), "1.2M");
	assert_string_equal(lrs_fmt__count(b, sizeof(b), 999.6), "1.0k");
	for (double v = 0.1; v < 1e15; v *= 1.37)
		assert_true(strlen(lrs_fmt__count(b, sizeof(b), v)) <= LRS_CELL_COUNT_W);
}

static void test_fmt_path(void **state)
{
	char b[64];

	assert_string_equal(lrs_fmt__path(b, sizeof(b), "/lrs-a/b", 20), "/lrs-a/b");
	assert_string_equal(lrs_fmt__path(b, sizeof(b), "/kubepods/burstable/pod-1/ctr", 12),
			    "...pod-1/ctr");
	assert_int_equal(strlen(lrs_fmt__path(b, sizeof(b), "/kubepods/burstable/pod-1/ctr", 12)),
			 12);
	assert_string_equal(lrs_fmt__path(b, sizeof(b), "/abcdef", 3), "def");
	/* a cut inside a component moves on to the next '/' */
	assert_string_equal(lrs_fmt__path(b, sizeof(b), "/lrs-s16/lrs-s272", 14), ".../lrs-s272");
	assert_string_equal(lrs_fmt__path(b, sizeof(b), "/a/verylongcomponent", 10), "...mponent");
	assert_string_equal(lrs_fmt__path(b, sizeof(b), NULL, 3), "?");
	/* the buffer bounds the width */
	assert_string_equal(lrs_fmt__path(b, 6, "/abcdefgh", 20), "...gh");
}

static struct lrs_view_layout_in screen(int w, int h, size_t nodes)
{
	struct lrs_view_layout_in in = {
		.width = w,
		.height = h,
		.nr_nodes = nodes,
		.name_len = 20,
		.nr_rows = 1000,
		.nr_others = 10,
		.detail = true,
	};
	return in;
}

static void test_layout_vertical(void **state)
{
	struct lrs_view_layout_in in = screen(160, 50, 8);
	struct lrs_view_layout l;

	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.banner_y, -1);
	assert_int_equal(l.header_y, 0);
	assert_int_equal(l.status_y, 49);
	assert_int_equal(l.others_h, 1 + LRS_OTHERS_MAX);
	assert_int_equal(l.detail_h, LRS_DETAIL_LINES);
	/* the parts tile the screen without overlap */
	assert_int_equal(l.legend_y, l.header_y + l.header_h);
	assert_int_equal(l.colhdr_y, l.legend_y + 1);
	assert_int_equal(l.rows_y, l.colhdr_y + 1);
	assert_int_equal(l.others_y, l.rows_y + l.rows_h);
	assert_int_equal(l.detail_y, l.others_y + l.others_h);
	assert_int_equal(l.detail_y + l.detail_h, l.status_y);
	assert_true(l.rows_h >= 20);

	/* a banner and an unavailable line push everything down */
	in.banner = in.unavailable = true;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.banner_y, 0);
	assert_int_equal(l.header_y, 1);
	assert_int_equal(l.header_h, 3);
	assert_int_equal(l.detail_y + l.detail_h, l.status_y);

	/* a short screen keeps LRS_ROWS_MIN heatmap rows before the panes */
	in = screen(80, 16, 2);
	lrs_view_layout__compute(&l, &in);
	assert_true(l.rows_h >= LRS_ROWS_MIN);
	assert_int_equal(l.detail_y + l.detail_h, l.status_y);

	/* no detail, few others: the rows take the rest */
	in = screen(80, 24, 2);
	in.detail = false;
	in.nr_others = 2;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.detail_h, 0);
	assert_int_equal(l.others_h, 3);
	assert_int_equal(l.rows_h, 23 - l.rows_y - 3);

	/* few rows: the panes grow, the rest is blank above the status line */
	in = screen(160, 50, 1);
	in.nr_rows = 4;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.rows_h, 4);
	assert_int_equal(l.others_h, 1 + LRS_OTHERS_MORE);
	assert_int_equal(l.detail_h, LRS_DETAIL_MORE);
	assert_int_equal(l.others_y, l.rows_y + 4);
	assert_int_equal(l.detail_y, l.others_y + l.others_h);
	assert_true(l.detail_y + l.detail_h <= l.status_y);
	in.nr_rows = 0;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.rows_h, LRS_ROWS_MIN);

	/* tiny screens never produce negative heights */
	for (int h = 0; h < 12; h++) {
		in = screen(40, h, 2);
		lrs_view_layout__compute(&l, &in);
		assert_true(l.rows_h >= 0 && l.others_h >= 0 && l.detail_h >= 0 && l.header_h >= 0);
		assert_true(l.rows_y + l.rows_h + l.others_h + l.detail_h <= (h > 0 ? h : 1) ||
			    l.rows_h + l.others_h + l.detail_h == 0);
	}
}

static void test_layout_columns(void **state)
{
	struct lrs_view_layout_in in = screen(160, 50, 8);
	struct lrs_view_layout l;

	/* 160 columns hold 8 nodes with counts and a total */
	lrs_view_layout__compute(&l, &in);
	assert_true(l.cell_counts);
	assert_int_equal(l.nr_node_cols, 8);
	assert_int_equal(l.first_node, 0);
	assert_int_equal(l.total_w, LRS_CELL_FULL_W);
	assert_true(l.name_w + 8 * l.cell_w + l.total_w <= 160);
	assert_int_equal(lrs_view_layout__node_x(&l, 0), l.name_w);
	assert_int_equal(lrs_view_layout__node_x(&l, 1), l.name_w + l.cell_w);

	/* 80 columns: waits only */
	in = screen(80, 24, 4);
	lrs_view_layout__compute(&l, &in);
	assert_false(l.cell_counts);
	assert_int_equal(l.nr_node_cols, 4);
	assert_true(l.name_w + 4 * l.cell_w + l.total_w <= 80);

	/* one node: no total column, and there is room for counts */
	in = screen(80, 24, 1);
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.total_w, 0);
	assert_true(l.cell_counts);

	/* too many nodes: scroll so the selected node is shown */
	in = screen(80, 24, 16);
	in.sel_node_idx = 12;
	lrs_view_layout__compute(&l, &in);
	assert_true(l.nr_node_cols < 16);
	assert_true(l.first_node <= 12 && 12 < l.first_node + l.nr_node_cols);
	assert_true(lrs_view_layout__node_x(&l, 12) >= l.name_w);
	assert_int_equal(lrs_view_layout__node_x(&l, l.first_node + l.nr_node_cols), -1);
	assert_true(l.name_w + (int)l.nr_node_cols * l.cell_w <= 80);
	/* and back left */
	in.first_node = l.first_node;
	in.sel_node_idx = 0;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.first_node, 0);

	/* long names are capped */
	in = screen(200, 50, 2);
	in.name_len = 300;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.name_w, LRS_NAME_MAX_W);

	/* the detail pane's columns fill the width */
	in = screen(160, 50, 8);
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.hist_w + l.waiters_w + l.stacks_w, 160);
	assert_true(l.stacks_w >= 40);
	/* narrower: stacks go before the waiters get too narrow to read */
	for (int w = 60; w <= 300; w += 7) {
		in = screen(w, 50, 2);
		lrs_view_layout__compute(&l, &in);
		assert_int_equal(l.hist_w + l.waiters_w + l.stacks_w, w);
		assert_true(l.waiters_w >= LRS_WAITERS_MIN_W);
		assert_true(l.stacks_w == 0 || l.stacks_w >= LRS_STACKS_MIN_W);
	}
	in = screen(120, 50, 2);
	lrs_view_layout__compute(&l, &in);
	assert_true(l.stacks_w > 0);
}

static void test_scroll(void **state)
{
	/* everything fits: no scrolling */
	assert_int_equal(lrs_view_layout__scroll(0, 5, 10, 20), 0);
	assert_int_equal(lrs_view_layout__scroll(7, 5, 10, 20), 0);
	/* selection below the window: it becomes the last line */
	assert_int_equal(lrs_view_layout__scroll(0, 30, 100, 10), 21);
	/* above: the first line */
	assert_int_equal(lrs_view_layout__scroll(50, 30, 100, 10), 30);
	/* inside: top stays */
	assert_int_equal(lrs_view_layout__scroll(25, 30, 100, 10), 25);
	/* never blank lines at the end */
	assert_int_equal(lrs_view_layout__scroll(95, 97, 100, 10), 90);
	/* rows vanished (filter): clamp */
	assert_int_equal(lrs_view_layout__scroll(50, 200, 12, 10), 2);
	assert_int_equal(lrs_view_layout__scroll(3, 0, 0, 10), 0);
	assert_int_equal(lrs_view_layout__scroll(0, 4, 10, 0), 4);
}

static void test_bar(void **state)
{
	assert_int_equal(lrs_view_layout__bar(0, 100, 20), 0);
	assert_int_equal(lrs_view_layout__bar(100, 100, 20), 20);
	assert_int_equal(lrs_view_layout__bar(50, 100, 20), 10);
	assert_int_equal(lrs_view_layout__bar(1, 1000000, 20), 1);
	assert_int_equal(lrs_view_layout__bar(~0ULL - 1, ~0ULL, 20), 20);
	assert_int_equal(lrs_view_layout__bar(5, 0, 20), 0);
}

static void test_time_layout(void **state)
{
	struct lrs_view_layout_in in = screen(160, 50, 8);
	struct lrs_view_layout l;

	/* the heatmap has no axis */
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.axis_y, -1);

	/* 160 columns: name, a blank, the strip, the current value fill the width */
	in.time_view = true;
	in.history_cap = 600;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.name_w, 22);
	assert_int_equal(l.strip_x, l.name_w + 1);
	assert_int_equal(l.nr_time_cols, 160 - 23 - LRS_TIME_VALUE_W);
	assert_int_equal(l.value_x, l.strip_x + (int)l.nr_time_cols);
	assert_int_equal(l.value_x + LRS_TIME_VALUE_W, 160);
	/* the axis sits right under the rows; the panes follow it */
	assert_int_equal(l.axis_y, l.rows_y + l.rows_h);
	assert_int_equal(l.others_y, l.axis_y + 1);
	assert_int_equal(l.detail_y + l.detail_h, l.status_y);

	/* a short ring: no more cells than snapshots it can hold, the newest still at the right */
	in.history_cap = 16;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.nr_time_cols, 16);
	assert_int_equal(l.value_x, 160 - LRS_TIME_VALUE_W);
	assert_int_equal(l.strip_x, l.value_x - 16);

	/* long names are capped as in the heatmap, and take at most a third of the width */
	in.history_cap = 600;
	in.name_len = 300;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.name_w, LRS_NAME_MAX_W);
	in = screen(90, 24, 2);
	in.time_view = true;
	in.history_cap = 600;
	in.name_len = 300;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.name_w, 30);
	assert_int_equal(l.value_x + LRS_TIME_VALUE_W, 90);

	/* few rows: the axis still follows them */
	in = screen(160, 50, 1);
	in.time_view = true;
	in.history_cap = 600;
	in.nr_rows = 4;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.rows_h, 4);
	assert_int_equal(l.axis_y, l.rows_y + 4);
	/* one row in LRS_ROWS_MIN lines: right under it, not under the blank */
	in.nr_rows = 1;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.rows_h, LRS_ROWS_MIN);
	assert_int_equal(l.axis_y, l.rows_y + 1);
	assert_true(l.others_y > l.axis_y);
	in.nr_rows = 0;
	lrs_view_layout__compute(&l, &in);
	assert_int_equal(l.axis_y, l.rows_y + 1);

	/* tiny screens: never a negative strip, never an axis on the status line */
	for (int h = 0; h < 14; h++)
		for (int w = 0; w < 60; w += 7) {
			in = screen(w, h, 2);
			in.time_view = true;
			in.history_cap = 600;
			lrs_view_layout__compute(&l, &in);
			if (w > LRS_TIME_VALUE_W + 1)
				assert_true(l.value_x + LRS_TIME_VALUE_W <= w);
			assert_true(l.strip_x >= l.name_w + 1);
			assert_int_equal(l.value_x - l.strip_x, (int)l.nr_time_cols);
			assert_true(l.axis_y < l.status_y);
			assert_true(l.rows_h >= 0);
		}
}

static void test_history_index(void **state)
{
	/* a full ring wider than the strip: the newest at the right */
	assert_int_equal(lrs_view_layout__history_index(99, 100, 600), 599);
	assert_int_equal(lrs_view_layout__history_index(0, 100, 600), 500);
	assert_int_equal(lrs_view_layout__history_index(98, 100, 600), 598);
	/* a young history: right-aligned, blank on the left */
	assert_int_equal(lrs_view_layout__history_index(99, 100, 5), 4);
	assert_int_equal(lrs_view_layout__history_index(95, 100, 5), 0);
	assert_int_equal(lrs_view_layout__history_index(94, 100, 5), -1);
	assert_int_equal(lrs_view_layout__history_index(0, 100, 5), -1);
	/* no history, or a column past the strip */
	assert_int_equal(lrs_view_layout__history_index(9, 10, 0), -1);
	assert_int_equal(lrs_view_layout__history_index(10, 10, 20), -1);
	/* every shown index is distinct and increases to the right */
	for (size_t c = 1; c < 50; c++)
		assert_int_equal(lrs_view_layout__history_index(c, 50, 30) -
					 lrs_view_layout__history_index(c - 1, 50, 30),
				 c > 20	 ? 1 :
				 c == 20 ? 1 :
					   0);
}

static void test_time_ticks(void **state)
{
	struct lrs_time_tick t[32];
	size_t n;

	/* 1 s snapshots on 125 columns: now, -10s ... -120s, 10 columns apart */
	n = lrs_view_layout__time_ticks(t, 32, 125, 1.0);
	assert_int_equal(n, 13);
	assert_string_equal(t[0].label, "now");
	assert_int_equal(t[0].col, 124);
	assert_string_equal(t[1].label, "-10s");
	assert_int_equal(t[1].col, 114);
	assert_string_equal(t[6].label, "-60s");
	assert_int_equal(t[6].col, 64);
	assert_string_equal(t[12].label, "-120s");
	assert_int_equal(t[12].col, 4);
	/* labels never overlap: a blank at least between them */
	for (size_t i = 1; i < n; i++)
		assert_true(t[i].col + 1 < t[i - 1].col + 1 - strlen(t[i - 1].label));

	/* 5 s snapshots: a minute every 12 columns */
	n = lrs_view_layout__time_ticks(t, 32, 125, 5.0);
	assert_string_equal(t[1].label, "-1m");
	assert_int_equal(t[1].col, 112);
	assert_string_equal(t[2].label, "-2m");
	/* 0.2 s snapshots: 2 s every 10 columns */
	n = lrs_view_layout__time_ticks(t, 32, 125, 0.2);
	assert_string_equal(t[1].label, "-2s");
	assert_int_equal(t[1].col, 114);
	/* 60 s snapshots: 10 minutes every 10 columns */
	n = lrs_view_layout__time_ticks(t, 32, 40, 60);
	assert_string_equal(t[1].label, "-10m");
	assert_int_equal(t[1].col, 29);
	assert_int_equal(n, 4); /* now, -10m, -20m, -30m: -30m ends at column 9 */
	/* an odd interval: columns rounded */
	n = lrs_view_layout__time_ticks(t, 32, 100, 1.5);
	assert_string_equal(t[1].label, "-15s");
	assert_int_equal(t[1].col, 89);

	/* the bound, no interval, no strip */
	assert_int_equal(lrs_view_layout__time_ticks(t, 3, 125, 1.0), 3);
	assert_int_equal(lrs_view_layout__time_ticks(t, 32, 125, 0), 1);
	assert_int_equal(lrs_view_layout__time_ticks(t, 32, 0, 1.0), 0);
	/* a label that would start left of the strip is left out */
	n = lrs_view_layout__time_ticks(t, 32, 14, 1.0);
	assert_int_equal(n, 2);
	assert_int_equal(t[1].col, 3);
	n = lrs_view_layout__time_ticks(t, 32, 13, 1.0);
	assert_int_equal(n, 1);
}

/* The help box: inside the screen, every line inside the box, every key of the TUI once. */
static void check_help(int cols, int rows, int want_columns, bool want_scroll)
{
	static const char *const intro[] = {
		"title",
		"",
		"a paragraph long enough to be wrapped on a narrow screen, word by word, "
		"without cutting a word in two",
	};
	struct lrs_help h;
	size_t keys = 0;

	assert_int_equal(lrs_help__layout(&h, intro, 3, LRS_KEYMAP_TUI, true, cols, rows), 0);
	assert_int_equal(h.columns, want_columns);
	assert_true(h.x0 >= 0 && h.x0 + h.w <= cols && h.w == h.inner_w + 6);
	assert_true(h.y0 >= 0 && h.y0 + h.h <= rows && h.body_h == h.h - 4);
	assert_int_equal(h.max_top > 0, want_scroll);
	assert_true(h.max_top + (size_t)h.body_h == (h.max_top ? h.nr_lines : (size_t)h.body_h));
	assert_string_equal(h.lines[0], "title");
	for (size_t i = 0; i < h.nr_lines; i++) {
		if ((int)strlen(h.lines[i]) > h.inner_w)
			fail_msg("%dx%d: line %zu is %zu wide, over %d: '%s'", cols, rows, i,
				 strlen(h.lines[i]), h.inner_w, h.lines[i]);
		assert_null(strstr(h.lines[i], "  word")); /* wrapped at blanks, not doubled */
	}
	/* each key starts an entry: at a line's start, or after the gap between columns */
	for (size_t k = 0; k < lrs_keymap_len; k++) {
		char entry[64];
		size_t seen = 0;

		if (!lrs_binding__shown(&lrs_keymap[k], LRS_KEYMAP_TUI, true))
			continue;
		keys++;
		snprintf(entry, sizeof(entry), "%-*s %.8s", LRS_HELP_KEYS_W - 1, lrs_keymap[k].keys,
			 lrs_keymap[k].what);
		for (size_t i = h.nr_intro; i < h.nr_lines; i++) {
			const char *p = strstr(h.lines[i], entry);

			seen += p && (p == h.lines[i] ||
				      !strncmp(p - LRS_HELP_GAP, "   ", LRS_HELP_GAP));
		}
		if (seen != 1)
			fail_msg("%dx%d: '%s' seen %zu times", cols, rows, entry, seen);
	}
	assert_true(keys > 15);
	lrs_help__free(&h);
}

static void test_help_box(void **state)
{
	check_help(200, 50, 2, false);
	check_help(80, 24, 1, true);
	check_help(50, 20, 1, true);
	check_help(120, 60, 1, false);
	/* scrolling: a line, a page, the ends, never past them */
	assert_int_equal(lrs_help__scroll(0, 30, 10, LRS_ACT_UP), 0);
	assert_int_equal(lrs_help__scroll(0, 30, 10, LRS_ACT_DOWN), 1);
	assert_int_equal(lrs_help__scroll(25, 30, 10, LRS_ACT_PAGE_DOWN), 30);
	assert_int_equal(lrs_help__scroll(25, 30, 10, LRS_ACT_PAGE_UP), 15);
	assert_int_equal(lrs_help__scroll(5, 30, 10, LRS_ACT_PAGE_UP), 0);
	assert_int_equal(lrs_help__scroll(5, 30, 10, LRS_ACT_END), 30);
	assert_int_equal(lrs_help__scroll(5, 30, 10, LRS_ACT_HOME), 0);
	assert_int_equal(lrs_help__scroll(40, 30, 10, LRS_ACT_NONE), 30);
	assert_true(lrs_help__scrolls(LRS_ACT_PAGE_DOWN) && !lrs_help__scrolls(LRS_ACT_QUIT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_ns),		cmocka_unit_test(test_fmt_rate),
		cmocka_unit_test(test_fmt_count),	cmocka_unit_test(test_fmt_path),
		cmocka_unit_test(test_layout_vertical), cmocka_unit_test(test_layout_columns),
		cmocka_unit_test(test_scroll),		cmocka_unit_test(test_bar),
		cmocka_unit_test(test_time_layout),	cmocka_unit_test(test_history_index),
		cmocka_unit_test(test_time_ticks),	cmocka_unit_test(test_help_box),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI's time view (t): a strip of wait/s per memcg, a cell per snapshot,
 * drawn into a curses screen over /dev/null and read back (support/tui_screen.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "ui/colour.h"
#include "support/synth.h"
#include "support/tui_screen.h"
#include "ui/tui/tui.h"

#define S 1000000000ULL

static struct lrs_model *model_rising(size_t memcgs, size_t nodes, int intervals)
{
	struct lrs_model *m = lrs_model__new(16);
	double counter_s = 100, step_s = 1;

	assert_non_null(m);
	for (int k = 0; k <= intervals; k++) {
		struct lrs_snapshot *snap =
			lrs_synth__snapshot(memcgs, nodes, (uint64_t)(counter_s * S), 1);

		assert_non_null(snap);
		snap->t_ns = (100 + (uint64_t)k) * S;
		assert_int_equal(lrs_model__push(m, snap), 0);
		counter_s += step_s;
		step_s *= 4;
	}
	return m;
}

static void test_time_view(void **state)
{
	/* the 256-colour ramp's backgrounds, cold to hot (ui/colour.c) */
	static const short ramp[] = { 24, 30, 35, 112, 184, 214, 202, 196 };
	struct tui_fixture *f = *state;
	int y, x, axis, strip_x, prev = -1, first = -1, last = -1;

	lrs_model__free(f->model);
	f->model = model_rising(40, 2, 6);
	f->model->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(f->model);
	tui_fixture__select(f->model, 2, 0); /* /lrs-s1 on N0 */
	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	lrs_tui__set_time_view(f->tui, true, false);
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		tui_screen__dump();

	/* headings, legend, the axis under the rows ending with now */
	y = tui_screen__find("wait/s history of N0 N1 all nodes", &strip_x);
	assert_true(y > 0);
	assert_true(tui_screen__find("strips: wait/s, a cell per snapshot", NULL) > 0);
	axis = tui_screen__find("a cell: 1s", NULL);
	assert_true(axis > y);
	assert_non_null(strstr(tui_screen__line(axis), "-10s"));
	assert_true(strlen(tui_screen__line(axis)) > 0 && strstr(tui_screen__line(axis), "now"));
	/* no heatmap columns */
	assert_int_equal(tui_screen__find(" N1 ", NULL) > y, false);

	/* memcg 1's strip: 6 snapshots right-aligned, cold to hot to the right */
	y = tui_screen__find(" lrs-s1 ", NULL);
	assert_true(y > 0 && y < axis);
	for (x = strip_x; x < 160; x++) {
		short bg = tui_screen__bg(y, x);
		int level = -1;

		for (int lv = 0; lv < 8; lv++)
			if (ramp[lv] == bg)
				level = lv + 1;
		if (level < 0)
			continue;
		if (first < 0)
			first = x;
		last = x;
		assert_true(level >= prev);
		prev = level;
	}
	assert_int_equal(last - first + 1, 6);
	assert_int_equal(tui_screen__bg(y, first), ramp[0]); /* 1/1024 of the top: the coldest */
	assert_int_equal(tui_screen__bg(y, last), ramp[7]);  /* the newest is the scale's top */
	/* the strip ends where the axis says now; before it, no history: blank */
	assert_int_equal(tui_screen__line(axis)[last], 'w');
	assert_int_equal(tui_screen__bg(y, first - 1), -2);
	/* the current value at the right, the selection reversed */
	assert_non_null(strstr(tui_screen__line(y), "s/s"));
	assert_true(mvinch(y, 155) & A_REVERSE);

	/* all nodes: the sums, and the heading says so */
	lrs_tui__set_time_view(f->tui, true, true);
	lrs_tui__draw(f->tui, f->model);
	y = tui_screen__find("all nodes", &x);
	assert_true(mvinch(y, x) & A_REVERSE);
	y = tui_screen__find(" lrs-s1 ", NULL);
	assert_int_equal(tui_screen__bg(y, last), ramp[7]);

	/* NO_COLOR: the glyph ramp instead, '@' at the hot end */
	lrs_tui__close(f->tui);
	setenv("NO_COLOR", "1", 1);
	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	unsetenv("NO_COLOR");
	lrs_tui__set_time_view(f->tui, true, false);
	lrs_tui__draw(f->tui, f->model);
	y = tui_screen__find(" lrs-s1 ", NULL);
	assert_int_equal(tui_screen__line(y)[last], '@');
	assert_int_equal(tui_screen__line(y)[first], lrs_colour__glyph(1));

	/* back to the heatmap */
	lrs_tui__set_time_view(f->tui, false, false);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(tui_screen__find("wait/s history", NULL), -1);
	assert_true(tui_screen__find("all nodes", NULL) > 0);
}

/* Keys as the loop applies them: the time view's first, then the model's and the screen's. */
static void press(struct tui_fixture *f, enum lrs_action act)
{
	if (!lrs_tui__time_view_key(f->tui, f->model, act))
		lrs_action__apply(act, f->model, lrs_tui__view_state(f->tui), 10);
	lrs_tui__draw(f->tui, f->model);
}

static void test_time_view_keys(void **state)
{
	struct tui_fixture *f = *state;
	int y, x;

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	tui_fixture__select(f->model, 2, 0);
	press(f, LRS_ACT_TIME_VIEW);
	y = tui_screen__find("wait/s history of N0 N1 all nodes", &x);
	assert_true(y > 0);
	x += (int)strlen("wait/s history of ");
	assert_true(mvinch(y, x) & A_REVERSE); /* N0 */
	/* -> moves to N1, then past the last node to all nodes */
	press(f, LRS_ACT_RIGHT);
	assert_int_equal(f->model->sel_node_idx, 1);
	assert_true(mvinch(y, x + 3) & A_REVERSE); /* N1 */
	press(f, LRS_ACT_RIGHT);
	assert_int_equal(f->model->sel_node_idx, 1);
	assert_false(mvinch(y, x + 3) & A_REVERSE);
	assert_true(mvinch(y, x + 6) & A_REVERSE); /* all nodes */
	press(f, LRS_ACT_RIGHT);
	assert_true(mvinch(y, x + 6) & A_REVERSE);
	/* <- comes back to N1, then N0 */
	press(f, LRS_ACT_LEFT);
	assert_true(mvinch(y, x + 3) & A_REVERSE);
	press(f, LRS_ACT_LEFT);
	assert_int_equal(f->model->sel_node_idx, 0);
	/* t again: the heatmap, where -> stops at the last node as before */
	press(f, LRS_ACT_TIME_VIEW);
	assert_int_equal(tui_screen__find("wait/s history", NULL), -1);
	assert_false(lrs_tui__time_view_key(f->tui, f->model, LRS_ACT_RIGHT));
	press(f, LRS_ACT_RIGHT);
	assert_false(lrs_tui__time_view_key(f->tui, f->model, LRS_ACT_RIGHT));
	assert_false(lrs_tui__time_view_key(f->tui, f->model, LRS_ACT_DOWN));
}

static void test_time_view_small(void **state)
{
	struct tui_fixture *f = *state;

	/* one snapshot only, an empty model, odd sizes: no crash, no strip */
	tui_fixture__open(f, "xterm-256color", 24, 80, false);
	lrs_tui__set_time_view(f->tui, true, true);
	lrs_tui__draw(f->tui, f->model);
	assert_true(tui_screen__find("a cell: 1s", NULL) > 0);
	for (int h = 1; h < 30; h += 3)
		for (int w = 5; w < 200; w += 23) {
			lrs_tui__resize(f->tui, h, w);
			lrs_tui__draw(f->tui, f->model);
		}
	{
		struct lrs_model *empty = lrs_model__new(4);

		lrs_tui__resize(f->tui, 24, 80);
		lrs_tui__draw(f->tui, empty);
		assert_true(tui_screen__find("waiting for the first snapshot", NULL) > 0);
		lrs_model__push(empty, lrs_synth__snapshot(4, 1, S, 1));
		lrs_tui__draw(f->tui, empty);
		lrs_model__free(empty);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_time_view, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_time_view_keys, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_time_view_small, tui_fixture__setup,
						tui_fixture__teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

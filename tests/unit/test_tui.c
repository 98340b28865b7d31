// SPDX-License-Identifier: GPL-2.0
/*
 * The TUI draws a model built from synthetic snapshots into a curses screen
 * (newterm over /dev/null); the tests read back what ncurses holds for the
 * screen: text, colour pairs and attributes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "ui/colour.h"
#include "ui/detail.h"
#include "model/holders.h"
#include "support/synth.h"
#include "ui/tui/tui.h"

#define S 1000000000ULL

struct fixture {
	struct lrs_model *model;
	struct lrs_tui *tui;
	FILE *out, *in;
};

static struct lrs_model *model_of(size_t memcgs, size_t nodes)
{
	struct lrs_model *m = lrs_model__new(16);

	assert_non_null(m);
	assert_int_equal(lrs_model__push(m, lrs_synth__snapshot(memcgs, nodes, 100 * S, 1)), 0);
	assert_int_equal(lrs_model__push(m, lrs_synth__snapshot(memcgs, nodes, 101 * S, 1)), 0);
	return m;
}

static void open_tui(struct fixture *f, const char *term, int lines, int cols, bool no_color)
{
	struct lrs_tui_opts opts = { .no_color = no_color };

	f->out = fopen("/dev/null", "w");
	f->in = fopen("/dev/null", "r");
	assert_non_null(f->out);
	assert_non_null(f->in);
	assert_int_equal(lrs_tui__open(&f->tui, &opts, term, f->out, f->in), 0);
	lrs_tui__resize(f->tui, lines, cols);
	lrs_tui__set_source(f->tui, "synth", 1.0);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	/* deterministic: ASCII glyphs, and no NO_COLOR from the caller */
	setenv("LC_ALL", "C", 1);
	unsetenv("NO_COLOR");
	f->model = model_of(40, 2);
	f->model->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(f->model);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	lrs_tui__close(f->tui);
	if (f->out)
		fclose(f->out);
	if (f->in)
		fclose(f->in);
	lrs_model__free(f->model);
	free(f);
	return 0;
}

/* Line y of the curses screen as text, trailing blanks cut. */
static const char *line(int y)
{
	static char buf[512];
	int n, cols = getmaxx(stdscr);

	buf[0] = '\0';
	n = mvinnstr(y, 0, buf, cols < (int)sizeof(buf) - 1 ? cols : (int)sizeof(buf) - 1);
	if (n < 0)
		n = 0;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
	return buf;
}

/* The first line holding s, or -1; *x gets its column. */
static int find(const char *s, int *x)
{
	for (int y = 0; y < getmaxy(stdscr); y++) {
		const char *l = line(y), *p = strstr(l, s);

		if (p) {
			if (x)
				*x = (int)(p - l);
			return y;
		}
	}
	return -1;
}

static void dump_screen(void)
{
	for (int y = 0; y < getmaxy(stdscr); y++)
		print_message("%2d|%s\n", y, line(y));
}

static void select_cell(struct lrs_model *m, uint64_t memcg_id, size_t node_idx)
{
	m->sel_memcg_id = memcg_id;
	m->sel_node_idx = node_idx;
}

static void test_rows_and_legend(void **state)
{
	struct fixture *f = *state;
	int y, x;

	open_tui(f, "xterm-256color", 50, 160, false);
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		dump_screen();

	/* header: kernel, totals, drops */
	assert_true(find("lruscope", NULL) == 0);
	assert_true(find("6.18.0-synth", NULL) == 0);
	assert_true(find("lruvec locks", NULL) == 0);
	assert_true(find("drops: task 1", NULL) >= 0);
	/* a refused insert is shown only when there was one */
	assert_true(find("insert", NULL) < 0);
	{
		struct lrs_snapshot *s = lrs_synth__snapshot(40, 2, 102 * S, 1);

		s->drops.insert_failed = 7;
		assert_int_equal(lrs_model__push(f->model, s), 0);
		lrs_tui__draw(f->tui, f->model);
		assert_true(find("insert 7", NULL) >= 0);
	}
	/* legend and column headings */
	assert_true(find("lock wait/s", NULL) >= 0);
	assert_true(find(" max ", NULL) >= 0);
	y = find("all nodes", NULL);
	assert_true(y > 0);
	assert_non_null(strstr(line(y), "N0"));
	assert_non_null(strstr(line(y), "N1"));

	/* tree order: leaf names indented, lrs-s1 under /, lrs-s17 under lrs-s1 */
	y = find(" lrs-s1 ", &x);
	assert_true(y > 0);
	assert_int_equal(x, 2);
	assert_true(find(" lrs-s17 ", &x) == y + 1);
	assert_int_equal(x, 4);
	assert_int_equal(line(y - 1)[1], '/');
	/* memcg 1 is the hottest: 40k/s on N0 at 6us; its row shows rates */
	assert_non_null(strstr(line(y), "ms/s"));
	assert_non_null(strstr(line(y), "k"));
	/* memcg 11 never contends (nor does every third from 2): its cells show dots */
	y = find(" lrs-s11 ", NULL);
	assert_true(y > 0);
	assert_non_null(strstr(line(y), "."));
	assert_null(strstr(line(y), "/s "));
}

static void test_colours(void **state)
{
	struct fixture *f = *state;
	short fg, bg;
	chtype ch;
	int y, x;

	open_tui(f, "xterm-256color", 50, 160, false);
	lrs_tui__draw(f->tui, f->model);
	y = find(" lrs-s1 ", NULL);
	/* the hottest cell, N0 of memcg 1: the top of the 256-colour ramp */
	x = (int)(strstr(line(y), "ms/s") - line(y));
	ch = mvinch(y, x);
	assert_true(PAIR_NUMBER(ch & A_COLOR) > 0);
	pair_content((short)PAIR_NUMBER(ch & A_COLOR), &fg, &bg);
	assert_int_equal(bg, 196);
	/* the legend is coloured too */
	y = find("lock wait/s", NULL);
	ch = mvinch(y, 13);
	assert_true(PAIR_NUMBER(ch & A_COLOR) > 0);
}

static void test_colours_8(void **state)
{
	struct fixture *f = *state;
	short fg, bg;
	chtype ch;
	int y, x;

	open_tui(f, "xterm", 50, 160, false);
	lrs_tui__draw(f->tui, f->model);
	y = find(" lrs-s1 ", NULL);
	x = (int)(strstr(line(y), "ms/s") - line(y));
	ch = mvinch(y, x);
	pair_content((short)PAIR_NUMBER(ch & A_COLOR), &fg, &bg);
	assert_int_equal(bg, COLOR_RED);
}

static void test_no_color(void **state)
{
	struct fixture *f = *state;
	chtype ch;
	int y, x;

	setenv("NO_COLOR", "1", 1);
	open_tui(f, "xterm-256color", 50, 160, false);
	unsetenv("NO_COLOR");
	lrs_tui__draw(f->tui, f->model);
	y = find(" lrs-s1 ", NULL);
	x = (int)(strstr(line(y), "ms/s") - line(y));
	ch = mvinch(y, x);
	assert_int_equal(PAIR_NUMBER(ch & A_COLOR), 0);
	/* the hottest cell is reversed and carries the top glyph */
	assert_true(ch & A_REVERSE);
	assert_non_null(strstr(line(y), "@"));
	/* nowhere a colour pair */
	for (y = 0; y < 50; y++)
		for (x = 0; x < 160; x++)
			assert_int_equal(PAIR_NUMBER(mvinch(y, x) & A_COLOR), 0);
}

static void test_detail(void **state)
{
	struct fixture *f = *state;
	int y, x;

	open_tui(f, "xterm-256color", 50, 160, false);
	select_cell(f->model, 2, 0); /* /lrs-s1 on N0 */
	lrs_tui__view_state(f->tui)->show_detail = true;
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		dump_screen();

	y = find("/lrs-s1@N0", NULL);
	assert_true(y > 0);
	assert_non_null(strstr(line(y), "lock 0xffff888200001000"));
	assert_non_null(strstr(line(y), " history #")); /* one interval so far: one full tick */
	assert_non_null(strstr(line(y + 1), "contended"));
	assert_non_null(strstr(line(y + 1), "avg"));
	assert_non_null(strstr(line(y + 1), "max"));
	assert_non_null(strstr(line(y + 2), "LRU pages:"));
	assert_non_null(strstr(line(y + 2), "inactive_file"));
	assert_non_null(strstr(line(y + 2), "unevictable"));
	assert_non_null(strstr(line(y + 3), "wait histogram"));
	assert_non_null(strstr(line(y + 3), "top waiters"));
	assert_non_null(strstr(line(y + 3), "top waiting stacks"));
	/* waiters: dd (its own memcg) and kswapd0 (the root's: not the lock's memcg) */
	assert_true(find("dd ", NULL) > y);
	assert_true(find("kswapd0", &x) > y);
	/* stacks, symbolized */
	assert_true(find("folio_batch_move_lru < folio_add_lru < filemap_add_folio", NULL) > y);
	/* histogram bars (ASCII in the C locale) */
	assert_true(find("####", NULL) > y);

	/* Enter hides it */
	lrs_tui__view_state(f->tui)->show_detail = false;
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(find("/lrs-s1@N0", NULL), -1);
	assert_int_equal(find("top waiters", NULL), -1);
}

static void test_others_and_removed(void **state)
{
	struct fixture *f = *state;
	chtype ch;
	int y, x;

	open_tui(f, "xterm-256color", 50, 160, false);
	select_cell(f->model, 4, 0); /* scrolls memcg 3 into view */
	lrs_tui__draw(f->tui, f->model);
	y = find("other locks (top 5 of 12)", NULL);
	assert_true(y > 0);
	assert_non_null(strstr(line(y + 1), "spinlock @ __remove_mapping"));
	assert_non_null(strstr(line(y + 1), "0xffff888100400000"));
	assert_non_null(strstr(line(y + 1), "/s"));
	/* memcg 3 is removed: named so, and dimmed */
	y = find("lrs-s3 (removed)", &x);
	assert_true(y > 0);
	ch = mvinch(y, x);
	assert_true(ch & A_DIM);

	/* nothing contended in the interval: no list of zeros */
	{
		struct lrs_model *idle = lrs_model__new(4);

		lrs_model__push(idle, lrs_synth__snapshot(8, 2, 5 * S, 1));
		lrs_model__push(idle, lrs_synth__snapshot(8, 2, 5 * S, 1));
		lrs_tui__draw(f->tui, idle);
		assert_true(find("other locks (top 0 of 0)", NULL) > 0);
		assert_true(find("no other lock contended in this interval", NULL) > 0);
		assert_int_equal(find("__remove_mapping", NULL), -1);
		lrs_model__free(idle);
	}
}

static void test_unavailable_and_banner(void **state)
{
	struct fixture *f = *state;
	struct lrs_tui_opts opts = { .banner = "demo: shared layout, 12s" };

	f->out = fopen("/dev/null", "w");
	f->in = fopen("/dev/null", "r");
	f->model->cur->unavailable = strdup("stacks: map creation failed (EPERM)");
	assert_int_equal(lrs_tui__open(&f->tui, &opts, "xterm-256color", f->out, f->in), 0);
	lrs_tui__resize(f->tui, 50, 160);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(find("demo: shared layout, 12s", NULL), 0);
	assert_true(find("unavailable: stacks: map creation failed (EPERM)", NULL) > 0);
}

static const char *changing_banner(void *ctx)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "elapsed %d s", ++*(int *)ctx);
	return buf;
}

static void test_banner_fn(void **state)
{
	struct fixture *f = *state;
	int calls = 0;
	struct lrs_tui_opts opts = { .banner_fn = changing_banner, .banner_ctx = &calls };

	f->out = fopen("/dev/null", "w");
	f->in = fopen("/dev/null", "r");
	assert_int_equal(lrs_tui__open(&f->tui, &opts, "xterm-256color", f->out, f->in), 0);
	lrs_tui__resize(f->tui, 50, 160);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(find("elapsed 1 s", NULL), 0);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(find("elapsed 2 s", NULL), 0);
}

static void test_scroll_and_small(void **state)
{
	struct fixture *f = *state;
	char last[64];

	lrs_model__free(f->model);
	f->model = model_of(300, 8);
	f->model->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(f->model);
	open_tui(f, "xterm-256color", 24, 80, false);
	/* the last memcg in tree order, selected with End, is on screen */
	lrs_action__apply(LRS_ACT_END, f->model, lrs_tui__view_state(f->tui), 10);
	lrs_action__apply(LRS_ACT_RIGHT, f->model, lrs_tui__view_state(f->tui), 0);
	for (int i = 0; i < 7; i++)
		lrs_action__apply(LRS_ACT_RIGHT, f->model, lrs_tui__view_state(f->tui), 0);
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		dump_screen();
	snprintf(last, sizeof(last), "%s",
		 f->model->rows[f->model->visible[f->model->nr_visible - 1]].memcg);
	assert_true(find(strrchr(last, '/') + 1, NULL) > 0);
	assert_true(find(">", NULL) > 0);
	/* node 7 is scrolled into view on 80 columns */
	assert_true(find("N7", NULL) > 0);
	assert_int_equal(find("(rows ", NULL), 1);

	/* tiny and odd sizes draw without crashing */
	for (int h = 1; h < 30; h += 3)
		for (int w = 10; w < 200; w += 37) {
			lrs_tui__resize(f->tui, h, w);
			lrs_tui__draw(f->tui, f->model);
		}
}

static void test_filter_and_empty(void **state)
{
	struct fixture *f = *state;
	struct lrs_model *empty = lrs_model__new(4);

	open_tui(f, "xterm-256color", 50, 160, false);
	snprintf(f->model->filter, sizeof(f->model->filter), "lrs-s17");
	lrs_model__refresh_view(f->model);
	lrs_tui__draw(f->tui, f->model);
	assert_true(find("filter \"lrs-s17\"", NULL) > 0);
	assert_true(find("/lrs-s1/lrs-s17", NULL) > 0);
	assert_int_equal(find(" /lrs-s2 ", NULL), -1);

	snprintf(f->model->filter, sizeof(f->model->filter), "nothing-like-this");
	lrs_model__refresh_view(f->model);
	lrs_tui__draw(f->tui, f->model);
	assert_true(find("no memcg matches the filter", NULL) > 0);

	/* before any snapshot, and after only one */
	lrs_tui__draw(f->tui, empty);
	assert_true(find("waiting for the first snapshot", NULL) > 0);
	lrs_model__push(empty, lrs_synth__snapshot(4, 1, S, 1));
	lrs_tui__draw(f->tui, empty);
	assert_true(find("first interval", NULL) >= 0);
	lrs_model__free(empty);
}

static void test_help(void **state)
{
	struct fixture *f = *state;

	open_tui(f, "xterm-256color", 50, 160, false);
	lrs_tui__view_state(f->tui)->show_help = true;
	lrs_tui__draw(f->tui, f->model);
	assert_true(find("help (h closes)", NULL) > 0);
	assert_true(find("sort: wait, count, max, name", NULL) > 0);
}

/*
 * Snapshots one second apart whose counters grow 4 times faster each
 * interval: synth counters are rate x time, so each is built at a later
 * counter time than its t_ns says. Memcg 1's wait/s goes 4x, 16x ... 1024x.
 */
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

/* Colour pair's background at (y, x), or -2 without a pair. */
static short bg_at(int y, int x)
{
	chtype ch = mvinch(y, x);
	short fg, bg;

	if (!PAIR_NUMBER(ch & A_COLOR))
		return -2;
	pair_content((short)PAIR_NUMBER(ch & A_COLOR), &fg, &bg);
	return bg;
}

static void test_time_view(void **state)
{
	/* the 256-colour ramp's backgrounds, cold to hot (ui/colour.c) */
	static const short ramp[] = { 24, 30, 35, 112, 184, 214, 202, 196 };
	struct fixture *f = *state;
	int y, x, axis, strip_x, prev = -1, first = -1, last = -1;

	lrs_model__free(f->model);
	f->model = model_rising(40, 2, 6);
	f->model->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(f->model);
	select_cell(f->model, 2, 0); /* /lrs-s1 on N0 */
	open_tui(f, "xterm-256color", 50, 160, false);
	lrs_tui__set_time_view(f->tui, true, false);
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		dump_screen();

	/* headings, legend, the axis under the rows ending with now */
	y = find("wait/s history of N0 N1 all nodes", &strip_x);
	assert_true(y > 0);
	assert_true(find("strips: wait/s, a cell per snapshot", NULL) > 0);
	axis = find("a cell: 1s", NULL);
	assert_true(axis > y);
	assert_non_null(strstr(line(axis), "-10s"));
	assert_true(strlen(line(axis)) > 0 && strstr(line(axis), "now"));
	/* no heatmap columns */
	assert_int_equal(find(" N1 ", NULL) > y, false);

	/* memcg 1's strip: 6 snapshots right-aligned, cold to hot to the right */
	y = find(" lrs-s1 ", NULL);
	assert_true(y > 0 && y < axis);
	for (x = strip_x; x < 160; x++) {
		short bg = bg_at(y, x);
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
	assert_int_equal(bg_at(y, first), ramp[0]); /* 1/1024 of the top: the coldest */
	assert_int_equal(bg_at(y, last), ramp[7]);  /* the newest is the scale's top */
	/* the strip ends where the axis says now; before it, no history: blank */
	assert_int_equal(line(axis)[last], 'w');
	assert_int_equal(bg_at(y, first - 1), -2);
	/* the current value at the right, the selection reversed */
	assert_non_null(strstr(line(y), "s/s"));
	assert_true(mvinch(y, 155) & A_REVERSE);

	/* all nodes: the sums, and the heading says so */
	lrs_tui__set_time_view(f->tui, true, true);
	lrs_tui__draw(f->tui, f->model);
	y = find("all nodes", &x);
	assert_true(mvinch(y, x) & A_REVERSE);
	y = find(" lrs-s1 ", NULL);
	assert_int_equal(bg_at(y, last), ramp[7]);

	/* NO_COLOR: the glyph ramp instead, '@' at the hot end */
	lrs_tui__close(f->tui);
	setenv("NO_COLOR", "1", 1);
	open_tui(f, "xterm-256color", 50, 160, false);
	unsetenv("NO_COLOR");
	lrs_tui__set_time_view(f->tui, true, false);
	lrs_tui__draw(f->tui, f->model);
	y = find(" lrs-s1 ", NULL);
	assert_int_equal(line(y)[last], '@');
	assert_int_equal(line(y)[first], lrs_colour__glyph(1));

	/* back to the heatmap */
	lrs_tui__set_time_view(f->tui, false, false);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(find("wait/s history", NULL), -1);
	assert_true(find("all nodes", NULL) > 0);
}

/* Keys as the loop applies them: the time view's first, then the model's and the screen's. */
static void press(struct fixture *f, enum lrs_action act)
{
	if (!lrs_tui__time_view_key(f->tui, f->model, act))
		lrs_action__apply(act, f->model, lrs_tui__view_state(f->tui), 10);
	lrs_tui__draw(f->tui, f->model);
}

static void test_time_view_keys(void **state)
{
	struct fixture *f = *state;
	int y, x;

	open_tui(f, "xterm-256color", 50, 160, false);
	select_cell(f->model, 2, 0);
	press(f, LRS_ACT_TIME_VIEW);
	y = find("wait/s history of N0 N1 all nodes", &x);
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
	assert_int_equal(find("wait/s history", NULL), -1);
	assert_false(lrs_tui__time_view_key(f->tui, f->model, LRS_ACT_RIGHT));
	press(f, LRS_ACT_RIGHT);
	assert_false(lrs_tui__time_view_key(f->tui, f->model, LRS_ACT_RIGHT));
	assert_false(lrs_tui__time_view_key(f->tui, f->model, LRS_ACT_DOWN));
}

static void test_time_view_small(void **state)
{
	struct fixture *f = *state;

	/* one snapshot only, an empty model, odd sizes: no crash, no strip */
	open_tui(f, "xterm-256color", 24, 80, false);
	lrs_tui__set_time_view(f->tui, true, true);
	lrs_tui__draw(f->tui, f->model);
	assert_true(find("a cell: 1s", NULL) > 0);
	for (int h = 1; h < 30; h += 3)
		for (int w = 5; w < 200; w += 23) {
			lrs_tui__resize(f->tui, h, w);
			lrs_tui__draw(f->tui, f->model);
		}
	{
		struct lrs_model *empty = lrs_model__new(4);

		lrs_tui__resize(f->tui, 24, 80);
		lrs_tui__draw(f->tui, empty);
		assert_true(find("waiting for the first snapshot", NULL) > 0);
		lrs_model__push(empty, lrs_synth__snapshot(4, 1, S, 1));
		lrs_tui__draw(f->tui, empty);
		lrs_model__free(empty);
	}
}

static void test_keys(void **state)
{
	assert_int_equal(lrs_tui__key_action('q'), LRS_ACT_QUIT);
	assert_int_equal(lrs_tui__key_action('s'), LRS_ACT_SORT_NEXT);
	assert_int_equal(lrs_tui__key_action('p'), LRS_ACT_PAUSE);
	assert_int_equal(lrs_tui__key_action('+'), LRS_ACT_INTERVAL_UP);
	assert_int_equal(lrs_tui__key_action('-'), LRS_ACT_INTERVAL_DOWN);
	assert_int_equal(lrs_tui__key_action('/'), LRS_ACT_FILTER);
	assert_int_equal(lrs_tui__key_action('h'), LRS_ACT_HELP);
	assert_int_equal(lrs_tui__key_action('\n'), LRS_ACT_DETAIL);
	assert_int_equal(lrs_tui__key_action('\r'), LRS_ACT_DETAIL);
	assert_int_equal(lrs_tui__key_action(KEY_ENTER), LRS_ACT_DETAIL);
	assert_int_equal(lrs_tui__key_action(KEY_UP), LRS_ACT_UP);
	assert_int_equal(lrs_tui__key_action(KEY_DOWN), LRS_ACT_DOWN);
	assert_int_equal(lrs_tui__key_action(KEY_LEFT), LRS_ACT_LEFT);
	assert_int_equal(lrs_tui__key_action(KEY_RIGHT), LRS_ACT_RIGHT);
	assert_int_equal(lrs_tui__key_action(KEY_NPAGE), LRS_ACT_PAGE_DOWN);
	assert_int_equal(lrs_tui__key_action('t'), LRS_ACT_TIME_VIEW);
	assert_int_equal(lrs_tui__key_action('x'), LRS_ACT_MATRIX);
	assert_int_equal(lrs_tui__key_action('n'), LRS_ACT_NONE); /* the GUI's */
	assert_int_equal(lrs_tui__key_action(27), LRS_ACT_ESCAPE);
}

static void test_detail_deltas(void **state)
{
	struct fixture *f = *state;
	struct lrs_detail_waiter w[8];
	struct lrs_detail_stack s[8];
	const struct lrs_cell *cell;
	size_t n;

	select_cell(f->model, 2, 0);
	cell = lrs_model__selected_cell(f->model);
	assert_non_null(cell);
	/* one second apart: the waiters' shares of 40k/s at 6us, in the interval */
	n = lrs_detail__top_waiters(f->model, cell, w, 8);
	assert_int_equal(n, 3);
	assert_string_equal(w[0].waiter->comm, "dd");
	assert_true(w[0].wait_ns >= w[1].wait_ns && w[1].wait_ns >= w[2].wait_ns);
	assert_in_range(w[0].contended, 21000, 23000);
	assert_string_equal(w[2].waiter->comm, "kswapd0");
	assert_string_equal(w[2].waiter->memcg, "/");
	/* only the top 2 */
	assert_int_equal(lrs_detail__top_waiters(f->model, cell, w, 2), 2);
	assert_string_equal(w[1].waiter->comm, "readtwice");

	n = lrs_detail__top_stacks(f->model, cell, s, 8);
	assert_int_equal(n, 3);
	assert_int_equal(s[0].id, 1);
	assert_non_null(s[0].stack);
	assert_string_equal(s[0].stack->frames[0], "folio_batch_move_lru+0x1a4");
	/* a memcg that never contends has none */
	select_cell(f->model, 3, 0);
	assert_int_equal(
		lrs_detail__top_waiters(f->model, lrs_model__selected_cell(f->model), w, 8), 0);
}

/* Holders: the detail pane's holder lines and the matrix (key x, c). */
static void test_holders(void **state)
{
	struct fixture *f = *state;
	int y, y2, x, xc;

	assert_int_equal(lrs_synth__holders(f->model->cur, LRS_HOLDERS_ESTIMATED), 0);
	open_tui(f, "xterm-256color", 50, 160, false);
	select_cell(f->model, 2, 1); /* /lrs-s1 on N1 */
	lrs_tui__view_state(f->tui)->show_detail = true;
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		dump_screen();
	assert_true(find("holders: estimated", NULL) >= 0);
	y = find("/lrs-s1@N1", NULL);
	assert_true(y > 0);
	/* the waiters stay; the holders take the stacks' column */
	assert_non_null(strstr(line(y + 3), "top waiters"));
	assert_non_null(strstr(line(y + 3), "holder's memcg"));
	assert_null(strstr(line(y + 3), "top waiting stacks"));
	/* heavy first: dd in /lrs-s1 imposed 80ms (40ms x node 1 + 1), 30 holds, 1.5 behind */
	y2 = find("4242 dd", &x);
	assert_true(y2 > y + 3);
	assert_non_null(strstr(line(y2), "80.0ms"));
	assert_non_null(strstr(line(y2), "1.5"));
	assert_non_null(strstr(line(y2) + x, "/lrs-s1"));
	/* its call path: stack 1 past the lock's frames */
	assert_non_null(strstr(line(y2 + 1), "<-"));
	assert_non_null(strstr(line(y2 + 1), "folio_add_lru"));
	assert_true(find("77 kswapd0", NULL) > y2);
	assert_true(find("(unknown holder)", NULL) > y2);
	assert_true(find("x matrix", NULL) > 0); /* the status line */

	/* x: the matrix, columns by lruvec owner; heavy row and column first */
	assert_true(lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX));
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		dump_screen();
	y = find("rows: waiting memcg, columns: lruvec owner", NULL);
	assert_true(y > 0);
	assert_int_equal(find("4242 dd", NULL), -1);
	y2 = find("waiter \\ owner", NULL);
	assert_true(y2 > y);
	assert_non_null(strstr(line(y2), "/lrs-s1"));
	assert_true(strstr(line(y2), "/lrs-s1") < strstr(line(y2), "/lrs-s2"));
	assert_true(strncmp(line(y2 + 1), "/lrs-s1", 7) == 0);
	assert_non_null(strstr(line(y2 + 1), "100ms")); /* 80 + 20 on owner /lrs-s1 */
	assert_true(strncmp(line(y2 + 2), "/ ", 2) == 0);
	assert_non_null(strstr(line(y2 + 2), "8.0ms"));
	assert_non_null(strstr(line(y2 + 3), "3.0ms"));
	/* the hottest cell has the top level's colour, an empty one level 0 */
	find("100ms", &x);
	find("3.0ms", &xc);
	assert_true(bg_at(y2 + 1, x) != bg_at(y2 + 3, xc));
	assert_true(bg_at(y2 + 1, x) != bg_at(y2 + 1, xc));
	assert_true(find("x heatmap", NULL) > 0);
	assert_true(find("c columns", NULL) > 0);

	/* c: columns by holder's memcg: / gets the 20ms dd's waiters felt from kswapd0 */
	assert_true(lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX_COLUMNS));
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		dump_screen();
	assert_true(find("columns: holder's memcg", NULL) > 0);
	y2 = find("waiter \\ holder", NULL);
	assert_true(y2 > 0);
	assert_non_null(strstr(line(y2 + 1), "80.0ms"));
	assert_non_null(strstr(line(y2 + 1), "20.0ms"));

	/* x again: back to the heatmap */
	assert_true(lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX));
	assert_false(
		lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX_COLUMNS)); /* c only in the matrix */
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(find("waiter \\ holder", NULL), -1);
	assert_true(find("4242 dd", NULL) > 0);
}

/* Without holders: the stacks stay, the matrix says how to get holders. */
static void test_holders_off(void **state)
{
	struct fixture *f = *state;

	open_tui(f, "xterm-256color", 50, 160, false);
	select_cell(f->model, 2, 0);
	lrs_tui__view_state(f->tui)->show_detail = true;
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(find("holders:", NULL), -1);
	assert_true(find("top waiting stacks", NULL) > 0);
	assert_int_equal(find("x matrix", NULL), -1);
	lrs_tui__set_matrix_view(f->tui, true, false);
	lrs_tui__draw(f->tui, f->model);
	assert_true(find("holders are off: start with --holders", NULL) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rows_and_legend, setup, teardown),
		cmocka_unit_test_setup_teardown(test_colours, setup, teardown),
		cmocka_unit_test_setup_teardown(test_colours_8, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_color, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail, setup, teardown),
		cmocka_unit_test_setup_teardown(test_others_and_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unavailable_and_banner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_banner_fn, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scroll_and_small, setup, teardown),
		cmocka_unit_test_setup_teardown(test_filter_and_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_help, setup, teardown),
		cmocka_unit_test(test_keys),
		cmocka_unit_test_setup_teardown(test_time_view, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_view_keys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_time_view_small, setup, teardown),
		cmocka_unit_test_setup_teardown(test_detail_deltas, setup, teardown),
		cmocka_unit_test_setup_teardown(test_holders, setup, teardown),
		cmocka_unit_test_setup_teardown(test_holders_off, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

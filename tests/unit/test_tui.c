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
#include "support/tui_screen.h"
#include "ui/tui/tui.h"

#define S 1000000000ULL

static void test_rows_and_legend(void **state)
{
	struct tui_fixture *f = *state;
	int y, x;

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		tui_screen__dump();

	/* header: kernel, totals, drops */
	assert_true(tui_screen__find("lruscope", NULL) == 0);
	assert_true(tui_screen__find("6.18.0-synth", NULL) == 0);
	assert_true(tui_screen__find("lruvec locks", NULL) == 0);
	assert_true(tui_screen__find("drops: task 1", NULL) >= 0);
	/* a refused insert is shown only when there was one */
	assert_true(tui_screen__find("insert", NULL) < 0);
	{
		struct lrs_snapshot *s = lrs_synth__snapshot(40, 2, 102 * S, 1);

		s->drops.insert_failed = 7;
		assert_int_equal(lrs_model__push(f->model, s), 0);
		lrs_tui__draw(f->tui, f->model);
		assert_true(tui_screen__find("insert 7", NULL) >= 0);
	}
	/* legend and column headings */
	assert_true(tui_screen__find("lock wait/s", NULL) >= 0);
	assert_true(tui_screen__find(" max ", NULL) >= 0);
	y = tui_screen__find("all nodes", NULL);
	assert_true(y > 0);
	assert_non_null(strstr(tui_screen__line(y), "N0"));
	assert_non_null(strstr(tui_screen__line(y), "N1"));

	/* tree order: leaf names indented, lrs-s1 under /, lrs-s17 under lrs-s1 */
	y = tui_screen__find(" lrs-s1 ", &x);
	assert_true(y > 0);
	assert_int_equal(x, 2);
	assert_true(tui_screen__find(" lrs-s17 ", &x) == y + 1);
	assert_int_equal(x, 4);
	assert_int_equal(tui_screen__line(y - 1)[1], '/');
	/* memcg 1 is the hottest: 40k/s on N0 at 6us; its row shows rates */
	assert_non_null(strstr(tui_screen__line(y), "ms/s"));
	assert_non_null(strstr(tui_screen__line(y), "k"));
	/* memcg 11 never contends (nor does every third from 2): its cells show dots */
	y = tui_screen__find(" lrs-s11 ", NULL);
	assert_true(y > 0);
	assert_non_null(strstr(tui_screen__line(y), "."));
	assert_null(strstr(tui_screen__line(y), "/s "));
}

static void test_colours(void **state)
{
	struct tui_fixture *f = *state;
	short fg, bg;
	chtype ch;
	int y, x;

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	lrs_tui__draw(f->tui, f->model);
	y = tui_screen__find(" lrs-s1 ", NULL);
	/* the hottest cell, N0 of memcg 1: the top of the 256-colour ramp */
	x = (int)(strstr(tui_screen__line(y), "ms/s") - tui_screen__line(y));
	ch = mvinch(y, x);
	assert_true(PAIR_NUMBER(ch & A_COLOR) > 0);
	pair_content((short)PAIR_NUMBER(ch & A_COLOR), &fg, &bg);
	assert_int_equal(bg, 196);
	/* the legend is coloured too */
	y = tui_screen__find("lock wait/s", NULL);
	ch = mvinch(y, 13);
	assert_true(PAIR_NUMBER(ch & A_COLOR) > 0);
}

static void test_colours_8(void **state)
{
	struct tui_fixture *f = *state;
	short fg, bg;
	chtype ch;
	int y, x;

	tui_fixture__open(f, "xterm", 50, 160, false);
	lrs_tui__draw(f->tui, f->model);
	y = tui_screen__find(" lrs-s1 ", NULL);
	x = (int)(strstr(tui_screen__line(y), "ms/s") - tui_screen__line(y));
	ch = mvinch(y, x);
	pair_content((short)PAIR_NUMBER(ch & A_COLOR), &fg, &bg);
	assert_int_equal(bg, COLOR_RED);
}

static void test_no_color(void **state)
{
	struct tui_fixture *f = *state;
	chtype ch;
	int y, x;

	setenv("NO_COLOR", "1", 1);
	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	unsetenv("NO_COLOR");
	lrs_tui__draw(f->tui, f->model);
	y = tui_screen__find(" lrs-s1 ", NULL);
	x = (int)(strstr(tui_screen__line(y), "ms/s") - tui_screen__line(y));
	ch = mvinch(y, x);
	assert_int_equal(PAIR_NUMBER(ch & A_COLOR), 0);
	/* the hottest cell is reversed and carries the top glyph */
	assert_true(ch & A_REVERSE);
	assert_non_null(strstr(tui_screen__line(y), "@"));
	/* nowhere a colour pair */
	for (y = 0; y < 50; y++)
		for (x = 0; x < 160; x++)
			assert_int_equal(PAIR_NUMBER(mvinch(y, x) & A_COLOR), 0);
}

/* The detail pane of /lrs-s1 on N0 drawn in a 160x50 terminal: the line of its title. */
static int draw_detail_of_s1(struct tui_fixture *f)
{
	int y;

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	tui_fixture__select(f->model, 2, 0); /* /lrs-s1 on N0 */
	lrs_tui__view_state(f->tui)->show_detail = true;
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		tui_screen__dump();
	y = tui_screen__find("/lrs-s1@N0", NULL);
	assert_true(y > 0);
	return y;
}

static void test_detail(void **state)
{
	struct tui_fixture *f = *state;
	int y, x;

	y = draw_detail_of_s1(f);
	assert_non_null(strstr(tui_screen__line(y), "lock 0xffff888200001000"));
	assert_non_null(
		strstr(tui_screen__line(y), " history #")); /* one interval so far: one full tick */
	assert_non_null(strstr(tui_screen__line(y + 1), "contended"));
	assert_non_null(strstr(tui_screen__line(y + 1), "avg"));
	assert_non_null(strstr(tui_screen__line(y + 1), "max"));
	assert_non_null(strstr(tui_screen__line(y + 2), "LRU pages:"));
	assert_non_null(strstr(tui_screen__line(y + 2), "inactive_file"));
	assert_non_null(strstr(tui_screen__line(y + 2), "unevictable"));
	assert_non_null(strstr(tui_screen__line(y + 3), "wait histogram"));
	assert_non_null(strstr(tui_screen__line(y + 3), "top waiters"));
	assert_non_null(strstr(tui_screen__line(y + 3), "top waiting stacks"));
	/* waiters: dd (its own memcg) and kswapd0 (the root's: not the lock's memcg) */
	assert_true(tui_screen__find("dd ", NULL) > y);
	assert_true(tui_screen__find("kswapd0", &x) > y);
	/* stacks, symbolized */
	assert_true(tui_screen__find("folio_batch_move_lru < folio_add_lru < filemap_add_folio",
				     NULL) > y);
	/* histogram bars (ASCII in the C locale) */
	assert_true(tui_screen__find("####", NULL) > y);

	/* Enter hides it */
	lrs_tui__view_state(f->tui)->show_detail = false;
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(tui_screen__find("/lrs-s1@N0", NULL), -1);
	assert_int_equal(tui_screen__find("top waiters", NULL), -1);
}

static void test_others_and_removed(void **state)
{
	struct tui_fixture *f = *state;
	chtype ch;
	int y, x;

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	tui_fixture__select(f->model, 4, 0); /* scrolls memcg 3 into view */
	lrs_tui__draw(f->tui, f->model);
	y = tui_screen__find("other locks (top 5 of 12)", NULL);
	assert_true(y > 0);
	assert_non_null(strstr(tui_screen__line(y + 1), "spinlock @ __remove_mapping"));
	assert_non_null(strstr(tui_screen__line(y + 1), "0xffff888100400000"));
	assert_non_null(strstr(tui_screen__line(y + 1), "/s"));
	/* memcg 3 is removed: named so, and dimmed */
	y = tui_screen__find("lrs-s3 (removed)", &x);
	assert_true(y > 0);
	ch = mvinch(y, x);
	assert_true(ch & A_DIM);

	/* nothing contended in the interval: no list of zeros */
	{
		struct lrs_model *idle = lrs_model__new(4);

		lrs_model__push(idle, lrs_synth__snapshot(8, 2, 5 * S, 1));
		lrs_model__push(idle, lrs_synth__snapshot(8, 2, 5 * S, 1));
		lrs_tui__draw(f->tui, idle);
		assert_true(tui_screen__find("other locks (top 0 of 0)", NULL) > 0);
		assert_true(tui_screen__find("no other lock contended in this interval", NULL) > 0);
		assert_int_equal(tui_screen__find("__remove_mapping", NULL), -1);
		lrs_model__free(idle);
	}
}

static void test_unavailable_and_banner(void **state)
{
	struct tui_fixture *f = *state;
	struct lrs_tui_opts opts = { .banner = "demo: shared layout, 12s" };

	f->out = fopen("/dev/null", "w");
	f->in = fopen("/dev/null", "r");
	f->model->cur->unavailable = strdup("stacks: map creation failed (EPERM)");
	assert_int_equal(lrs_tui__open(&f->tui, &opts, "xterm-256color", f->out, f->in), 0);
	lrs_tui__resize(f->tui, 50, 160);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(tui_screen__find("demo: shared layout, 12s", NULL), 0);
	assert_true(tui_screen__find("unavailable: stacks: map creation failed (EPERM)", NULL) > 0);
}

static const char *changing_banner(void *ctx)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "elapsed %d s", ++*(int *)ctx);
	return buf;
}

static void test_banner_fn(void **state)
{
	struct tui_fixture *f = *state;
	int calls = 0;
	struct lrs_tui_opts opts = { .banner_fn = changing_banner, .banner_ctx = &calls };

	f->out = fopen("/dev/null", "w");
	f->in = fopen("/dev/null", "r");
	assert_int_equal(lrs_tui__open(&f->tui, &opts, "xterm-256color", f->out, f->in), 0);
	lrs_tui__resize(f->tui, 50, 160);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(tui_screen__find("elapsed 1 s", NULL), 0);
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(tui_screen__find("elapsed 2 s", NULL), 0);
}

static void test_scroll_and_small(void **state)
{
	struct tui_fixture *f = *state;
	char last[64];

	lrs_model__free(f->model);
	f->model = tui_fixture__model(300, 8);
	f->model->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(f->model);
	tui_fixture__open(f, "xterm-256color", 24, 80, false);
	/* the last memcg in tree order, selected with End, is on screen */
	lrs_action__apply(LRS_ACT_END, f->model, lrs_tui__view_state(f->tui), 10);
	lrs_action__apply(LRS_ACT_RIGHT, f->model, lrs_tui__view_state(f->tui), 0);
	for (int i = 0; i < 7; i++)
		lrs_action__apply(LRS_ACT_RIGHT, f->model, lrs_tui__view_state(f->tui), 0);
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		tui_screen__dump();
	snprintf(last, sizeof(last), "%s",
		 f->model->rows[f->model->visible[f->model->nr_visible - 1]].memcg);
	assert_true(tui_screen__find(strrchr(last, '/') + 1, NULL) > 0);
	assert_true(tui_screen__find(">", NULL) > 0);
	/* node 7 is scrolled into view on 80 columns */
	assert_true(tui_screen__find("N7", NULL) > 0);
	assert_int_equal(tui_screen__find("(rows ", NULL), 1);

	/* tiny and odd sizes draw without crashing */
	for (int h = 1; h < 30; h += 3)
		for (int w = 10; w < 200; w += 37) {
			lrs_tui__resize(f->tui, h, w);
			lrs_tui__draw(f->tui, f->model);
		}
}

static void test_filter_and_empty(void **state)
{
	struct tui_fixture *f = *state;
	struct lrs_model *empty = lrs_model__new(4);

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	snprintf(f->model->filter, sizeof(f->model->filter), "lrs-s17");
	lrs_model__refresh_view(f->model);
	lrs_tui__draw(f->tui, f->model);
	assert_true(tui_screen__find("filter \"lrs-s17\"", NULL) > 0);
	assert_true(tui_screen__find("/lrs-s1/lrs-s17", NULL) > 0);
	assert_int_equal(tui_screen__find(" /lrs-s2 ", NULL), -1);

	snprintf(f->model->filter, sizeof(f->model->filter), "nothing-like-this");
	lrs_model__refresh_view(f->model);
	lrs_tui__draw(f->tui, f->model);
	assert_true(tui_screen__find("no memcg matches the filter", NULL) > 0);

	/* before any snapshot, and after only one */
	lrs_tui__draw(f->tui, empty);
	assert_true(tui_screen__find("waiting for the first snapshot", NULL) > 0);
	lrs_model__push(empty, lrs_synth__snapshot(4, 1, S, 1));
	lrs_tui__draw(f->tui, empty);
	assert_true(tui_screen__find("first interval", NULL) >= 0);
	lrs_model__free(empty);
}

static void test_help(void **state)
{
	struct tui_fixture *f = *state;

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	lrs_tui__view_state(f->tui)->show_help = true;
	lrs_tui__draw(f->tui, f->model);
	assert_true(tui_screen__find("help (h closes)", NULL) > 0);
	assert_true(tui_screen__find("sort: wait, count, max, name", NULL) > 0);
}

/*
 * Snapshots one second apart whose counters grow 4 times faster each
 * interval: synth counters are rate x time, so each is built at a later
 * counter time than its t_ns says. Memcg 1's wait/s goes 4x, 16x ... 1024x.
 */
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
	struct tui_fixture *f = *state;
	struct lrs_detail_waiter w[8];
	struct lrs_detail_stack s[8];
	const struct lrs_cell *cell;
	bool since_start;
	size_t n;

	tui_fixture__select(f->model, 2, 0);
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

	n = lrs_detail__top_stacks(f->model, cell, s, 8, &since_start);
	assert_int_equal(n, 3);
	assert_false(since_start);
	/* the interval sampled them: its causes, not those since the start */
	{
		struct lrs_causes c;

		assert_true(lrs_detail__causes(f->model, cell, &c, &since_start) > 0);
		assert_false(since_start);
	}
	assert_int_equal(s[0].id, 1);
	assert_non_null(s[0].stack);
	assert_string_equal(s[0].stack->frames[0], "folio_batch_move_lru+0x1a4");
	/* a memcg that never contends has none */
	tui_fixture__select(f->model, 3, 0);
	assert_int_equal(
		lrs_detail__top_waiters(f->model, lrs_model__selected_cell(f->model), w, 8), 0);
}

/*
 * An interval that sampled no stack (the same counters again): the pane shows
 * the stacks and causes since the start, with their whole wait, and says so.
 */
static void test_detail_since_start(void **state)
{
	struct tui_fixture *f = *state;
	struct lrs_detail_stack s[8];
	struct lrs_causes c;
	enum lrs_cause order[LRS_NR_CAUSES];
	bool since_start;
	int y;

	assert_int_equal(lrs_model__push(f->model, lrs_synth__snapshot(40, 2, 101 * S, 1)), 0);
	tui_fixture__select(f->model, 2, 0); /* /lrs-s1 on N0 */
	assert_int_equal(lrs_detail__top_stacks(f->model, lrs_model__selected_cell(f->model), s, 8,
						&since_start),
			 3);
	assert_true(since_start);
	/* the whole wait, not the interval's (none) */
	assert_int_equal(s[0].id, 1);
	assert_true(s[0].wait_ns > 0 &&
		    s[0].wait_ns == lrs_model__selected_cell(f->model)->lruvec->stacks[0].wait_ns);
	/* the causes the same: those since the start, none of the interval's */
	assert_true(lrs_detail__causes(f->model, lrs_model__selected_cell(f->model), &c,
				       &since_start) > 0);
	assert_true(since_start);
	assert_int_equal(lrs_detail__causes(f->model, lrs_model__selected_cell(f->model), &c,
					    &since_start),
			 lrs_causes__ranked(&c, order));

	y = draw_detail_of_s1(f);
	assert_true(tui_screen__find("top waiting stacks since start (none in this interval)",
				     NULL) > y);
	assert_true(tui_screen__find("causes since start: ", NULL) > y);
	assert_true(tui_screen__find("folio_batch_move_lru < folio_add_lru < filemap_add_folio",
				     NULL) > y);
}

/* Holders: the detail pane's holder lines and the matrix (key x, c). */
static void test_holders(void **state)
{
	struct tui_fixture *f = *state;
	int y, y2, x, xc;

	assert_int_equal(lrs_synth__holders(f->model->cur, LRS_HOLDERS_ESTIMATED), 0);
	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	tui_fixture__select(f->model, 2, 1); /* /lrs-s1 on N1 */
	lrs_tui__view_state(f->tui)->show_detail = true;
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		tui_screen__dump();
	assert_true(tui_screen__find("holders: estimated", NULL) >= 0);
	y = tui_screen__find("/lrs-s1@N1", NULL);
	assert_true(y > 0);
	/* the waiters stay; the holders take the stacks' column */
	assert_non_null(strstr(tui_screen__line(y + 3), "top waiters"));
	assert_non_null(strstr(tui_screen__line(y + 3), "holder's memcg"));
	assert_null(strstr(tui_screen__line(y + 3), "top waiting stacks"));
	/* heavy first: dd in /lrs-s1 imposed 80ms (40ms x node 1 + 1), 30 holds, 1.5 behind */
	y2 = tui_screen__find("4242 dd", &x);
	assert_true(y2 > y + 3);
	assert_non_null(strstr(tui_screen__line(y2), "80.0ms"));
	assert_non_null(strstr(tui_screen__line(y2), "1.5"));
	assert_non_null(strstr(tui_screen__line(y2) + x, "/lrs-s1"));
	/* its call path: stack 1 past the lock's frames */
	assert_non_null(strstr(tui_screen__line(y2 + 1), "<-"));
	assert_non_null(strstr(tui_screen__line(y2 + 1), "folio_add_lru"));
	assert_true(tui_screen__find("77 kswapd0", NULL) > y2);
	assert_true(tui_screen__find("(unknown holder)", NULL) > y2);
	assert_true(tui_screen__find("x matrix", NULL) > 0); /* the status line */

	/* x: the matrix, columns by lruvec owner; heavy row and column first */
	assert_true(lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX));
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		tui_screen__dump();
	y = tui_screen__find("rows: waiting memcg, columns: lruvec owner", NULL);
	assert_true(y > 0);
	assert_int_equal(tui_screen__find("4242 dd", NULL), -1);
	y2 = tui_screen__find("waiter \\ owner", NULL);
	assert_true(y2 > y);
	assert_non_null(strstr(tui_screen__line(y2), "/lrs-s1"));
	assert_true(strstr(tui_screen__line(y2), "/lrs-s1") <
		    strstr(tui_screen__line(y2), "/lrs-s2"));
	assert_true(strncmp(tui_screen__line(y2 + 1), "/lrs-s1", 7) == 0);
	assert_non_null(strstr(tui_screen__line(y2 + 1), "100ms")); /* 80 + 20 on owner /lrs-s1 */
	assert_true(strncmp(tui_screen__line(y2 + 2), "/ ", 2) == 0);
	assert_non_null(strstr(tui_screen__line(y2 + 2), "8.0ms"));
	assert_non_null(strstr(tui_screen__line(y2 + 3), "3.0ms"));
	/* the hottest cell has the top level's colour, an empty one level 0 */
	tui_screen__find("100ms", &x);
	tui_screen__find("3.0ms", &xc);
	assert_true(tui_screen__bg(y2 + 1, x) != tui_screen__bg(y2 + 3, xc));
	assert_true(tui_screen__bg(y2 + 1, x) != tui_screen__bg(y2 + 1, xc));
	assert_true(tui_screen__find("x heatmap", NULL) > 0);
	assert_true(tui_screen__find("c columns", NULL) > 0);

	/* c: columns by holder's memcg: / gets the 20ms dd's waiters felt from kswapd0 */
	assert_true(lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX_COLUMNS));
	lrs_tui__draw(f->tui, f->model);
	if (getenv("LRS_DUMP"))
		tui_screen__dump();
	assert_true(tui_screen__find("columns: holder's memcg", NULL) > 0);
	y2 = tui_screen__find("waiter \\ holder", NULL);
	assert_true(y2 > 0);
	assert_non_null(strstr(tui_screen__line(y2 + 1), "80.0ms"));
	assert_non_null(strstr(tui_screen__line(y2 + 1), "20.0ms"));

	/* x again: back to the heatmap */
	assert_true(lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX));
	assert_false(
		lrs_tui__matrix_key(f->tui, LRS_ACT_MATRIX_COLUMNS)); /* c only in the matrix */
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(tui_screen__find("waiter \\ holder", NULL), -1);
	assert_true(tui_screen__find("4242 dd", NULL) > 0);
}

/* Without holders: the stacks stay, the matrix says how to get holders. */
static void test_holders_off(void **state)
{
	struct tui_fixture *f = *state;

	tui_fixture__open(f, "xterm-256color", 50, 160, false);
	tui_fixture__select(f->model, 2, 0);
	lrs_tui__view_state(f->tui)->show_detail = true;
	lrs_tui__draw(f->tui, f->model);
	assert_int_equal(tui_screen__find("holders:", NULL), -1);
	assert_true(tui_screen__find("top waiting stacks", NULL) > 0);
	assert_int_equal(tui_screen__find("x matrix", NULL), -1);
	lrs_tui__set_matrix_view(f->tui, true, false);
	lrs_tui__draw(f->tui, f->model);
	assert_true(tui_screen__find("holders are off: start with --holders", NULL) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rows_and_legend, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_colours, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_colours_8, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_no_color, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_detail, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_others_and_removed, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_unavailable_and_banner, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_banner_fn, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_scroll_and_small, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_filter_and_empty, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_help, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test(test_keys),
		cmocka_unit_test_setup_teardown(test_detail_since_start, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_detail_deltas, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_holders, tui_fixture__setup,
						tui_fixture__teardown),
		cmocka_unit_test_setup_teardown(test_holders_off, tui_fixture__setup,
						tui_fixture__teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

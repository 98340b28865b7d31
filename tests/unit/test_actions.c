// SPDX-License-Identifier: GPL-2.0
/* The screens' shared loop and keymap: interval steps, the hottest cell, actions, keys, man text. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "support/synth.h"
#include "ui/keymap.h"
#include "ui/view_loop.h"

#define S 1000000000ull

static void test_interval_next(void **state)
{
	assert_true(lrs_view__interval_next(1, true) == 2);
	assert_true(lrs_view__interval_next(1, false) == 0.5);
	assert_true(lrs_view__interval_next(0.7, true) == 1);
	assert_true(lrs_view__interval_next(0.7, false) == 0.5);
	/* the ends stay */
	assert_true(lrs_view__interval_next(60, true) == 60);
	assert_true(lrs_view__interval_next(0.2, false) == 0.2);
	assert_true(lrs_view__interval_next(1000, false) == 60);
}

static struct lrs_model *synth_model(void)
{
	struct lrs_model *m = lrs_model__new(16);

	assert_non_null(m);
	assert_int_equal(lrs_model__push(m, lrs_synth__snapshot(40, 3, 100 * S, 7)), 0);
	assert_int_equal(lrs_model__push(m, lrs_synth__snapshot(40, 3, 101 * S, 7)), 0);
	return m;
}

/* The selected cell holds the most of the model's metric among the visible cells. */
static void assert_hottest(const struct lrs_model *m)
{
	const struct lrs_cell *sel = lrs_model__selected_cell(m);

	assert_non_null(sel);
	assert_true(lrs_cell__value(sel, m->metric) > 0);
	for (size_t i = 0; i < m->nr_visible; i++)
		for (size_t n = 0; n < m->nr_nodes; n++)
			assert_true(lrs_cell__value(&m->rows[m->visible[i]].cells[n], m->metric) <=
				    lrs_cell__value(sel, m->metric));
}

static void test_select_hottest_follows_metric(void **state)
{
	struct lrs_model *m = synth_model();
	uint64_t wait_id;
	size_t wait_node;

	lrs_view__select_hottest(m);
	assert_hottest(m);
	wait_id = m->sel_memcg_id;
	wait_node = m->sel_node_idx;
	m->metric = LRS_METRIC_LRU_PAGES;
	lrs_view__select_hottest(m);
	assert_hottest(m);
	/* the pages' hottest is not the wait's: the pick did follow the metric */
	assert_true(m->sel_memcg_id != wait_id || m->sel_node_idx != wait_node);
	lrs_model__free(m);
}

/* A source of synthetic snapshots; -ENODATA after nr. */
struct fake {
	struct lrs_source src;
	int taken, nr, seeks;
	double set_to;
	bool stop; /* pause(): it stopped where it holds */
};

static int fake_take(struct lrs_source *src, struct lrs_snapshot **out)
{
	struct fake *f = (struct fake *)src;

	if (f->taken >= f->nr)
		return -ENODATA;
	*out = lrs_synth__snapshot(10, 2, (uint64_t)(100 + f->taken++) * S, 3);
	return 0;
}

static void fake_set_interval(struct lrs_source *src, double iv)
{
	((struct fake *)src)->set_to = iv;
}

/* One step on only: the snapshot after the last taken, without one before it. */
static int fake_seek(struct lrs_source *src, enum lrs_seek to, struct lrs_snapshot **before,
		     struct lrs_snapshot **at)
{
	struct fake *f = (struct fake *)src;

	if (to != LRS_SEEK_NEXT)
		return -EINVAL;
	f->seeks++;
	*before = NULL;
	*at = lrs_synth__snapshot(10, 2, (uint64_t)(100 + f->taken++) * S, 3);
	return 0;
}

static bool fake_pause(struct lrs_source *src)
{
	struct fake *f = (struct fake *)src;
	bool stop = f->stop;

	f->stop = false;
	return stop;
}

static char said[256];

static void say(void *ctx, bool keep, const char *text)
{
	snprintf(said, sizeof(said), "%s", text);
}

static void test_loop_take_and_timing(void **state)
{
	struct fake f = { .src = { .name = "fake",
				   .interval_s = 1,
				   .take = fake_take,
				   .set_interval = fake_set_interval },
			  .nr = 3 };
	struct lrs_model *m = lrs_model__new(8);
	struct lrs_view_loop lp = { .message = say };
	struct lrs_view_state vs;

	lrs_view_state__init(&vs);
	lrs_view_loop__init(&lp, &f.src, m, &vs, 10.0);
	assert_true(lrs_view_loop__due(&lp, 10.0));
	assert_int_equal(lrs_view_loop__take(&lp, 10.0), 1);
	assert_false(lrs_view_loop__due(&lp, 10.5));
	assert_true(lrs_view_loop__wait_s(&lp, 10.5, false, 9, 9) > 0.49);
	assert_true(lrs_view_loop__wait_s(&lp, 10.5, false, 9, 0.25) == 0.25);
	assert_true(lrs_view_loop__due(&lp, 11.0));
	assert_int_equal(lrs_view_loop__take(&lp, 11.0), 1);
	assert_hottest(m);
	/* paused: nothing due; resuming makes one due at once */
	vs.paused = true;
	assert_false(lrs_view_loop__due(&lp, 20.0));
	assert_true(lrs_view_loop__wait_s(&lp, 20.0, false, 0.5, 9) == 0.5);
	vs.paused = false;
	assert_true(lrs_view_loop__due(&lp, 20.1));
	/* the user moved: the selection stays where they put it */
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_END, 5));
	assert_true(lp.user_moved);
	{
		uint64_t id = m->sel_memcg_id;

		assert_int_equal(lrs_view_loop__take(&lp, 20.1), 1);
		assert_true(m->sel_memcg_id == id);
	}
	assert_int_equal(lrs_view_loop__take(&lp, 21.1), -ENODATA);
	/* the duration */
	lp.duration_s = 5;
	assert_false(lrs_view_loop__over(&lp, 14.9));
	assert_true(lrs_view_loop__over(&lp, 15.0));
	assert_true(lrs_view_loop__wait_s(&lp, 14.5, true, 9, 9) <= 0.5);
	lrs_model__free(m);
}

static void test_loop_actions(void **state)
{
	struct fake f = { .src = { .name = "fake",
				   .interval_s = 1,
				   .take = fake_take,
				   .set_interval = fake_set_interval,
				   .seek = fake_seek },
			  .nr = 9 };
	struct lrs_model *m = lrs_model__new(8);
	struct lrs_view_loop lp = { .message = say };
	struct lrs_filter_edit fe = { 0 };
	struct lrs_view_state vs;

	lrs_view_state__init(&vs);
	lrs_view_loop__init(&lp, &f.src, m, &vs, 0);
	lrs_view_loop__take(&lp, 0);
	lrs_view_loop__take(&lp, 1);
	/* the interval: the source and the next take follow */
	assert_true(lrs_view_loop__apply(&lp, &fe, LRS_ACT_INTERVAL_UP, 1));
	assert_true(f.src.interval_s == 2 && f.set_to == 2);
	assert_true(lp.next_due_s == 1 + 2);
	assert_string_equal(said, "interval 2s");
	/* a replay's transport goes to the source */
	assert_true(lrs_view_loop__apply(&lp, &fe, LRS_ACT_STEP_FORWARD, 1));
	assert_int_equal(f.seeks, 1);
	/* the model's own */
	assert_true(lrs_view_loop__apply(&lp, &fe, LRS_ACT_HELP, 1));
	assert_true(vs.show_help);
	/* Esc closes the help; only where it quits (the GUI), a second one quits */
	assert_true(lrs_view_loop__apply(&lp, &fe, LRS_ACT_ESCAPE, 1));
	assert_false(vs.show_help);
	lrs_view_loop__apply(&lp, &fe, LRS_ACT_ESCAPE, 1);
	assert_false(lp.quit);
	lp.escape_quits = true;
	lrs_view_loop__apply(&lp, &fe, LRS_ACT_ESCAPE, 1);
	assert_true(lp.quit);
	assert_false(lrs_view_loop__apply(&lp, &fe, LRS_ACT_NONE, 1));
	/* one instant (a walk): no interval to change */
	f.src.interval_s = 0;
	lrs_view_loop__apply(&lp, &fe, LRS_ACT_INTERVAL_DOWN, 1);
	assert_true(f.src.interval_s == 0);
	assert_non_null(strstr(said, "one instant"));
	lrs_model__free(m);
}

/*
 * A source that stops where it holds (a recording's end) pauses the view,
 * after a take and after a seek, whose snapshot the loop puts in the model.
 */
static void test_loop_source_pause(void **state)
{
	struct fake f = { .src = { .name = "fake",
				   .interval_s = 1,
				   .take = fake_take,
				   .seek = fake_seek,
				   .pause = fake_pause },
			  .nr = 9 };
	struct lrs_model *m = lrs_model__new(8);
	struct lrs_view_loop lp = { .message = say };
	struct lrs_view_state vs;

	lrs_view_state__init(&vs);
	lrs_view_loop__init(&lp, &f.src, m, &vs, 0);
	assert_int_equal(lrs_view_loop__take(&lp, 0), 1);
	assert_false(vs.paused);
	f.stop = true;
	assert_int_equal(lrs_view_loop__take(&lp, 1), 1);
	assert_true(vs.paused);
	assert_false(lrs_view_loop__due(&lp, 5));
	vs.paused = false;
	f.stop = true;
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_STEP_FORWARD, 1) & LRS_REACT_REDRAW);
	assert_true(vs.paused);
	assert_true(m->cur->t_ns == 102 * S);
	/* no speed verb (a live source): the speed keys do nothing */
	assert_int_equal(lrs_view_loop__apply(&lp, NULL, LRS_ACT_SPEED_UP, 1), 0);
	lrs_model__free(m);
}

/* Select the node where the row whose memcg holds name waits least, and check one waits more. */
static void cold_node_of(struct lrs_model *m, const char *name)
{
	for (size_t i = 0; i < m->nr_rows; i++) {
		const struct lrs_row *row = &m->rows[i];
		double lo = 0, hi = 0;

		if (!row->memcg || !strstr(row->memcg, name))
			continue;
		for (size_t n = 0; n < m->nr_nodes; n++) {
			double v = lrs_cell__value(&row->cells[n], m->metric);

			if (!n || v < lo) {
				lo = v;
				m->sel_node_idx = n;
			}
			if (v > hi)
				hi = v;
		}
		assert_true(hi > lo);
		return;
	}
	fail_msg("no row of %s", name);
}

static void test_filter_edit(void **state)
{
	struct lrs_model *m = synth_model();
	struct lrs_filter_edit fe = { 0 };
	struct lrs_view_loop lp = { 0 };
	struct fake f = { .src = { .name = "fake", .take = fake_take } };
	struct lrs_view_state vs;
	size_t all = m->nr_visible;

	lrs_view_state__init(&vs);
	lrs_view_loop__init(&lp, &f.src, m, &vs, 0);
	snprintf(m->filter, sizeof(m->filter), "s1");
	lrs_model__refresh_view(m);
	assert_true(lrs_view_loop__apply(&lp, &fe, LRS_ACT_FILTER, 1));
	assert_true(fe.editing && lp.user_moved);
	assert_string_equal(fe.text, "s1");
	/* it applies as typed; non-printable bytes are dropped */
	lrs_filter_edit__type(&fe, m, "7\x01");
	assert_string_equal(m->filter, "s17");
	assert_int_equal(m->nr_visible, 1);
	lrs_filter_edit__erase(&fe, m, false);
	assert_string_equal(m->filter, "s1");
	lrs_filter_edit__erase(&fe, m, true);
	assert_int_equal(m->nr_visible, all);
	/* Esc: the filter before the prompt */
	lrs_filter_edit__type(&fe, m, "zzz");
	assert_int_equal(m->nr_visible, 0);
	lrs_filter_edit__end(&fe, m, false);
	assert_false(fe.editing);
	assert_string_equal(m->filter, "s1");
	/* Enter keeps what was typed */
	lrs_filter_edit__begin(&fe, m);
	lrs_filter_edit__erase(&fe, m, true);
	lrs_filter_edit__end(&fe, m, true);
	assert_string_equal(m->filter, "");
	assert_int_equal(m->nr_visible, all);
	/* the node selected before is s16's coldest: the filter moves to its hottest */
	lrs_filter_edit__begin(&fe, m);
	cold_node_of(m, "s16");
	lrs_filter_edit__type(&fe, m, "s16");
	assert_int_equal(m->nr_visible, 1);
	assert_hottest(m);
	lrs_filter_edit__end(&fe, m, true);
	assert_hottest(m);
	lrs_model__free(m);
}

static void test_keymap_lookup(void **state)
{
	assert_int_equal(lrs_keymap__action('t', LRS_KEYMAP_TUI), LRS_ACT_TIME_VIEW);
	assert_int_equal(lrs_keymap__action('t', LRS_KEYMAP_GUI), LRS_ACT_NONE);
	assert_int_equal(lrs_keymap__action('n', LRS_KEYMAP_GUI), LRS_ACT_LANES);
	assert_int_equal(lrs_keymap__action('n', LRS_KEYMAP_TUI), LRS_ACT_NONE);
	assert_int_equal(lrs_keymap__action(LRS_KEY_UP, LRS_KEYMAP_GUI), LRS_ACT_UP);
	assert_int_equal(lrs_keymap__action('G', LRS_KEYMAP_TUI), LRS_ACT_END);
	assert_int_equal(lrs_keymap__action('<', LRS_KEYMAP_GUI), LRS_ACT_SEEK_START);
	assert_int_equal(lrs_keymap__action(0, LRS_KEYMAP_BOTH), LRS_ACT_NONE);
	/* no key is bound twice on one screen: each finds its own action */
	for (size_t i = 0; i < lrs_keymap_len; i++) {
		const struct lrs_binding *b = &lrs_keymap[i];

		assert_non_null(b->what);
		for (size_t k = 0; k < LRS_KEYMAP_CODES && b->map[k].code; k++)
			for (unsigned int s = LRS_KEYMAP_TUI; s <= LRS_KEYMAP_GUI; s <<= 1)
				if (b->where & s)
					assert_int_equal(lrs_keymap__action(b->map[k].code, s),
							 b->map[k].action);
	}
}

static void test_keymap_text(void **state)
{
	char line[160], *buf = NULL;
	size_t n = 0, len = 0, tp = 0, tui = 0;
	const struct lrs_binding *b;
	FILE *f;

	/* the help: one line per binding shown, keys first */
	while (lrs_keymap__help_line(line, sizeof(line), LRS_KEYMAP_TUI, false, 20, n)) {
		assert_int_equal(line[19], ' ');
		n++;
	}
	for (size_t i = 0; i < lrs_keymap_len; i++)
		tui += lrs_binding__shown(&lrs_keymap[i], LRS_KEYMAP_TUI, false);
	assert_int_equal(n, tui);
	assert_true(lrs_keymap__help_line(line, sizeof(line), LRS_KEYMAP_TUI, true, 20, n));
	/* the status line's hints: q is the last */
	n = 0;
	while ((b = lrs_keymap__next_hint(&len, LRS_KEYMAP_GUI, false)))
		assert_non_null(b->hint), n++;
	assert_true(n >= 8);
	/* the man page: one .TP each, minus signs escaped, no line starting with a stray dot */
	f = open_memstream(&buf, &len);
	lrs_keymap__write_man(f);
	fclose(f);
	for (char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (!strncmp(p, ".TP\n", 4))
			tp++;
		else if (*p == '.')
			assert_true(!strncmp(p, ".B ", 3));
	}
	assert_int_equal(tp, lrs_keymap_len);
	assert_non_null(strstr(buf, ".B \"+ \\-\""));
	assert_non_null(strstr(buf, ".B \"\\&. ,\""));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_next),
		cmocka_unit_test(test_select_hottest_follows_metric),
		cmocka_unit_test(test_loop_take_and_timing),
		cmocka_unit_test(test_loop_actions),
		cmocka_unit_test(test_loop_source_pause),
		cmocka_unit_test(test_filter_edit),
		cmocka_unit_test(test_keymap_lookup),
		cmocka_unit_test(test_keymap_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

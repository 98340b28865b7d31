// SPDX-License-Identifier: GPL-2.0
/* The TUI unit tests' fixture and screen reader (tui_screen.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "synth.h"
#include "tui_screen.h"

#define S 1000000000ULL

struct lrs_model *tui_fixture__model(size_t memcgs, size_t nodes)
{
	struct lrs_model *m = lrs_model__new(16);

	assert_non_null(m);
	assert_int_equal(lrs_model__push(m, lrs_synth__snapshot(memcgs, nodes, 100 * S, 1)), 0);
	assert_int_equal(lrs_model__push(m, lrs_synth__snapshot(memcgs, nodes, 101 * S, 1)), 0);
	return m;
}

void tui_fixture__open(struct tui_fixture *f, const char *term, int lines, int cols, bool no_color)
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

int tui_fixture__setup(void **state)
{
	struct tui_fixture *f = calloc(1, sizeof(*f));

	/* deterministic: ASCII glyphs, and no NO_COLOR from the caller */
	setenv("LC_ALL", "C", 1);
	unsetenv("NO_COLOR");
	f->model = tui_fixture__model(40, 2);
	f->model->sort = LRS_SORT_NAME;
	lrs_model__refresh_view(f->model);
	*state = f;
	return 0;
}

int tui_fixture__teardown(void **state)
{
	struct tui_fixture *f = *state;

	lrs_tui__close(f->tui);
	if (f->out)
		fclose(f->out);
	if (f->in)
		fclose(f->in);
	lrs_model__free(f->model);
	free(f);
	return 0;
}

const char *tui_screen__line(int y)
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

int tui_screen__find(const char *s, int *x)
{
	for (int y = 0; y < getmaxy(stdscr); y++) {
		const char *l = tui_screen__line(y), *p = strstr(l, s);

		if (p) {
			if (x)
				*x = (int)(p - l);
			return y;
		}
	}
	return -1;
}

void tui_screen__dump(void)
{
	for (int y = 0; y < getmaxy(stdscr); y++)
		print_message("%2d|%s\n", y, tui_screen__line(y));
}

void tui_fixture__select(struct lrs_model *m, uint64_t memcg_id, size_t node_idx)
{
	m->sel_memcg_id = memcg_id;
	m->sel_node_idx = node_idx;
}

short tui_screen__bg(int y, int x)
{
	chtype ch = mvinch(y, x);
	short fg, bg;

	if (!PAIR_NUMBER(ch & A_COLOR))
		return -2;
	pair_content((short)PAIR_NUMBER(ch & A_COLOR), &fg, &bg);
	return bg;
}

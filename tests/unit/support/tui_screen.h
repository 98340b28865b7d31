/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TUI unit tests' fixture: a model of synthetic snapshots and a TUI that
 * draws it into a curses screen over /dev/null, and what ncurses holds for
 * that screen read back as text. Uses cmocka's asserts: for cmocka tests only.
 */
#ifndef LRS_TUI_SCREEN_H
#define LRS_TUI_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "ui/tui/tui.h"

struct tui_fixture {
	struct lrs_model *model;
	struct lrs_tui *tui;
	FILE *out, *in;
};

/* a model of two synthetic snapshots 1 s apart: memcgs x nodes lruvecs */
struct lrs_model *tui_fixture__model(size_t memcgs, size_t nodes);
/* the TUI of f on terminal type term, lines x cols, drawing nothing yet */
void tui_fixture__open(struct tui_fixture *f, const char *term, int lines, int cols, bool no_color);
/* cmocka setup: 40 memcgs x 2 nodes sorted by name, C locale, no NO_COLOR; no TUI yet */
int tui_fixture__setup(void **state);
int tui_fixture__teardown(void **state);
void tui_fixture__select(struct lrs_model *m, uint64_t memcg_id, size_t node_idx);

/* line y of the curses screen as text, trailing blanks cut (valid until the next call) */
const char *tui_screen__line(int y);
/* the first line holding s, or -1; *x (if x) gets its column */
int tui_screen__find(const char *s, int *x);
/* the background colour of the colour pair at (y, x); -2 without a pair */
short tui_screen__bg(int y, int x);
/* the screen, numbered, through cmocka's print_message */
void tui_screen__dump(void);

#endif

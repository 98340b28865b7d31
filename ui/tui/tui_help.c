// SPDX-License-Identifier: GPL-2.0
/*
 * The help box over the screen: what the view shows and every key, laid out
 * by ui/help.c to fit the terminal (two key columns when wide), scrolled by
 * the arrows, PgUp/PgDn, Home and End when it cannot fit.
 */
#include <stdio.h>

#include "ui/help.h"
#include "ui/keymap.h"
#include "ui/tui/tui_internal.h"

static const char *const intro[] = {
	"lruscope top: where Linux waits on LRU locks",
	"",
	"Rows are memory cgroups, columns NUMA nodes: each cell is one lruvec (memcg x node) "
	"and its lru_lock. A cell shows the time tasks spent waiting for that lock per second "
	"of the last interval, and how many contended acquisitions per second. Colours follow "
	"a log scale below the hottest cell (legend). \"other locks\" are the contended locks "
	"that are not lruvec locks. A waiter's memcg in colour differs from the lock's: "
	"reclaim from kswapd or from a parent's limit.",
};

static void draw_box(int y0, int x0, int h, int w)
{
	for (int y = y0; y < y0 + h; y++)
		tui__fill(y, x0, w, 0);
	attron(A_BOLD);
	mvhline(y0, x0, ACS_HLINE, w);
	mvhline(y0 + h - 1, x0, ACS_HLINE, w);
	mvvline(y0, x0, ACS_VLINE, h);
	mvvline(y0, x0 + w - 1, ACS_VLINE, h);
	mvaddch(y0, x0, ACS_ULCORNER);
	mvaddch(y0, x0 + w - 1, ACS_URCORNER);
	mvaddch(y0 + h - 1, x0, ACS_LLCORNER);
	mvaddch(y0 + h - 1, x0 + w - 1, ACS_LRCORNER);
	attroff(A_BOLD);
}

void tui__draw_help(struct lrs_tui *tui)
{
	struct lrs_help help;
	size_t top;

	if (lrs_help__layout(&help, intro, sizeof(intro) / sizeof(intro[0]), LRS_KEYMAP_TUI,
			     tui->replay, tui->layout.width, tui->layout.height) ||
	    help.w < 10 || help.body_h < 1) {
		lrs_help__free(&help);
		return;
	}
	/* the keys scroll by what this frame showed */
	top = tui->help_top < help.max_top ? tui->help_top : help.max_top;
	tui->help_top = top;
	tui->help_max_top = help.max_top;
	tui->help_page = help.body_h > 1 ? help.body_h - 1 : 1;

	draw_box(help.y0, help.x0, help.h, help.w);
	tui__put(help.y0, help.x0 + 2, help.w - 4, A_BOLD, " help (h closes) ");
	for (int i = 0; i < help.body_h && top + (size_t)i < help.nr_lines; i++)
		tui__put(help.y0 + 2 + i, help.x0 + 3, help.inner_w,
			 top + (size_t)i == 0 ? A_BOLD : 0, help.lines[top + (size_t)i]);
	if (help.max_top) {
		char where[96];

		snprintf(where, sizeof(where), " %zu-%zu of %zu lines: arrows, PgUp PgDn ", top + 1,
			 top + (size_t)help.body_h, help.nr_lines);
		tui__put(help.y0 + help.h - 1, help.x0 + 2, help.w - 4, A_BOLD, where);
		/* what is above and below, at the right edge */
		if (top)
			tui__put(help.y0 + 1, help.x0 + help.w - 3, 1, A_BOLD, "^");
		if (top < help.max_top)
			tui__put(help.y0 + help.h - 2, help.x0 + help.w - 3, 1, A_BOLD, "v");
	}
	lrs_help__free(&help);
}

bool tui__help_key(struct lrs_tui *tui, enum lrs_action act)
{
	if (!tui->state.show_help) {
		tui->help_top = 0; /* it opens at its top */
		return false;
	}
	if (!lrs_help__scrolls(act))
		return false;
	tui->help_top = lrs_help__scroll(tui->help_top, tui->help_max_top, tui->help_page, act);
	return true;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The help overlay's layout for a screen of character cells (pure, no
 * curses): the intro wrapped to the box, then the keys of the keymap, in two
 * columns side by side when the screen is wide enough; a body taller than the
 * screen scrolls. The TUI draws it (ui/tui/tui_help.c).
 */
#ifndef LRS_HELP_H
#define LRS_HELP_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/action.h"

#define LRS_HELP_KEYS_W 20 /* a key column: the keys padded to 19, a blank */
#define LRS_HELP_GAP 3	   /* between two key columns */

struct lrs_help {
	char **lines; /* the body, each at most inner_w columns */
	size_t nr_lines;
	size_t nr_intro;  /* the first lines are the intro's; the first of them its title */
	int x0, y0, w, h; /* the box on screen, border included */
	int inner_w;	  /* the body's width */
	int body_h;	  /* body lines the box shows at once */
	int columns;	  /* key columns: 1 or 2 */
	size_t max_top;	  /* the first line shown when scrolled to the end */
};

/*
 * Lay out the help of screen (LRS_KEYMAP_TUI or _GUI; replay: with the
 * transport keys) for cols x rows cells. intro: paragraphs, "" a blank line,
 * the first the title. Returns 0, or -ENOMEM (help is then empty).
 */
int lrs_help__layout(struct lrs_help *help, const char *const *intro, size_t nr_intro,
		     unsigned int screen, bool replay, int cols, int rows);
void lrs_help__free(struct lrs_help *help); /* accepts a zeroed help */

/* Whether act scrolls the help (arrows, pages, Home and End): the help takes those while open. */
bool lrs_help__scrolls(enum lrs_action act);
/* The first line shown after act, from top: within 0 .. max_top, page lines a page. */
size_t lrs_help__scroll(size_t top, size_t max_top, int page, enum lrs_action act);

#endif

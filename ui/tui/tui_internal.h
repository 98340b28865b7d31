/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the TUI shared by ui/tui/tui.c (setup, loop, status) and the ui/tui_*.c drawing. */
#ifndef LRS_TUI_INTERNAL_H
#define LRS_TUI_INTERNAL_H

#include <curses.h>

#include "ui/colour.h"
#include "ui/detail.h"
#include "ui/holders_view.h"
#include "ui/layout.h"
#include "ui/tui/tui.h"
#include "ui/view_loop.h"

#define TUI_MSGS 16
#define TUI_MSG_LEN 256
#define TUI_MAX_WAITERS 32
#define TUI_MAX_STACKS 8

struct tui_msg {
	char text[TUI_MSG_LEN];
	bool keep;
	double at_s;
};

struct lrs_tui {
	struct lrs_tui_opts opts;
	SCREEN *screen;
	FILE *outf, *inf;
	enum lrs_colour_mode mode;
	bool utf8;
	attr_t level_attr[LRS_COLOUR_LEVELS + 1];
	attr_t warn_attr, title_attr, key_attr, other_memcg_attr, faint_attr;
	attr_t diverge_attr[2 * LRS_DIVERGING_LEVELS + 1]; /* diff: level + LRS_DIVERGING_LEVELS */

	struct lrs_view_layout layout; /* of the last frame */
	size_t top;		       /* first heatmap row shown */
	size_t first_node;	       /* first node column shown */

	/* the time view (key t): each row's wait history as a strip of cells */
	bool time_view;
	bool time_all_nodes; /* strips sum all nodes: "all nodes" is selected */
	double *strips;	     /* rows_h x nr_time_cols of this frame; NAN: no history */
	size_t strips_cap;
	double strips_max; /* the top of the colour scale in the time view */

	const char *source_name;
	double interval_s;

	struct lrs_view_state state;   /* pause, detail pane, help: the screen's own */
	struct lrs_filter_edit filter; /* the filter prompt */
	bool replay;		       /* the source is a recording: its transport keys are shown */

	struct tui_msg msgs[TUI_MSGS]; /* a ring; the newest at nr_msgs - 1 */
	size_t nr_msgs;

	struct lrs_detail_waiter waiters[TUI_MAX_WAITERS];
	struct lrs_detail_stack stacks[TUI_MAX_STACKS];

	/* the help box: its first body line shown, as far as it scrolls, a page */
	size_t help_top, help_max_top;
	int help_page;

	/* holders: key x shows the memcg x memcg matrix, c its columns */
	bool matrix;
	bool matrix_by_holder;
	struct lrs_holders_matrix mx;
};

/* A counter of the last interval, per second (0 before there is an interval). */
static inline double tui__row_per_s(const struct lrs_model *model, uint64_t v)
{
	return model->interval_s > 0 ? (double)v / model->interval_s : 0;
}

/* A source of one instant (a drgn walk): no interval, no rates, no other locks. */
static inline bool tui__one_instant(const struct lrs_tui *tui)
{
	return !(tui->interval_s > 0);
}

/* tui_help.c: the help box; its keys (scrolling) while it is open, true when act was one */
void tui__draw_help(struct lrs_tui *tui);
bool tui__help_key(struct lrs_tui *tui, enum lrs_action act);

/* tui_paint.c */
void tui__sanitize_keep(char *dst, size_t len, const char *src, bool keep_utf8);
void tui__sanitize(char *dst, size_t len, const char *src);
int tui__put(int y, int x, int w, attr_t attr, const char *s);
int tui__putf(int y, int x, int w, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void tui__fill(int y, int x, int w, attr_t attr);
void tui__rule(int y, int x, int w, attr_t attr, const char *title);
void tui__colours_init(struct lrs_tui *tui);

/* tui_header.c */
void tui__draw_header(struct lrs_tui *tui, const struct lrs_model *model);
void tui__draw_legend(struct lrs_tui *tui, const struct lrs_model *model);

/* tui_heatmap.c */
int tui__name_len(const struct lrs_model *model);
void tui__draw_each_row(struct lrs_tui *tui, const struct lrs_model *model,
			void (*draw_rest)(struct lrs_tui *tui, const struct lrs_model *model,
					  const struct lrs_row *row, int r, bool is_sel));
bool tui__draw_colhdr_line(struct lrs_tui *tui, const struct lrs_model *model);
void tui__draw_colhdr(struct lrs_tui *tui, const struct lrs_model *model);
void tui__draw_rows(struct lrs_tui *tui, const struct lrs_model *model);

/* tui_time.c */
void tui__strips_compute(struct lrs_tui *tui, const struct lrs_model *model);
void tui__draw_time_colhdr(struct lrs_tui *tui, const struct lrs_model *model);
void tui__draw_time_rows(struct lrs_tui *tui, const struct lrs_model *model);
void tui__draw_time_axis(struct lrs_tui *tui, const struct lrs_model *model);

/* tui_others.c */
size_t tui__others_active(const struct lrs_model *model);
void tui__draw_others(struct lrs_tui *tui, const struct lrs_model *model);

/* tui_detail.c */
void tui__draw_detail(struct lrs_tui *tui, const struct lrs_model *model);

/* tui_matrix.c */
void tui__draw_matrix(struct lrs_tui *tui, const struct lrs_model *model);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the TUI's and the GUI's loops share: when a snapshot is due, taking
 * it into the model (the only way snapshots reach it: a replay's seeks come
 * here too), the selection following the hottest cell until the user moves
 * it, the interval steps, a replay's transport, the filter prompt's text,
 * and applying an action (ui/action.h). The screens keep their own input,
 * drawing, waiting and screen state; this knows no curses and no SDL.
 */
#ifndef LRS_VIEW_LOOP_H
#define LRS_VIEW_LOOP_H

#include <stdbool.h>

#include "collector/source.h"
#include "model/clock.h" /* lrs_now_s(): the "now" the loop functions take */
#include "model/model.h"
#include "ui/action.h"

struct lrs_view_loop {
	struct lrs_source *src;
	struct lrs_model *model;
	struct lrs_view_state *state; /* the screen's: pause, detail, help */
	double speed;		      /* a replay's snapshots come speed times faster; 0: 1 */
	double start_s, duration_s;   /* duration_s 0: no end */
	double next_due_s, last_take_s;
	bool paused_before;
	bool user_moved;   /* until the user selects, the selection follows the hottest cell */
	bool escape_quits; /* the GUI: Esc quits when no help is open */
	bool quit;
	/* a message for the screen's status line; keep: also after it closes */
	void (*message)(void *ctx, bool keep, const char *text);
	void *ctx;
};

/* The filter prompt: the text being typed, and the filter before it opened. */
struct lrs_filter_edit {
	bool editing;
	char text[sizeof(((struct lrs_model *)0)->filter)];
	char before[sizeof(((struct lrs_model *)0)->filter)];
};

/* The next interval up or down the steps 0.2 s .. 60 s (pure). */
double lrs_view__interval_next(double cur, bool up);

/* Select the cell with the most of the model's metric: the detail pane shows it first. */
void lrs_view__select_hottest(struct lrs_model *model);

/* Start at now: the first snapshot is due at once. */
void lrs_view_loop__init(struct lrs_view_loop *lp, struct lrs_source *src, struct lrs_model *model,
			 struct lrs_view_state *state, double now);
/* Has the duration passed? */
bool lrs_view_loop__over(const struct lrs_view_loop *lp, double now);
/* Is a snapshot due at now? Resuming from a pause makes one due at once. */
bool lrs_view_loop__due(struct lrs_view_loop *lp, double now);
/*
 * Take a snapshot into the model, and select the hottest cell unless the
 * user moved; pause where the source asks to. Returns 1 when the model got
 * one, 0 when not (a message said why, or a stream had none yet: it is due
 * again soon), -ENODATA when the source has no more.
 */
int lrs_view_loop__take(struct lrs_view_loop *lp, double now);
/* How long to wait for input at now: until the next snapshot, idle_s when none comes, at most max_s. */
double lrs_view_loop__wait_s(const struct lrs_view_loop *lp, double now, bool idle, double idle_s,
			     double max_s);
/*
 * Apply an action: quit, escape, the interval, a replay's transport (its
 * seeks' snapshots into the model) or lrs_action__apply's (page: rows a
 * page moves). LRS_ACT_FILTER opens the prompt in filter. Returns the
 * reaction mask of what was done (LRS_REACT_*), 0 when nothing was: the
 * screen redraws on LRS_REACT_REDRAW and reads the source's name and
 * interval again on LRS_REACT_SOURCE.
 */
unsigned int lrs_view_loop__apply(struct lrs_view_loop *lp, struct lrs_filter_edit *filter,
				  enum lrs_action act, size_t page);

/* The filter prompt; each call sets model->filter and refreshes the view (it applies as typed). */
void lrs_filter_edit__begin(struct lrs_filter_edit *e, struct lrs_model *model);
void lrs_filter_edit__end(struct lrs_filter_edit *e, struct lrs_model *model, bool keep);
void lrs_filter_edit__erase(struct lrs_filter_edit *e, struct lrs_model *model, bool all);
void lrs_filter_edit__type(struct lrs_filter_edit *e, struct lrs_model *model, const char *text);

#endif

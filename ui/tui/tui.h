/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The curses heatmap: memcg rows x node columns, detail pane, other locks.
 * Draws from a const model; input becomes lrs_action values.
 */
#ifndef LRS_TUI_H
#define LRS_TUI_H

#include <signal.h>
#include <stdio.h>
#include "collector/source.h"
#include "model/model.h"
#include "ui/action.h"

struct lrs_tui_opts {
	bool no_color;	    /* also set when NO_COLOR is in the environment */
	const char *banner; /* a line above the header, or NULL (the demo's layout) */
	/* A banner that changes (elapsed time): called every frame, wins over banner. */
	const char *(*banner_fn)(void *ctx);
	void *banner_ctx;
	double duration_s;	     /* stop after this long; 0: until q */
	volatile sig_atomic_t *stop; /* set by a signal handler: leave the loop */
};

/*
 * Run the live loop on src until q, SIGINT/SIGTERM (*opts->stop), a lost
 * terminal, the source's end or the duration. Restores the terminal before it
 * returns. Returns 0 or -errno; messages are queued for the status line while
 * curses owns the screen, and printed to stderr after.
 */
int lrs_tui__run(struct lrs_source *src, struct lrs_model *model, const struct lrs_tui_opts *opts);

/*
 * The pieces of the loop, for tests and benches that draw without a source.
 * open: curses on term (NULL: $TERM) over out/in (NULL: stdout/stdin).
 * close restores the terminal and prints kept messages to stderr; accepts NULL.
 */
struct lrs_tui;

/*
 * Whether curses can drive term (NULL: $TERM) on descriptor fd: it is set, in
 * terminfo, and can address the cursor (TERM=dumb cannot). 0, or -ENOTTY
 * with why saying which and what to do. lrs_tui__open checks it too.
 */
int lrs_tui__term_check(const char *term, int fd, char *why, size_t why_len);
int lrs_tui__open(struct lrs_tui **out, const struct lrs_tui_opts *opts, const char *term,
		  FILE *outf, FILE *inf);
void lrs_tui__close(struct lrs_tui *tui);
/* Draw one frame of model and push it to the terminal. */
void lrs_tui__draw(struct lrs_tui *tui, const struct lrs_model *model);
/* Resize the curses screen (tests and benches; a terminal sends KEY_RESIZE). */
void lrs_tui__resize(struct lrs_tui *tui, int lines, int cols);
/*
 * The time view (key t): each row's wait/s history as a strip of cells instead
 * of node columns; all_nodes: the strips sum every node.
 */
void lrs_tui__set_time_view(struct lrs_tui *tui, bool on, bool all_nodes);
/*
 * The time view's own keys: LRS_ACT_TIME_VIEW toggles it; there, RIGHT past
 * the last node selects "all nodes" and LEFT comes back. Returns true if act
 * was one of them; other actions are the loop's (lrs_action__apply).
 */
bool lrs_tui__time_view_key(struct lrs_tui *tui, const struct lrs_model *model,
			    enum lrs_action act);
/*
 * The holders' memcg x memcg matrix over the heatmap: rows the
 * waiting memcg, columns the lruvec owner's memcg or (by_holder) the holder's.
 */
void lrs_tui__set_matrix_view(struct lrs_tui *tui, bool on, bool by_holder);
/* Its actions: MATRIX toggles it, MATRIX_COLUMNS (in it) switches the columns. True if act was one. */
bool lrs_tui__matrix_key(struct lrs_tui *tui, enum lrs_action act);
/* The screen state (pause, detail pane, help) this TUI draws and its loop changes. */
struct lrs_view_state *lrs_tui__view_state(struct lrs_tui *tui);
/* What the header says about the source: its name and interval. */
void lrs_tui__set_source(struct lrs_tui *tui, const char *name, double interval_s);
/* A status-line message; keep: also print it to stderr after curses ends. */
void lrs_tui__message(struct lrs_tui *tui, bool keep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The action of a curses key (getch value). */
enum lrs_action lrs_tui__key_action(int key);

/*
 * 'diff --tui': the comparison (model/compare.h) as a heatmap, memcg rows x
 * node column groups "wait/s A | B | B/A", each ratio on the diverging scale
 * (red up, blue down, plain when not significant), the totals below. The
 * top's keys scroll (arrows, pages, Home, End); q or Esc quits. 0 or -errno.
 */
struct lrs_compare;
int lrs_tui__run_diff(const struct lrs_compare *cmp, const char *name_a, const char *name_b,
		      const struct lrs_tui_opts *opts);

#endif

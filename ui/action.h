/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The actions keys and clicks become (ui/keymap.h binds them), what each asks
 * of the screen and the loop once applied (a reaction mask, as htop's
 * Action.c), and how the model's and the screen state's own are applied. The
 * screen state (pause, detail pane, help) is the views', not the model's: the
 * model holds what it computes from (sort, filter, selection, metric).
 */
#ifndef LRS_ACTION_H
#define LRS_ACTION_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* Input turned into actions: the TUI and the GUI share these. */
enum lrs_action {
	LRS_ACT_NONE,
	LRS_ACT_QUIT,
	LRS_ACT_SORT_NEXT,
	LRS_ACT_PAUSE,
	LRS_ACT_INTERVAL_UP,
	LRS_ACT_INTERVAL_DOWN,
	LRS_ACT_FILTER, /* the view asks for the text, then sets model->filter */
	LRS_ACT_HELP,
	LRS_ACT_DETAIL,
	LRS_ACT_UP,
	LRS_ACT_DOWN,
	LRS_ACT_LEFT,
	LRS_ACT_RIGHT,
	LRS_ACT_PAGE_UP,
	LRS_ACT_PAGE_DOWN,
	LRS_ACT_HOME,
	LRS_ACT_END,
	/* a replay's transport: the source's verbs (collector/source.h) */
	LRS_ACT_STEP_FORWARD,
	LRS_ACT_STEP_BACK,
	LRS_ACT_SEEK_START,
	LRS_ACT_SEEK_END,
	LRS_ACT_SPEED_UP,
	LRS_ACT_SPEED_DOWN,
	LRS_ACT_TIME_VIEW,   /* the TUI's: heatmap <-> wait history strips */
	LRS_ACT_METRIC_NEXT, /* cells: wait/s <-> LRU pages */
	/* the views' own: lrs_action__apply leaves them to the screens */
	LRS_ACT_ESCAPE,		/* close the help (the GUI: else quit) */
	LRS_ACT_MATRIX,		/* holders: the memcg x memcg matrix on/off */
	LRS_ACT_MATRIX_COLUMNS, /* the matrix's columns: lruvec owner <-> holder's memcg */
	LRS_ACT_LANES,		/* the GUI's time heatmap: hottest lruvecs <-> selected memcg */
	LRS_NR_ACTIONS,
};

/* What an applied action asks for; an action's mask is fixed (lrs_action__reaction). */
enum lrs_reaction {
	LRS_REACT_REDRAW = 1 << 0,     /* the frame changed: draw it again */
	LRS_REACT_USER_MOVED = 1 << 1, /* the user placed the selection: it stops
						 * following the hottest cell */
	LRS_REACT_REFETCH = 1 << 2,    /* the source moved (a seek): the model takes
						 * the snapshots sought from it */
	LRS_REACT_RETIME = 1 << 3,     /* the pace changed: the next snapshot is
						 * due a whole interval from now */
	LRS_REACT_FOLLOW = 1 << 4,     /* other snapshots are shown: the selection
						 * follows their hottest cell, unless the user moved */
	LRS_REACT_SOURCE = 1 << 5,     /* the header reads the source's name and
						 * interval again */
	LRS_REACT_QUIT = 1 << 6,       /* leave the loop */
};

/* The screen state both screens keep beside the model. */
struct lrs_view_state {
	bool paused;	  /* no snapshot is taken (a recording's end pauses too) */
	bool show_detail; /* the detail pane (on at the start) */
	bool show_help;	  /* the help over the screen */
};

/* The state a screen starts with: the detail pane shown. */
void lrs_view_state__init(struct lrs_view_state *vs);

/* The name of an action, for the key table ("select", "quit"); "?" if none. */
const char *lrs_action__name(enum lrs_action action);
/* The action's reaction mask (LRS_REACT_*); 0 for LRS_ACT_NONE. */
unsigned int lrs_action__reaction(enum lrs_action action);

/*
 * Apply a selection, sort, metric, pause, help or detail action to the
 * model and the screen state (page: rows a page moves). Returns the action's
 * reaction mask, or 0 when it is none of those: the loop's (quit, filter,
 * interval, transport, escape) and the screens' own are applied where they live.
 */
unsigned int lrs_action__apply(enum lrs_action action, struct lrs_model *model,
			       struct lrs_view_state *vs, size_t page);

/*
 * Scroll a list of nr_rows whose first shown row is *top (diff's heatmaps):
 * up, down, a page of page rows, Home, End; the view clamps *top to its
 * height. True if the action was one of them.
 */
bool lrs_action__scroll(enum lrs_action action, size_t *top, size_t nr_rows, size_t page);

#endif

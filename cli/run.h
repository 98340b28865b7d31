/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the commands that show a source share: the live collector opened
 * with its failure said, and a source shown on a screen (a model over it,
 * the TUI or the GUI run until it ends, then both freed).
 */
#ifndef LRS_CLI_RUN_H
#define LRS_CLI_RUN_H

#include <stddef.h>

#include "model/model.h"

struct lrs_collector_opts;
struct lrs_source;
struct lrs_tui_opts;
struct lrs_gui_opts;

/* The signal handlers, then the live collector loaded for cmd: 0, or -errno after saying why. */
int lrs_cli__open_live(const char *cmd, const struct lrs_collector_opts *copts,
		       struct lrs_source **src);

struct lrs_cli_view {
	const char *cmd;		       /* for its messages: "top" */
	const struct lrs_collector_opts *live; /* the source: the live collector opened with these, */
	struct lrs_source *src;		       /* or this one (freed with the view) */
	size_t history;	    /* snapshots the model keeps; 0: LRS_HISTORY_DEFAULT */
	enum lrs_sort sort; /* how the model starts */
	enum lrs_metric metric;
	const struct lrs_tui_opts *tui; /* the screen: the TUI with these, */
	const struct lrs_gui_opts *gui; /* or the GUI with these */
	/* after the screen: the source's own failure (a recording cut short), or NULL */
	const char *(*error_of)(const struct lrs_source *src);
};

/*
 * Open -> model -> run -> free: LRS_EXIT_OK when the screen ended as asked
 * or the source ran out, else LRS_EXIT_FAIL (said on stderr or by the screen,
 * or the source's error_of said).
 */
int lrs_cli__run_view(const struct lrs_cli_view *v);

#endif

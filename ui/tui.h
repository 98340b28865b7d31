/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The curses heatmap: memcg rows x node columns, detail pane, other locks.
 * Draws from a const model; input becomes lrs_action values.
 */
#ifndef LRS_TUI_H
#define LRS_TUI_H

#include <signal.h>
#include "../collector/model.h"
#include "../collector/source.h"

struct lrs_tui_opts {
	bool no_color;			/* also set when NO_COLOR is in the environment */
	const char *banner;		/* a line above the header, or NULL (the demo's layout) */
	double duration_s;		/* stop after this long; 0: until q */
	volatile sig_atomic_t *stop;	/* set by a signal handler: leave the loop */
};

/*
 * Run the live loop on src until q, SIGINT/SIGTERM (*opts->stop), a lost
 * terminal, the source's end or the duration. Restores the terminal before it
 * returns. Returns 0 or -errno; messages are queued for the status line while
 * curses owns the screen, and printed to stderr after.
 */
int lrs_tui__run(struct lrs_source *src, struct lrs_model *model, const struct lrs_tui_opts *opts);

#endif

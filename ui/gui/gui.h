/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SDL2 window: the memcg x node heatmap, a time heatmap of the hottest
 * lruvecs, the selected lruvec's wait-histogram heatmap and its detail panel.
 * Draws from a const model; keys and clicks become lrs_action values.
 */
#ifndef LRS_GUI_H
#define LRS_GUI_H

#include <signal.h>
#include <stdbool.h>
#include "collector/source.h"
#include "model/model.h"
#include "ui/action.h"

struct lrs_gui_opts {
	const char *screenshot;	     /* render one frame to this PNG headless, then return */
	double duration_s;	     /* stop after this long; 0: until q or the window closes */
	volatile sig_atomic_t *stop; /* set by a signal handler: leave the loop */
	int width, height;	     /* window size in points; 0: 1280 x 800 */
	double speed;	       /* replay: snapshots come speed times faster; 0 or 1: real time */
	const char *font_path; /* a TTF; NULL: $LRS_FONT, then DejaVu Sans */
	const char *title;     /* window title; NULL: "lruscope" */
	/*
	 * With screenshot: snapshots to take before the frame is rendered (0:
	 * until the source ends or duration_s passes, at least two so there are
	 * rates). The source's interval is kept unless speed says otherwise.
	 */
	unsigned int screenshot_snapshots;
	/*
	 * With screenshot: show the window as usual (a display is needed) for
	 * duration_s and save its last frame: tests of the window path (Xvfb).
	 */
	bool screenshot_window;
};

/*
 * Run the loop on src until q, Esc, closing the window, *opts->stop, the
 * source's end (a replay keeps its last frame on screen until q) or the
 * duration. With opts->screenshot, no window is shown: SDL's offscreen driver
 * (or a dummy one) and the software renderer draw one frame into the PNG.
 * Returns 0 or -errno; what went wrong was printed to stderr.
 */
int lrs_gui__run(struct lrs_source *src, struct lrs_model *model, const struct lrs_gui_opts *opts);

/*
 * Whether a window can be seen: 0, or -ENXIO with a message on stderr (no
 * display: SDL would draw offscreen; what to use instead). lrs_gui__run
 * checks it too; this lets a command say it before loading anything.
 */
int lrs_gui__check_display(void);

/*
 * The pieces of the loop, for tests and benches that draw without a source.
 * open: a window (or a headless one with opts->screenshot set) of opts' size.
 * close accepts NULL.
 */
struct lrs_gui;

int lrs_gui__open(struct lrs_gui **out, const struct lrs_gui_opts *opts);
void lrs_gui__close(struct lrs_gui *gui);
/* After each lrs_model__push: the GUI keeps interval histograms of some lruvecs. */
void lrs_gui__observe(struct lrs_gui *gui, const struct lrs_model *model);
/* Draw one frame of model (and present it). */
void lrs_gui__draw(struct lrs_gui *gui, const struct lrs_model *model);
/* Write the last drawn frame as PNG. Returns 0 or -errno. */
int lrs_gui__save_png(struct lrs_gui *gui, const char *path);
/* A status-line message. */
void lrs_gui__message(struct lrs_gui *gui, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What the header says about the source: its name and interval. */
void lrs_gui__set_source(struct lrs_gui *gui, const char *name, double interval_s);
/* The action of a key (an SDL_Keycode), the same as the TUI's keys. */
enum lrs_action lrs_gui__key_action(int sdl_keycode);

/*
 * 'diff --gui': the comparison (model/compare.h) in the window, as the TUI's
 * diff view: memcg rows, per node "A | B | B/A", the ratio cell filled with
 * the diverging colour, the totals below; the top's keys scroll, q or Esc
 * quits. With opts->screenshot, one frame into that PNG, headless.
 */
struct lrs_compare;
int lrs_gui__run_diff(const struct lrs_compare *cmp, const char *name_a, const char *name_b,
		      const struct lrs_gui_opts *opts);

#endif

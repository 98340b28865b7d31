/* SPDX-License-Identifier: GPL-2.0 */
/* Internals of the GUI shared by its files: the window, its state, and who draws what. */
#ifndef LRS_GUI_IMPL_H
#define LRS_GUI_IMPL_H

#include <SDL2/SDL.h>

#include "ui/detail.h"
#include "ui/gui/gui.h"
#include "ui/gui/gui_font.h"
#include "ui/gui/gui_layout.h"
#include "ui/holders_view.h"
#include "ui/view_loop.h"

#define GUI_MSGS 8
#define GUI_MSG_LEN 256
#define GUI_MSG_SHOW_S 8.0
#define GUI_RINGS 40 /* lruvecs whose interval histograms are kept */
#define GUI_WAITERS 10
#define GUI_STACKS 3
#define GUI_HOLDERS 5
#define GUI_MATRIX 6   /* rows and columns of the side panel's matrix */
#define GUI_FONT_PT 13 /* text size in points: pixels at scale 1 */
#define GUI_DEFAULT_W 1280
#define GUI_DEFAULT_H 800

/* A lane of the time heatmap: one lruvec. */
struct gui_lane {
	uint64_t memcg_id;
	int node;
	size_t node_idx;
};

/* Interval histograms of one lruvec, slot push % cap; push[slot] says which push it holds. */
struct gui_hist_ring {
	bool used;
	uint64_t memcg_id;
	int node;
	uint64_t last_use; /* gui->observed when last tracked */
	uint64_t *push;
	float *interval_s;
	uint32_t (*hist)[LRS_HIST_BUCKETS];
};

enum gui_lane_mode {
	GUI_LANES_HOT,	 /* the hottest lruvecs now, in tree order */
	GUI_LANES_MEMCG, /* the selected memcg's nodes */
};

struct gui_msg {
	char text[GUI_MSG_LEN];
	double at_s;
};

/* What a cached plot texture was built from: rebuilt when any of it changes. */
struct gui_plot_key {
	uint64_t pushes;
	struct lrs_gui_rect plot;
	size_t nr_lanes;
	struct gui_lane lanes[LRS_GUI_MAX_LANES];
	double scale_max;
	int hist_lo, hist_hi;
};

struct lrs_gui {
	struct lrs_gui_opts opts;
	bool headless;
	SDL_Window *win;
	SDL_Renderer *ren;
	SDL_Surface *surface; /* headless: the frame */
	struct lrs_gui_font *font;
	int font_px;
	double scale;	/* drawable pixels per window point */
	int px_w, px_h; /* drawable size */

	struct lrs_gui_layout layout; /* of the last frame */
	size_t top;		      /* first heatmap row shown */
	size_t first_node;

	const char *source_name;
	double interval_s;
	struct gui_msg msgs[GUI_MSGS]; /* a ring, the newest at nr_msgs - 1 */
	size_t nr_msgs;

	int mouse_x, mouse_y; /* drawable pixels */
	bool mouse_in;
	struct lrs_view_state state;   /* pause, side panel, help: the screen's own */
	struct lrs_filter_edit filter; /* the filter prompt */
	bool replay;		       /* the source is a recording: the help shows its keys */

	enum gui_lane_mode lane_mode;
	struct gui_lane lanes[LRS_GUI_MAX_LANES];
	size_t nr_lanes;
	size_t lane_cap;			/* lanes the time heatmap has room for */
	struct gui_lane hot[LRS_GUI_MAX_LANES]; /* the hottest lately, hottest first */
	size_t nr_hot;
	uint64_t hot_pushes; /* what hot[] was scanned from */
	const size_t *hot_view;
	size_t hot_nr_visible;
	struct gui_hist_ring rings[GUI_RINGS];
	size_t ring_cap;
	uint64_t observed;		/* lrs_gui__observe calls */
	int hist_used_lo, hist_used_hi; /* buckets the selected ring uses */

	SDL_Texture *time_tex, *hist_tex, *legend_tex;
	struct gui_plot_key time_key, hist_key;
	uint32_t *px; /* scratch pixels for the plot textures */
	size_t px_cap;
	double scale_max;	       /* top of the shared wait colour scale */
	double hist_max, hist_decades; /* the histogram heatmap's scale, waits per second */

	double frame_ms; /* the last frame's draw time */
	struct lrs_detail_waiter waiters[GUI_WAITERS];
	struct lrs_detail_stack stacks[GUI_STACKS];

	/* holders: the side panel's matrix; x hides it, c switches its columns */
	bool matrix_hidden;
	bool matrix_by_holder;
	struct lrs_holders_matrix mx;
	struct lrs_gui_rect mx_cells; /* the last frame's matrix cells; w, h: one cell's */
	size_t mx_rows, mx_cols;      /* shown */
};

/* gui.c */
const struct gui_msg *gui__status_msg(const struct lrs_gui *gui);
int gui__font_open(struct lrs_gui *gui);
void gui__measure(struct lrs_gui *gui);
/* An SDL key with its modifiers, as the keymap's action. */
enum lrs_action gui__key_action(int sdl_keycode, unsigned int mod);

/* gui_lanes.c */
const struct gui_hist_ring *gui__ring(const struct lrs_gui *gui, uint64_t memcg_id, int node);
void gui__ring_free(struct gui_hist_ring *r);
void gui__lanes_compute(struct lrs_gui *gui, const struct lrs_model *model);
const struct lrs_row *gui__row_by_id(const struct lrs_model *model, uint64_t memcg_id, long *vis);

/* gui_paint.c */
void gui__colour_set(struct lrs_gui *g, struct lrs_rgb c);
void gui__fill(struct lrs_gui *g, int x, int y, int w, int h, struct lrs_rgb c);
void gui__outline(struct lrs_gui *g, int x, int y, int w, int h, int thick, struct lrs_rgb c);
int gui__text(struct lrs_gui *g, int x, int y, struct lrs_rgb c, const char *s, int max_w);
int gui__textf(struct lrs_gui *g, int x, int y, struct lrs_rgb c, int max_w, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void gui__text_right(struct lrs_gui *g, int right, int y, struct lrs_rgb c, const char *s);
void gui__text_centre(struct lrs_gui *g, int cx, int y, struct lrs_rgb c, const char *s);
void gui__sanitize(char *dst, size_t len, const char *src);
int gui__chars_fit(const struct lrs_gui *g, int w);
uint32_t gui__argb(struct lrs_rgb c);
int gui__texture_fit(struct lrs_gui *g, SDL_Texture **tex, int w, int h);
void gui__draw_title(struct lrs_gui *g, const struct lrs_gui_rect *r, const char *title,
		     const char *note);

/* gui_names.c */
bool gui__tree_view(const struct lrs_model *model);
const char *gui__row_label(const struct lrs_model *model, const struct lrs_row *row, int *indent);
int gui__name_chars(const struct lrs_model *model);
char *gui__lruvec_name(char *buf, size_t len, const struct lrs_model *model, uint64_t memcg_id,
		       int node);
uint64_t gui__column_push(const struct lrs_gui *g, const struct lrs_model *model, size_t c);
long gui__column_history(const struct lrs_gui *g, const struct lrs_model *model, size_t c);
const uint32_t *gui__ring_column(const struct lrs_gui *g, const struct gui_hist_ring *r,
				 uint64_t push, float *interval_s);
const struct gui_hist_ring *gui__selected_ring(const struct lrs_gui *g,
					       const struct lrs_model *model);
bool gui__metric_pages(const struct lrs_model *model);
double gui__heat_max(const struct lrs_gui *g, const struct lrs_model *model);
char *gui__heat_fmt(char *buf, size_t len, const struct lrs_model *model, double v);

/* gui_plots.c */
void gui__time_build(struct lrs_gui *g, const struct lrs_model *model);
void gui__hist_build(struct lrs_gui *g, const struct lrs_model *model);
void gui__draw_timemap(struct lrs_gui *g, const struct lrs_model *model);
void gui__draw_histmap(struct lrs_gui *g, const struct lrs_model *model);

/* gui_heatmap.c */
void gui__draw_header(struct lrs_gui *g, const struct lrs_model *model);
void gui__draw_heatmap(struct lrs_gui *g, const struct lrs_model *model);
void gui__draw_legend(struct lrs_gui *g, const struct lrs_model *model);

/* gui_side.c */
void gui__draw_side(struct lrs_gui *g, const struct lrs_model *model);

/* gui_tooltip.c */
void gui__draw_tooltip(struct lrs_gui *g, const struct lrs_model *model);

/* gui_frame.c: the layout of a frame (lrs_gui__draw draws it) */
void gui__layout(struct lrs_gui *g, const struct lrs_model *model);

#endif

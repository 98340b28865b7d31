/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layout maths of the GUI window, in drawable pixels: which rectangle each
 * panel gets for a window size and font, the heatmap's cell geometry, what a
 * point hits (hover and click), and axis tick labels. Pure functions; no SDL.
 */
#ifndef LRS_GUI_LAYOUT_H
#define LRS_GUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

struct lrs_gui_rect {
	int x, y, w, h;
};

static inline bool lrs_gui_rect__contains(const struct lrs_gui_rect *r, int x, int y)
{
	return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

/* Lanes the time heatmap shows at most, and the least height of one. */
#define LRS_GUI_MAX_LANES 24
#define LRS_GUI_LANE_MIN_H 3

struct lrs_gui_layout_in {
	int width, height; /* drawable pixels */
	int line_h;	   /* a text line, pixels */
	int char_w;	   /* advance of a digit, pixels */
	int pad;	   /* spacing between panels, pixels */
	size_t nr_nodes;
	size_t sel_node_idx;  /* the node column that must be visible */
	size_t first_node;    /* the current horizontal scroll */
	int name_chars;	      /* longest row name, indentation included */
	size_t nr_rows;	      /* heatmap rows: fewer leave room to the time heatmaps */
	size_t nr_lanes;      /* time heatmap lanes wanted */
	size_t columns;	      /* time columns (the history ring's capacity) */
	int hist_lo, hist_hi; /* wait buckets the histogram heatmap spans */
	bool hide_side;	      /* no side panel (the detail toggle) */
};

struct lrs_gui_layout {
	int width, height;
	int line_h, char_w, pad;
	/* panels; w or h 0: not shown */
	struct lrs_gui_rect header, heatmap, legend, timemap, histmap, side, status;

	/* the heatmap: a title line, column headings, then rows */
	int colhdr_y;
	struct lrs_gui_rect names; /* the memcg column beside the rows */
	struct lrs_gui_rect grid;  /* the node cells of the rows that fit */
	int total_x, total_w;	   /* the all-nodes column, total_w 0 if none */
	int row_h, cell_w;
	size_t rows_fit;
	size_t first_node, nr_node_cols;

	/* the legend's colour bar (ticks go under it) */
	struct lrs_gui_rect legend_bar;

	/* the time heatmaps share their x axis: column i of columns */
	struct lrs_gui_rect time_plot;	 /* lanes, newest column at the right */
	struct lrs_gui_rect time_labels; /* lane names left of the plot */
	size_t nr_lanes;
	int lane_h;
	struct lrs_gui_rect hist_plot; /* buckets hist_lo (bottom) .. hist_hi (top) */
	struct lrs_gui_rect hist_labels;
	int hist_lo, hist_hi;
	size_t columns;
};

/* Fill out from in. Windows too small for a panel leave it empty. */
void lrs_gui_layout__compute(struct lrs_gui_layout *out, const struct lrs_gui_layout_in *in);

/* The left x of node column i (first_node <= i < first_node + nr_node_cols), else -1. */
int lrs_gui_layout__node_x(const struct lrs_gui_layout *l, size_t i);

/* The pixel span [x0, x1) of time column i of l->columns in the plot. */
void lrs_gui_layout__column_span(const struct lrs_gui_layout *l, const struct lrs_gui_rect *plot,
				 size_t i, int *x0, int *x1);

/* The y span [y0, y1) of wait bucket b in the histogram plot (b in lo..hi). */
void lrs_gui_layout__bucket_span(const struct lrs_gui_layout *l, int b, int *y0, int *y1);

enum lrs_gui_part {
	LRS_GUI_NOTHING,
	LRS_GUI_CELL,	/* row, node */
	LRS_GUI_NAME,	/* row */
	LRS_GUI_TOTAL,	/* row */
	LRS_GUI_COLHDR, /* node */
	LRS_GUI_LANE,	/* lane, column */
	LRS_GUI_BUCKET, /* bucket, column */
	LRS_GUI_LEGEND, /* t: 0..1 along the colour bar */
	LRS_GUI_SIDE,
};

struct lrs_gui_hit {
	enum lrs_gui_part part;
	size_t row;  /* index into the model's visible rows */
	size_t node; /* node index */
	size_t lane;
	size_t column; /* 0 oldest .. columns - 1 newest */
	int bucket;
	double t;
};

/*
 * What point (x, y) hits, with top the first visible row shown and nr_rows
 * the visible rows. Rows past the end, and gaps, hit nothing.
 */
struct lrs_gui_hit lrs_gui_layout__hit(const struct lrs_gui_layout *l, int x, int y, size_t top,
				       size_t nr_rows);

/* An axis tick: where (0..1 along the axis) and its label. */
struct lrs_gui_tick {
	double frac;
	char label[16];
};

/*
 * Ticks of a time axis spanning span_s seconds that ends now at the right
 * (frac 1): "now", "-30s", "-2m", "-1h", at a round step so that at most
 * max_ticks fit. Returns how many (at most n).
 */
size_t lrs_gui_layout__time_ticks(double span_s, size_t max_ticks, struct lrs_gui_tick *out,
				  size_t n);

/*
 * Ticks of the histogram's wait axis: buckets lo..hi, frac 0 at the bottom
 * of bucket lo, 1 at the top of hi; a label every step buckets chosen so that
 * at most max_ticks fit, at the bucket's low bound ("1.02us"). Returns how many.
 */
size_t lrs_gui_layout__bucket_ticks(int lo, int hi, size_t max_ticks, struct lrs_gui_tick *out,
				    size_t n);

/*
 * The bucket range the histogram heatmap shows for buckets used: the used
 * ones padded by two each side, at least span buckets wide, within 0..31.
 * used_lo > used_hi (nothing used) gives a default range around 1us..1ms.
 */
void lrs_gui_layout__bucket_range(int used_lo, int used_hi, int span, int *lo, int *hi);

/*
 * Position and size of a tooltip of w x h near the pointer (px, py) that stays
 * inside a window of width x height.
 */
struct lrs_gui_rect lrs_gui_layout__tooltip(int px, int py, int w, int h, int width, int height);

#endif

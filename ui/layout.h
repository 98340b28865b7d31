/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layout maths for the heatmap views: number formatting, where each part of
 * the screen goes, column widths and scrolling. Pure functions of their
 * inputs, in character cells; no curses here, so the GUI reuses them.
 */
#ifndef LRS_LAYOUT_H
#define LRS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Number formatting, at most 3 significant digits. Each writes into buf
 * (always NUL-terminated) and returns buf.
 *   lrs_fmt__ns:      950ns, 4.5us, 12.3ms, 1.20s
 *   lrs_fmt__rate_ns: the same per second: 12.3ms/s ("0" for 0)
 *   lrs_fmt__count:   950, 0.5, 4.5k, 12k, 1.2M
 */
char *lrs_fmt__ns(char *buf, size_t len, double ns);
char *lrs_fmt__rate_ns(char *buf, size_t len, double ns_per_s);
char *lrs_fmt__count(char *buf, size_t len, double n);

/*
 * Fit a cgroup path into width cells: paths that are too long keep their
 * tail from a '/' on (".../pod-1/ctr"), the part that tells memcgs apart.
 * ASCII only.
 */
char *lrs_fmt__path(char *buf, size_t len, const char *path, int width);

/*
 * Widths of a cell: a gap, a glyph column (the level without colour), then
 * "12.3ms/s 4.5k", or the wait alone.
 */
#define LRS_CELL_WAIT_W 8
#define LRS_CELL_COUNT_W 4
#define LRS_CELL_FULL_W (2 + LRS_CELL_WAIT_W + 1 + LRS_CELL_COUNT_W)
#define LRS_CELL_WAIT_ONLY_W (2 + LRS_CELL_WAIT_W)
#define LRS_NAME_MIN_W 16
#define LRS_NAME_MAX_W 48

/* Most other locks the screen lists, and the least heatmap rows it keeps. */
#define LRS_OTHERS_MAX 5
#define LRS_OTHERS_MORE 10 /* when the heatmap leaves room */
#define LRS_ROWS_MIN 3
#define LRS_DETAIL_LINES 14
#define LRS_DETAIL_MORE 26   /* when the heatmap leaves room */
#define LRS_WAITERS_MIN_W 44 /* pid, comm, a short memcg, wait, count */
#define LRS_STACKS_MIN_W 30

struct lrs_view_layout_in {
	int width, height; /* the screen */
	size_t nr_nodes;
	size_t sel_node_idx; /* the node column that must be visible */
	size_t first_node;   /* the current horizontal scroll */
	int name_len;	     /* longest row name, indentation included */
	size_t nr_rows;	     /* heatmap rows to show: fewer leave room below */
	bool banner;	     /* a banner line on top */
	bool unavailable;    /* an "unavailable: ..." line */
	size_t nr_others;    /* other locks to list */
	bool detail;	     /* the detail pane is open */
	bool time_view;	     /* history strips instead of node columns */
	size_t history_cap;  /* time view: the most history cells worth showing */
};

/*
 * Where everything goes, top down: banner, header, legend, column headings,
 * rows, other locks, detail pane, status line (always the last line). A part
 * with height 0 is not shown. When there are few rows, the other locks and
 * the detail pane grow, and what is left stays blank above the status line.
 */
struct lrs_view_layout {
	int width, height;
	int banner_y;		/* -1: none */
	int header_y, header_h; /* title + totals, drops, unavailable */
	int legend_y;
	int colhdr_y;		/* the column headings */
	int rows_y, rows_h;	/* heatmap rows */
	int others_y, others_h; /* title + one line per other lock */
	int detail_y, detail_h;
	int status_y;

	int name_w;	     /* memcg column */
	int cell_w;	     /* per node */
	bool cell_counts;    /* cells show the count too */
	int total_w;	     /* the "all nodes" column, 0 if it does not fit */
	size_t first_node;   /* first node column shown */
	size_t nr_node_cols; /* node columns shown */

	/* detail pane columns: histogram | waiters | stacks */
	int hist_w, waiters_w, stacks_w;

	/* time view: name | strip of history cells | current value; the axis under the rows */
	int axis_y; /* -1: the heatmap, no axis */
	int strip_x;
	size_t nr_time_cols; /* history cells per row, one per snapshot */
	int value_x;
};

/* Fill out from in. Screens too small for anything still get a status line. */
void lrs_view_layout__compute(struct lrs_view_layout *out, const struct lrs_view_layout_in *in);

/*
 * The first row to show so that sel stays visible, moving top as little as
 * possible from its current value and never leaving blank lines at the end
 * while there are rows above. nr rows, fit lines.
 */
size_t lrs_view_layout__scroll(size_t top, size_t sel, size_t nr, size_t fit);

/* Screen column where node column i (i >= first_node) starts; -1 if hidden. */
int lrs_view_layout__node_x(const struct lrs_view_layout *l, size_t i);

/*
 * The time view: each row's wait/s history as a strip of cells, newest at the
 * right, then its current wait ("  12.3ms/s"). Axis labels stand at least
 * LRS_TIME_TICK_GAP columns apart.
 */
#define LRS_TIME_VALUE_W (2 + LRS_CELL_WAIT_W)
#define LRS_TIME_TICK_GAP 10

/*
 * The history index (0 oldest, history_len - 1 newest) that strip column col
 * of nr_cols shows, or -1 where the history does not reach back that far.
 */
long lrs_view_layout__history_index(size_t col, size_t nr_cols, size_t history_len);

/* A label of the time axis; it ends at column col of the strip. */
struct lrs_time_tick {
	size_t col;
	char label[24]; /* "now", "-30s", "-2m", "-1h" */
};

/*
 * The axis under a strip of nr_cols snapshots interval_s apart: "now" at the
 * last column, then every round step (1s .. 1h) that leaves LRS_TIME_TICK_GAP
 * columns between labels, right to left, while the label fits. Returns how
 * many of at most max ticks went into out.
 */
size_t lrs_view_layout__time_ticks(struct lrs_time_tick *out, size_t max, size_t nr_cols,
				   double interval_s);

/* Width in cells of a histogram bar for count of max, 0 < result <= width for count > 0. */
int lrs_view_layout__bar(unsigned long long count, unsigned long long max, int width);

#endif

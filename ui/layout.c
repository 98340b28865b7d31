// SPDX-License-Identifier: GPL-2.0
/* Layout maths for the heatmap views: formatting, screen parts, scrolling. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/layout.h"

/* Scale v by 1000 until it shows in 3 digits, and print it with its unit. */
static char *fmt_scaled(char *buf, size_t len, double v, const char *const *units, size_t nr_units,
			const char *suffix, bool counts)
{
	size_t u = 0;

	if (!len)
		return buf;
	if (!(v > 0)) {
		snprintf(buf, len, "0");
		return buf;
	}
	while (u + 1 < nr_units && v >= 999.5) {
		v /= 1000;
		u++;
	}
	if (u == 0 && v == floor(v))
		snprintf(buf, len, "%.0f%s%s", v, units[u], suffix);
	else if (v < (counts ? 9.95 : 99.95))
		snprintf(buf, len, "%.1f%s%s", v, units[u], suffix);
	else
		snprintf(buf, len, "%.0f%s%s", v, units[u], suffix);
	return buf;
}

static const char *const time_units[] = { "ns", "us", "ms", "s" };
static const char *const count_units[] = { "", "k", "M", "G", "T" };

char *lrs_fmt__ns(char *buf, size_t len, double ns)
{
	return fmt_scaled(buf, len, ns, time_units, 4, "", false);
}

char *lrs_fmt__rate_ns(char *buf, size_t len, double ns_per_s)
{
	if (!(ns_per_s > 0)) {
		if (len)
			snprintf(buf, len, "0");
		return buf;
	}
	return fmt_scaled(buf, len, ns_per_s, time_units, 4, "/s", false);
}

char *lrs_fmt__count(char *buf, size_t len, double n)
{
	return fmt_scaled(buf, len, n, count_units, 5, "", true);
}

char *lrs_fmt__path(char *buf, size_t len, const char *path, int width)
{
	size_t n, w;

	if (!len)
		return buf;
	if (!path)
		path = "?";
	if (width < 0)
		width = 0;
	w = (size_t)width < len - 1 ? (size_t)width : len - 1;
	n = strlen(path);
	if (n <= w) {
		memcpy(buf, path, n + 1);
	} else if (w <= 3) {
		memcpy(buf, path + n - w, w);
		buf[w] = '\0';
	} else {
		const char *tail = path + n - (w - 3), *slash = strchr(tail, '/');

		/* a partial first component is noise: start at the next '/' if any */
		if (tail[-1] != '/' && slash && slash[1])
			tail = slash;
		snprintf(buf, len, "...%s", tail);
	}
	return buf;
}

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Lines from the top: banner, header, legend, column headings; the rest is shared. */
static void layout__vertical(struct lrs_view_layout *l, const struct lrs_view_layout_in *in)
{
	int y = 0, avail, want, axis;

	l->status_y = in->height > 0 ? in->height - 1 : 0;
	l->banner_y = in->banner ? y++ : -1;
	l->header_y = y;
	l->header_h = 2 + (in->unavailable ? 1 : 0);
	y += l->header_h;
	l->legend_y = y++;
	l->colhdr_y = y++;
	l->rows_y = y;
	avail = l->status_y - y;
	if (avail < 0) {
		/* a tiny screen: header lines past the status line are not drawn */
		l->header_h = clamp_int(l->status_y - l->header_y, 0, l->header_h);
		avail = 0;
	}
	/* the time axis takes a line under the rows, when there is a row to put above it */
	axis = in->time_view && avail > 1 ? 1 : 0;
	avail -= axis;

	l->detail_h = 0;
	if (in->detail) {
		/* at most half of what is left: the heatmap is the point */
		want = avail / 2 > LRS_DETAIL_LINES ? LRS_DETAIL_LINES : avail / 2;
		if (want < 5)
			want = 5;
		if (want > avail - LRS_ROWS_MIN)
			want = avail - LRS_ROWS_MIN;
		l->detail_h = want >= 5 ? want : 0;
	}
	l->others_h = 0;
	if (in->nr_others) {
		want = 1 + (int)(in->nr_others < LRS_OTHERS_MAX ? in->nr_others : LRS_OTHERS_MAX);
		if (want > avail / 4 && avail / 4 >= 2)
			want = avail / 4;
		if (want > avail - l->detail_h - LRS_ROWS_MIN)
			want = avail - l->detail_h - LRS_ROWS_MIN;
		l->others_h = want >= 2 ? want : 0;
	}
	l->rows_h = avail - l->detail_h - l->others_h;
	if (l->rows_h < 0)
		l->rows_h = 0;
	if ((size_t)l->rows_h > in->nr_rows && l->rows_h > LRS_ROWS_MIN) {
		/* few rows: the blank lines serve the panes below instead */
		int keep = in->nr_rows > LRS_ROWS_MIN ? (int)in->nr_rows : LRS_ROWS_MIN;
		int extra = l->rows_h - keep, more;

		l->rows_h = keep;
		if (l->detail_h) {
			more = LRS_DETAIL_MORE - l->detail_h;
			more = more < extra ? more : extra;
			l->detail_h += more;
			extra -= more;
		}
		if (l->others_h) {
			size_t n = in->nr_others < LRS_OTHERS_MORE ? in->nr_others :
								     LRS_OTHERS_MORE;

			more = 1 + (int)n - l->others_h;
			more = more < extra ? more : extra;
			if (more > 0)
				l->others_h += more;
		}
	}
	/* the axis hugs the last row: fewer rows than lines leave the blank below it */
	l->axis_y = !axis ? -1 :
			    l->rows_y + ((size_t)l->rows_h > in->nr_rows ?
						 (in->nr_rows ? (int)in->nr_rows : 1) :
						 l->rows_h);
	l->others_y = l->rows_y + l->rows_h + axis;
	l->detail_y = l->others_y + l->others_h;
}

static void layout__horizontal(struct lrs_view_layout *l, const struct lrs_view_layout_in *in)
{
	int width = in->width > 0 ? in->width : 0;
	int n = (int)in->nr_nodes;
	int name_w = clamp_int(in->name_len + 2, LRS_NAME_MIN_W, LRS_NAME_MAX_W);
	int cols;

	l->cell_counts = true;
	l->cell_w = LRS_CELL_FULL_W;
	l->total_w = n > 1 ? LRS_CELL_FULL_W : 0;
	if (name_w + n * l->cell_w + l->total_w > width) {
		l->cell_counts = false;
		l->cell_w = LRS_CELL_WAIT_ONLY_W;
		l->total_w = n > 1 ? LRS_CELL_WAIT_ONLY_W : 0;
	}
	if (name_w + n * l->cell_w + l->total_w > width)
		name_w = clamp_int(width - n * l->cell_w - l->total_w, LRS_NAME_MIN_W, name_w);
	if (name_w + n * l->cell_w + l->total_w > width) {
		/* nodes will scroll anyway: keep names readable */
		l->total_w = 0;
		name_w = clamp_int(width / 3, LRS_NAME_MIN_W,
				   clamp_int(in->name_len + 2, LRS_NAME_MIN_W, LRS_NAME_MAX_W));
	}
	if (name_w + l->cell_w > width)
		name_w = clamp_int(width - l->cell_w, 1, name_w);
	l->name_w = name_w;

	cols = (width - name_w - l->total_w) / l->cell_w;
	cols = clamp_int(cols, n ? 1 : 0, n);
	l->nr_node_cols = (size_t)cols;
	l->first_node = in->first_node;
	if (cols > 0) {
		if (in->sel_node_idx < l->first_node)
			l->first_node = in->sel_node_idx;
		if (in->sel_node_idx >= l->first_node + (size_t)cols)
			l->first_node = in->sel_node_idx - (size_t)cols + 1;
		if (l->first_node + (size_t)cols > in->nr_nodes)
			l->first_node = in->nr_nodes - (size_t)cols;
	} else {
		l->first_node = 0;
	}

	/* the detail pane: histogram | waiters | stacks; stacks go first when narrow */
	l->hist_w = width >= 130 ? 36 : clamp_int(width / 4, 0, 26);
	l->waiters_w = width - l->hist_w;
	l->stacks_w = 0;
	if (l->waiters_w >= LRS_WAITERS_MIN_W + LRS_STACKS_MIN_W) {
		l->waiters_w = clamp_int(l->waiters_w / 2, LRS_WAITERS_MIN_W, 62);
		l->stacks_w = width - l->hist_w - l->waiters_w;
	}
}

/* The time view's columns: names as wide as the heatmap's, but never past a third. */
static void layout__time(struct lrs_view_layout *l, const struct lrs_view_layout_in *in)
{
	int width = in->width > 0 ? in->width : 0;
	int name_w = clamp_int(in->name_len + 2, LRS_NAME_MIN_W, LRS_NAME_MAX_W);
	int room;

	if (name_w > width / 3)
		name_w = clamp_int(width / 3, LRS_NAME_MIN_W, name_w);
	if (name_w + 1 + LRS_TIME_VALUE_W > width)
		name_w = clamp_int(width - 1 - LRS_TIME_VALUE_W, 1, name_w);
	l->name_w = name_w;
	/* a blank after the names, as before the heatmap's cells */
	room = width - (name_w + 1) - LRS_TIME_VALUE_W;
	l->nr_time_cols = room > 0 ? (size_t)room : 0;
	if (l->nr_time_cols > in->history_cap)
		l->nr_time_cols = in->history_cap;
	/* the value column at the right edge; a short ring's strip leans on it, as time does */
	l->value_x = width - LRS_TIME_VALUE_W > name_w + 1 ? width - LRS_TIME_VALUE_W : name_w + 1;
	l->strip_x = l->value_x - (int)l->nr_time_cols;
}

void lrs_view_layout__compute(struct lrs_view_layout *out, const struct lrs_view_layout_in *in)
{
	memset(out, 0, sizeof(*out));
	out->width = in->width;
	out->height = in->height;
	layout__vertical(out, in);
	layout__horizontal(out, in);
	if (in->time_view)
		layout__time(out, in);
}

size_t lrs_view_layout__scroll(size_t top, size_t sel, size_t nr, size_t fit)
{
	if (nr == 0)
		return 0;
	if (sel >= nr)
		sel = nr - 1;
	if (fit == 0)
		return sel;
	if (nr <= fit)
		return 0;
	if (sel < top)
		top = sel;
	if (sel >= top + fit)
		top = sel - fit + 1;
	if (top + fit > nr)
		top = nr - fit;
	return top;
}

int lrs_view_layout__node_x(const struct lrs_view_layout *l, size_t i)
{
	if (i < l->first_node || i >= l->first_node + l->nr_node_cols)
		return -1;
	return l->name_w + (int)(i - l->first_node) * l->cell_w;
}

int lrs_view_layout__bar(unsigned long long count, unsigned long long max, int width)
{
	int w;

	if (!count || !max || width <= 0)
		return 0;
	if (count >= max)
		return width;
	/* in double: count * width can overflow 64 bits */
	w = (int)ceil((double)count * width / (double)max);
	return w < 1 ? 1 : w > width ? width : w;
}

long lrs_view_layout__history_index(size_t col, size_t nr_cols, size_t history_len)
{
	size_t back;

	if (col >= nr_cols)
		return -1;
	back = nr_cols - 1 - col; /* snapshots before the newest */
	return back < history_len ? (long)(history_len - 1 - back) : -1;
}

/* "-30s", "-2m", "-1h": in the step's unit, so one axis never mixes them. */
static void tick__label(char *buf, size_t len, double ago_s, double step_s)
{
	long v = step_s >= 3600 ? lround(ago_s / 3600) :
		 step_s >= 60	? lround(ago_s / 60) :
				  lround(ago_s);

	snprintf(buf, len, "-%ld%s", v, step_s >= 3600 ? "h" : step_s >= 60 ? "m" : "s");
}

/* The smallest round step whose labels stand LRS_TIME_TICK_GAP columns apart, or 0. */
static double tick__step_s(double interval_s)
{
	static const double steps_s[] = { 1,   2,   5,	  10,	15,   30,    60,    120,  300,
					  600, 900, 1800, 3600, 7200, 21600, 43200, 86400 };

	for (size_t i = 0; i < sizeof(steps_s) / sizeof(steps_s[0]); i++)
		if (steps_s[i] / interval_s >= LRS_TIME_TICK_GAP - 1e-9)
			return steps_s[i];
	return 0;
}

size_t lrs_view_layout__time_ticks(struct lrs_time_tick *out, size_t max, size_t nr_cols,
				   double interval_s)
{
	size_t n = 0;
	double step_s;

	if (!max || !nr_cols)
		return 0;
	out[n].col = nr_cols - 1;
	snprintf(out[n].label, sizeof(out[n].label), "now");
	n++;
	step_s = interval_s > 0 ? tick__step_s(interval_s) : 0;
	if (!(step_s > 0))
		return n;
	for (int k = 1; n < max; k++) {
		double back = floor(k * step_s / interval_s + 0.5);
		struct lrs_time_tick *t = &out[n];

		if (back > (double)(nr_cols - 1))
			break;
		t->col = nr_cols - 1 - (size_t)back;
		tick__label(t->label, sizeof(t->label), k * step_s, step_s);
		/* the label ends at its column: it must start inside the strip */
		if (strlen(t->label) > t->col + 1)
			break;
		n++;
	}
	return n;
}

// SPDX-License-Identifier: GPL-2.0
/* Where the GUI's panels go, what a point hits, axis ticks. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/gui/gui_layout.h"
#include "ui/layout.h"
#include "model/snapshot.h"

#define SIDE_MIN_CHARS 44
#define SIDE_MAX_CHARS 76
#define MAIN_MIN_CHARS 56
#define NAME_MIN_CHARS 14
#define NAME_MAX_CHARS 40
#define CELL_MIN_CHARS 4
#define CELL_MAX_CHARS 16
#define TOTAL_CHARS 9
#define AXIS_CHARS 7
#define LEGEND_LABEL_CHARS 22 /* "wait per second", the zero swatch */

static int clampi(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static struct lrs_gui_rect rect(int x, int y, int w, int h)
{
	return (struct lrs_gui_rect){ x, y, w > 0 ? w : 0, h > 0 ? h : 0 };
}

static void heatmap__compute(struct lrs_gui_layout *l, const struct lrs_gui_layout_in *in)
{
	const struct lrs_gui_rect *r = &l->heatmap;
	int cw = l->char_w, name_w, avail, min_cell = CELL_MIN_CHARS * cw;
	size_t nodes = in->nr_nodes ? in->nr_nodes : 1, fit, first = in->first_node;

	l->colhdr_y = r->y + l->line_h;
	l->row_h = l->line_h + 2;
	name_w = clampi(in->name_chars + 1, NAME_MIN_CHARS, NAME_MAX_CHARS) * cw;
	if (name_w > r->w * 2 / 5)
		name_w = r->w * 2 / 5;
	avail = r->w - name_w;
	l->total_w = avail - TOTAL_CHARS * cw >= (int)nodes * min_cell ? TOTAL_CHARS * cw : 0;
	avail -= l->total_w;
	fit = avail > 0 ? (size_t)(avail / min_cell) : 0;
	if (!fit)
		fit = 1;
	if (fit > nodes)
		fit = nodes;
	/* keep the selected node in view, moving as little as possible */
	if (in->sel_node_idx < first)
		first = in->sel_node_idx;
	if (in->sel_node_idx >= first + fit)
		first = in->sel_node_idx + 1 - fit;
	if (first + fit > nodes)
		first = nodes - fit;
	l->first_node = first;
	l->nr_node_cols = fit;
	l->cell_w = clampi(avail / (int)fit, 1, CELL_MAX_CHARS * cw);
	l->names = rect(r->x, l->colhdr_y + l->line_h, name_w, 0);
	l->names.h = r->y + r->h - l->names.y;
	l->rows_fit = l->names.h > 0 ? (size_t)(l->names.h / l->row_h) : 0;
	l->names.h = (int)l->rows_fit * l->row_h;
	l->grid = rect(r->x + name_w, l->names.y, l->cell_w * (int)fit, l->names.h);
	l->total_x = l->grid.x + l->grid.w;
}

static void timemaps__compute(struct lrs_gui_layout *l, const struct lrs_gui_layout_in *in)
{
	int label_w = l->names.w ? l->names.w : NAME_MIN_CHARS * l->char_w;
	int axis_w = AXIS_CHARS * l->char_w, plot_x, plot_w, plot_h, min_h;
	const struct lrs_gui_rect *t = &l->timemap, *h = &l->histmap;
	size_t lanes;

	/* one x axis for both: the plot starts after the wider label column */
	if (label_w < axis_w)
		label_w = axis_w;
	plot_x = t->x + label_w + l->pad;
	plot_w = t->x + t->w - plot_x;
	l->columns = in->columns ? in->columns : 1;

	/* title line above, time ticks below */
	plot_h = t->h - 2 * l->line_h;
	lanes = in->nr_lanes;
	if (lanes > LRS_GUI_MAX_LANES)
		lanes = LRS_GUI_MAX_LANES;
	/* lanes stay tall enough for a label, or at least LRS_GUI_LANE_MIN_H */
	min_h = l->line_h * 3 / 4 > LRS_GUI_LANE_MIN_H ? l->line_h * 3 / 4 : LRS_GUI_LANE_MIN_H;
	if (plot_h > 0 && lanes > (size_t)(plot_h / min_h))
		lanes = (size_t)(plot_h / min_h);
	l->nr_lanes = plot_h > 0 && plot_w > 0 ? lanes : 0;
	l->lane_h = l->nr_lanes ? plot_h / (int)l->nr_lanes : 0;
	if (l->lane_h > 3 * l->line_h)
		l->lane_h = 3 * l->line_h;
	l->time_plot = rect(plot_x, t->y + l->line_h, plot_w, l->lane_h * (int)l->nr_lanes);
	l->time_labels = rect(t->x, l->time_plot.y, label_w, l->time_plot.h);

	l->hist_lo = clampi(in->hist_lo, 0, LRS_HIST_BUCKETS - 1);
	l->hist_hi = clampi(in->hist_hi, l->hist_lo, LRS_HIST_BUCKETS - 1);
	plot_h = h->h - 2 * l->line_h;
	if (plot_h > 0 && plot_w > 0) {
		int n = l->hist_hi - l->hist_lo + 1;

		plot_h -= plot_h % n; /* every bucket equally tall */
		l->hist_plot = rect(plot_x, h->y + l->line_h, plot_w, plot_h);
	} else {
		l->hist_plot = rect(plot_x, h->y + l->line_h, 0, 0);
	}
	l->hist_labels = rect(plot_x - l->pad - axis_w, l->hist_plot.y, axis_w, l->hist_plot.h);
}

void lrs_gui_layout__compute(struct lrs_gui_layout *out, const struct lrs_gui_layout_in *in)
{
	struct lrs_gui_layout *l = out;
	int W = in->width > 0 ? in->width : 0, H = in->height > 0 ? in->height : 0;
	int lh = in->line_h > 0 ? in->line_h : 1, cw = in->char_w > 0 ? in->char_w : 1;
	int pad = in->pad >= 0 ? in->pad : 0, side_w, main_w, top, bottom, avail, x, y, heat_h;

	memset(l, 0, sizeof(*l));
	l->width = W;
	l->height = H;
	l->line_h = lh;
	l->char_w = cw;
	l->pad = pad;

	l->header = rect(pad, pad / 2, W - 2 * pad, 2 * lh);
	l->status = rect(pad, H - lh - pad / 2, W - 2 * pad, lh);
	top = l->header.y + l->header.h + pad;
	bottom = l->status.y - pad;
	if (bottom <= top)
		return;

	/* the side panel, if the main column keeps room */
	side_w = clampi(W * 34 / 100, SIDE_MIN_CHARS * cw, SIDE_MAX_CHARS * cw);
	if (in->hide_side || W - side_w - 3 * pad < MAIN_MIN_CHARS * cw)
		side_w = 0;
	main_w = W - 2 * pad - (side_w ? side_w + pad : 0);
	if (side_w)
		l->side = rect(W - pad - side_w, top, side_w, bottom - top);

	/* main column: heatmap 45%, legend, time heatmap 30%, histogram heatmap the rest */
	avail = bottom - top - (2 * lh + pad) - 3 * pad;
	y = top;
	heat_h = avail * 45 / 100;
	/* few rows: the heatmap takes what they need (title, headings, rows, slack) */
	if (in->nr_rows && (long)(in->nr_rows + 3) * (lh + 2) < heat_h)
		heat_h = (int)(in->nr_rows + 3) * (lh + 2);
	if (heat_h < avail * 20 / 100)
		heat_h = avail * 20 / 100;
	l->heatmap = rect(pad, y, main_w, heat_h);
	y += l->heatmap.h + pad;
	l->legend = rect(pad, y, main_w, 2 * lh + pad);
	y += l->legend.h + pad;
	l->timemap = rect(pad, y, main_w, (avail - heat_h) * 55 / 100);
	y += l->timemap.h + pad;
	l->histmap = rect(pad, y, main_w, bottom - y);

	heatmap__compute(l, in);
	/* the colour bar: after a title, under it the tick labels */
	x = l->names.w > LEGEND_LABEL_CHARS * cw ? l->names.w : LEGEND_LABEL_CHARS * cw;
	l->legend_bar = rect(l->legend.x + x, l->legend.y + pad / 2, main_w - x - 12 * cw, lh - 2);
	if (l->legend_bar.w > 64 * cw)
		l->legend_bar.w = 64 * cw;
	timemaps__compute(l, in);
}

int lrs_gui_layout__node_x(const struct lrs_gui_layout *l, size_t i)
{
	if (i < l->first_node || i >= l->first_node + l->nr_node_cols)
		return -1;
	return l->grid.x + (int)(i - l->first_node) * l->cell_w;
}

void lrs_gui_layout__column_span(const struct lrs_gui_layout *l, const struct lrs_gui_rect *plot,
				 size_t i, int *x0, int *x1)
{
	size_t n = l->columns ? l->columns : 1;

	*x0 = plot->x + (int)((long long)plot->w * (long long)i / (long long)n);
	*x1 = plot->x + (int)((long long)plot->w * (long long)(i + 1) / (long long)n);
}

void lrs_gui_layout__bucket_span(const struct lrs_gui_layout *l, int b, int *y0, int *y1)
{
	int n = l->hist_hi - l->hist_lo + 1, bh = n > 0 ? l->hist_plot.h / n : 0;
	int from_top = l->hist_hi - b;

	*y0 = l->hist_plot.y + from_top * bh;
	*y1 = *y0 + bh;
}

static size_t column_at(const struct lrs_gui_layout *l, const struct lrs_gui_rect *plot, int x)
{
	size_t c = (size_t)((long long)(x - plot->x) * (long long)l->columns / plot->w);

	int x0, x1;

	/* the spans round down: settle on the column whose span holds x */
	if (c >= l->columns)
		c = l->columns - 1;
	for (;;) {
		lrs_gui_layout__column_span(l, plot, c, &x0, &x1);
		if (x < x0 && c > 0)
			c--;
		else if (x >= x1 && c + 1 < l->columns)
			c++;
		else
			return c;
	}
}

struct lrs_gui_hit lrs_gui_layout__hit(const struct lrs_gui_layout *l, int x, int y, size_t top,
				       size_t nr_rows)
{
	struct lrs_gui_hit hit = { .part = LRS_GUI_NOTHING };

	if (l->row_h > 0 && y >= l->names.y && y < l->names.y + l->names.h && x >= l->names.x &&
	    x < l->total_x + l->total_w) {
		size_t row = top + (size_t)((y - l->names.y) / l->row_h);

		if (row >= nr_rows)
			return hit;
		hit.row = row;
		if (x < l->grid.x) {
			hit.part = LRS_GUI_NAME;
		} else if (x < l->grid.x + l->grid.w) {
			hit.part = LRS_GUI_CELL;
			hit.node = l->first_node + (size_t)((x - l->grid.x) / l->cell_w);
		} else {
			hit.part = LRS_GUI_TOTAL;
		}
		return hit;
	}
	if (y >= l->colhdr_y && y < l->colhdr_y + l->line_h && x >= l->grid.x &&
	    x < l->grid.x + l->grid.w && l->cell_w > 0) {
		hit.part = LRS_GUI_COLHDR;
		hit.node = l->first_node + (size_t)((x - l->grid.x) / l->cell_w);
		return hit;
	}
	if (l->nr_lanes && lrs_gui_rect__contains(&l->time_plot, x, y)) {
		hit.part = LRS_GUI_LANE;
		hit.lane = (size_t)((y - l->time_plot.y) / l->lane_h);
		hit.column = column_at(l, &l->time_plot, x);
		return hit;
	}
	if (l->nr_lanes && lrs_gui_rect__contains(&l->time_labels, x, y)) {
		hit.part = LRS_GUI_LANE;
		hit.lane = (size_t)((y - l->time_plot.y) / l->lane_h);
		hit.column = l->columns - 1;
		return hit;
	}
	if (lrs_gui_rect__contains(&l->hist_plot, x, y)) {
		int n = l->hist_hi - l->hist_lo + 1, bh = l->hist_plot.h / n;

		hit.part = LRS_GUI_BUCKET;
		hit.bucket = l->hist_hi - (y - l->hist_plot.y) / (bh > 0 ? bh : 1);
		if (hit.bucket < l->hist_lo)
			hit.bucket = l->hist_lo;
		hit.column = column_at(l, &l->hist_plot, x);
		return hit;
	}
	if (lrs_gui_rect__contains(&l->legend_bar, x, y)) {
		hit.part = LRS_GUI_LEGEND;
		hit.t = l->legend_bar.w > 1 ?
				(double)(x - l->legend_bar.x) / (l->legend_bar.w - 1) :
				1;
		return hit;
	}
	if (lrs_gui_rect__contains(&l->side, x, y))
		hit.part = LRS_GUI_SIDE;
	return hit;
}

static void age_label(char *buf, size_t len, double age_s)
{
	if (age_s < 1e-9)
		snprintf(buf, len, "now");
	else if (age_s < 1)
		snprintf(buf, len, "-%.1fs", age_s);
	else if (age_s < 60 || fmod(age_s, 60) > 1e-6)
		snprintf(buf, len, "-%.0fs", age_s);
	else if (age_s < 3600 || fmod(age_s, 3600) > 1e-6)
		snprintf(buf, len, "-%.0fm", age_s / 60);
	else
		snprintf(buf, len, "-%.0fh", age_s / 3600);
}

size_t lrs_gui_layout__time_ticks(double span_s, size_t max_ticks, struct lrs_gui_tick *out,
				  size_t n)
{
	static const double steps[] = { 0.1, 0.2, 0.5, 1,   2,	  5,	10,   15,    30,    60,
					120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400 };
	double step = steps[sizeof(steps) / sizeof(steps[0]) - 1];
	size_t nr = 0;

	if (!n || !max_ticks || !(span_s > 0))
		return 0;
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		/* ticks at 0, step, ..., floor(span / step) * step */
		if (floor(span_s / steps[i] + 1e-9) + 1 <= (double)max_ticks) {
			step = steps[i];
			break;
		}
	}
	for (double age = 0; age <= span_s * (1 + 1e-9) && nr < n && nr < max_ticks; age += step) {
		out[nr].frac = 1.0 - age / span_s;
		age_label(out[nr].label, sizeof(out[nr].label), age);
		nr++;
	}
	return nr;
}

size_t lrs_gui_layout__bucket_ticks(int lo, int hi, size_t max_ticks, struct lrs_gui_tick *out,
				    size_t n)
{
	int nb = hi - lo + 1, step = 1;
	size_t nr = 0;

	if (!n || !max_ticks || nb <= 0)
		return 0;
	while ((size_t)((nb + step - 1) / step) > max_ticks)
		step++;
	/* prefer steps that put labels on round bucket numbers */
	for (int b = lo + (step - lo % step) % step; b <= hi && nr < n; b += step) {
		out[nr].frac = (double)(b - lo) / nb;
		lrs_fmt__ns(out[nr].label, sizeof(out[nr].label),
			    (double)lrs_hist__bucket_low_ns(b));
		nr++;
	}
	return nr;
}

void lrs_gui_layout__bucket_range(int used_lo, int used_hi, int span, int *lo, int *hi)
{
	int max = LRS_HIST_BUCKETS - 1;

	if (span < 1)
		span = 1;
	if (span > max + 1)
		span = max + 1;
	if (used_lo > used_hi) {
		used_lo = 10; /* 1us */
		used_hi = 20; /* 1ms */
	}
	*lo = clampi(used_lo - 2, 0, max);
	*hi = clampi(used_hi + 2, 0, max);
	while (*hi - *lo + 1 < span) {
		if (*lo > 0)
			(*lo)--;
		if (*hi - *lo + 1 < span && *hi < max)
			(*hi)++;
	}
}

struct lrs_gui_rect lrs_gui_layout__tooltip(int px, int py, int w, int h, int width, int height)
{
	int off = 16, x = px + off, y = py + off;

	if (x + w > width)
		x = px - off - w;
	if (y + h > height)
		y = py - off - h;
	x = clampi(x, 0, width - w > 0 ? width - w : 0);
	y = clampi(y, 0, height - h > 0 ? height - h : 0);
	return (struct lrs_gui_rect){ x, y, w, h };
}

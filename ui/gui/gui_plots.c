// SPDX-License-Identifier: GPL-2.0
/*
 * The two time heatmaps: the hottest lruvecs over time and the selected
 * lruvec's wait histogram over time. Their textures are rebuilt only when
 * their data, lanes or size change.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/layout.h"

#define HIST_MAX_DECADES 5.0

/* The time heatmap's texture, and the top of the shared wait scale. */
void gui__time_build(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	struct gui_plot_key key = { .pushes = model->pushes,
				    .plot = l->time_plot,
				    .nr_lanes = l->nr_lanes };
	const struct lrs_history *hs[LRS_GUI_MAX_LANES];
	uint32_t bg = gui__argb(LRS_GUI_PANEL);
	double max = model->max_cell_wait_ns_per_s;
	int W = l->time_plot.w, H = l->time_plot.h;

	memcpy(key.lanes, g->lanes, sizeof(key.lanes));
	key.scale_max = max;
	if (!memcmp(&key, &g->time_key, sizeof(key)) && g->time_tex)
		return;
	g->time_key = key;
	for (size_t k = 0; k < l->nr_lanes; k++) {
		hs[k] = lrs_model__history(model, g->lanes[k].memcg_id, g->lanes[k].node);
		for (size_t j = 0; hs[k] && j < model->history_len; j++) {
			double v = lrs_history__at(model, hs[k], j);

			if (v > max)
				max = v;
		}
	}
	g->scale_max = max;
	if (W <= 0 || H <= 0 || gui__texture_fit(g, &g->time_tex, W, H))
		return;
	for (int i = 0; i < W * H; i++)
		g->px[i] = bg;
	for (size_t c = 0; c < l->columns; c++) {
		long j = gui__column_history(g, model, c);
		int x0, x1;

		lrs_gui_layout__column_span(l, &l->time_plot, c, &x0, &x1);
		x0 -= l->time_plot.x;
		x1 -= l->time_plot.x;
		if (j < 0 || x1 <= x0)
			continue;
		for (size_t k = 0; k < l->nr_lanes; k++) {
			int y0 = (int)k * l->lane_h, y1 = y0 + l->lane_h - (l->lane_h > 5);
			uint32_t px;

			if (!hs[k])
				continue;
			px = gui__argb(lrs_gui_colour__value(
				lrs_history__at(model, hs[k], (size_t)j), max, LRS_GUI_DECADES));
			for (int y = y0; y < y1 && y < H; y++)
				for (int x = x0; x < x1; x++)
					g->px[y * W + x] = px;
		}
	}
	SDL_UpdateTexture(g->time_tex, NULL, g->px, W * 4);
}

void gui__hist_build(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct gui_hist_ring *r = gui__selected_ring(g, model);
	const struct lrs_row *sel = lrs_model__selected_row(model);
	struct gui_plot_key key = { .pushes = model->pushes,
				    .plot = l->hist_plot,
				    .hist_lo = l->hist_lo,
				    .hist_hi = l->hist_hi };
	uint32_t bg = gui__argb(LRS_GUI_PANEL);
	double max = 0, min = 0;
	int W = l->hist_plot.w, H = l->hist_plot.h;

	if (sel)
		key.lanes[0] = (struct gui_lane){ sel->memcg_id, 0, model->sel_node_idx };
	if (!memcmp(&key, &g->hist_key, sizeof(key)) && g->hist_tex)
		return;
	g->hist_key = key;
	for (size_t c = 0; r && c < l->columns; c++) {
		float iv = 0;
		const uint32_t *h = gui__ring_column(g, r, gui__column_push(g, model, c), &iv);

		for (int b = 0; h && iv > 0 && b < LRS_HIST_BUCKETS; b++) {
			double v = h[b] / iv;

			if (v > max)
				max = v;
			if (v > 0 && (!min || v < min))
				min = v;
		}
	}
	g->hist_max = max;
	g->hist_decades = min > 0 && max > min ? log10(max / min) : 1;
	if (g->hist_decades < 1)
		g->hist_decades = 1;
	if (g->hist_decades > HIST_MAX_DECADES)
		g->hist_decades = HIST_MAX_DECADES;
	if (W <= 0 || H <= 0 || gui__texture_fit(g, &g->hist_tex, W, H))
		return;
	for (int i = 0; i < W * H; i++)
		g->px[i] = bg;
	for (size_t c = 0; r && c < l->columns; c++) {
		float iv = 0;
		const uint32_t *h = gui__ring_column(g, r, gui__column_push(g, model, c), &iv);
		int x0, x1;

		lrs_gui_layout__column_span(l, &l->hist_plot, c, &x0, &x1);
		x0 -= l->hist_plot.x;
		x1 -= l->hist_plot.x;
		if (!h || !(iv > 0) || x1 <= x0)
			continue;
		for (int b = l->hist_lo; b <= l->hist_hi; b++) {
			uint32_t px =
				gui__argb(lrs_gui_colour__value(h[b] / iv, max, g->hist_decades));
			int y0, y1;

			lrs_gui_layout__bucket_span(l, b, &y0, &y1);
			y0 -= l->hist_plot.y;
			y1 -= l->hist_plot.y;
			for (int y = y0 < 0 ? 0 : y0; y < y1 && y < H; y++)
				for (int x = x0; x < x1; x++)
					g->px[y * W + x] = px;
		}
	}
	SDL_UpdateTexture(g->hist_tex, NULL, g->px, W * 4);
}

static void draw_time_axis(struct lrs_gui *g, const struct lrs_model *model,
			   const struct lrs_gui_rect *plot)
{
	struct lrs_gui_tick ticks[16];
	double iv = model->interval_s > 0 ? model->interval_s : g->interval_s;
	size_t n, room = (size_t)(plot->w / (8 * g->layout.char_w));
	int y = plot->y + plot->h + 1;

	n = lrs_gui_layout__time_ticks((double)g->layout.columns * (iv > 0 ? iv : 1), room, ticks,
				       16);
	for (size_t i = 0; i < n; i++) {
		int x = plot->x + (int)lround(ticks[i].frac * (plot->w - 1));
		int w = lrs_gui_font__width(g->font, ticks[i].label);

		gui__fill(g, x, y, 1, 3, LRS_GUI_FAINT);
		x -= ticks[i].frac >= 1 ? w : ticks[i].frac <= 0 ? 0 : w / 2;
		gui__text(g, x, y + 2, LRS_GUI_FAINT, ticks[i].label, 0);
	}
}

void gui__draw_timemap(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_row *sel = lrs_model__selected_row(model);
	char buf[320], name[300];

	if (l->timemap.h < 3 * l->line_h)
		return;
	gui__draw_title(g, &l->timemap,
			g->lane_mode == GUI_LANES_HOT ? "hottest lruvecs over time" :
							"the selected memcg's nodes over time",
			gui__metric_pages(model) ?
				"   wait per second (the heatmap shows pages: m)" :
				"   wait per second, same scale   n switches, click selects");
	if (!l->nr_lanes) {
		gui__text(g, l->time_labels.x, l->timemap.y + l->line_h, LRS_GUI_FAINT,
			  model->prev ? "no lruvec waited in this interval" : "collecting...",
			  l->timemap.w);
		return;
	}
	if (g->time_tex)
		SDL_RenderCopy(g->ren, g->time_tex, NULL,
			       &(SDL_Rect){ l->time_plot.x, l->time_plot.y, l->time_plot.w,
					    l->time_plot.h });
	for (size_t k = 0; k < l->nr_lanes; k++) {
		const struct gui_lane *lane = &g->lanes[k];
		bool is_sel = sel && lane->memcg_id == sel->memcg_id &&
			      lane->node_idx == model->sel_node_idx;
		int y = l->time_plot.y + (int)k * l->lane_h;

		if (l->lane_h >= l->line_h - 3 ||
		    k % (size_t)((l->line_h + l->lane_h - 1) / l->lane_h) == 0) {
			gui__lruvec_name(name, sizeof(name), model, lane->memcg_id, lane->node);
			lrs_fmt__path(buf, sizeof(buf), name, gui__chars_fit(g, l->time_labels.w));
			gui__text_right(g, l->time_labels.x + l->time_labels.w,
					y + (l->lane_h - l->line_h) / 2,
					is_sel ? LRS_GUI_ACCENT : LRS_GUI_TEXT, buf);
		}
		if (is_sel)
			gui__outline(g, l->time_plot.x - 1, y - 1, l->time_plot.w + 2,
				     l->lane_h + 1, 1, LRS_GUI_ACCENT);
	}
	draw_time_axis(g, model, &l->time_plot);
}

void gui__draw_histmap(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_row *sel = lrs_model__selected_row(model);
	struct lrs_gui_tick ticks[LRS_HIST_BUCKETS];
	char title[320], name[300], a[32];
	size_t n, room;

	if (l->histmap.h < 4 * l->line_h)
		return;
	if (sel && model->sel_node_idx < model->nr_nodes)
		gui__lruvec_name(name, sizeof(name), model, sel->memcg_id,
				 model->nodes[model->sel_node_idx]);
	else
		snprintf(name, sizeof(name), "(nothing selected)");
	snprintf(title, sizeof(title), "wait histogram of %s", name);
	lrs_fmt__count(a, sizeof(a), g->hist_max);
	gui__draw_title(g, &l->histmap, title,
			g->hist_max > 0 ? "   waits/s per log2 bucket" :
					  "   no waits kept yet for this lruvec");
	if (l->hist_plot.h <= 0)
		return;
	if (g->hist_tex)
		SDL_RenderCopy(g->ren, g->hist_tex, NULL,
			       &(SDL_Rect){ l->hist_plot.x, l->hist_plot.y, l->hist_plot.w,
					    l->hist_plot.h });
	room = (size_t)(l->hist_plot.h / (l->line_h + 2));
	n = lrs_gui_layout__bucket_ticks(l->hist_lo, l->hist_hi, room, ticks, LRS_HIST_BUCKETS);
	for (size_t i = 0; i < n; i++) {
		int b = l->hist_lo + (int)lround(ticks[i].frac * (l->hist_hi - l->hist_lo + 1)), y0,
		    y1;

		lrs_gui_layout__bucket_span(l, b, &y0, &y1);
		gui__fill(g, l->hist_plot.x - 4, y1 - 1, 3, 1, LRS_GUI_FAINT);
		gui__text_right(g, l->hist_plot.x - 6, y1 - l->line_h / 2 - 1, LRS_GUI_FAINT,
				ticks[i].label);
	}
	draw_time_axis(g, model, &l->hist_plot);
}

// SPDX-License-Identifier: GPL-2.0
/* The header, the memcg x node heatmap and its colour legend. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/layout.h"

void gui__draw_header(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_rect *r = &g->layout.header;
	const struct lrs_snapshot *cur = model->cur;
	double iv = model->interval_s > 0 ? model->interval_s : 0;
	char a[32], b[32], c[32], d[32], kernel[64];
	int x = r->x, lh = g->layout.line_h;

	if (r->h <= 0)
		return;
	x += gui__text(g, x, r->y, LRS_GUI_ACCENT, "lruscope", 0);
	gui__sanitize(kernel, sizeof(kernel), cur ? cur->kernel : "");
	gui__textf(
		g, x, r->y, LRS_GUI_FAINT, r->w - (x - r->x),
		"   LRU lock waits per memcg and NUMA node   %s, every %.3gs   kernel %s   %zu memcgs x %zu nodes",
		g->source_name ? g->source_name : "?", g->interval_s, kernel[0] ? kernel : "?",
		model->nr_rows, model->nr_nodes);
	if (g->state.paused)
		gui__text_right(g, r->x + r->w, r->y, LRS_GUI_WARN, "PAUSED (p resumes)");
	if (!model->prev) {
		gui__text(g, r->x, r->y + lh, LRS_GUI_TEXT,
			  "waiting for the second snapshot: rates need two", r->w);
		return;
	}
	x = r->x;
	x += gui__textf(g, x, r->y + lh, LRS_GUI_TEXT, r->w,
			"lruvec locks: wait %s  contended %s/s",
			lrs_fmt__rate_ns(a, sizeof(a), iv > 0 ? model->lruvec_wait_ns / iv : 0),
			lrs_fmt__count(b, sizeof(b), iv > 0 ? model->lruvec_contended / iv : 0));
	x += gui__textf(g, x, r->y + lh, LRS_GUI_FAINT, r->w - (x - r->x),
			"     other locks: wait %s  contended %s/s",
			lrs_fmt__rate_ns(c, sizeof(c), iv > 0 ? model->other_wait_ns / iv : 0),
			lrs_fmt__count(d, sizeof(d), iv > 0 ? model->other_contended / iv : 0));
	if (cur && (cur->drops.task || cur->drops.stack || cur->drops.stats_full ||
		    cur->drops.insert_failed || cur->drops.negative_time))
		x += gui__textf(g, x, r->y + lh, LRS_GUI_WARN, r->w - (x - r->x),
				"     drops: task %llu stack %llu full %llu insert %llu time %llu",
				(unsigned long long)cur->drops.task,
				(unsigned long long)cur->drops.stack,
				(unsigned long long)cur->drops.stats_full,
				(unsigned long long)cur->drops.insert_failed,
				(unsigned long long)cur->drops.negative_time);
	if (cur && cur->holders) {
		char hh[128];

		lrs_holders_view__header(cur, hh, sizeof(hh));
		x += gui__textf(g, x, r->y + lh, LRS_GUI_ACCENT, r->w - (x - r->x), "     %s", hh);
	}
	if (cur && cur->unavailable) {
		char u[256];

		gui__sanitize(u, sizeof(u), cur->unavailable);
		gui__textf(g, x, r->y + lh, LRS_GUI_WARN, r->w - (x - r->x), "     unavailable: %s",
			   u);
	}
}

void gui__draw_heatmap(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_gui_rect *r = &l->heatmap;
	const struct lrs_row *sel = lrs_model__selected_row(model);
	int cw = l->char_w, lh = l->line_h;
	bool cell_text = l->cell_w >= 8 * cw + 4;
	double hmax = gui__heat_max(g, model);
	char note[384], buf[64];

	if (r->h < 3 * lh)
		return;
	buf[0] = '\0';
	if (model->nr_visible > l->rows_fit)
		snprintf(buf, sizeof(buf), "rows %zu-%zu of %zu", g->top + 1,
			 g->top + l->rows_fit < model->nr_visible ? g->top + l->rows_fit :
								    model->nr_visible,
			 model->nr_visible);
	snprintf(note, sizeof(note), "   %s   sort: %s%s%s",
		 gui__metric_pages(model) ? "pages on the LRU lists (m: wait)" : "wait per second",
		 lrs_sort_names[model->sort], model->filter[0] ? "   filter: " : "", model->filter);
	{
		struct lrs_gui_rect t = *r;

		t.w -= lrs_gui_font__width(g->font, buf) + 2 * cw;
		gui__draw_title(g, &t, "memcg x node", note);
		gui__text_right(g, r->x + r->w, r->y, LRS_GUI_FAINT, buf);
	}
	/* column headings */
	gui__text(g, l->names.x, l->colhdr_y, LRS_GUI_FAINT,
		  gui__tree_view(model) ? "memcg (tree)" : "memcg", l->names.w);
	for (size_t n = l->first_node; n < l->first_node + l->nr_node_cols && n < model->nr_nodes;
	     n++) {
		int x = lrs_gui_layout__node_x(l, n);

		snprintf(buf, sizeof(buf), "N%d", model->nodes[n]);
		gui__text_centre(g, x + l->cell_w / 2, l->colhdr_y,
				 n == model->sel_node_idx ? LRS_GUI_ACCENT : LRS_GUI_FAINT, buf);
	}
	if (l->first_node > 0)
		gui__text(g, l->grid.x - cw, l->colhdr_y, LRS_GUI_WARN, "<", 0);
	if (l->first_node + l->nr_node_cols < model->nr_nodes)
		gui__text(g, l->grid.x + l->grid.w - cw, l->colhdr_y, LRS_GUI_WARN, ">", 0);
	if (l->total_w)
		gui__text_right(g, l->total_x + l->total_w - cw / 2, l->colhdr_y, LRS_GUI_FAINT,
				"all nodes");

	if (!model->nr_visible) {
		gui__text(g, l->names.x, l->names.y, LRS_GUI_FAINT,
			  model->cur ? "no memcg matches the filter (/ changes it)" :
				       "no snapshot yet",
			  r->w);
		return;
	}
	for (size_t i = g->top; i < model->nr_visible && i < g->top + l->rows_fit; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];
		int y = l->names.y + (int)(i - g->top) * l->row_h, indent;
		const char *label = gui__row_label(model, row, &indent);
		char name[256], fitted[256];
		bool is_sel = row == sel;

		if (is_sel)
			gui__fill(g, l->names.x, y, l->names.w + l->grid.w + l->total_w, l->row_h,
				  LRS_GUI_PANEL);
		gui__sanitize(name, sizeof(name), label);
		lrs_fmt__path(fitted, sizeof(fitted), name,
			      gui__chars_fit(g, l->names.w) - indent - 1);
		gui__text(g, l->names.x + indent * cw, y + 1,
			  row->removed ? LRS_GUI_FAINT :
			  is_sel       ? LRS_GUI_ACCENT :
					 LRS_GUI_TEXT,
			  fitted, l->names.w - indent * cw);
		for (size_t n = l->first_node;
		     n < l->first_node + l->nr_node_cols && n < model->nr_nodes; n++) {
			const struct lrs_cell *cell = &row->cells[n];
			int x = lrs_gui_layout__node_x(l, n);
			double v = lrs_cell__value(cell, model->metric);
			struct lrs_rgb c = cell->lruvec ?
						   lrs_gui_colour__value(v, hmax, LRS_GUI_DECADES) :
						   LRS_GUI_BG;

			gui__fill(g, x + 1, y + 1, l->cell_w - 2, l->row_h - 2, c);
			if (cell_text && v > 0) {
				gui__heat_fmt(buf, sizeof(buf), model, v);
				gui__text_right(g, x + l->cell_w - cw / 2, y + 1,
						lrs_gui_colour__text_on(c), buf);
			}
		}
		if (l->total_w && model->interval_s > 0 && row->wait_ns) {
			lrs_fmt__rate_ns(buf, sizeof(buf), row->wait_ns / model->interval_s);
			gui__text_right(g, l->total_x + l->total_w - cw / 2, y + 1, LRS_GUI_TEXT,
					buf);
		}
	}
	/* the selected cell: a white frame */
	{
		long si = lrs_model__selected_index(model);
		int x = lrs_gui_layout__node_x(l, model->sel_node_idx);

		if (si >= (long)g->top && si < (long)(g->top + l->rows_fit) && x >= 0)
			gui__outline(g, x, l->names.y + (int)(si - (long)g->top) * l->row_h,
				     l->cell_w, l->row_h, g->scale >= 2 ? 3 : 2, LRS_GUI_ACCENT);
	}
	/* a scroll bar when the rows do not fit */
	if (model->nr_visible > l->rows_fit && l->rows_fit) {
		int bx = r->x + r->w - 4, bh = l->names.h;
		int th = (int)((double)bh * l->rows_fit / model->nr_visible);
		int ty = l->names.y + (int)((double)bh * g->top / model->nr_visible);

		gui__fill(g, bx, l->names.y, 3, bh, LRS_GUI_PANEL);
		gui__fill(g, bx, ty, 3, th > 4 ? th : 4, LRS_GUI_FAINT);
	}
}

void gui__draw_legend(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_gui_rect *bar = &l->legend_bar;
	double ticks[8];
	size_t n;
	char buf[32];
	int lh = l->line_h, cw = l->char_w, zx, tx, tw;
	double hmax = gui__heat_max(g, model);

	if (bar->w <= 0 || l->legend.h <= 0)
		return;
	gui__text(g, l->legend.x, bar->y, LRS_GUI_TEXT,
		  gui__metric_pages(model) ? "LRU pages" : "wait per second",
		  bar->x - l->legend.x - 6 * cw);
	gui__text(g, l->legend.x, bar->y + lh, LRS_GUI_FAINT, "log scale",
		  bar->x - l->legend.x - 6 * cw);
	if (!g->legend_tex) {
		uint32_t px[256];

		for (int i = 0; i < 256; i++)
			px[i] = gui__argb(lrs_gui_colour__map(i / 255.0));
		g->legend_tex = SDL_CreateTexture(g->ren, SDL_PIXELFORMAT_ARGB8888,
						  SDL_TEXTUREACCESS_STATIC, 256, 1);
		if (g->legend_tex)
			SDL_UpdateTexture(g->legend_tex, NULL, px, sizeof(px));
	}
	/* the zero swatch, then the bar */
	zx = bar->x - 5 * cw;
	gui__fill(g, zx, bar->y, 2 * cw, bar->h, LRS_GUI_ZERO);
	gui__text_centre(g, zx + cw, bar->y + bar->h + 2, LRS_GUI_FAINT, "0");
	if (g->legend_tex)
		SDL_RenderCopy(g->ren, g->legend_tex, NULL,
			       &(SDL_Rect){ bar->x, bar->y, bar->w, bar->h });
	if (!(hmax > 0)) {
		gui__text(g, bar->x + bar->w + cw, bar->y, LRS_GUI_FAINT,
			  gui__metric_pages(model) ? "no pages" : "no contention yet", 0);
		return;
	}
	n = lrs_gui_colour__ticks(hmax, LRS_GUI_DECADES, ticks, 8);
	for (size_t i = 0; i < n; i++) {
		double t = lrs_gui_colour__t(ticks[i], hmax, LRS_GUI_DECADES);
		int x = bar->x + (int)lround(t * (bar->w - 1));

		gui__fill(g, x, bar->y + bar->h, 1, 3, LRS_GUI_TEXT);
		gui__heat_fmt(buf, sizeof(buf), model, ticks[i]);
		tw = lrs_gui_font__width(g->font, buf);
		tx = x - tw / 2 < bar->x ? bar->x : x - tw / 2; /* clear of the zero swatch */
		if (tx + tw < bar->x + bar->w - 10 * cw)
			gui__text(g, tx, bar->y + bar->h + 2, LRS_GUI_TEXT, buf, 0);
	}
	gui__heat_fmt(buf, sizeof(buf), model, hmax);
	gui__textf(g, bar->x + bar->w + cw, bar->y, LRS_GUI_TEXT, 0, "%s", buf);
	gui__text_right(g, bar->x + bar->w, bar->y + bar->h + 2, LRS_GUI_FAINT, "hottest");
}

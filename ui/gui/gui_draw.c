// SPDX-License-Identifier: GPL-2.0
/*
 * One frame of the GUI from a const model: header, the memcg x node heatmap,
 * the colour legend, the time heatmap of the hottest lruvecs, the selected
 * lruvec's wait-histogram heatmap, the detail panel, the status line, and
 * the tooltip and help over them. The two time heatmaps are textures rebuilt
 * only when their data, lanes or size change.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/lock_names.h"
#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/keymap.h"
#include "ui/layout.h"

#define TOOLTIP_LINES 8
#define TOOLTIP_W 320
#define HIST_MIN_SPAN 12	/* buckets the histogram heatmap shows at least */
#define HIST_MAX_DECADES 5.0

/* ---- primitives ------------------------------------------------------------ */

static void colour__set(struct lrs_gui *g, struct lrs_rgb c)
{
	SDL_SetRenderDrawColor(g->ren, c.r, c.g, c.b, 255);
}

static void fill(struct lrs_gui *g, int x, int y, int w, int h, struct lrs_rgb c)
{
	SDL_Rect r = { x, y, w, h };

	if (w <= 0 || h <= 0)
		return;
	colour__set(g, c);
	SDL_RenderFillRect(g->ren, &r);
}

static void outline(struct lrs_gui *g, int x, int y, int w, int h, int thick, struct lrs_rgb c)
{
	fill(g, x, y, w, thick, c);
	fill(g, x, y + h - thick, w, thick, c);
	fill(g, x, y, thick, h, c);
	fill(g, x + w - thick, y, thick, h, c);
}

static int text(struct lrs_gui *g, int x, int y, struct lrs_rgb c, const char *s, int max_w)
{
	if (max_w < 0)
		return 0;
	return lrs_gui_font__draw(g->font, x, y, c, s, max_w ? max_w : -1);
}

static int textf(struct lrs_gui *g, int x, int y, struct lrs_rgb c, int max_w, const char *fmt,
		 ...) __attribute__((format(printf, 6, 7)));
static int textf(struct lrs_gui *g, int x, int y, struct lrs_rgb c, int max_w, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return text(g, x, y, c, buf, max_w);
}

static void text_right(struct lrs_gui *g, int right, int y, struct lrs_rgb c, const char *s)
{
	text(g, right - lrs_gui_font__width(g->font, s), y, c, s, 0);
}

static void text_centre(struct lrs_gui *g, int cx, int y, struct lrs_rgb c, const char *s)
{
	text(g, cx - lrs_gui_font__width(g->font, s) / 2, y, c, s, 0);
}

/* ASCII only: the font atlas has nothing else, and paths may hold anything. */
static void sanitize(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; src && *src && i + 1 < len; src++)
		dst[i++] = (unsigned char)*src >= 0x20 && (unsigned char)*src < 0x7f ? *src : '?';
	dst[i] = '\0';
}

static int chars_fit(const struct lrs_gui *g, int w)
{
	int cw = lrs_gui_font__char_w(g->font);

	return cw > 0 ? w / cw : 0;
}

/* ---- the model, as the GUI names it ------------------------------------------ */

static bool tree_view(const struct lrs_model *model)
{
	return model->sort == LRS_SORT_NAME && !model->filter[0];
}

/* A row's label: in the tree, indented leaf names; otherwise whole paths. */
static const char *row_label(const struct lrs_model *model, const struct lrs_row *row, int *indent)
{
	const char *slash;

	*indent = 0;
	if (!row->memcg)
		return "?";
	if (!tree_view(model) || !strcmp(row->memcg, "/"))
		return row->memcg;
	*indent = row->depth > 0 ? 2 * (row->depth - 1) : 0;
	slash = strrchr(row->memcg, '/');
	return slash && slash[1] ? slash + 1 : row->memcg;
}

static int name_chars(const struct lrs_model *model)
{
	int best = 0;

	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];
		int indent, n = (int)strlen(row_label(model, row, &indent)) + indent;

		if (n > best)
			best = n;
	}
	return best;
}

static char *lruvec_name(char *buf, size_t len, const struct lrs_model *model, uint64_t memcg_id,
			 int node)
{
	const struct lrs_row *row = gui__row_by_id(model, memcg_id, NULL);
	char path[256];

	sanitize(path, sizeof(path), row && row->memcg ? row->memcg : "?");
	snprintf(buf, len, "%s@N%d", path, node);
	return buf;
}

/* The model push shown in time column c, or 0 for none yet. */
static uint64_t column_push(const struct lrs_gui *g, const struct lrs_model *model, size_t c)
{
	size_t back = g->layout.columns - 1 - c;

	return model->pushes > back ? model->pushes - back : 0;
}

/* The history index of time column c, or -1: columns end with the newest entry. */
static long column_history(const struct lrs_gui *g, const struct lrs_model *model, size_t c)
{
	long j = (long)c - (long)(g->layout.columns - model->history_len);

	return j >= 0 && (size_t)j < model->history_len ? j : -1;
}

static const uint32_t *ring_column(const struct lrs_gui *g, const struct gui_hist_ring *r,
				   uint64_t push, float *interval_s)
{
	size_t slot;

	if (!r || !push || !g->ring_cap)
		return NULL;
	slot = push % g->ring_cap;
	if (r->push[slot] != push)
		return NULL;
	*interval_s = r->interval_s[slot];
	return r->hist[slot];
}

static const struct gui_hist_ring *selected_ring(const struct lrs_gui *g,
						 const struct lrs_model *model)
{
	const struct lrs_row *sel = lrs_model__selected_row(model);

	if (!sel || model->sel_node_idx >= model->nr_nodes)
		return NULL;
	return gui__ring(g, sel->memcg_id, model->nodes[model->sel_node_idx]);
}

/* The heatmap's metric: its value, the top of its scale, its number. */
static bool metric_pages(const struct lrs_model *model)
{
	return model->metric == LRS_METRIC_LRU_PAGES;
}

static double heat_max(const struct lrs_gui *g, const struct lrs_model *model)
{
	return metric_pages(model) ? lrs_model__metric_max(model) : g->scale_max;
}

static char *heat_fmt(char *buf, size_t len, const struct lrs_model *model, double v)
{
	if (!metric_pages(model))
		return lrs_fmt__rate_ns(buf, len, v);
	lrs_fmt__count(buf, len, v);
	if (strlen(buf) + 2 < len)
		strcat(buf, "p");
	return buf;
}

/* ---- layout ---------------------------------------------------------------- */

static void hist__used(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct gui_hist_ring *r = selected_ring(g, model);
	int lo = LRS_HIST_BUCKETS, hi = -1;

	for (size_t i = 0; r && i < g->ring_cap; i++) {
		if (!r->push[i] || r->push[i] + g->ring_cap <= model->pushes)
			continue;
		for (int b = 0; b < LRS_HIST_BUCKETS; b++) {
			if (!r->hist[i][b])
				continue;
			if (b < lo)
				lo = b;
			if (b > hi)
				hi = b;
		}
	}
	g->hist_used_lo = lo;
	g->hist_used_hi = hi;
}

/*
 * Time columns the heatmaps span: a round number just above the history
 * there is, so a young session fills the plots, growing to the whole ring.
 */
static size_t shown_columns(size_t len, size_t cap)
{
	static const size_t steps[] = { 30, 60, 120, 300, 600, 1200, 3600 };

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] >= len && steps[i] < cap)
			return steps[i];
	return cap;
}

void gui__layout(struct lrs_gui *g, const struct lrs_model *model)
{
	struct lrs_gui_layout_in in = {
		.width = g->px_w, .height = g->px_h,
		.line_h = lrs_gui_font__line_h(g->font), .char_w = lrs_gui_font__char_w(g->font),
		.pad = (int)lround(8 * g->scale), .nr_nodes = model->nr_nodes,
		.sel_node_idx = model->sel_node_idx, .first_node = g->first_node,
		.name_chars = name_chars(model), .nr_lanes = LRS_GUI_MAX_LANES,
		.nr_rows = model->nr_visible,
		.columns = shown_columns(model->history_len, g->ring_cap ? g->ring_cap
									 : model->history_cap),
		.hide_side = !model->show_detail,
	};
	size_t cap;
	long sel;

	hist__used(g, model);
	lrs_gui_layout__bucket_range(g->hist_used_lo, g->hist_used_hi, HIST_MIN_SPAN, &in.hist_lo,
				     &in.hist_hi);
	/* first the room for lanes, then the lanes there are */
	lrs_gui_layout__compute(&g->layout, &in);
	cap = g->layout.nr_lanes;
	if (cap != g->lane_cap) {
		g->lane_cap = cap;
		gui__lanes_compute(g, model);
	}
	in.nr_lanes = g->nr_lanes < cap ? g->nr_lanes : cap;
	lrs_gui_layout__compute(&g->layout, &in);
	g->first_node = g->layout.first_node;
	sel = lrs_model__selected_index(model);
	g->top = lrs_view_layout__scroll(g->top, sel < 0 ? 0 : (size_t)sel, model->nr_visible,
					 g->layout.rows_fit);
}

/* ---- the plots' textures ------------------------------------------------------ */

static uint32_t argb(struct lrs_rgb c)
{
	return 0xff000000u | (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
}

static int texture__fit(struct lrs_gui *g, SDL_Texture **tex, int w, int h)
{
	int tw = 0, th = 0;

	if (*tex)
		SDL_QueryTexture(*tex, NULL, NULL, &tw, &th);
	if (*tex && tw == w && th == h)
		return 0;
	if (*tex)
		SDL_DestroyTexture(*tex);
	*tex = SDL_CreateTexture(g->ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, w, h);
	if (!*tex)
		return -1;
	if ((size_t)w * h > g->px_cap) {
		free(g->px);
		g->px_cap = (size_t)w * h;
		g->px = malloc(g->px_cap * sizeof(*g->px));
		if (!g->px) {
			g->px_cap = 0;
			SDL_DestroyTexture(*tex);
			*tex = NULL;
			return -1;
		}
	}
	return 0;
}

/* The time heatmap's texture, and the top of the shared wait scale. */
static void time__build(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	struct gui_plot_key key = { .pushes = model->pushes, .plot = l->time_plot,
				    .nr_lanes = l->nr_lanes };
	const struct lrs_history *hs[LRS_GUI_MAX_LANES];
	uint32_t bg = argb(LRS_GUI_PANEL);
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
	if (W <= 0 || H <= 0 || texture__fit(g, &g->time_tex, W, H))
		return;
	for (int i = 0; i < W * H; i++)
		g->px[i] = bg;
	for (size_t c = 0; c < l->columns; c++) {
		long j = column_history(g, model, c);
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
			px = argb(lrs_gui_colour__value(lrs_history__at(model, hs[k], (size_t)j), max,
							LRS_GUI_DECADES));
			for (int y = y0; y < y1 && y < H; y++)
				for (int x = x0; x < x1; x++)
					g->px[y * W + x] = px;
		}
	}
	SDL_UpdateTexture(g->time_tex, NULL, g->px, W * 4);
}

static void hist__build(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct gui_hist_ring *r = selected_ring(g, model);
	const struct lrs_row *sel = lrs_model__selected_row(model);
	struct gui_plot_key key = { .pushes = model->pushes, .plot = l->hist_plot,
				    .hist_lo = l->hist_lo, .hist_hi = l->hist_hi };
	uint32_t bg = argb(LRS_GUI_PANEL);
	double max = 0, min = 0;
	int W = l->hist_plot.w, H = l->hist_plot.h;

	if (sel)
		key.lanes[0] = (struct gui_lane){ sel->memcg_id, 0, model->sel_node_idx };
	if (!memcmp(&key, &g->hist_key, sizeof(key)) && g->hist_tex)
		return;
	g->hist_key = key;
	for (size_t c = 0; r && c < l->columns; c++) {
		float iv = 0;
		const uint32_t *h = ring_column(g, r, column_push(g, model, c), &iv);

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
	if (W <= 0 || H <= 0 || texture__fit(g, &g->hist_tex, W, H))
		return;
	for (int i = 0; i < W * H; i++)
		g->px[i] = bg;
	for (size_t c = 0; r && c < l->columns; c++) {
		float iv = 0;
		const uint32_t *h = ring_column(g, r, column_push(g, model, c), &iv);
		int x0, x1;

		lrs_gui_layout__column_span(l, &l->hist_plot, c, &x0, &x1);
		x0 -= l->hist_plot.x;
		x1 -= l->hist_plot.x;
		if (!h || !(iv > 0) || x1 <= x0)
			continue;
		for (int b = l->hist_lo; b <= l->hist_hi; b++) {
			uint32_t px = argb(lrs_gui_colour__value(h[b] / iv, max, g->hist_decades));
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

/* ---- panels ------------------------------------------------------------------- */

static void draw_header(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_rect *r = &g->layout.header;
	const struct lrs_snapshot *cur = model->cur;
	double iv = model->interval_s > 0 ? model->interval_s : 0;
	char a[32], b[32], c[32], d[32], kernel[64];
	int x = r->x, lh = g->layout.line_h;

	if (r->h <= 0)
		return;
	x += text(g, x, r->y, LRS_GUI_ACCENT, "lruscope", 0);
	sanitize(kernel, sizeof(kernel), cur ? cur->kernel : "");
	textf(g, x, r->y, LRS_GUI_FAINT, r->w - (x - r->x),
	      "   LRU lock waits per memcg and NUMA node   %s, every %.3gs   kernel %s   %zu memcgs x %zu nodes",
	      g->source_name ? g->source_name : "?", g->interval_s, kernel[0] ? kernel : "?",
	      model->nr_rows, model->nr_nodes);
	if (model->paused)
		text_right(g, r->x + r->w, r->y, LRS_GUI_WARN, "PAUSED (p resumes)");
	if (!model->prev) {
		text(g, r->x, r->y + lh, LRS_GUI_TEXT, "waiting for the second snapshot: rates need two", r->w);
		return;
	}
	x = r->x;
	x += textf(g, x, r->y + lh, LRS_GUI_TEXT, r->w, "lruvec locks: wait %s  contended %s/s",
		   lrs_fmt__rate_ns(a, sizeof(a), iv > 0 ? model->lruvec_wait_ns / iv : 0),
		   lrs_fmt__count(b, sizeof(b), iv > 0 ? model->lruvec_contended / iv : 0));
	x += textf(g, x, r->y + lh, LRS_GUI_FAINT, r->w - (x - r->x),
		   "     other locks: wait %s  contended %s/s",
		   lrs_fmt__rate_ns(c, sizeof(c), iv > 0 ? model->other_wait_ns / iv : 0),
		   lrs_fmt__count(d, sizeof(d), iv > 0 ? model->other_contended / iv : 0));
	if (cur && (cur->drops.task || cur->drops.stack || cur->drops.stats_full ||
		    cur->drops.negative_time))
		x += textf(g, x, r->y + lh, LRS_GUI_WARN, r->w - (x - r->x),
			   "     drops: task %llu stack %llu full %llu time %llu",
			   (unsigned long long)cur->drops.task, (unsigned long long)cur->drops.stack,
			   (unsigned long long)cur->drops.stats_full,
			   (unsigned long long)cur->drops.negative_time);
	if (cur && cur->holders) {
		char hh[128];

		lrs_holders_view__header(cur, hh, sizeof(hh));
		x += textf(g, x, r->y + lh, LRS_GUI_ACCENT, r->w - (x - r->x), "     %s", hh);
	}
	if (cur && cur->unavailable) {
		char u[256];

		sanitize(u, sizeof(u), cur->unavailable);
		textf(g, x, r->y + lh, LRS_GUI_WARN, r->w - (x - r->x), "     unavailable: %s", u);
	}
}

static void draw_title(struct lrs_gui *g, const struct lrs_gui_rect *r, const char *title,
		       const char *note)
{
	int w = text(g, r->x, r->y, LRS_GUI_ACCENT, title, r->w);

	if (note)
		text(g, r->x + w, r->y, LRS_GUI_FAINT, note, r->w - w);
}

static void draw_heatmap(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_gui_rect *r = &l->heatmap;
	const struct lrs_row *sel = lrs_model__selected_row(model);
	int cw = l->char_w, lh = l->line_h;
	bool cell_text = l->cell_w >= 8 * cw + 4;
	double hmax = heat_max(g, model);
	char note[384], buf[64];

	if (r->h < 3 * lh)
		return;
	buf[0] = '\0';
	if (model->nr_visible > l->rows_fit)
		snprintf(buf, sizeof(buf), "rows %zu-%zu of %zu", g->top + 1,
			 g->top + l->rows_fit < model->nr_visible ? g->top + l->rows_fit
								  : model->nr_visible,
			 model->nr_visible);
	snprintf(note, sizeof(note), "   %s   sort: %s%s%s",
		 metric_pages(model) ? "pages on the LRU lists (m: wait)" : "wait per second",
		 lrs_sort_names[model->sort], model->filter[0] ? "   filter: " : "", model->filter);
	{
		struct lrs_gui_rect t = *r;

		t.w -= lrs_gui_font__width(g->font, buf) + 2 * cw;
		draw_title(g, &t, "memcg x node", note);
		text_right(g, r->x + r->w, r->y, LRS_GUI_FAINT, buf);
	}
	/* column headings */
	text(g, l->names.x, l->colhdr_y, LRS_GUI_FAINT, tree_view(model) ? "memcg (tree)" : "memcg",
	     l->names.w);
	for (size_t n = l->first_node; n < l->first_node + l->nr_node_cols && n < model->nr_nodes; n++) {
		int x = lrs_gui_layout__node_x(l, n);

		snprintf(buf, sizeof(buf), "N%d", model->nodes[n]);
		text_centre(g, x + l->cell_w / 2, l->colhdr_y,
			    n == model->sel_node_idx ? LRS_GUI_ACCENT : LRS_GUI_FAINT, buf);
	}
	if (l->first_node > 0)
		text(g, l->grid.x - cw, l->colhdr_y, LRS_GUI_WARN, "<", 0);
	if (l->first_node + l->nr_node_cols < model->nr_nodes)
		text(g, l->grid.x + l->grid.w - cw, l->colhdr_y, LRS_GUI_WARN, ">", 0);
	if (l->total_w)
		text_right(g, l->total_x + l->total_w - cw / 2, l->colhdr_y, LRS_GUI_FAINT, "all nodes");

	if (!model->nr_visible) {
		text(g, l->names.x, l->names.y, LRS_GUI_FAINT,
		     model->cur ? "no memcg matches the filter (/ changes it)" : "no snapshot yet", r->w);
		return;
	}
	for (size_t i = g->top; i < model->nr_visible && i < g->top + l->rows_fit; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];
		int y = l->names.y + (int)(i - g->top) * l->row_h, indent;
		const char *label = row_label(model, row, &indent);
		char name[256], fitted[256];
		bool is_sel = row == sel;

		if (is_sel)
			fill(g, l->names.x, y, l->names.w + l->grid.w + l->total_w, l->row_h, LRS_GUI_PANEL);
		sanitize(name, sizeof(name), label);
		lrs_fmt__path(fitted, sizeof(fitted), name, chars_fit(g, l->names.w) - indent - 1);
		text(g, l->names.x + indent * cw, y + 1,
		     row->removed ? LRS_GUI_FAINT : is_sel ? LRS_GUI_ACCENT : LRS_GUI_TEXT, fitted,
		     l->names.w - indent * cw);
		for (size_t n = l->first_node; n < l->first_node + l->nr_node_cols &&
					       n < model->nr_nodes; n++) {
			const struct lrs_cell *cell = &row->cells[n];
			int x = lrs_gui_layout__node_x(l, n);
			double v = lrs_cell__value(cell, model->metric);
			struct lrs_rgb c = cell->lruvec ? lrs_gui_colour__value(v, hmax, LRS_GUI_DECADES)
							: LRS_GUI_BG;

			fill(g, x + 1, y + 1, l->cell_w - 2, l->row_h - 2, c);
			if (cell_text && v > 0) {
				heat_fmt(buf, sizeof(buf), model, v);
				text_right(g, x + l->cell_w - cw / 2, y + 1, lrs_gui_colour__text_on(c), buf);
			}
		}
		if (l->total_w && model->interval_s > 0 && row->wait_ns) {
			lrs_fmt__rate_ns(buf, sizeof(buf), row->wait_ns / model->interval_s);
			text_right(g, l->total_x + l->total_w - cw / 2, y + 1, LRS_GUI_TEXT, buf);
		}
	}
	/* the selected cell: a white frame */
	{
		long si = lrs_model__selected_index(model);
		int x = lrs_gui_layout__node_x(l, model->sel_node_idx);

		if (si >= (long)g->top && si < (long)(g->top + l->rows_fit) && x >= 0)
			outline(g, x, l->names.y + (int)(si - (long)g->top) * l->row_h, l->cell_w,
				l->row_h, g->scale >= 2 ? 3 : 2, LRS_GUI_ACCENT);
	}
	/* a scroll bar when the rows do not fit */
	if (model->nr_visible > l->rows_fit && l->rows_fit) {
		int bx = r->x + r->w - 4, bh = l->names.h;
		int th = (int)((double)bh * l->rows_fit / model->nr_visible);
		int ty = l->names.y + (int)((double)bh * g->top / model->nr_visible);

		fill(g, bx, l->names.y, 3, bh, LRS_GUI_PANEL);
		fill(g, bx, ty, 3, th > 4 ? th : 4, LRS_GUI_FAINT);
	}
}

static void draw_legend(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_gui_rect *bar = &l->legend_bar;
	double ticks[8];
	size_t n;
	char buf[32];
	int lh = l->line_h, cw = l->char_w, zx, tx, tw;
	double hmax = heat_max(g, model);

	if (bar->w <= 0 || l->legend.h <= 0)
		return;
	text(g, l->legend.x, bar->y, LRS_GUI_TEXT, metric_pages(model) ? "LRU pages" : "wait per second",
	     bar->x - l->legend.x - 6 * cw);
	text(g, l->legend.x, bar->y + lh, LRS_GUI_FAINT, "log scale", bar->x - l->legend.x - 6 * cw);
	if (!g->legend_tex) {
		uint32_t px[256];

		for (int i = 0; i < 256; i++)
			px[i] = argb(lrs_gui_colour__map(i / 255.0));
		g->legend_tex = SDL_CreateTexture(g->ren, SDL_PIXELFORMAT_ARGB8888,
						  SDL_TEXTUREACCESS_STATIC, 256, 1);
		if (g->legend_tex)
			SDL_UpdateTexture(g->legend_tex, NULL, px, sizeof(px));
	}
	/* the zero swatch, then the bar */
	zx = bar->x - 5 * cw;
	fill(g, zx, bar->y, 2 * cw, bar->h, LRS_GUI_ZERO);
	text_centre(g, zx + cw, bar->y + bar->h + 2, LRS_GUI_FAINT, "0");
	if (g->legend_tex)
		SDL_RenderCopy(g->ren, g->legend_tex, NULL,
			       &(SDL_Rect){ bar->x, bar->y, bar->w, bar->h });
	if (!(hmax > 0)) {
		text(g, bar->x + bar->w + cw, bar->y, LRS_GUI_FAINT, metric_pages(model) ? "no pages" : "no contention yet", 0);
		return;
	}
	n = lrs_gui_colour__ticks(hmax, LRS_GUI_DECADES, ticks, 8);
	for (size_t i = 0; i < n; i++) {
		double t = lrs_gui_colour__t(ticks[i], hmax, LRS_GUI_DECADES);
		int x = bar->x + (int)lround(t * (bar->w - 1));

		fill(g, x, bar->y + bar->h, 1, 3, LRS_GUI_TEXT);
		heat_fmt(buf, sizeof(buf), model, ticks[i]);
		tw = lrs_gui_font__width(g->font, buf);
		tx = x - tw / 2 < bar->x ? bar->x : x - tw / 2;	/* clear of the zero swatch */
		if (tx + tw < bar->x + bar->w - 10 * cw)
			text(g, tx, bar->y + bar->h + 2, LRS_GUI_TEXT, buf, 0);
	}
	heat_fmt(buf, sizeof(buf), model, hmax);
	textf(g, bar->x + bar->w + cw, bar->y, LRS_GUI_TEXT, 0, "%s", buf);
	text_right(g, bar->x + bar->w, bar->y + bar->h + 2, LRS_GUI_FAINT, "hottest");
}

static void draw_time_axis(struct lrs_gui *g, const struct lrs_model *model,
			   const struct lrs_gui_rect *plot)
{
	struct lrs_gui_tick ticks[16];
	double iv = model->interval_s > 0 ? model->interval_s : g->interval_s;
	size_t n, room = (size_t)(plot->w / (8 * g->layout.char_w));
	int y = plot->y + plot->h + 1;

	n = lrs_gui_layout__time_ticks((double)g->layout.columns * (iv > 0 ? iv : 1), room, ticks, 16);
	for (size_t i = 0; i < n; i++) {
		int x = plot->x + (int)lround(ticks[i].frac * (plot->w - 1));
		int w = lrs_gui_font__width(g->font, ticks[i].label);

		fill(g, x, y, 1, 3, LRS_GUI_FAINT);
		x -= ticks[i].frac >= 1 ? w : ticks[i].frac <= 0 ? 0 : w / 2;
		text(g, x, y + 2, LRS_GUI_FAINT, ticks[i].label, 0);
	}
}

static void draw_timemap(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_row *sel = lrs_model__selected_row(model);
	char buf[320], name[300];

	if (l->timemap.h < 3 * l->line_h)
		return;
	draw_title(g, &l->timemap, g->lane_mode == GUI_LANES_HOT ? "hottest lruvecs over time"
								 : "the selected memcg's nodes over time",
		   metric_pages(model) ? "   wait per second (the heatmap shows pages: m)"
				       : "   wait per second, same scale   n switches, click selects");
	if (!l->nr_lanes) {
		text(g, l->time_labels.x, l->timemap.y + l->line_h, LRS_GUI_FAINT,
		     model->prev ? "no lruvec waited in this interval" : "collecting...", l->timemap.w);
		return;
	}
	if (g->time_tex)
		SDL_RenderCopy(g->ren, g->time_tex, NULL,
			       &(SDL_Rect){ l->time_plot.x, l->time_plot.y, l->time_plot.w,
					    l->time_plot.h });
	for (size_t k = 0; k < l->nr_lanes; k++) {
		const struct gui_lane *lane = &g->lanes[k];
		bool is_sel = sel && lane->memcg_id == sel->memcg_id && lane->node_idx == model->sel_node_idx;
		int y = l->time_plot.y + (int)k * l->lane_h;

		if (l->lane_h >= l->line_h - 3 || k % (size_t)((l->line_h + l->lane_h - 1) / l->lane_h) == 0) {
			lruvec_name(name, sizeof(name), model, lane->memcg_id, lane->node);
			lrs_fmt__path(buf, sizeof(buf), name, chars_fit(g, l->time_labels.w));
			text_right(g, l->time_labels.x + l->time_labels.w, y + (l->lane_h - l->line_h) / 2,
				   is_sel ? LRS_GUI_ACCENT : LRS_GUI_TEXT, buf);
		}
		if (is_sel)
			outline(g, l->time_plot.x - 1, y - 1, l->time_plot.w + 2, l->lane_h + 1, 1,
				LRS_GUI_ACCENT);
	}
	draw_time_axis(g, model, &l->time_plot);
}

static void draw_histmap(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_layout *l = &g->layout;
	const struct lrs_row *sel = lrs_model__selected_row(model);
	struct lrs_gui_tick ticks[LRS_HIST_BUCKETS];
	char title[320], name[300], a[32];
	size_t n, room;

	if (l->histmap.h < 4 * l->line_h)
		return;
	if (sel && model->sel_node_idx < model->nr_nodes)
		lruvec_name(name, sizeof(name), model, sel->memcg_id, model->nodes[model->sel_node_idx]);
	else
		snprintf(name, sizeof(name), "(nothing selected)");
	snprintf(title, sizeof(title), "wait histogram of %s", name);
	lrs_fmt__count(a, sizeof(a), g->hist_max);
	draw_title(g, &l->histmap, title,
		   g->hist_max > 0 ? "   waits/s per log2 bucket" : "   no waits kept yet for this lruvec");
	if (l->hist_plot.h <= 0)
		return;
	if (g->hist_tex)
		SDL_RenderCopy(g->ren, g->hist_tex, NULL,
			       &(SDL_Rect){ l->hist_plot.x, l->hist_plot.y, l->hist_plot.w,
					    l->hist_plot.h });
	room = (size_t)(l->hist_plot.h / (l->line_h + 2));
	n = lrs_gui_layout__bucket_ticks(l->hist_lo, l->hist_hi, room, ticks, LRS_HIST_BUCKETS);
	for (size_t i = 0; i < n; i++) {
		int b = l->hist_lo + (int)lround(ticks[i].frac * (l->hist_hi - l->hist_lo + 1)), y0, y1;

		lrs_gui_layout__bucket_span(l, b, &y0, &y1);
		fill(g, l->hist_plot.x - 4, y1 - 1, 3, 1, LRS_GUI_FAINT);
		text_right(g, l->hist_plot.x - 6, y1 - l->line_h / 2 - 1, LRS_GUI_FAINT, ticks[i].label);
	}
	draw_time_axis(g, model, &l->hist_plot);
}

/* ---- the side panel -------------------------------------------------------------- */

struct pen {
	struct lrs_gui *g;
	int x, y, w, bottom;
};

static bool pen__line(struct pen *p, struct lrs_rgb c, int indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool pen__line(struct pen *p, struct lrs_rgb c, int indent, const char *fmt, ...)
{
	char buf[512], clean[512];
	va_list ap;
	int lh = p->g->layout.line_h, x = p->x + indent * p->g->layout.char_w;

	if (p->y + lh > p->bottom)
		return false;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sanitize(clean, sizeof(clean), buf);
	text(p->g, x, p->y, c, clean, p->w - (x - p->x));
	p->y += lh;
	return true;
}

static void pen__gap(struct pen *p)
{
	p->y += p->g->layout.line_h / 2;
}

/*
 * The selected lruvec's top holders (issue 6): who held its lock while others
 * waited, since start (the holder maps are cumulative), with a call path.
 */
static bool draw_holders(struct lrs_gui *g, const struct lrs_model *model,
			 const struct lrs_lruvec *lv, struct pen *p)
{
	const struct lrs_holders *hs = model->cur->holders;
	size_t first, n = lrs_holders__rows_of(hs, lv->memcg_id, lv->node, &first);
	char a[32], b[32], memcg[256], fitted[256], path[160];

	if (!pen__line(p, LRS_GUI_ACCENT, 0, "holders since start%s",
		       n ? "" : ": none seen on this lruvec"))
		return false;
	if (n && !pen__line(p, LRS_GUI_FAINT, 1, "%7s %5s %5s %7s %-10s %s", "imposed", "holds",
			    "behind", "pid", "comm", "memcg"))
		return false;
	for (size_t k = first; k < first + n && k < first + GUI_HOLDERS; k++) {
		const struct lrs_holder_row *r = &hs->rows[k];
		const struct lrs_stack *st = lrs_snapshot__find_stack(model->cur, r->stack_id);
		bool foreign = r->memcg_id && r->memcg_id != lv->memcg_id;
		size_t f0, len = 0;

		sanitize(memcg, sizeof(memcg), r->memcg ? r->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), memcg, chars_fit(g, p->w) - 41);
		lrs_fmt__ns(a, sizeof(a), (double)r->imposed_ns);
		lrs_fmt__count(b, sizeof(b), (double)r->holds);
		if (!r->pid) {
			if (!pen__line(p, LRS_GUI_FAINT, 1, "%7s %5s %5.1f       - (unknown holder)", a,
				       b, r->holds ? (double)r->waiters / (double)r->holds : 0.0))
				return false;
			continue;
		}
		if (!pen__line(p, foreign ? LRS_GUI_WARN : LRS_GUI_TEXT, 1, "%7s %5s %5.1f %7d %-10.10s %s",
			       a, b, r->holds ? (double)r->waiters / (double)r->holds : 0.0, r->pid,
			       r->comm, fitted))
			return false;
		path[0] = '\0';
		for (f0 = st ? lrs_stack_first_caller(st) : 0; st && f0 < st->nr_frames && len < 120;
		     f0++) {
			const char *plus = strchr(st->frames[f0], '+');
			int fl = plus ? (int)(plus - st->frames[f0]) : (int)strlen(st->frames[f0]);

			len += (size_t)snprintf(path + len, sizeof(path) - len, "%s%.*s",
						len ? " < " : "<- ", fl, st->frames[f0]);
		}
		if (path[0] && !pen__line(p, LRS_GUI_FAINT, 3, "%s", path))
			return false;
	}
	return true;
}

/*
 * The memcg x memcg matrix as a small heatmap (issue 6): rows the waiting
 * memcg, columns the lruvec owner's or (c) the holder's memcg; each cell the
 * wait imposed since start on the wait colour scale, its top the largest cell.
 */
static bool draw_matrix(struct lrs_gui *g, const struct lrs_model *model, struct pen *p)
{
	const struct lrs_holders *hs = model->cur->holders;
	struct lrs_holders_matrix *m = &g->mx;
	int cw = g->layout.char_w, lh = g->layout.line_h, name_c = 18, cell_c, cell_w, x0;
	size_t nr, nc;
	char t[256], buf[64];

	g->mx_rows = g->mx_cols = 0;
	if (!pen__line(p, LRS_GUI_ACCENT, 0, "memcg x memcg, imposed: waiter x %s",
		       g->matrix_by_holder ? "holder (c)" : "lruvec owner (c)"))
		return false;
	if (lrs_holders_view__matrix(hs, g->matrix_by_holder, m) || !m->nr_rows)
		return pen__line(p, LRS_GUI_FAINT, 1, "no holder was seen");
	nr = m->nr_rows < GUI_MATRIX ? m->nr_rows : GUI_MATRIX;
	nc = m->nr_cols < GUI_MATRIX ? m->nr_cols : GUI_MATRIX;
	cell_c = (chars_fit(g, p->w) - name_c - 1) / (int)nc;
	cell_c = cell_c > 16 ? 16 : cell_c;
	if (cell_c < 7)
		return pen__line(p, LRS_GUI_FAINT, 1, "(too narrow for the matrix)");
	cell_w = cell_c * cw;
	x0 = p->x + (name_c + 1) * cw;
	if (p->y + (int)(nr + 1) * lh > p->bottom)
		return false;
	for (size_t k = 0; k < nc; k++) {
		sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->col_ids[k]));
		lrs_fmt__path(buf, sizeof(buf), t, cell_c - 1);
		text_right(g, x0 + (int)(k + 1) * cell_w - cw / 2, p->y, LRS_GUI_FAINT, buf);
	}
	p->y += lh;
	g->mx_cells = (struct lrs_gui_rect){ x0, p->y, cell_w, lh };
	g->mx_rows = nr;
	g->mx_cols = nc;
	for (size_t r = 0; r < nr; r++) {
		sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->row_ids[r]));
		lrs_fmt__path(buf, sizeof(buf), t, name_c);
		text(g, p->x + cw, p->y, LRS_GUI_TEXT, buf, name_c * cw);
		for (size_t k = 0; k < nc; k++) {
			uint64_t v = m->vals[r * LRS_HOLDERS_MATRIX_MAX + k];
			struct lrs_rgb c = v ? lrs_gui_colour__value((double)v, (double)m->max,
								     LRS_GUI_DECADES) : LRS_GUI_ZERO;
			int x = x0 + (int)k * cell_w;

			fill(g, x + 1, p->y + 1, cell_w - 2, lh - 2, c);
			if (v)
				text_right(g, x + cell_w - cw / 2, p->y, lrs_gui_colour__text_on(c),
					   lrs_fmt__ns(buf, sizeof(buf), (double)v));
		}
		p->y += lh;
	}
	return true;
}

static void draw_side(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_rect *r = &g->layout.side;
	const struct lrs_row *row = lrs_model__selected_row(model);
	const struct lrs_cell *cell = lrs_model__selected_cell(model);
	const struct lrs_lruvec *lv = cell ? cell->lruvec : NULL;
	int pad = g->layout.pad, cw = g->layout.char_w;
	struct pen p = { g, r->x + pad, r->y + pad / 2, r->w - 2 * pad, r->y + r->h - pad / 2 };
	double iv = model->interval_s;
	char a[32], b[32], c[32], d[32], name[320];
	size_t nw, ns;

	if (r->w <= 0)
		return;
	fill(g, r->x, r->y, r->w, r->h, LRS_GUI_PANEL);
	if (!row || !cell) {
		pen__line(&p, LRS_GUI_FAINT, 0, "nothing selected: click a cell");
		return;
	}
	lruvec_name(name, sizeof(name), model, row->memcg_id, model->nodes[model->sel_node_idx]);
	pen__line(&p, LRS_GUI_ACCENT, 0, "%s", name);
	if (!lv) {
		pen__line(&p, LRS_GUI_FAINT, 0, "this memcg has no lruvec on this node");
		return;
	}
	pen__line(&p, LRS_GUI_FAINT, 0, "memcg id %llu   node %d   lock 0x%llx%s",
		  (unsigned long long)lv->memcg_id, lv->node, (unsigned long long)lv->lock_addr,
		  lv->removed ? "   (removed)" : "");
	pen__gap(&p);
	pen__line(&p, LRS_GUI_TEXT, 0, "wait       %-9s (%s in %.3gs)",
		  lrs_fmt__rate_ns(a, sizeof(a), cell->wait_ns_per_s),
		  lrs_fmt__ns(b, sizeof(b), (double)cell->wait_ns), iv);
	pen__line(&p, LRS_GUI_TEXT, 0, "contended  %-9s (%llu)",
		  (lrs_fmt__count(a, sizeof(a), cell->contended_per_s), strcat(a, "/s")),
		  (unsigned long long)cell->contended);
	pen__line(&p, LRS_GUI_TEXT, 0, "avg wait   %-9s max %s",
		  cell->contended ? lrs_fmt__ns(a, sizeof(a), (double)cell->wait_ns / cell->contended)
				  : "-",
		  lrs_fmt__ns(b, sizeof(b), (double)lv->counters.wait_max_ns));
	pen__line(&p, LRS_GUI_TEXT, 0, "p50 / p99  %s / %s",
		  cell->contended ? lrs_fmt__ns(c, sizeof(c), (double)lrs_hist__quantile_ns(cell->hist, 0.5)) : "-",
		  cell->contended ? lrs_fmt__ns(d, sizeof(d), (double)lrs_hist__quantile_ns(cell->hist, 0.99)) : "-");
	pen__gap(&p);

	nw = lrs_detail__top_waiters(model, cell, g->waiters, GUI_WAITERS);
	pen__line(&p, LRS_GUI_ACCENT, 0, "waiters%s", nw ? "" : ": none in this interval");
	if (nw)
		pen__line(&p, LRS_GUI_FAINT, 1, "%7s %-12s %8s %5s  %s", "pid", "comm", "wait", "count",
			  "memcg");
	for (size_t i = 0; i < nw; i++) {
		const struct lrs_waiter *w = g->waiters[i].waiter;
		bool foreign = w->memcg_id && w->memcg_id != lv->memcg_id;

		char memcg[256], fitted[256];

		/* the waiter's memcg: its tail, what tells memcgs apart */
		sanitize(memcg, sizeof(memcg), w->memcg ? w->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), memcg, chars_fit(g, p.w) - 38);
		if (!pen__line(&p, foreign ? LRS_GUI_WARN : LRS_GUI_TEXT, 1, "%7d %-12.12s %8s %5s  %s",
			       w->pid, w->comm, lrs_fmt__ns(a, sizeof(a), (double)g->waiters[i].wait_ns),
			       lrs_fmt__count(b, sizeof(b), (double)g->waiters[i].contended), fitted))
			return;
	}
	pen__gap(&p);

	g->mx_rows = g->mx_cols = 0;
	if (model->cur && model->cur->holders) {
		if (!draw_holders(g, model, lv, &p))
			return;
		pen__gap(&p);
		if (!g->matrix_hidden) {
			if (!draw_matrix(g, model, &p))
				return;
			pen__gap(&p);
		}
	}

	ns = lrs_detail__top_stacks(model, cell, g->stacks, GUI_STACKS);
	pen__line(&p, LRS_GUI_ACCENT, 0, "waiting stacks%s", ns ? " (sampled)" : ": none sampled");
	for (size_t i = 0; i < ns; i++) {
		const struct lrs_stack *st = g->stacks[i].stack;
		size_t f0, shown = 0;

		if (!pen__line(&p, LRS_GUI_TEXT, 1, "%s waited, %s times",
			       lrs_fmt__ns(a, sizeof(a), (double)g->stacks[i].wait_ns),
			       lrs_fmt__count(b, sizeof(b), (double)g->stacks[i].contended)))
			return;
		if (!st) {
			pen__line(&p, LRS_GUI_FAINT, 3, "stack %d: no frames", g->stacks[i].id);
			continue;
		}
		for (f0 = lrs_stack_first_caller(st); f0 < st->nr_frames && shown < 5; f0++, shown++)
			if (!pen__line(&p, LRS_GUI_FAINT, 3, "%s", st->frames[f0]))
				return;
	}
	pen__gap(&p);

	pen__line(&p, LRS_GUI_ACCENT, 0, "LRU lists");
	{
		uint64_t max = 1;

		for (int i = 0; i < LRS_NR_LRU_LISTS; i++)
			if (lv->lru_pages[i] > max)
				max = lv->lru_pages[i];
		for (int i = 0; i < LRS_NR_LRU_LISTS; i++) {
			int y = p.y, bw = (int)((double)(p.w - 45 * cw) * lv->lru_pages[i] / max);

			if (!pen__line(&p, LRS_GUI_TEXT, 1, "%-14s %8llu pages %8.1f MiB", lrs_lru_list_names[i],
				       (unsigned long long)lv->lru_pages[i],
				       lv->lru_pages[i] * 4096.0 / (1 << 20)))
				return;
			if (bw > 0)
				fill(g, p.x + 45 * cw, y + 3, bw, g->layout.line_h - 6,
				     lrs_gui_colour__map(0.35));
		}
	}
	pen__gap(&p);

	pen__line(&p, LRS_GUI_ACCENT, 0, "other locks%s", model->nr_others ? "" : ": none contended");
	for (size_t i = 0; i < model->nr_others && i < 5; i++)
		if (!pen__line(&p, LRS_GUI_TEXT, 1, "%-10s %s",
			       lrs_fmt__rate_ns(a, sizeof(a), model->others[i].wait_ns_per_s),
			       model->others[i].lock->name ? model->others[i].lock->name : "?"))
			return;
}

/* ---- status, tooltip, help --------------------------------------------------------- */

/* The status line's keys, from the keymap: x and c only with holders. */
static const char *status_keys(const struct lrs_gui *g, const struct lrs_model *model, char *buf,
			       size_t len)
{
	bool holders = model->cur && model->cur->holders;
	const struct lrs_binding *b;
	size_t i = 0, n = 0;

	buf[0] = '\0';
	while ((b = lrs_keymap__next_hint(&i, LRS_KEYMAP_GUI, g->replay)) && n < len) {
		if (!holders && (b->map[0].action == LRS_ACT_MATRIX ||
				 b->map[0].action == LRS_ACT_MATRIX_COLUMNS))
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s %s", n ? "   " : "",
				      b->hint_keys ? b->hint_keys : b->keys, b->hint);
	}
	return buf;
}

static void draw_status(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct lrs_gui_rect *r = &g->layout.status;
	const struct gui_msg *m = gui__status_msg(g);
	char buf[64], keys[512];
	int right_w;

	if (r->h <= 0)
		return;
	if (g->frame_ms > 0)
		snprintf(buf, sizeof(buf), "frame %.1f ms", g->frame_ms);
	else
		buf[0] = '\0';
	right_w = lrs_gui_font__width(g->font, buf);
	text_right(g, r->x + r->w, r->y, LRS_GUI_FAINT, buf);
	if (g->filter.editing)
		textf(g, r->x, r->y, LRS_GUI_ACCENT, r->w - right_w - 16,
		      "filter: %s_   (Enter keeps it, Esc restores)", g->filter.text);
	else if (m)
		text(g, r->x, r->y, LRS_GUI_WARN, m->text, r->w - right_w - 16);
	else
		text(g, r->x, r->y, LRS_GUI_FAINT, status_keys(g, model, keys, sizeof(keys)),
		     r->w - right_w - 16);
}

static size_t tooltip__lines(struct lrs_gui *g, const struct lrs_model *model,
			     const struct lrs_gui_hit *hit, char lines[][TOOLTIP_W])
{
	char a[32], b[32], c[32], name[300];
	size_t n = 0;

	switch (hit->part) {
	case LRS_GUI_CELL: {
		const struct lrs_row *row = &model->rows[model->visible[hit->row]];
		const struct lrs_cell *cell;

		if (hit->node >= model->nr_nodes)
			return 0;
		cell = &row->cells[hit->node];
		lruvec_name(name, sizeof(name), model, row->memcg_id, model->nodes[hit->node]);
		snprintf(lines[n++], TOOLTIP_W, "%s", name);
		if (!cell->lruvec) {
			snprintf(lines[n++], TOOLTIP_W, "no lruvec on this node");
			break;
		}
		snprintf(lines[n++], TOOLTIP_W, "wait %s (%s in %.3gs)",
			 lrs_fmt__rate_ns(a, sizeof(a), cell->wait_ns_per_s),
			 lrs_fmt__ns(b, sizeof(b), (double)cell->wait_ns), model->interval_s);
		snprintf(lines[n++], TOOLTIP_W, "contended %s/s (%llu)",
			 lrs_fmt__count(a, sizeof(a), cell->contended_per_s),
			 (unsigned long long)cell->contended);
		if (cell->contended)
			snprintf(lines[n++], TOOLTIP_W, "avg wait %s, p99 %s",
				 lrs_fmt__ns(a, sizeof(a), (double)cell->wait_ns / cell->contended),
				 lrs_fmt__ns(b, sizeof(b), (double)lrs_hist__quantile_ns(cell->hist, 0.99)));
		snprintf(lines[n++], TOOLTIP_W, "max wait %s since start",
			 lrs_fmt__ns(c, sizeof(c), (double)cell->lruvec->counters.wait_max_ns));
		break;
	}
	case LRS_GUI_NAME:
	case LRS_GUI_TOTAL: {
		const struct lrs_row *row = &model->rows[model->visible[hit->row]];
		double iv = model->interval_s > 0 ? model->interval_s : 1;

		sanitize(name, sizeof(name), row->memcg);
		snprintf(lines[n++], TOOLTIP_W, "%s%s", name, row->removed ? " (removed)" : "");
		snprintf(lines[n++], TOOLTIP_W, "memcg id %llu", (unsigned long long)row->memcg_id);
		snprintf(lines[n++], TOOLTIP_W, "all nodes: wait %s, contended %s/s",
			 lrs_fmt__rate_ns(a, sizeof(a), row->wait_ns / iv),
			 lrs_fmt__count(b, sizeof(b), row->contended / iv));
		break;
	}
	case LRS_GUI_LANE: {
		const struct gui_lane *lane;
		const struct lrs_history *h;
		long j = column_history(g, model, hit->column);

		if (hit->lane >= g->nr_lanes)
			return 0;
		lane = &g->lanes[hit->lane];
		h = lrs_model__history(model, lane->memcg_id, lane->node);
		lruvec_name(name, sizeof(name), model, lane->memcg_id, lane->node);
		snprintf(lines[n++], TOOLTIP_W, "%s", name);
		if (j < 0 || !h) {
			snprintf(lines[n++], TOOLTIP_W, "no data this far back");
			break;
		}
		snprintf(lines[n++], TOOLTIP_W, "wait %s, %.0fs ago",
			 lrs_fmt__rate_ns(a, sizeof(a), lrs_history__at(model, h, (size_t)j)),
			 (double)(model->history_len - 1 - (size_t)j) * model->interval_s);
		break;
	}
	case LRS_GUI_BUCKET: {
		float iv = 0;
		const uint32_t *h = ring_column(g, selected_ring(g, model),
						column_push(g, model, hit->column), &iv);
		size_t age = g->layout.columns - 1 - hit->column;

		snprintf(lines[n++], TOOLTIP_W, "waits of %s to %s",
			 lrs_fmt__ns(a, sizeof(a), (double)lrs_hist__bucket_low_ns(hit->bucket)),
			 lrs_fmt__ns(b, sizeof(b), (double)lrs_hist__bucket_low_ns(hit->bucket + 1)));
		if (!h) {
			snprintf(lines[n++], TOOLTIP_W, "not kept this far back");
			break;
		}
		snprintf(lines[n++], TOOLTIP_W, "%u in the interval (%s/s), %.0fs ago", h[hit->bucket],
			 lrs_fmt__count(c, sizeof(c), iv > 0 ? h[hit->bucket] / iv : 0),
			 (double)age * model->interval_s);
		break;
	}
	case LRS_GUI_LEGEND:
		if (heat_max(g, model) > 0)
			snprintf(lines[n++], TOOLTIP_W, "this colour: %s",
				 heat_fmt(a, sizeof(a), model,
					  lrs_gui_colour__value_at(hit->t, heat_max(g, model), LRS_GUI_DECADES)));
		break;
	default:
		break;
	}
	return n;
}

static void draw_tooltip(struct lrs_gui *g, const struct lrs_model *model)
{
	char lines[TOOLTIP_LINES][TOOLTIP_W];
	struct lrs_gui_hit hit;
	struct lrs_gui_rect box;
	int w = 0, lh = g->layout.line_h, pad = g->layout.pad / 2 + 2;
	size_t n;

	if (!g->mouse_in || g->headless || !model->prev || model->show_help)
		return;
	hit = lrs_gui_layout__hit(&g->layout, g->mouse_x, g->mouse_y, g->top, model->nr_visible);
	n = tooltip__lines(g, model, &hit, lines);
	if (!n)
		return;
	for (size_t i = 0; i < n; i++) {
		int lw = lrs_gui_font__width(g->font, lines[i]);

		if (lw > w)
			w = lw;
	}
	box = lrs_gui_layout__tooltip(g->mouse_x, g->mouse_y, w + 2 * pad, (int)n * lh + 2 * pad,
				      g->px_w, g->px_h);
	fill(g, box.x, box.y, box.w, box.h, LRS_GUI_BG);
	outline(g, box.x, box.y, box.w, box.h, 1, LRS_GUI_FAINT);
	for (size_t i = 0; i < n; i++)
		text(g, box.x + pad, box.y + pad + (int)i * lh, i ? LRS_GUI_TEXT : LRS_GUI_ACCENT,
		     lines[i], 0);
}

static void draw_help(struct lrs_gui *g)
{
	int lh = g->layout.line_h, cw = g->layout.char_w, w = 76 * cw, h, x, y;
	size_t n = 0;
	char line[160];

	/* the keys, from the one keymap the TUI's help uses too */
	while (lrs_keymap__help_line(line, sizeof(line), LRS_KEYMAP_GUI, g->replay, 18, n))
		n++;
	h = (int)(n + 2) * lh + 2 * lh;
	x = (g->px_w - w) / 2;
	y = (g->px_h - h) / 2;
	fill(g, x, y, w, h, LRS_GUI_BG);
	outline(g, x, y, w, h, 1, LRS_GUI_ACCENT);
	text(g, x + 2 * cw, y + lh, LRS_GUI_ACCENT, "lruscope gui: keys and mouse", w - 4 * cw);
	for (size_t i = 0; i < n; i++) {
		lrs_keymap__help_line(line, sizeof(line), LRS_KEYMAP_GUI, g->replay, 18, i);
		text(g, x + 2 * cw, y + 3 * lh + (int)i * lh, LRS_GUI_TEXT, line, w - 4 * cw);
	}
}

void lrs_gui__draw(struct lrs_gui *g, const struct lrs_model *model)
{
	double start = lrs_view__now_s();

	gui__layout(g, model);
	time__build(g, model);
	hist__build(g, model);
	colour__set(g, LRS_GUI_BG);
	SDL_RenderClear(g->ren);
	draw_header(g, model);
	draw_heatmap(g, model);
	draw_legend(g, model);
	draw_timemap(g, model);
	draw_histmap(g, model);
	draw_side(g, model);
	draw_status(g, model);
	draw_tooltip(g, model);
	if (model->show_help)
		draw_help(g);
	SDL_RenderPresent(g->ren);
	g->frame_ms = (lrs_view__now_s() - start) * 1e3;
}

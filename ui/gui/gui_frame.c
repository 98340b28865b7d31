// SPDX-License-Identifier: GPL-2.0
/*
 * One frame of the GUI from a const model: the layout, then the panels in
 * their order, the status line, and the tooltip and help over them.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/keymap.h"
#include "ui/layout.h"

#define HIST_MIN_SPAN 12 /* buckets the histogram heatmap shows at least */

static void hist__used(struct lrs_gui *g, const struct lrs_model *model)
{
	const struct gui_hist_ring *r = gui__selected_ring(g, model);
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
		.width = g->px_w,
		.height = g->px_h,
		.line_h = lrs_gui_font__line_h(g->font),
		.char_w = lrs_gui_font__char_w(g->font),
		.pad = (int)lround(8 * g->scale),
		.nr_nodes = model->nr_nodes,
		.sel_node_idx = model->sel_node_idx,
		.first_node = g->first_node,
		.name_chars = gui__name_chars(model),
		.nr_lanes = LRS_GUI_MAX_LANES,
		.nr_rows = model->nr_visible,
		.columns = shown_columns(model->history_len,
					 g->ring_cap ? g->ring_cap : model->history_cap),
		.hide_side = !g->state.show_detail,
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
	gui__text_right(g, r->x + r->w, r->y, LRS_GUI_FAINT, buf);
	if (g->filter.editing)
		gui__textf(g, r->x, r->y, LRS_GUI_ACCENT, r->w - right_w - 16,
			   "filter: %s_   (Enter keeps it, Esc restores)", g->filter.text);
	else if (m)
		gui__text(g, r->x, r->y, LRS_GUI_WARN, m->text, r->w - right_w - 16);
	else
		gui__text(g, r->x, r->y, LRS_GUI_FAINT, status_keys(g, model, keys, sizeof(keys)),
			  r->w - right_w - 16);
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
	gui__fill(g, x, y, w, h, LRS_GUI_BG);
	gui__outline(g, x, y, w, h, 1, LRS_GUI_ACCENT);
	gui__text(g, x + 2 * cw, y + lh, LRS_GUI_ACCENT, "lruscope gui: keys and mouse",
		  w - 4 * cw);
	for (size_t i = 0; i < n; i++) {
		lrs_keymap__help_line(line, sizeof(line), LRS_KEYMAP_GUI, g->replay, 18, i);
		gui__text(g, x + 2 * cw, y + 3 * lh + (int)i * lh, LRS_GUI_TEXT, line, w - 4 * cw);
	}
}

void lrs_gui__draw(struct lrs_gui *g, const struct lrs_model *model)
{
	double start = lrs_now_s();

	gui__layout(g, model);
	gui__time_build(g, model);
	gui__hist_build(g, model);
	gui__colour_set(g, LRS_GUI_BG);
	SDL_RenderClear(g->ren);
	gui__draw_header(g, model);
	gui__draw_heatmap(g, model);
	gui__draw_legend(g, model);
	gui__draw_timemap(g, model);
	gui__draw_histmap(g, model);
	gui__draw_side(g, model);
	draw_status(g, model);
	gui__draw_tooltip(g, model);
	if (g->state.show_help)
		draw_help(g);
	SDL_RenderPresent(g->ren);
	g->frame_ms = (lrs_now_s() - start) * 1e3;
}

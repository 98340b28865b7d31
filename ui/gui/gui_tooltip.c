// SPDX-License-Identifier: GPL-2.0
/* The tooltip: exact numbers for what the mouse is over. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/layout.h"

#define TOOLTIP_LINES 8
#define TOOLTIP_W 320

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
		gui__lruvec_name(name, sizeof(name), model, row->memcg_id, model->nodes[hit->node]);
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
				 lrs_fmt__ns(b, sizeof(b),
					     (double)lrs_hist__quantile_ns(cell->hist, 0.99)));
		snprintf(lines[n++], TOOLTIP_W, "max wait %s since start",
			 lrs_fmt__ns(c, sizeof(c), (double)cell->lruvec->counters.wait_max_ns));
		break;
	}
	case LRS_GUI_NAME:
	case LRS_GUI_TOTAL: {
		const struct lrs_row *row = &model->rows[model->visible[hit->row]];
		double iv = model->interval_s > 0 ? model->interval_s : 1;

		gui__sanitize(name, sizeof(name), row->memcg);
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
		long j = gui__column_history(g, model, hit->column);

		if (hit->lane >= g->nr_lanes)
			return 0;
		lane = &g->lanes[hit->lane];
		h = lrs_model__history(model, lane->memcg_id, lane->node);
		gui__lruvec_name(name, sizeof(name), model, lane->memcg_id, lane->node);
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
		const uint32_t *h = gui__ring_column(g, gui__selected_ring(g, model),
						     gui__column_push(g, model, hit->column), &iv);
		size_t age = g->layout.columns - 1 - hit->column;

		snprintf(lines[n++], TOOLTIP_W, "waits of %s to %s",
			 lrs_fmt__ns(a, sizeof(a), (double)lrs_hist__bucket_low_ns(hit->bucket)),
			 lrs_fmt__ns(b, sizeof(b),
				     (double)lrs_hist__bucket_low_ns(hit->bucket + 1)));
		if (!h) {
			snprintf(lines[n++], TOOLTIP_W, "not kept this far back");
			break;
		}
		snprintf(lines[n++], TOOLTIP_W, "%u in the interval (%s/s), %.0fs ago",
			 h[hit->bucket],
			 lrs_fmt__count(c, sizeof(c), iv > 0 ? h[hit->bucket] / iv : 0),
			 (double)age * model->interval_s);
		break;
	}
	case LRS_GUI_LEGEND:
		if (gui__heat_max(g, model) > 0)
			snprintf(lines[n++], TOOLTIP_W, "this colour: %s",
				 gui__heat_fmt(a, sizeof(a), model,
					       lrs_gui_colour__value_at(hit->t,
									gui__heat_max(g, model),
									LRS_GUI_DECADES)));
		break;
	default:
		break;
	}
	return n;
}

void gui__draw_tooltip(struct lrs_gui *g, const struct lrs_model *model)
{
	char lines[TOOLTIP_LINES][TOOLTIP_W];
	struct lrs_gui_hit hit;
	struct lrs_gui_rect box;
	int w = 0, lh = g->layout.line_h, pad = g->layout.pad / 2 + 2;
	size_t n;

	if (!g->mouse_in || g->headless || !model->prev || g->state.show_help)
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
	gui__fill(g, box.x, box.y, box.w, box.h, LRS_GUI_BG);
	gui__outline(g, box.x, box.y, box.w, box.h, 1, LRS_GUI_FAINT);
	for (size_t i = 0; i < n; i++)
		gui__text(g, box.x + pad, box.y + pad + (int)i * lh,
			  i ? LRS_GUI_TEXT : LRS_GUI_ACCENT, lines[i], 0);
}

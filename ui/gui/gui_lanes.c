// SPDX-License-Identifier: GPL-2.0
/*
 * What the GUI keeps beside the model: the lanes of the time heatmap (the
 * hottest lruvecs lately, or the selected memcg's nodes) and the interval
 * histograms of the lruvecs it shows, recorded after each push.
 */
#include <stdlib.h>
#include <string.h>

#include "ui/gui/gui_internal.h"

const struct lrs_row *gui__row_by_id(const struct lrs_model *model, uint64_t memcg_id, long *vis)
{
	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];

		if (row->memcg_id == memcg_id) {
			if (vis)
				*vis = (long)i;
			return row;
		}
	}
	if (vis)
		*vis = -1;
	for (size_t i = 0; i < model->nr_rows; i++)
		if (model->rows[i].memcg_id == memcg_id)
			return &model->rows[i];
	return NULL;
}

#define LANE_WINDOW 60 /* snapshots a lruvec stays a lane after it was hot */

/*
 * How hot a lruvec was lately: its peak over the last LANE_WINDOW snapshots
 * as a history code (codes order as the values do: no decoding), then the
 * rate now. Read straight from the model's ring: newest at history_head - 1.
 */
static double lane__heat(const struct lrs_model *model, uint64_t memcg_id, int node, double now)
{
	const struct lrs_history *h = lrs_model__history(model, memcg_id, node);
	size_t n = model->history_len < LANE_WINDOW ? model->history_len : LANE_WINDOW;
	uint16_t peak = 0;

	for (size_t i = 0; h && i < n; i++) {
		size_t slot =
			(model->history_head + model->history_cap - 1 - i) % model->history_cap;

		if (h->wait_code[slot] > peak)
			peak = h->wait_code[slot];
	}
	return (double)peak * 1e12 + now;
}

static bool lane__hotter(double a, double b)
{
	return a > b;
}

/*
 * The lanes of the time heatmap: the lruvecs of the visible rows that were
 * hottest lately (shown in tree order so they do not jump), the selected one
 * always among them; or the selected memcg's nodes.
 */
/* The hottest lruvecs of the visible rows, by lane__heat: a scan of every cell. */
static void hot__scan(struct lrs_gui *gui, const struct lrs_model *model)
{
	double heat[LRS_GUI_MAX_LANES];
	size_t n = 0, want = LRS_GUI_MAX_LANES;

	for (size_t v = 0; v < model->nr_visible; v++) {
		const struct lrs_row *row = &model->rows[model->visible[v]];

		for (size_t i = 0; i < model->nr_nodes; i++) {
			double r;
			size_t at;

			if (!row->cells[i].lruvec)
				continue;
			r = lane__heat(model, row->memcg_id, model->nodes[i],
				       row->cells[i].wait_ns_per_s);
			if (!(r > 0) || (n == want && !lane__hotter(r, heat[n - 1])))
				continue;
			for (at = n; at > 0 && lane__hotter(r, heat[at - 1]); at--)
				;
			if (n < want)
				n++;
			memmove(&gui->hot[at + 1], &gui->hot[at],
				(n - 1 - at) * sizeof(gui->hot[0]));
			memmove(&heat[at + 1], &heat[at], (n - 1 - at) * sizeof(heat[0]));
			gui->hot[at] = (struct gui_lane){ row->memcg_id, model->nodes[i], i };
			heat[at] = r;
		}
	}
	gui->nr_hot = n;
	gui->hot_pushes = model->pushes;
	gui->hot_view = model->visible;
	gui->hot_nr_visible = model->nr_visible;
}

void gui__lanes_compute(struct lrs_gui *gui, const struct lrs_model *model)
{
	const struct lrs_row *sel = lrs_model__selected_row(model);
	long vis[LRS_GUI_MAX_LANES];
	size_t want = gui->lane_cap ? gui->lane_cap : 12, n = 0;
	bool have_sel = false;

	if (want > LRS_GUI_MAX_LANES)
		want = LRS_GUI_MAX_LANES;
	gui->nr_lanes = 0;
	if (!model->nr_nodes)
		return;
	if (gui->lane_mode == GUI_LANES_MEMCG && sel) {
		for (size_t i = 0; i < model->nr_nodes && n < LRS_GUI_MAX_LANES; i++)
			gui->lanes[n++] = (struct gui_lane){ sel->memcg_id, model->nodes[i], i };
		gui->nr_lanes = n;
		return;
	}
	/* the scan only when the data or the visible rows changed, not per key */
	if (gui->hot_pushes != model->pushes || gui->hot_view != model->visible ||
	    gui->hot_nr_visible != model->nr_visible)
		hot__scan(gui, model);
	n = gui->nr_hot < want ? gui->nr_hot : want;
	memcpy(gui->lanes, gui->hot, n * sizeof(gui->lanes[0]));
	for (size_t i = 0; sel && i < n; i++)
		if (gui->lanes[i].memcg_id == sel->memcg_id &&
		    gui->lanes[i].node_idx == model->sel_node_idx)
			have_sel = true;
	if (sel && !have_sel && model->sel_node_idx < model->nr_nodes) {
		if (n == want)
			n--;
		gui->lanes[n++] = (struct gui_lane){ sel->memcg_id,
						     model->nodes[model->sel_node_idx],
						     model->sel_node_idx };
	}
	/* tree order: the order of the visible rows, then node */
	for (size_t i = 0; i < n; i++)
		gui__row_by_id(model, gui->lanes[i].memcg_id, &vis[i]);
	for (size_t i = 1; i < n; i++) {
		struct gui_lane l = gui->lanes[i];
		long li = vis[i];
		size_t j = i;

		while (j > 0 && (vis[j - 1] > li ||
				 (vis[j - 1] == li && gui->lanes[j - 1].node_idx > l.node_idx))) {
			gui->lanes[j] = gui->lanes[j - 1];
			vis[j] = vis[j - 1];
			j--;
		}
		gui->lanes[j] = l;
		vis[j] = li;
	}
	gui->nr_lanes = n;
}

const struct gui_hist_ring *gui__ring(const struct lrs_gui *gui, uint64_t memcg_id, int node)
{
	for (size_t i = 0; i < GUI_RINGS; i++)
		if (gui->rings[i].used && gui->rings[i].memcg_id == memcg_id &&
		    gui->rings[i].node == node)
			return &gui->rings[i];
	return NULL;
}

void gui__ring_free(struct gui_hist_ring *r)
{
	free(r->push);
	free(r->interval_s);
	free(r->hist);
	memset(r, 0, sizeof(*r));
}

/* The ring of (memcg_id, node), taking the least recently tracked one if new. */
static struct gui_hist_ring *ring__get(struct lrs_gui *gui, uint64_t memcg_id, int node)
{
	struct gui_hist_ring *r = (struct gui_hist_ring *)gui__ring(gui, memcg_id, node),
			     *old = NULL;

	if (r)
		return r;
	for (size_t i = 0; i < GUI_RINGS; i++) {
		r = &gui->rings[i];
		if (!r->used) {
			old = r;
			break;
		}
		if (!old || r->last_use < old->last_use)
			old = r;
	}
	r = old;
	if (r->used && r->last_use == gui->observed)
		return NULL; /* every ring is tracked now */
	if (!r->push) {
		r->push = calloc(gui->ring_cap, sizeof(*r->push));
		r->interval_s = calloc(gui->ring_cap, sizeof(*r->interval_s));
		r->hist = calloc(gui->ring_cap, sizeof(*r->hist));
		if (!r->push || !r->interval_s || !r->hist) {
			gui__ring_free(r);
			return NULL;
		}
	} else {
		memset(r->push, 0, gui->ring_cap * sizeof(*r->push));
	}
	r->used = true;
	r->memcg_id = memcg_id;
	r->node = node;
	return r;
}

static void ring__record(struct lrs_gui *gui, const struct lrs_model *model,
			 const struct lrs_row *row, size_t node_idx)
{
	struct gui_hist_ring *r = ring__get(gui, row->memcg_id, model->nodes[node_idx]);
	size_t slot;

	if (!r)
		return;
	r->last_use = gui->observed;
	slot = model->pushes % gui->ring_cap;
	r->push[slot] = model->pushes;
	r->interval_s[slot] = (float)model->interval_s;
	for (int b = 0; b < LRS_HIST_BUCKETS; b++)
		r->hist[slot][b] = (uint32_t)(row->cells[node_idx].hist[b] > UINT32_MAX ?
						      UINT32_MAX :
						      row->cells[node_idx].hist[b]);
}

void lrs_gui__observe(struct lrs_gui *gui, const struct lrs_model *model)
{
	const struct lrs_row *sel = lrs_model__selected_row(model);

	if (!gui || !model->prev)
		return;
	if (!gui->ring_cap)
		gui->ring_cap = model->history_cap;
	gui->observed++;
	gui__lanes_compute(gui, model);
	/* the selection first: it must get a ring */
	if (sel && model->sel_node_idx < model->nr_nodes)
		ring__record(gui, model, sel, model->sel_node_idx);
	for (size_t i = 0; i < gui->nr_lanes; i++) {
		const struct lrs_row *row = gui__row_by_id(model, gui->lanes[i].memcg_id, NULL);

		if (row && gui->lanes[i].node_idx < model->nr_nodes &&
		    !(sel && row == sel && gui->lanes[i].node_idx == model->sel_node_idx))
			ring__record(gui, model, row, gui->lanes[i].node_idx);
	}
}

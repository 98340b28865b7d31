// SPDX-License-Identifier: GPL-2.0
/* The model as the GUI names and scales it: row labels, lruvec names, time columns, the heat scale. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/layout.h"

bool gui__tree_view(const struct lrs_model *model)
{
	return model->sort == LRS_SORT_NAME && !model->filter[0];
}

/* A row's label: in the tree, indented leaf names; otherwise whole paths. */
const char *gui__row_label(const struct lrs_model *model, const struct lrs_row *row, int *indent)
{
	const char *slash;

	*indent = 0;
	if (!row->memcg)
		return "?";
	if (!gui__tree_view(model) || !strcmp(row->memcg, "/"))
		return row->memcg;
	*indent = row->depth > 0 ? 2 * (row->depth - 1) : 0;
	slash = strrchr(row->memcg, '/');
	return slash && slash[1] ? slash + 1 : row->memcg;
}

int gui__name_chars(const struct lrs_model *model)
{
	int best = 0;

	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];
		int indent, n = (int)strlen(gui__row_label(model, row, &indent)) + indent;

		if (n > best)
			best = n;
	}
	return best;
}

char *gui__lruvec_name(char *buf, size_t len, const struct lrs_model *model, uint64_t memcg_id,
		       int node)
{
	const struct lrs_row *row = gui__row_by_id(model, memcg_id, NULL);
	char path[256];

	gui__sanitize(path, sizeof(path), row && row->memcg ? row->memcg : "?");
	return lrs_lruvec__label(path, node, buf, len);
}

/* The model push shown in time column c, or 0 for none yet. */
uint64_t gui__column_push(const struct lrs_gui *g, const struct lrs_model *model, size_t c)
{
	size_t back = g->layout.columns - 1 - c;

	return model->pushes > back ? model->pushes - back : 0;
}

/* The history index of time column c, or -1: columns end with the newest entry. */
long gui__column_history(const struct lrs_gui *g, const struct lrs_model *model, size_t c)
{
	long j = (long)c - (long)(g->layout.columns - model->history_len);

	return j >= 0 && (size_t)j < model->history_len ? j : -1;
}

const uint32_t *gui__ring_column(const struct lrs_gui *g, const struct gui_hist_ring *r,
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

const struct gui_hist_ring *gui__selected_ring(const struct lrs_gui *g,
					       const struct lrs_model *model)
{
	const struct lrs_row *sel = lrs_model__selected_row(model);

	if (!sel || model->sel_node_idx >= model->nr_nodes)
		return NULL;
	return gui__ring(g, sel->memcg_id, model->nodes[model->sel_node_idx]);
}

/* The heatmap's metric: its value, the top of its scale, its number. */
bool gui__metric_pages(const struct lrs_model *model)
{
	return model->metric == LRS_METRIC_LRU_PAGES;
}

double gui__heat_max(const struct lrs_gui *g, const struct lrs_model *model)
{
	return gui__metric_pages(model) ? lrs_model__metric_max(model) : g->scale_max;
}

char *gui__heat_fmt(char *buf, size_t len, const struct lrs_model *model, double v)
{
	if (!gui__metric_pages(model))
		return lrs_fmt__rate_ns(buf, len, v);
	lrs_fmt__count(buf, len, v);
	if (strlen(buf) + 2 < len)
		strcat(buf, "p");
	return buf;
}

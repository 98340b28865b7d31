// SPDX-License-Identifier: GPL-2.0
/* The heatmap: a row per memcg, a cell per node; the rows' names and heading both views share. */
#include <stdio.h>
#include <string.h>

#include "ui/tui/tui_internal.h"

/* Tree order, unfiltered: leaf names indented under their parents; else whole paths. */
static bool tree_view(const struct lrs_model *model)
{
	return model->sort == LRS_SORT_NAME && !model->filter[0];
}

static int row_indent(const struct lrs_model *model, const struct lrs_row *row)
{
	if (!tree_view(model))
		return 0;
	return row->depth > 8 ? 16 : 2 * row->depth;
}

static const char *row_label(const struct lrs_model *model, const struct lrs_row *row)
{
	const char *slash;

	if (!row->memcg)
		return "?";
	if (!tree_view(model) || row->depth == 0)
		return row->memcg;
	slash = strrchr(row->memcg, '/');
	return slash && slash[1] ? slash + 1 : row->memcg;
}

int tui__name_len(const struct lrs_model *model)
{
	int longest = 0;

	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];
		int n = row_indent(model, row) + (int)strlen(row_label(model, row)) +
			(row->removed ? 10 : 0);

		if (n > longest)
			longest = n;
	}
	return longest;
}

/*
 * The column header's line in both views: underlined, the name column's
 * heading on it. Returns false if there is no room for the line.
 */
bool tui__draw_colhdr_line(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->colhdr_y;
	attr_t a = A_BOLD | A_UNDERLINE;

	if (y >= l->status_y)
		return false;
	tui__fill(y, 0, l->width, a);
	tui__putf(y, 0, l->name_w - 1, a, " memcg%s",
		  model->sort == LRS_SORT_NAME ? " (tree)" : "");
	return true;
}

void tui__draw_colhdr(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->colhdr_y;
	attr_t a = A_BOLD | A_UNDERLINE;

	if (!tui__draw_colhdr_line(tui, model))
		return;
	if (l->first_node > 0)
		tui__put(y, l->name_w - 2, 2, a, "<<");
	for (size_t i = l->first_node; i < l->first_node + l->nr_node_cols; i++) {
		int x = lrs_view_layout__node_x(l, i);
		attr_t ca = a | (i == model->sel_node_idx ? A_REVERSE : 0);
		char node[16];

		snprintf(node, sizeof(node), "N%d", model->nodes[i]);
		tui__putf(y, x + 1, l->cell_w - 1, ca, " %*s", LRS_CELL_WAIT_W, node);
	}
	if (l->first_node + l->nr_node_cols < model->nr_nodes)
		tui__put(y, l->name_w + (int)l->nr_node_cols * l->cell_w, 2, a, ">>");
	if (l->total_w)
		tui__putf(y, l->name_w + (int)l->nr_node_cols * l->cell_w + 1, l->total_w - 1, a,
			  "%*s", l->total_w - 1, "all nodes");
}

/* What a walk says of a lock word in the count column: held, waited on, or nothing. */
static const char *lock_mark(const struct lrs_lruvec_walk *w)
{
	if (!w->known)
		return "";
	return w->locked ? "held" : w->pending || w->tail_cpu >= 0 ? "wait" : "";
}

/* A cell of the LRU pages metric: exact pages while they fit, and the lock mark. */
static void draw_cell_pages(struct lrs_tui *tui, const struct lrs_model *model, int y, int x,
			    const struct lrs_cell *cell, bool selected)
{
	const struct lrs_view_layout *l = &tui->layout;
	uint64_t pages = lrs_lruvec__lru_total(cell->lruvec);
	int level = lrs_colour__level((double)pages, lrs_model__metric_max(model));
	const char *mark = lock_mark(&cell->lruvec->walk);
	attr_t a = tui->level_attr[level] | (selected ? A_REVERSE | A_BOLD : 0);
	char vbuf[32];

	if (pages < 10000000)
		snprintf(vbuf, sizeof(vbuf), "%llu", (unsigned long long)pages);
	else
		lrs_fmt__count(vbuf, sizeof(vbuf), (double)pages);
	tui__fill(y, x + 1, l->cell_w - 1, a);
	tui__putf(y, x + 1, l->cell_w - 1, a, "%c%*s",
		  tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ', LRS_CELL_WAIT_W,
		  pages ? vbuf : ".");
	if (l->cell_counts && mark[0])
		tui__putf(y, x + 2 + LRS_CELL_WAIT_W, l->cell_w - 2 - LRS_CELL_WAIT_W,
			  a | tui->warn_attr | A_BOLD, " %*s", LRS_CELL_COUNT_W, mark);
}

/* One heatmap cell: the wait rate and count in the level's colour. */
static void draw_cell(struct lrs_tui *tui, const struct lrs_model *model, int y, int x,
		      const struct lrs_cell *cell, bool selected)
{
	const struct lrs_view_layout *l = &tui->layout;
	char wbuf[32], cbuf[32];
	int level;
	attr_t a;

	if (!cell->lruvec) {
		if (selected)
			tui__fill(y, x + 1, l->cell_w - 1, A_REVERSE);
		return;
	}
	if (model->metric == LRS_METRIC_LRU_PAGES) {
		draw_cell_pages(tui, model, y, x, cell, selected);
		return;
	}
	level = lrs_colour__level(cell->wait_ns_per_s, model->max_cell_wait_ns_per_s);
	a = tui->level_attr[level] | (selected ? A_REVERSE | A_BOLD : 0);
	if (level == 0) {
		tui__fill(y, x + 1, l->cell_w - 1, a);
		tui__putf(y, x + 2, l->cell_w - 2, a, "%*s", LRS_CELL_WAIT_W, ".");
		return;
	}
	/* the glyph column says the level where colour cannot */
	lrs_fmt__rate_ns(wbuf, sizeof(wbuf), cell->wait_ns_per_s);
	if (l->cell_counts)
		tui__putf(y, x + 1, l->cell_w - 1, a, "%c%*s %*s",
			  tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ',
			  LRS_CELL_WAIT_W, wbuf, LRS_CELL_COUNT_W,
			  lrs_fmt__count(cbuf, sizeof(cbuf), cell->contended_per_s));
	else
		tui__putf(y, x + 1, l->cell_w - 1, a, "%c%*s",
			  tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ',
			  LRS_CELL_WAIT_W, wbuf);
}

/* Instead of rows: no snapshot yet, or none to show. Returns true if it said so. */
static bool draw_rows_placeholder(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;

	if (!model->cur) {
		tui__put(l->rows_y, 1, l->width - 1, tui->faint_attr,
			 "waiting for the first snapshot...");
		return true;
	}
	if (!model->nr_visible) {
		tui__put(l->rows_y, 1, l->width - 1, tui->faint_attr,
			 model->filter[0] ? "no memcg matches the filter (/ to change it)" :
					    "no memcgs in the snapshot");
		return true;
	}
	return false;
}

/* A row's name column: the selection mark, the indented (tree) or whole path. */
static void draw_row_name(struct lrs_tui *tui, const struct lrs_model *model,
			  const struct lrs_row *row, int y, bool is_sel)
{
	const struct lrs_view_layout *l = &tui->layout;
	int indent = row_indent(model, row);
	char name[512], label[512];
	attr_t na;

	if (indent > l->name_w / 4)
		indent = l->name_w / 4;
	tui__sanitize(name, sizeof(name), row_label(model, row));
	if (row->removed)
		strncat(name, " (removed)", sizeof(name) - strlen(name) - 1);
	lrs_fmt__path(label, sizeof(label), name, l->name_w - 2 - indent);
	na = (row->removed ? A_DIM : 0) | (is_sel ? A_REVERSE | A_BOLD : 0);
	if (is_sel)
		tui__put(y, 0, 1, A_BOLD, ">");
	tui__putf(y, 1 + indent, l->name_w - 2 - indent, na, "%s", label);
}

/*
 * The rows on screen, in both views: each row's name, then draw_rest for what
 * is right of it (r: its line among the rows); a placeholder if none is shown.
 */
void tui__draw_each_row(struct lrs_tui *tui, const struct lrs_model *model,
			void (*draw_rest)(struct lrs_tui *tui, const struct lrs_model *model,
					  const struct lrs_row *row, int r, bool is_sel))
{
	const struct lrs_view_layout *l = &tui->layout;
	long sel = lrs_model__selected_index(model);

	if (l->rows_h <= 0 || draw_rows_placeholder(tui, model))
		return;
	for (int r = 0; r < l->rows_h; r++) {
		size_t vi = tui->top + (size_t)r;
		const struct lrs_row *row;
		int y = l->rows_y + r;
		bool is_sel = (long)vi == sel;

		if (vi >= model->nr_visible)
			break;
		row = &model->rows[model->visible[vi]];
		draw_row_name(tui, model, row, y, is_sel);
		draw_rest(tui, model, row, r, is_sel);
	}
}

/* A heatmap row right of its name: a cell per node shown, then the all nodes total. */
static void draw_row_cells(struct lrs_tui *tui, const struct lrs_model *model,
			   const struct lrs_row *row, int r, bool is_sel)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->rows_y + r;

	for (size_t n = l->first_node; n < l->first_node + l->nr_node_cols; n++)
		draw_cell(tui, model, y, lrs_view_layout__node_x(l, n), &row->cells[n],
			  is_sel && n == model->sel_node_idx);
	if (l->total_w && model->metric == LRS_METRIC_LRU_PAGES) {
		uint64_t pages = 0;

		for (size_t n = 0; n < model->nr_nodes; n++)
			pages += lrs_lruvec__lru_total(row->cells[n].lruvec);
		tui__putf(y, l->name_w + (int)l->nr_node_cols * l->cell_w + 1, l->total_w - 1,
			  A_BOLD, " %*llu", LRS_CELL_WAIT_W, (unsigned long long)pages);
	} else if (l->total_w && row->wait_ns) {
		char wbuf[32], cbuf[32];
		int x = l->name_w + (int)l->nr_node_cols * l->cell_w + 1;

		lrs_fmt__rate_ns(wbuf, sizeof(wbuf), tui__row_per_s(model, row->wait_ns));
		if (l->total_w >= LRS_CELL_FULL_W)
			tui__putf(y, x, l->total_w - 1, A_BOLD, " %*s %*s", LRS_CELL_WAIT_W, wbuf,
				  LRS_CELL_COUNT_W,
				  lrs_fmt__count(cbuf, sizeof(cbuf),
						 tui__row_per_s(model, row->contended)));
		else
			tui__putf(y, x, l->total_w - 1, A_BOLD, " %*s", LRS_CELL_WAIT_W, wbuf);
	}
}

void tui__draw_rows(struct lrs_tui *tui, const struct lrs_model *model)
{
	tui__draw_each_row(tui, model, draw_row_cells);
}

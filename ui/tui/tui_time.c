// SPDX-License-Identifier: GPL-2.0
/* The time view (key t): each row's wait/s history as a strip of cells, and its time axis. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/tui/tui_internal.h"

/*
 * One row's strip into out (nr_time_cols values): the wait/s of each snapshot
 * on the selected node, or summed over all nodes; NAN before the history.
 */
static void strip__values(const struct lrs_tui *tui, const struct lrs_model *model,
			  const struct lrs_row *row, double *out)
{
	size_t cols = tui->layout.nr_time_cols, n0 = model->sel_node_idx, n1 = n0 + 1;
	long first = lrs_view_layout__history_index(0, cols, model->history_len);

	if (tui->time_all_nodes) {
		n0 = 0;
		n1 = model->nr_nodes;
	}
	for (size_t c = 0; c < cols; c++)
		out[c] = lrs_view_layout__history_index(c, cols, model->history_len) < 0 ? NAN : 0;
	for (size_t n = n0; n < n1 && n < model->nr_nodes; n++) {
		const struct lrs_history *h =
			lrs_model__history(model, row->memcg_id, model->nodes[n]);

		if (!h)
			continue;
		/* columns map to consecutive history entries from the first one shown on */
		for (size_t c = 0; c < cols; c++) {
			long j = first >= 0 ? first + (long)c :
					      lrs_view_layout__history_index(c, cols,
									     model->history_len);

			if (j >= 0)
				out[c] += lrs_history__at(model, h, (size_t)j);
		}
	}
}

/* The strips of the rows on screen, and the top of their colour scale. */
void tui__strips_compute(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	size_t cols = l->nr_time_cols, need = (size_t)(l->rows_h > 0 ? l->rows_h : 0) * cols;

	tui->strips_max = 0;
	if (need > tui->strips_cap) {
		double *p = realloc(tui->strips, need * sizeof(*p));

		if (!p)
			return;
		tui->strips = p;
		tui->strips_cap = need;
	}
	for (int r = 0; r < l->rows_h && model->cur; r++) {
		size_t vi = tui->top + (size_t)r;
		double *v = &tui->strips[(size_t)r * cols];

		if (vi >= model->nr_visible)
			break;
		strip__values(tui, model, &model->rows[model->visible[vi]], v);
		for (size_t c = 0; c < cols; c++)
			if (v[c] > tui->strips_max)
				tui->strips_max = v[c];
	}
}

/* A strip cell's colour level: 0 (blank) for no wait and before the history. */
static int strip__level(double v, double max)
{
	return isnan(v) ? 0 : lrs_colour__level(v, max);
}

/* One strip, in runs of one level: coloured blanks, or glyphs without colour. */
static void draw_strip(struct lrs_tui *tui, const double *v, int y)
{
	const struct lrs_view_layout *l = &tui->layout;
	size_t cols = l->nr_time_cols, c = 0;

	while (c < cols) {
		int level = strip__level(v[c], tui->strips_max), x = l->strip_x + (int)c;
		size_t end = c + 1;
		chtype ch;

		while (end < cols && strip__level(v[end], tui->strips_max) == level)
			end++;
		/* no wait stays blank: the rows that waited stand out */
		if (level > 0) {
			ch = tui->mode == LRS_COLOUR_NONE ? (chtype)lrs_colour__glyph(level) : ' ';
			attron(tui->level_attr[level]);
			mvhline(y, x, ch, (int)(end - c));
			attroff(tui->level_attr[level]);
		}
		c = end;
	}
}

/* The row's wait/s in the last interval, right of its strip. */
static void draw_time_value(struct lrs_tui *tui, const struct lrs_model *model,
			    const struct lrs_row *row, int y, bool is_sel)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct lrs_cell *cell = model->nr_nodes ? &row->cells[model->sel_node_idx] : NULL;
	double v = tui->time_all_nodes ? tui__row_per_s(model, row->wait_ns) :
		   cell		       ? cell->wait_ns_per_s :
					 0;
	bool none = !tui->time_all_nodes && (!cell || !cell->lruvec);
	attr_t a = is_sel ? A_REVERSE | A_BOLD : v > 0 ? A_BOLD : tui->faint_attr;
	char buf[32];

	tui__putf(y, l->value_x + 1, LRS_TIME_VALUE_W - 1, a, " %*s", LRS_CELL_WAIT_W,
		  none	? "-" :
		  v > 0 ? lrs_fmt__rate_ns(buf, sizeof(buf), v) :
			  ".");
}

/* Headings: which node the strips show (the selected one reversed), and "now". */
void tui__draw_time_colhdr(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->colhdr_y, end = l->value_x, x;
	attr_t a = A_BOLD | A_UNDERLINE;

	if (!tui__draw_colhdr_line(tui, model))
		return;
	/* over the strips, and the blank left of a short ring's strip */
	x = tui__put(y, l->name_w + 1, end - l->name_w - 1, a, "wait/s history of");
	for (size_t n = 0; n < model->nr_nodes && x < end; n++) {
		bool sel = !tui->time_all_nodes && n == model->sel_node_idx;

		x = tui__put(y, x, end - x, a, " ");
		x = tui__putf(y, x, end - x, a | (sel ? A_REVERSE : 0), "N%d", model->nodes[n]);
	}
	if (model->nr_nodes > 1) {
		x = tui__put(y, x, end - x, a, " ");
		x = tui__put(y, x, end - x, a | (tui->time_all_nodes ? A_REVERSE : 0), "all nodes");
		tui__put(y, x, end - x, a, "  (<- -> pick)");
	}
	tui__putf(y, l->value_x, LRS_TIME_VALUE_W, a, "%*s", LRS_TIME_VALUE_W, "now");
}

/* A time view row right of its name: its strip, then its wait/s now. */
static void draw_time_row(struct lrs_tui *tui, const struct lrs_model *model,
			  const struct lrs_row *row, int r, bool is_sel)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->rows_y + r;

	if (tui->strips && (size_t)l->rows_h * l->nr_time_cols <= tui->strips_cap)
		draw_strip(tui, &tui->strips[(size_t)r * l->nr_time_cols], y);
	draw_time_value(tui, model, row, y, is_sel);
}

void tui__draw_time_rows(struct lrs_tui *tui, const struct lrs_model *model)
{
	tui__draw_each_row(tui, model, draw_time_row);
}

/* Under the strips: "-60s" and the like ending at their snapshot's column, "now" last. */
void tui__draw_time_axis(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	double iv = model->interval_s > 0 ? model->interval_s : tui->interval_s;
	struct lrs_time_tick ticks[64];
	size_t n;
	char cell[32];

	if (l->axis_y < 0 || !l->nr_time_cols)
		return;
	/* timers drift (0.999s): say the interval asked for when the measured one is near */
	if (tui->interval_s > 0 && fabs(iv - tui->interval_s) <= 0.1 * tui->interval_s)
		iv = tui->interval_s;
	n = lrs_view_layout__time_ticks(ticks, 64, l->nr_time_cols, iv);
	/* one instant (a walk) has no interval: only "now" */
	cell[0] = '\0';
	if (iv > 0)
		snprintf(cell, sizeof(cell), "a cell: %.3gs", iv);
	tui__putf(l->axis_y, 0, l->strip_x - 1, tui->faint_attr, "%*s", l->strip_x - 1, cell);
	attron(tui->faint_attr);
	mvhline(l->axis_y, l->strip_x, ACS_HLINE, (int)l->nr_time_cols);
	attroff(tui->faint_attr);
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(ticks[i].label);
		int x = l->strip_x + (int)ticks[i].col - len + 1;

		/* blanks around a label keep it off the rule */
		if (x > l->strip_x)
			tui__put(l->axis_y, x - 1, 1, 0, " ");
		x = tui__put(l->axis_y, x, len, i == 0 ? A_BOLD : 0, ticks[i].label);
		if (i > 0)
			tui__put(l->axis_y, x, 1, 0, " ");
	}
}

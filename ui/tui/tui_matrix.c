// SPDX-License-Identifier: GPL-2.0
/* The holders' memcg x memcg matrix (key x), drawn over the heatmap. */
#include <string.h>

#include "ui/tui/tui_internal.h"

/*
 * The memcg x memcg matrix (key x), over the heatmap: rows the waiting memcg,
 * columns the lruvec owner's memcg or the holder's (key c); each cell the wait
 * imposed since start, coloured on the heatmap's scale (top: the largest cell).
 */
void tui__draw_matrix(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct lrs_holders *hs = model->cur ? model->cur->holders : NULL;
	struct lrs_holders_matrix *m = &tui->mx;
	int y0 = l->legend_y >= 0 ? l->legend_y : l->header_y + l->header_h, w = l->width;
	int name_w, col_w, y, x;
	char t[256], buf[64];

	for (y = y0; y < l->status_y; y++)
		tui__fill(y, 0, w, 0);
	tui__rule(y0, 0, w, tui->faint_attr, NULL);
	tui__putf(y0, 2, w - 4, A_BOLD,
		  " memcg x memcg: wait imposed since start; "
		  "rows: waiting memcg, columns: %s ",
		  tui->matrix_by_holder ? "holder's memcg" : "lruvec owner");
	tui__put(y0 + 1, 1, w - 1, tui->faint_attr,
		 tui->matrix_by_holder ? "c: columns by lruvec owner   x: back to the heatmap" :
					 "c: columns by holder's memcg   x: back to the heatmap");
	if (!hs) {
		tui__put(
			y0 + 3, 1, w - 1, tui->warn_attr,
			"holders are off: start with --holders (or replay a recording made with it)");
		return;
	}
	if (lrs_holders_view__matrix(hs, tui->matrix_by_holder, m)) {
		tui__put(y0 + 3, 1, w - 1, tui->warn_attr, "out of memory for the matrix");
		return;
	}
	if (!m->nr_rows) {
		tui__put(y0 + 3, 1, w - 1, tui->faint_attr, "no holder was seen");
		return;
	}
	/* as wide as the names need, within the screen: a column at least 11 cells */
	name_w = 16;
	for (size_t r = 0; r < m->nr_rows; r++) {
		int n = (int)strlen(lrs_holders_view__name(hs, m->row_ids[r])) + 1;

		name_w = n > name_w ? n : name_w;
	}
	name_w = name_w > w / 3 ? w / 3 : name_w;
	col_w = 11;
	for (size_t k = 0; k < m->nr_cols; k++) {
		int n = (int)strlen(lrs_holders_view__name(hs, m->col_ids[k])) + 2;

		col_w = n > col_w ? n : col_w;
	}
	if (col_w > (w - name_w) / (int)m->nr_cols)
		col_w = (w - name_w) / (int)m->nr_cols;
	col_w = col_w < 11 ? 11 : col_w > 40 ? 40 : col_w;
	y = y0 + 3;
	tui__putf(y, 0, name_w, A_BOLD, "%*s", name_w,
		  tui->matrix_by_holder ? "waiter \\ holder" : "waiter \\ owner");
	for (size_t k = 0; k < m->nr_cols && name_w + (int)(k + 1) * col_w <= w; k++) {
		tui__sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->col_ids[k]));
		lrs_fmt__path(buf, sizeof(buf), t, col_w - 1);
		tui__putf(y, name_w + (int)k * col_w, col_w, A_BOLD, " %*s", col_w - 1, buf);
	}
	for (size_t r = 0; r < m->nr_rows && ++y < l->status_y; r++) {
		tui__sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->row_ids[r]));
		lrs_fmt__path(buf, sizeof(buf), t, name_w - 1);
		tui__putf(y, 0, name_w, A_BOLD, "%-*s", name_w, buf);
		for (size_t k = 0; k < m->nr_cols; k++) {
			uint64_t v = m->vals[r * LRS_HOLDERS_MATRIX_MAX + k];
			int level = lrs_colour__level((double)v, (double)m->max);

			x = name_w + (int)k * col_w;
			if (x + col_w > w)
				break;
			tui__fill(y, x + 1, col_w - 1, tui->level_attr[level]);
			tui__putf(y, x + 1, col_w - 1, tui->level_attr[level], "%c%*s",
				  tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ',
				  col_w - 2, v ? lrs_fmt__ns(t, sizeof(t), (double)v) : ".");
		}
	}
}

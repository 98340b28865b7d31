// SPDX-License-Identifier: GPL-2.0
/* The lines above the rows: the header (source, totals, drops, view) and the colour legend. */
#include <math.h>
#include <stdio.h>

#include "ui/tui/tui_internal.h"

/* The header's counters for one instant: LRU pages and lock words of the snapshot. */
static void draw_header_instant(struct lrs_tui *tui, const struct lrs_model *model, int y, int x)
{
	const struct lrs_snapshot *cur = model->cur;
	uint64_t pages = 0;
	size_t busy = 0;
	int w = tui->layout.width;
	char a[32];

	x = tui__putf(y, x, w - x, 0, "  %s, one instant  |  ",
		      tui->source_name ? tui->source_name : "");
	for (size_t i = 0; cur && i < cur->nr_lruvecs; i++)
		pages += lrs_lruvec__lru_total(&cur->lruvecs[i]);
	busy = lrs_snapshot__walk_locks_busy(cur);
	x = tui__putf(y, x, w - x, A_BOLD, "%s", lrs_fmt__count(a, sizeof(a), (double)pages));
	x = tui__putf(y, x, w - x, 0, " LRU pages in %zu lruvecs, ", cur ? cur->nr_lruvecs : 0);
	tui__putf(y, x, w - x, busy ? tui->warn_attr : 0, "%zu lock%s held or waited on", busy,
		  busy == 1 ? "" : "s");
}

/* "WAIT/s N/s" of a kind of lock (the wait rate bold); returns the column after it */
static int put_rates(const struct lrs_model *model, int y, int x, int w, uint64_t wait_ns,
		     uint64_t contended)
{
	char a[32], b[32];

	x = tui__putf(y, x, w - x, A_BOLD, "%s",
		      lrs_fmt__rate_ns(a, sizeof(a), tui__row_per_s(model, wait_ns)));
	return tui__putf(y, x, w - x, 0, " %s/s",
			 lrs_fmt__count(b, sizeof(b), tui__row_per_s(model, contended)));
}

void tui__draw_header(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct lrs_snapshot *cur = model->cur;
	int y = l->header_y, w = l->width, x;

	if (l->header_h < 1)
		return;
	x = tui__put(y, 0, w, A_BOLD, "lruscope");
	x = tui__putf(y, x, w - x, 0, "  %s", cur && cur->kernel[0] ? cur->kernel : "kernel ?");
	if (tui__one_instant(tui)) {
		draw_header_instant(tui, model, y, x);
		goto line2;
	}
	x = tui__putf(y, x, w - x, 0, "  %s every %.3gs", tui->source_name ? tui->source_name : "",
		      tui->interval_s);
	if (model->prev && fabs(model->interval_s - tui->interval_s) > 0.1 * tui->interval_s)
		x = tui__putf(y, x, w - x, 0, " (last %.3gs)", model->interval_s);
	x = tui__put(y, x, w - x, 0, "  |  lruvec locks ");
	if (!model->prev) {
		x = tui__put(y, x, w - x, tui->warn_attr, "first interval...");
	} else {
		x = put_rates(model, y, x, w, model->lruvec_wait_ns, model->lruvec_contended);
		x = tui__put(y, x, w - x, 0, "  other locks ");
		x = put_rates(model, y, x, w, model->other_wait_ns, model->other_contended);
	}
	if (tui->state.paused)
		tui__put(y, x + 2 < w ? x + 2 : x, w - x - 2, tui->warn_attr | A_REVERSE,
			 " PAUSED ");

line2:
	if (l->header_h < 2)
		return;
	y++;
	x = tui__put(y, 0, w, 0, tui__one_instant(tui) ? "" : "drops:");
	if (cur && !tui__one_instant(tui)) { /* a walk drops no events */
		/*
		 * short names, and a refused insert only when there was one: the line also
		 * holds the memcg count and the rows shown, at 80 columns
		 */
		static const char *const names[] = { "task", "stack", "map full", "insert",
						     "negative" };
		const uint64_t v[] = { cur->drops.task, cur->drops.stack, cur->drops.stats_full,
				       cur->drops.insert_failed, cur->drops.negative_time };
		const int n = sizeof(v) / sizeof(v[0]);

		for (int i = 0; i < n; i++) {
			if (i == 3 && !v[i])
				continue;
			x = tui__putf(y, x, w - x, v[i] ? tui->warn_attr : 0, " %s %llu%s",
				      names[i], (unsigned long long)v[i], i < n - 1 ? "," : "");
		}
	}
	x = tui__putf(y, x, w - x, 0, "%smemcgs %zu, nodes %zu", x ? "  |  " : "", model->nr_rows,
		      model->nr_nodes);
	if (model->nr_visible > (size_t)l->rows_h && l->rows_h > 0) {
		size_t last = tui->top + (size_t)l->rows_h;

		x = tui__putf(y, x, w - x, 0, " (rows %zu-%zu of %zu)", tui->top + 1,
			      last < model->nr_visible ? last : model->nr_visible,
			      model->nr_visible);
	}
	x = tui__put(y, x, w - x, 0, "  |  sort ");
	x = tui__put(y, x, w - x, A_BOLD, lrs_sort_names[model->sort % LRS_NR_SORTS]);
	if (model->filter[0]) {
		char f[sizeof(model->filter)];

		tui__sanitize(f, sizeof(f), model->filter);
		x = tui__put(y, x, w - x, 0, "  filter ");
		x = tui__putf(y, x, w - x, A_BOLD, "\"%s\"", f);
		x = tui__putf(y, x, w - x, 0, " (%zu shown)", model->nr_visible);
	}

	if (cur && cur->holders) {
		char hh[128];

		lrs_holders_view__header(cur, hh, sizeof(hh));
		x = tui__put(y, x, w - x, 0, "  |  ");
		x = tui__put(y, x, w - x, A_BOLD, hh);
	}

	if (l->header_h < 3 || !cur || !cur->unavailable)
		return;
	y++;
	{
		char u[512];

		tui__sanitize(u, sizeof(u), cur->unavailable);
		tui__putf(y, 0, w, tui->warn_attr, "unavailable: %s", u);
	}
}

/* What the legend's scale covers: the cells of the interval, or the strips shown. */
static const char *legend_note(const struct lrs_tui *tui)
{
	if (tui->time_view)
		return "  (log; strips: wait/s, a cell per snapshot, scale of the rows shown)";
	return tui->layout.cell_counts ? "  (log; cells: wait/s contentions/s)" :
					 "  (log; cells: wait/s)";
}

/* The legend of the LRU pages metric: levels as page counts. */
static void draw_legend_pages(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	double max = lrs_model__metric_max(model);
	int y = l->legend_y, w = l->width, x;
	char v[32];

	x = tui__put(y, 0, w, 0, "LRU pages ");
	if (!(max > 0)) {
		tui__put(y, x, w - x, tui->faint_attr, "(log scale; no pages on any LRU list)");
		return;
	}
	for (int lv = 1; lv <= LRS_COLOUR_LEVELS && x < w; lv++) {
		char label[16];

		double low = lv == 1 ? 1 : lrs_colour__level_low(lv, max);

		/* whole pages: "6.3" pages says nothing */
		if (low < 1000)
			snprintf(label, sizeof(label), "%.0f", low);
		else
			lrs_fmt__count(label, sizeof(label), low);
		if (tui->mode == LRS_COLOUR_NONE)
			x = tui__putf(y, x, w - x, tui->level_attr[lv], "%c %-6s",
				      lrs_colour__glyph(lv), label);
		else
			x = tui__putf(y, x, w - x, tui->level_attr[lv], " %-6s", label);
	}
	x = tui__putf(y, x, w - x, 0, " max %s", lrs_fmt__count(v, sizeof(v), max));
	tui__put(y, x, w - x, tui->faint_attr, "  (log; pages on LRU lists; held: lock taken)");
}

void tui__draw_legend(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	double max = tui->time_view ? tui->strips_max : model->max_cell_wait_ns_per_s;
	int y = l->legend_y, w = l->width, x;
	char v[32];

	if (y >= l->status_y)
		return;
	if (!tui->time_view && model->metric == LRS_METRIC_LRU_PAGES) {
		draw_legend_pages(tui, model);
		return;
	}
	x = tui__put(y, 0, w, 0, "lock wait/s ");
	if (!(max > 0)) {
		tui__put(y, x, w - x, tui->faint_attr,
			 tui->time_view ?
				 "(log scale; no lruvec lock contention in the history shown)" :
				 "(log scale; no lruvec lock contention in this interval)");
		return;
	}
	for (int lv = 1; lv <= LRS_COLOUR_LEVELS && x < w; lv++) {
		char label[16];

		if (lv == 1)
			snprintf(label, sizeof(label), ">0");
		else
			lrs_fmt__ns(label, sizeof(label), lrs_colour__level_low(lv, max));
		if (tui->mode == LRS_COLOUR_NONE)
			x = tui__putf(y, x, w - x, tui->level_attr[lv], "%c %-6s",
				      lrs_colour__glyph(lv), label);
		else
			x = tui__putf(y, x, w - x, tui->level_attr[lv], " %-6s", label);
	}
	x = tui__putf(y, x, w - x, 0, " max %s", lrs_fmt__rate_ns(v, sizeof(v), max));
	tui__put(y, x, w - x, tui->faint_attr, legend_note(tui));
}

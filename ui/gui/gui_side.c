// SPDX-License-Identifier: GPL-2.0
/*
 * The side panel: the selected lruvec's rates, waiters, holders and their
 * matrix, waiting stacks, LRU list sizes and the other locks.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/lock_names.h"
#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/layout.h"

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
	gui__sanitize(clean, sizeof(clean), buf);
	gui__text(p->g, x, p->y, c, clean, p->w - (x - p->x));
	p->y += lh;
	return true;
}

static void pen__gap(struct pen *p)
{
	p->y += p->g->layout.line_h / 2;
}

/*
 * The interval's sampled wait by kernel path (since the start where it
 * sampled none), one line a cause, largest first.
 */
static bool draw_causes(struct lrs_gui *g, const struct lrs_model *model,
			const struct lrs_cell *cell, struct pen *p)
{
	enum lrs_cause order[LRS_NR_CAUSES];
	struct lrs_causes c;
	bool since_start;
	size_t nr;
	char a[32];

	lrs_detail__causes(model, cell, &c, &since_start);
	nr = lrs_causes__ranked(&c, order);
	if (!pen__line(p, LRS_GUI_ACCENT, 0, "causes%s",
		       since_start ? " since start (none in this interval)" :
		       nr	   ? " (sampled wait)" :
				     ": none sampled"))
		return false;
	for (size_t k = 0; k < nr; k++)
		if (!pen__line(p, order[k] == LRS_CAUSE_UNCLASSIFIED ? LRS_GUI_FAINT : LRS_GUI_TEXT,
			       1, "%4.0f%%  %-14s %8s", 100.0 * lrs_causes__share(&c, order[k]),
			       lrs_cause__title(order[k]),
			       lrs_fmt__ns(a, sizeof(a), (double)c.by[order[k]].wait_ns)))
			return false;
	return true;
}

/*
 * The selected lruvec's top holders: who held its lock while others
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
	if (n) {
		struct lrs_causes c;
		char sum[256];

		lrs_detail__holder_causes(model, &(struct lrs_cell){ .lruvec = lv }, &c);
		if (!pen__line(p, LRS_GUI_TEXT, 1, "held for: %s",
			       lrs_causes__summary(&c, 4, sum, sizeof(sum))))
			return false;
	}
	if (n && !pen__line(p, LRS_GUI_FAINT, 1, "%7s %5s %5s %7s %-10s %s", "imposed", "holds",
			    "behind", "pid", "comm", "memcg"))
		return false;
	for (size_t k = first; k < first + n && k < first + GUI_HOLDERS; k++) {
		const struct lrs_holder_row *r = &hs->rows[k];
		const struct lrs_stack *st = lrs_snapshot__find_stack(model->cur, r->stack_id);
		bool foreign = r->memcg_id && r->memcg_id != lv->memcg_id;
		size_t f0, len = 0;

		gui__sanitize(memcg, sizeof(memcg), r->memcg ? r->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), memcg, gui__chars_fit(g, p->w) - 41);
		lrs_fmt__ns(a, sizeof(a), (double)r->imposed_ns);
		lrs_fmt__count(b, sizeof(b), (double)r->holds);
		if (!r->pid) {
			if (!pen__line(p, LRS_GUI_FAINT, 1,
				       "%7s %5s %5.1f       - (unknown holder)", a, b,
				       r->holds ? (double)r->waiters / (double)r->holds : 0.0))
				return false;
			continue;
		}
		if (!pen__line(p, foreign ? LRS_GUI_WARN : LRS_GUI_TEXT, 1,
			       "%7s %5s %5.1f %7d %-10.10s %s", a, b,
			       r->holds ? (double)r->waiters / (double)r->holds : 0.0, r->pid,
			       r->comm, fitted))
			return false;
		path[0] = '\0';
		for (f0 = st ? lrs_stack_first_caller(st) : 0;
		     st && f0 < st->nr_frames && len < 120; f0++) {
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
 * The memcg x memcg matrix as a small heatmap: rows the waiting
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
	cell_c = (gui__chars_fit(g, p->w) - name_c - 1) / (int)nc;
	cell_c = cell_c > 16 ? 16 : cell_c;
	if (cell_c < 7)
		return pen__line(p, LRS_GUI_FAINT, 1, "(too narrow for the matrix)");
	cell_w = cell_c * cw;
	x0 = p->x + (name_c + 1) * cw;
	if (p->y + (int)(nr + 1) * lh > p->bottom)
		return false;
	for (size_t k = 0; k < nc; k++) {
		gui__sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->col_ids[k]));
		lrs_fmt__path(buf, sizeof(buf), t, cell_c - 1);
		gui__text_right(g, x0 + (int)(k + 1) * cell_w - cw / 2, p->y, LRS_GUI_FAINT, buf);
	}
	p->y += lh;
	g->mx_cells = (struct lrs_gui_rect){ x0, p->y, cell_w, lh };
	g->mx_rows = nr;
	g->mx_cols = nc;
	for (size_t r = 0; r < nr; r++) {
		gui__sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->row_ids[r]));
		lrs_fmt__path(buf, sizeof(buf), t, name_c);
		gui__text(g, p->x + cw, p->y, LRS_GUI_TEXT, buf, name_c * cw);
		for (size_t k = 0; k < nc; k++) {
			uint64_t v = m->vals[r * LRS_HOLDERS_MATRIX_MAX + k];
			struct lrs_rgb c = v ? lrs_gui_colour__value((double)v, (double)m->max,
								     LRS_GUI_DECADES) :
					       LRS_GUI_ZERO;
			int x = x0 + (int)k * cell_w;

			gui__fill(g, x + 1, p->y + 1, cell_w - 2, lh - 2, c);
			if (v)
				gui__text_right(g, x + cell_w - cw / 2, p->y,
						lrs_gui_colour__text_on(c),
						lrs_fmt__ns(buf, sizeof(buf), (double)v));
		}
		p->y += lh;
	}
	return true;
}

void gui__draw_side(struct lrs_gui *g, const struct lrs_model *model)
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
	bool since_start;

	if (r->w <= 0)
		return;
	gui__fill(g, r->x, r->y, r->w, r->h, LRS_GUI_PANEL);
	if (!row || !cell) {
		pen__line(&p, LRS_GUI_FAINT, 0, "nothing selected: click a cell");
		return;
	}
	gui__lruvec_name(name, sizeof(name), model, row->memcg_id,
			 model->nodes[model->sel_node_idx]);
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
		  cell->contended ?
			  lrs_fmt__ns(a, sizeof(a), (double)cell->wait_ns / cell->contended) :
			  "-",
		  lrs_fmt__ns(b, sizeof(b), (double)lv->counters.wait_max_ns));
	pen__line(&p, LRS_GUI_TEXT, 0, "p50 / p99  %s / %s",
		  cell->contended ? lrs_fmt__ns(c, sizeof(c),
						(double)lrs_hist__quantile_ns(cell->hist, 0.5)) :
				    "-",
		  cell->contended ? lrs_fmt__ns(d, sizeof(d),
						(double)lrs_hist__quantile_ns(cell->hist, 0.99)) :
				    "-");
	pen__gap(&p);

	if (!draw_causes(g, model, cell, &p))
		return;
	pen__gap(&p);

	nw = lrs_detail__top_waiters(model, cell, g->waiters, GUI_WAITERS);
	pen__line(&p, LRS_GUI_ACCENT, 0, "waiters%s", nw ? "" : ": none in this interval");
	if (nw)
		pen__line(&p, LRS_GUI_FAINT, 1, "%7s %-12s %8s %5s  %s", "pid", "comm", "wait",
			  "count", "memcg");
	for (size_t i = 0; i < nw; i++) {
		const struct lrs_waiter *w = g->waiters[i].waiter;
		bool foreign = w->memcg_id && w->memcg_id != lv->memcg_id;

		char memcg[256], fitted[256];

		/* the waiter's memcg: its tail, what tells memcgs apart */
		gui__sanitize(memcg, sizeof(memcg), w->memcg ? w->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), memcg, gui__chars_fit(g, p.w) - 38);
		if (!pen__line(&p, foreign ? LRS_GUI_WARN : LRS_GUI_TEXT, 1,
			       "%7d %-12.12s %8s %5s  %s", w->pid, w->comm,
			       lrs_fmt__ns(a, sizeof(a), (double)g->waiters[i].wait_ns),
			       lrs_fmt__count(b, sizeof(b), (double)g->waiters[i].contended),
			       fitted))
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

	ns = lrs_detail__top_stacks(model, cell, g->stacks, GUI_STACKS, &since_start);
	pen__line(&p, LRS_GUI_ACCENT, 0, "waiting stacks%s",
		  since_start ? " since start (none in this interval)" :
		  ns	      ? " (sampled)" :
				": none sampled");
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
		for (f0 = lrs_stack_first_caller(st); f0 < st->nr_frames && shown < 5;
		     f0++, shown++)
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

			if (!pen__line(&p, LRS_GUI_TEXT, 1, "%-14s %8llu pages %8.1f MiB",
				       lrs_lru_list_names[i], (unsigned long long)lv->lru_pages[i],
				       lv->lru_pages[i] * 4096.0 / (1 << 20)))
				return;
			if (bw > 0)
				gui__fill(g, p.x + 45 * cw, y + 3, bw, g->layout.line_h - 6,
					  lrs_gui_colour__map(0.35));
		}
	}
	pen__gap(&p);

	pen__line(&p, LRS_GUI_ACCENT, 0, "other locks%s",
		  model->nr_others ? "" : ": none contended");
	for (size_t i = 0; i < model->nr_others && i < 5; i++)
		if (!pen__line(&p, LRS_GUI_TEXT, 1, "%-10s %s",
			       lrs_fmt__rate_ns(a, sizeof(a), model->others[i].wait_ns_per_s),
			       model->others[i].lock->name ? model->others[i].lock->name : "?"))
			return;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The detail pane of the selected lruvec: its counters, wait histogram, top
 * waiters, and top stacks or holders; for a walked lruvec, its lock word and lists.
 */
#include <stdio.h>
#include <string.h>

#include "model/lock_names.h"
#include "model/walk.h"
#include "ui/tui/tui_internal.h"

/* The window of at most n histogram buckets holding the most waits. */
static void hist_window(const uint64_t *hist, int n, int *lo, int *hi, uint64_t *max)
{
	int first = -1, last = -1;
	uint64_t best = 0;

	*max = 0;
	for (int i = 0; i < LRS_HIST_BUCKETS; i++) {
		if (!hist[i])
			continue;
		if (first < 0)
			first = i;
		last = i;
		if (hist[i] > *max)
			*max = hist[i];
	}
	*lo = first;
	*hi = last;
	if (first < 0 || n <= 0 || last - first + 1 <= n)
		return;
	for (int s = first; s + n - 1 <= last; s++) {
		uint64_t sum = 0;

		for (int i = s; i < s + n; i++)
			sum += hist[i];
		if (sum > best) {
			best = sum;
			*lo = s;
		}
	}
	*hi = *lo + n - 1;
}

static void draw_hist(struct lrs_tui *tui, const struct lrs_cell *cell, int y, int x, int w, int h)
{
	int lo, hi, bar_w = w - 6 - 7 - 3;
	uint64_t max;
	char label[32], cnt[32];

	tui__put(y, x + 1, w - 1, A_BOLD, "wait histogram");
	hist_window(cell->hist, h - 1, &lo, &hi, &max);
	if (lo < 0) {
		tui__put(y + 1, x + 1, w - 1, tui->faint_attr, "no waits in this interval");
		return;
	}
	for (int b = lo; b <= hi; b++) {
		int yy = y + 1 + (b - lo), n;

		lrs_fmt__ns(label, sizeof(label), (double)lrs_hist__bucket_low_ns(b));
		tui__putf(yy, x + 1, 6, tui->faint_attr, "%6s", label);
		n = lrs_view_layout__bar(cell->hist[b], max, bar_w);
		attron(A_BOLD);
		for (int i = 0; i < n; i++) {
			if (tui->utf8)
				mvaddstr(yy, x + 8 + i, "\u2588");
			else
				mvaddch(yy, x + 8 + i, '#');
		}
		attroff(A_BOLD);
		tui__putf(yy, x + 8 + bar_w + 1, 6, 0, "%6s",
			  lrs_fmt__count(cnt, sizeof(cnt), (double)cell->hist[b]));
	}
}

static void draw_waiters(struct lrs_tui *tui, const struct lrs_model *model,
			 const struct lrs_cell *cell, int y, int x, int w, int h)
{
	size_t n = lrs_detail__top_waiters(model, cell, tui->waiters,
					   h - 1 < TUI_MAX_WAITERS ? (size_t)(h - 1) :
								     TUI_MAX_WAITERS);
	/* " pid comm " 25, memcg, " wait/s cont/s" 16, a blank before the next column */
	int memcg_w = w - 25 - 16 - 1;
	char a[32], b[32], path[256], fitted[256], comm[LRS_COMM_LEN + 1];

	if (memcg_w < 6)
		memcg_w = 6;
	tui__putf(y, x + 1, w - 1, A_BOLD, "%7s %-15s %-*s %8s %6s", "pid", "top waiters", memcg_w,
		  "waiter's memcg", "wait/s", "cont/s");
	if (!n) {
		tui__put(y + 1, x + 1, w - 1, tui->faint_attr,
			 cell->lruvec && cell->lruvec->nr_waiters ? "no waiter in this interval" :
								    "no waiters recorded");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct lrs_waiter *wt = tui->waiters[i].waiter;
		bool foreign = wt->memcg_id && wt->memcg_id != cell->lruvec->memcg_id;
		int yy = y + 1 + (int)i, xx;

		tui__sanitize(comm, sizeof(comm), wt->comm);
		tui__sanitize(path, sizeof(path), wt->memcg ? wt->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), path, memcg_w);
		xx = tui__putf(yy, x + 1, w - 1, 0, "%7d %-15s ", wt->pid, comm);
		tui__putf(yy, xx, memcg_w, foreign ? tui->other_memcg_attr : tui->faint_attr,
			  "%-*s", memcg_w, fitted);
		tui__putf(yy, xx + memcg_w, w - (xx + memcg_w - x), 0, " %8s %6s",
			  lrs_fmt__rate_ns(a, sizeof(a),
					   tui__row_per_s(model, tui->waiters[i].wait_ns)),
			  lrs_fmt__count(b, sizeof(b),
					 tui__row_per_s(model, tui->waiters[i].contended)));
	}
}

/*
 * The frames of a stack from its first caller on, names without offsets,
 * "callee < caller < ...", wrapped into at most max_lines lines. Returns the
 * lines used.
 */
static int draw_frames(struct lrs_tui *tui, const struct lrs_stack *st, int y, int x, int w,
		       int max_lines)
{
	size_t f = lrs_stack_first_caller(st);
	int line = 0, col = 0;
	char name[128], *plus;

	while (f < st->nr_frames && line < max_lines) {
		int len;

		tui__sanitize(name, sizeof(name), st->frames[f]);
		plus = strchr(name, '+');
		if (plus)
			*plus = '\0';
		len = (int)strlen(name);
		if (col && col + 3 + len > w) {
			line++;
			col = 0;
			continue;
		}
		if (col)
			col = tui__put(y + line, x + col, w - col, tui->faint_attr, " < ") - x;
		col = tui__put(y + line, x + col, w - col, 0, name) - x;
		f++;
	}
	return col ? line + 1 : line;
}

/*
 * "LABEL: 62% reclaim, 30% lru-add drain, 8% unclassified": the interval's
 * sampled wait by cause (since the start where it sampled none), or with
 * holders the imposed wait by the holders' causes. Returns the lines used (1).
 */
static int put_causes(int y, int x, int w, const char *label, const struct lrs_model *model,
		      const struct lrs_cell *cell, bool holders)
{
	struct lrs_causes c;
	bool since_start = false;
	char sum[256];

	if (holders)
		lrs_detail__holder_causes(model, cell, &c);
	else
		lrs_detail__causes(model, cell, &c, &since_start);
	tui__putf(y, x + 1, w - 1, 0, "%s%s: %s", label, since_start ? " since start" : "",
		  lrs_causes__summary(&c, LRS_NR_CAUSES, sum, sizeof(sum)));
	return 1;
}

static void draw_stacks(struct lrs_tui *tui, const struct lrs_model *model,
			const struct lrs_cell *cell, int y, int x, int w, int h)
{
	bool since_start;
	size_t n = lrs_detail__top_stacks(model, cell, tui->stacks, TUI_MAX_STACKS, &since_start);
	uint64_t total = 0;
	int line = 1;
	char a[32];

	tui__put(y, x + 1, w - 1, A_BOLD,
		 since_start ? "top waiting stacks since start (none in this interval)" :
			       "top waiting stacks (sampled; callee < caller)");
	if (n && h > 2)
		line += put_causes(y + line, x, w, "causes", model, cell, false);
	if (!n) {
		const char *u = model->cur ? model->cur->unavailable : NULL;

		tui__put(y + 1, x + 1, w - 1, tui->faint_attr,
			 u && strstr(u, "stack") ? "stacks unavailable (see header)" :
						   "no stack sampled in this interval");
		return;
	}
	for (size_t i = 0; i < n; i++)
		total += tui->stacks[i].wait_ns;
	for (size_t i = 0; i < n && line < h; i++) {
		const struct lrs_detail_stack *s = &tui->stacks[i];
		/* leave the stacks after this one a header and a line each, if there is room */
		int later = (int)(n - i - 1) * 2, lines = h - line - 1 - later;

		if (lines < 1)
			lines = 1;
		/* since the start: the wait in all, not a rate over the interval */
		tui__putf(y + line++, x + 1, w - 1, tui->warn_attr, "#%zu %3.0f%% %s", i + 1,
			  total ? 100.0 * (double)s->wait_ns / (double)total : 0,
			  since_start ? lrs_fmt__ns(a, sizeof(a), (double)s->wait_ns) :
					lrs_fmt__rate_ns(a, sizeof(a),
							 tui__row_per_s(model, s->wait_ns)));
		if (line >= h)
			break;
		if (!s->stack || !s->stack->nr_frames) {
			tui__putf(y + line++, x + 3, w - 3, tui->faint_attr, "stack %d: no frames",
				  s->id);
			continue;
		}
		line += draw_frames(tui, s->stack, y + line, x + 3, w - 4,
				    lines < h - line ? lines : h - line);
	}
}

/*
 * The selected lruvec's top holders, in the stacks' column: who held
 * its lock while others waited, since start (the holder maps are cumulative),
 * and each holder's call path (its own wait on the lock, sampled).
 */
static void draw_holders(struct lrs_tui *tui, const struct lrs_model *model,
			 const struct lrs_cell *cell, int y, int x, int w, int h)
{
	const struct lrs_holders *hs = model->cur->holders;
	size_t first,
		n = lrs_holders__rows_of(hs, cell->lruvec->memcg_id, cell->lruvec->node, &first);
	/* " imposed holds behind     pid holder " 43 after the column's edge, then the memcg */
	int memcg_w = w - 44, line = 1;
	char a[32], b[32], path[256], fitted[256], comm[LRS_COMM_LEN + 1];

	if (memcg_w < 6)
		memcg_w = 6;
	/* since start: the holder maps are cumulative (the matrix title says so) */
	tui__putf(y, x + 1, w - 1, A_BOLD, "%8s %5s %6s %7s %-11s %s", "imposed", "holds", "behind",
		  "pid", "holder", "holder's memcg");
	/* the waits' causes too: this column stands in for the stacks' */
	if (h > 3)
		line += put_causes(y + line, x, w, "causes", model, cell, false);
	if (!n) {
		tui__put(y + line, x + 1, w - 1, tui->faint_attr, "no holder seen on this lruvec");
		return;
	}
	if (h > 3)
		line += put_causes(y + line, x, w, "held for", model, cell, true);
	for (size_t k = first; k < first + n && line < h; k++) {
		const struct lrs_holder_row *r = &hs->rows[k];
		const struct lrs_stack *st = lrs_snapshot__find_stack(model->cur, r->stack_id);
		bool foreign = r->memcg_id && r->memcg_id != cell->lruvec->memcg_id;
		int yy = y + line++, xx;

		xx = tui__putf(yy, x + 1, w - 1, tui->warn_attr, "%8s",
			       lrs_fmt__ns(a, sizeof(a), (double)r->imposed_ns));
		xx = tui__putf(yy, xx, w - (xx - x), 0, " %5s %6.1f ",
			       lrs_fmt__count(b, sizeof(b), (double)r->holds),
			       r->holds ? (double)r->waiters / (double)r->holds : 0.0);
		if (!r->pid) {
			tui__put(yy, xx, w - (xx - x), tui->faint_attr, "      - (unknown holder)");
			continue;
		}
		tui__sanitize(comm, sizeof(comm), r->comm);
		xx = tui__putf(yy, xx, w - (xx - x), 0, "%7d %-11.11s ", r->pid, comm);
		tui__sanitize(path, sizeof(path), r->memcg ? r->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), path, memcg_w);
		tui__put(yy, xx, w - (xx - x), foreign ? tui->other_memcg_attr : tui->faint_attr,
			 fitted);
		/* its call path, one line, when the rows after it keep a line each */
		if (st && st->nr_frames && line < h && h - line > (int)(first + n - k - 1)) {
			tui__put(y + line, x + 3, 3, tui->faint_attr, "<-");
			line += draw_frames(tui, st, y + line, x + 6, w - 7, 1);
		}
	}
}

/* The selected lruvec's wait per second over the last intervals, as a sparkline. */
static void draw_spark(struct lrs_tui *tui, const struct lrs_model *model,
		       const struct lrs_row *row, int y, int x, int w)
{
	static const char *const ticks[8] = {
		"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588",
	};
	const struct lrs_history *h =
		lrs_model__history(model, row->memcg_id, model->nodes[model->sel_node_idx]);
	size_t n, first;
	double max = 0;

	w -= 10; /* " history " and a blank */
	if (!h || w < 8 || !model->history_len)
		return;
	n = model->history_len < (size_t)w ? model->history_len : (size_t)w;
	first = model->history_len - n;
	for (size_t i = first; i < model->history_len; i++) {
		double v = lrs_history__at(model, h, i);

		max = v > max ? v : max;
	}
	x = tui__put(y, x, 9, tui->faint_attr, " history ");
	for (size_t i = first; i < model->history_len; i++, x++) {
		int level = lrs_view_layout__bar((unsigned long long)lrs_history__at(model, h, i),
						 (unsigned long long)max, 8);

		if (!level)
			mvaddch(y, x, ' ');
		else if (tui->utf8)
			mvaddstr(y, x, ticks[level - 1]);
		else
			mvaddch(y, x, (chtype) "_.,-=+*#"[level - 1]);
	}
	mvaddch(y, x, ' ');
}

/*
 * A walked lruvec: its lock word, whether the walk agreed with the counters,
 * and each LRU list as a bar (a walk has no waits, waiters or stacks).
 */
static void draw_detail_walk(struct lrs_tui *tui, const struct lrs_lruvec *lv, int y, int w, int h)
{
	uint64_t max = 0;
	char state[64];
	int x, bar_w = w - 24;

	/* before 5.11 the lock is the node's: every memcg on the node waits on the same word */
	if (lv->walk.node_lock)
		x = tui__putf(y + 1, 1, w - 1, 0,
			      "node %d's pgdat->lru_lock (every memcg on it): ", lv->node);
	else
		x = tui__put(y + 1, 1, w - 1, 0, "lock word: ");
	lrs_lock_state__format(state, sizeof(state), &lv->walk);
	x = tui__put(y + 1, x, w - x,
		     lv->walk.locked || lv->walk.pending || lv->walk.tail_cpu >= 0 ?
			     tui->warn_attr :
			     A_BOLD,
		     state);
	x = tui__put(y + 1, x, w - x, 0, "   walk vs counters: ");
	if (!lv->walk.mismatch) {
		tui__put(y + 1, x, w - x, 0, "agree");
	} else {
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
			if (lv->walk.mismatch & (1u << l))
				x = tui__putf(y + 1, x, w - x, tui->warn_attr, "%s differs ",
					      lrs_lru_list_names[l]);
	}
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
		max = lv->lru_pages[l] > max ? lv->lru_pages[l] : max;
	for (int l = 0; l < LRS_NR_LRU_LISTS && 2 + l < h; l++) {
		int yy = y + 2 + l, n = lrs_view_layout__bar(lv->lru_pages[l], max, bar_w);

		/* exact pages: what memory.numa_stat says, divided by the page size */
		tui__putf(yy, 1, 22, 0, "%-13s %8llu", lrs_lru_list_names[l],
			  (unsigned long long)lv->lru_pages[l]);
		attron(A_BOLD);
		for (int i = 0; i < n; i++) {
			if (tui->utf8)
				mvaddstr(yy, 24 + i, "\u2588");
			else
				mvaddch(yy, 24 + i, '#');
		}
		attroff(A_BOLD);
	}
}

void tui__draw_detail(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct lrs_row *row = lrs_model__selected_row(model);
	const struct lrs_cell *cell = lrs_model__selected_cell(model);
	static const char hint[] = " Enter hides ";
	int y = l->detail_y, w = l->width, h = l->detail_h, x, cols_h, hint_x;
	char t[600], path[512], name[540], a[32], b[32], c[32], d[32];

	if (h <= 0)
		return;
	if (!row || !cell) {
		tui__rule(y, 0, w, tui->faint_attr, "detail");
		tui__put(y + 1, 1, w - 1, tui->faint_attr, "no lruvec selected");
		return;
	}
	tui__sanitize(path, sizeof(path), row->memcg);
	lrs_lruvec__label(path, model->nodes[model->sel_node_idx], name, sizeof(name));
	if (cell->lruvec)
		snprintf(t, sizeof(t), "%s%s  lock 0x%llx", name, row->removed ? " (removed)" : "",
			 (unsigned long long)cell->lruvec->lock_addr);
	else
		snprintf(t, sizeof(t), "%s", name);
	tui__rule(y, 0, w, tui->faint_attr, NULL);
	/* the title ends two columns before the edge; the hint goes where it fits whole */
	x = tui__putf(y, 2, w - 4, A_BOLD, " %s ", t);
	hint_x = w - 20 > x + 1 ? w - 20 : x + 1;
	if (hint_x + (int)strlen(hint) > w - 2)
		hint_x = w - 2; /* no room: the title says more */
	draw_spark(tui, model, row, y, x + 1, hint_x - x - 2);
	tui__put(y, hint_x, w - 2 - hint_x, tui->faint_attr, hint);
	if (!cell->lruvec) {
		tui__put(y + 1, 1, w - 1, tui->faint_attr, "this memcg has no lruvec on this node");
		return;
	}
	if (cell->lruvec->walk.known) {
		draw_detail_walk(tui, cell->lruvec, y, w, h);
		return;
	}

	/* counters of the interval; max and LRU sizes are as of now */
	if (!cell->contended) {
		tui__putf(y + 1, 1, w - 1, tui->faint_attr,
			  "no contention in this interval; longest wait since start %s",
			  lrs_fmt__ns(a, sizeof(a), (double)cell->lruvec->counters.wait_max_ns));
		goto lru;
	}
	x = tui__putf(y + 1, 1, w - 1, 0, "contended %s (%s/s)  wait %s (%s)",
		      lrs_fmt__count(a, sizeof(a), (double)cell->contended),
		      lrs_fmt__count(b, sizeof(b), cell->contended_per_s),
		      lrs_fmt__ns(c, sizeof(c), (double)cell->wait_ns),
		      lrs_fmt__rate_ns(d, sizeof(d), cell->wait_ns_per_s));
	x = tui__putf(
		y + 1, x, w - x, 0, "  avg %s",
		lrs_fmt__ns(a, sizeof(a),
			    cell->contended ? (double)cell->wait_ns / (double)cell->contended : 0));
	x = tui__putf(y + 1, x, w - x, 0, "  p50 <%s  p99 <%s",
		      lrs_fmt__ns(a, sizeof(a), (double)lrs_hist__quantile_ns(cell->hist, 0.5)),
		      lrs_fmt__ns(b, sizeof(b), (double)lrs_hist__quantile_ns(cell->hist, 0.99)));
	tui__putf(y + 1, x, w - x, 0, "  max %s (since start)",
		  lrs_fmt__ns(a, sizeof(a), (double)cell->lruvec->counters.wait_max_ns));

lru:
	if (h < 3)
		return;
	x = tui__put(y + 2, 1, w - 1, 0, "LRU pages:");
	for (int i = 0; i < LRS_NR_LRU_LISTS; i++)
		x = tui__putf(y + 2, x, w - x, 0, "  %s %s", lrs_lru_list_names[i],
			      lrs_fmt__count(a, sizeof(a), (double)cell->lruvec->lru_pages[i]));

	cols_h = h - 3;
	if (cols_h < 2)
		return;
	draw_hist(tui, cell, y + 3, 0, l->hist_w, cols_h);
	if (l->waiters_w > 0) {
		attron(tui->faint_attr);
		mvvline(y + 3, l->hist_w, ACS_VLINE, cols_h);
		attroff(tui->faint_attr);
		draw_waiters(tui, model, cell, y + 3, l->hist_w, l->waiters_w, cols_h);
	}
	if (l->stacks_w > 0) {
		int sx = l->hist_w + l->waiters_w;

		attron(tui->faint_attr);
		mvvline(y + 3, sx, ACS_VLINE, cols_h);
		attroff(tui->faint_attr);
		if (model->cur && model->cur->holders)
			draw_holders(tui, model, cell, y + 3, sx, l->stacks_w, cols_h);
		else
			draw_stacks(tui, model, cell, y + 3, sx, l->stacks_w, cols_h);
	}
}

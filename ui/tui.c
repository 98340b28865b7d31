// SPDX-License-Identifier: GPL-2.0
/*
 * The curses heatmap. A scan-then-draw loop: take a snapshot when one is
 * due, push it into the model, draw, then wait for keys until the next one.
 * Drawing only reads the model; keys become lrs_action values.
 */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "colour.h"
#include "detail.h"
#include "holders_view.h"
#include "layout.h"
#include "tui.h"
#include "../collector/walk_import.h"

#define TUI_MSGS 16
#define TUI_MSG_LEN 256
#define TUI_MSG_SHOW_S 8.0
#define TUI_POLL_MAX_MS 250
#define TUI_MAX_WAITERS 32
#define TUI_MAX_STACKS 8

enum tui_pair {
	PAIR_LEVEL0 = 1,	/* ..PAIR_LEVEL0 + LRS_COLOUR_LEVELS */
	PAIR_WARN = PAIR_LEVEL0 + LRS_COLOUR_LEVELS + 1,
	PAIR_TITLE,
	PAIR_KEY,
	PAIR_OTHER_MEMCG,
	PAIR_FAINT,
};

struct tui_msg {
	char text[TUI_MSG_LEN];
	bool keep;
	double at_s;
};

struct lrs_tui {
	struct lrs_tui_opts opts;
	SCREEN *screen;
	FILE *outf, *inf;
	enum lrs_colour_mode mode;
	bool utf8;
	attr_t level_attr[LRS_COLOUR_LEVELS + 1];
	attr_t warn_attr, title_attr, key_attr, other_memcg_attr, faint_attr;

	struct lrs_view_layout layout;	/* of the last frame */
	size_t top;			/* first heatmap row shown */
	size_t first_node;		/* first node column shown */

	/* the time view (key t): each row's wait history as a strip of cells */
	bool time_view;
	bool time_all_nodes;		/* strips sum all nodes: "all nodes" is selected */
	double *strips;			/* rows_h x nr_time_cols of this frame; NAN: no history */
	size_t strips_cap;
	double strips_max;		/* the top of the colour scale in the time view */

	const char *source_name;
	double interval_s;

	bool editing;			/* the filter prompt is open */
	char edit[sizeof(((struct lrs_model *)0)->filter)];
	char filter_before[sizeof(((struct lrs_model *)0)->filter)];

	struct tui_msg msgs[TUI_MSGS];	/* a ring; the newest at nr_msgs - 1 */
	size_t nr_msgs;

	struct lrs_detail_waiter waiters[TUI_MAX_WAITERS];
	struct lrs_detail_stack stacks[TUI_MAX_STACKS];

	/* holders (issue 6): key x shows the memcg x memcg matrix, c its columns */
	bool matrix;
	bool matrix_by_holder;
	struct lrs_holders_matrix mx;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- messages ------------------------------------------------------------ */

void lrs_tui__message(struct lrs_tui *tui, bool keep, const char *fmt, ...)
{
	struct tui_msg *m;
	va_list ap;

	if (!tui)
		return;
	if (tui->nr_msgs == TUI_MSGS) {
		/* full: drop the oldest message that need not be kept, else the oldest */
		size_t drop = 0;

		for (size_t i = 0; i < TUI_MSGS; i++)
			if (!tui->msgs[i].keep) {
				drop = i;
				break;
			}
		memmove(&tui->msgs[drop], &tui->msgs[drop + 1],
			(TUI_MSGS - drop - 1) * sizeof(tui->msgs[0]));
		tui->nr_msgs--;
	}
	m = &tui->msgs[tui->nr_msgs++];
	va_start(ap, fmt);
	vsnprintf(m->text, sizeof(m->text), fmt, ap);
	va_end(ap);
	m->keep = keep;
	m->at_s = now_s();
}

/* ---- drawing helpers ----------------------------------------------------- */

/* Printable ASCII only: kernel strings (comm, paths) may hold anything. */
static void sanitize_keep(char *dst, size_t len, const char *src, bool keep_utf8)
{
	size_t i = 0;

	if (!len)
		return;
	for (; src && *src && i + 1 < len; src++) {
		unsigned char c = (unsigned char)*src;

		dst[i++] = (c >= 0x20 && c < 0x7f) || (keep_utf8 && c >= 0x80) ? *src : '?';
	}
	dst[i] = '\0';
}

static void sanitize(char *dst, size_t len, const char *src)
{
	sanitize_keep(dst, len, src, false);
}

/* Write at most w columns of ASCII s at (y, x); returns the column after it. */
static int put(int y, int x, int w, attr_t attr, const char *s)
{
	int n = (int)strlen(s);

	if (w <= 0 || x < 0 || y < 0)
		return x;
	if (n > w)
		n = w;
	attron(attr);
	mvaddnstr(y, x, s, n);
	attroff(attr);
	return x + n;
}

static int putf(int y, int x, int w, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int putf(int y, int x, int w, attr_t attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return put(y, x, w, attr, buf);
}

/* Fill columns [x, x + w) of line y with spaces in attr. */
static void fill(int y, int x, int w, attr_t attr)
{
	if (w <= 0)
		return;
	attron(attr);
	mvhline(y, x, ' ', w);
	attroff(attr);
}

/* A horizontal rule with a title: "── title ─────". */
static void rule(int y, int x, int w, attr_t attr, const char *title)
{
	if (w <= 0)
		return;
	attron(attr);
	mvhline(y, x, ACS_HLINE, w);
	attroff(attr);
	if (title && w > 4)
		putf(y, x + 2, w - 4, attr | A_BOLD, " %s ", title);
}

static attr_t style_attr(struct lrs_colour_style s, int pair, enum lrs_colour_mode mode)
{
	attr_t a = 0;

	if (mode != LRS_COLOUR_NONE && (s.fg >= 0 || s.bg >= 0))
		a |= COLOR_PAIR(pair);
	if (s.attrs & LRS_ATTR_BOLD)
		a |= A_BOLD;
	if (s.attrs & LRS_ATTR_DIM)
		a |= A_DIM;
	if (s.attrs & LRS_ATTR_REVERSE)
		a |= A_REVERSE;
	return a;
}

static void colours__init(struct lrs_tui *tui)
{
	bool c256 = tui->mode == LRS_COLOUR_256;

	if (tui->mode != LRS_COLOUR_NONE) {
		start_color();
		use_default_colors();
	}
	for (int l = 0; l <= LRS_COLOUR_LEVELS; l++) {
		struct lrs_colour_style s = lrs_colour__style(tui->mode, l);

		if (tui->mode != LRS_COLOUR_NONE)
			init_pair((short)(PAIR_LEVEL0 + l), (short)s.fg, (short)s.bg);
		tui->level_attr[l] = style_attr(s, PAIR_LEVEL0 + l, tui->mode);
	}
	if (tui->mode == LRS_COLOUR_NONE) {
		tui->warn_attr = A_BOLD;
		tui->title_attr = A_REVERSE | A_BOLD;
		tui->key_attr = A_REVERSE | A_BOLD;
		tui->other_memcg_attr = A_BOLD;
		tui->faint_attr = A_DIM;
		return;
	}
	init_pair(PAIR_WARN, c256 ? 214 : COLOR_YELLOW, -1);
	init_pair(PAIR_TITLE, c256 ? 231 : COLOR_WHITE, c256 ? 24 : COLOR_BLUE);
	init_pair(PAIR_KEY, COLOR_BLACK, COLOR_CYAN);
	init_pair(PAIR_OTHER_MEMCG, c256 ? 213 : COLOR_MAGENTA, -1);
	init_pair(PAIR_FAINT, c256 ? 244 : -1, -1);
	tui->warn_attr = COLOR_PAIR(PAIR_WARN) | A_BOLD;
	tui->title_attr = COLOR_PAIR(PAIR_TITLE) | A_BOLD;
	tui->key_attr = COLOR_PAIR(PAIR_KEY);
	tui->other_memcg_attr = COLOR_PAIR(PAIR_OTHER_MEMCG);
	tui->faint_attr = c256 ? COLOR_PAIR(PAIR_FAINT) : A_DIM;
}

/* ---- the parts of a frame ------------------------------------------------ */

static const char *banner_text(const struct lrs_tui *tui)
{
	if (tui->opts.banner_fn)
		return tui->opts.banner_fn(tui->opts.banner_ctx);
	return tui->opts.banner;
}

static double row_per_s(const struct lrs_model *model, uint64_t v)
{
	return model->interval_s > 0 ? (double)v / model->interval_s : 0;
}

/* A source of one instant (a drgn walk): no interval, no rates, no other locks. */
static bool one_instant(const struct lrs_tui *tui)
{
	return !(tui->interval_s > 0);
}

/* The header's counters for one instant: LRU pages and lock words of the snapshot. */
static void draw_header_instant(struct lrs_tui *tui, const struct lrs_model *model, int y, int x)
{
	const struct lrs_snapshot *cur = model->cur;
	uint64_t pages = 0;
	size_t busy = 0;
	int w = tui->layout.width;
	char a[32];

	x = putf(y, x, w - x, 0, "  %s, one instant  |  ", tui->source_name ? tui->source_name : "");
	for (size_t i = 0; cur && i < cur->nr_lruvecs; i++) {
		const struct lrs_lruvec_walk *wk = &cur->lruvecs[i].walk;

		pages += lrs_lruvec__lru_total(&cur->lruvecs[i]);
		busy += wk->locked || wk->pending || wk->tail_cpu >= 0;
	}
	x = putf(y, x, w - x, A_BOLD, "%s", lrs_fmt__count(a, sizeof(a), (double)pages));
	x = putf(y, x, w - x, 0, " LRU pages in %zu lruvecs, ", cur ? cur->nr_lruvecs : 0);
	putf(y, x, w - x, busy ? tui->warn_attr : 0, "%zu lock%s held or waited on", busy,
	     busy == 1 ? "" : "s");
}

static void draw_header(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct lrs_snapshot *cur = model->cur;
	int y = l->header_y, w = l->width, x;
	char a[32], b[32];

	if (l->header_h < 1)
		return;
	x = put(y, 0, w, A_BOLD, "lruscope");
	x = putf(y, x, w - x, 0, "  %s", cur && cur->kernel[0] ? cur->kernel : "kernel ?");
	if (one_instant(tui)) {
		draw_header_instant(tui, model, y, x);
		goto line2;
	}
	x = putf(y, x, w - x, 0, "  %s every %.3gs", tui->source_name ? tui->source_name : "",
		 tui->interval_s);
	if (model->prev && fabs(model->interval_s - tui->interval_s) > 0.1 * tui->interval_s)
		x = putf(y, x, w - x, 0, " (last %.3gs)", model->interval_s);
	x = put(y, x, w - x, 0, "  |  lruvec locks ");
	if (!model->prev) {
		x = put(y, x, w - x, tui->warn_attr, "first interval...");
	} else {
		x = putf(y, x, w - x, A_BOLD, "%s",
			 lrs_fmt__rate_ns(a, sizeof(a), row_per_s(model, model->lruvec_wait_ns)));
		x = putf(y, x, w - x, 0, " %s/s", lrs_fmt__count(b, sizeof(b),
			 row_per_s(model, model->lruvec_contended)));
		x = put(y, x, w - x, 0, "  other locks ");
		x = putf(y, x, w - x, A_BOLD, "%s",
			 lrs_fmt__rate_ns(a, sizeof(a), row_per_s(model, model->other_wait_ns)));
		x = putf(y, x, w - x, 0, " %s/s", lrs_fmt__count(b, sizeof(b),
			 row_per_s(model, model->other_contended)));
	}
	if (model->paused)
		put(y, x + 2 < w ? x + 2 : x, w - x - 2, tui->warn_attr | A_REVERSE, " PAUSED ");

line2:
	if (l->header_h < 2)
		return;
	y++;
	x = put(y, 0, w, 0, one_instant(tui) ? "" : "drops:");
	if (cur && !one_instant(tui)) {	/* a walk drops no events */
		static const char *const names[] = { "task", "stack", "map full", "negative" };
		const uint64_t v[] = { cur->drops.task, cur->drops.stack, cur->drops.stats_full,
				       cur->drops.negative_time };

		for (int i = 0; i < 4; i++)
			x = putf(y, x, w - x, v[i] ? tui->warn_attr : 0, " %s %llu%s", names[i],
				 (unsigned long long)v[i], i < 3 ? "," : "");
	}
	x = putf(y, x, w - x, 0, "%smemcgs %zu, nodes %zu", x ? "  |  " : "", model->nr_rows,
		 model->nr_nodes);
	if (model->nr_visible > (size_t)l->rows_h && l->rows_h > 0) {
		size_t last = tui->top + (size_t)l->rows_h;

		x = putf(y, x, w - x, 0, " (rows %zu-%zu of %zu)", tui->top + 1,
			 last < model->nr_visible ? last : model->nr_visible, model->nr_visible);
	}
	x = put(y, x, w - x, 0, "  |  sort ");
	x = put(y, x, w - x, A_BOLD, lrs_sort_names[model->sort % LRS_NR_SORTS]);
	if (model->filter[0]) {
		char f[sizeof(model->filter)];

		sanitize(f, sizeof(f), model->filter);
		x = put(y, x, w - x, 0, "  filter ");
		x = putf(y, x, w - x, A_BOLD, "\"%s\"", f);
		x = putf(y, x, w - x, 0, " (%zu shown)", model->nr_visible);
	}

	if (cur && cur->holders) {
		char hh[128];

		lrs_holders_view__header(cur, hh, sizeof(hh));
		x = put(y, x, w - x, 0, "  |  ");
		x = put(y, x, w - x, A_BOLD, hh);
	}

	if (l->header_h < 3 || !cur || !cur->unavailable)
		return;
	y++;
	{
		char u[512];

		sanitize(u, sizeof(u), cur->unavailable);
		putf(y, 0, w, tui->warn_attr, "unavailable: %s", u);
	}
}

/* What the legend's scale covers: the cells of the interval, or the strips shown. */
static const char *legend_note(const struct lrs_tui *tui)
{
	if (tui->time_view)
		return "  (log; strips: wait/s, a cell per snapshot, scale of the rows shown)";
	return tui->layout.cell_counts ? "  (log; cells: wait/s contentions/s)" : "  (log; cells: wait/s)";
}

/* The legend of the LRU pages metric: levels as page counts. */
static void draw_legend_pages(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	double max = lrs_model__metric_max(model);
	int y = l->legend_y, w = l->width, x;
	char v[32];

	x = put(y, 0, w, 0, "LRU pages ");
	if (!(max > 0)) {
		put(y, x, w - x, tui->faint_attr, "(log scale; no pages on any LRU list)");
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
			x = putf(y, x, w - x, tui->level_attr[lv], "%c %-6s", lrs_colour__glyph(lv), label);
		else
			x = putf(y, x, w - x, tui->level_attr[lv], " %-6s", label);
	}
	x = putf(y, x, w - x, 0, " max %s", lrs_fmt__count(v, sizeof(v), max));
	put(y, x, w - x, tui->faint_attr, "  (log; pages on LRU lists; held: lock taken)");
}

static void draw_legend(struct lrs_tui *tui, const struct lrs_model *model)
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
	x = put(y, 0, w, 0, "lock wait/s ");
	if (!(max > 0)) {
		put(y, x, w - x, tui->faint_attr, tui->time_view ?
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
			x = putf(y, x, w - x, tui->level_attr[lv], "%c %-6s", lrs_colour__glyph(lv), label);
		else
			x = putf(y, x, w - x, tui->level_attr[lv], " %-6s", label);
	}
	x = putf(y, x, w - x, 0, " max %s", lrs_fmt__rate_ns(v, sizeof(v), max));
	put(y, x, w - x, tui->faint_attr, legend_note(tui));
}

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

static int name_len(const struct lrs_model *model)
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

static void draw_colhdr(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->colhdr_y;
	attr_t a = A_BOLD | A_UNDERLINE;

	if (y >= l->status_y)
		return;
	fill(y, 0, l->width, a);
	putf(y, 0, l->name_w - 1, a, " memcg%s", model->sort == LRS_SORT_NAME ? " (tree)" : "");
	if (l->first_node > 0)
		put(y, l->name_w - 2, 2, a, "<<");
	for (size_t i = l->first_node; i < l->first_node + l->nr_node_cols; i++) {
		int x = lrs_view_layout__node_x(l, i);
		attr_t ca = a | (i == model->sel_node_idx ? A_REVERSE : 0);
		char node[16];

		snprintf(node, sizeof(node), "N%d", model->nodes[i]);
		putf(y, x + 1, l->cell_w - 1, ca, " %*s", LRS_CELL_WAIT_W, node);
	}
	if (l->first_node + l->nr_node_cols < model->nr_nodes)
		put(y, l->name_w + (int)l->nr_node_cols * l->cell_w, 2, a, ">>");
	if (l->total_w)
		putf(y, l->name_w + (int)l->nr_node_cols * l->cell_w + 1, l->total_w - 1, a, "%*s",
		     l->total_w - 1, "all nodes");
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
	fill(y, x + 1, l->cell_w - 1, a);
	putf(y, x + 1, l->cell_w - 1, a, "%c%*s",
	     tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ', LRS_CELL_WAIT_W,
	     pages ? vbuf : ".");
	if (l->cell_counts && mark[0])
		putf(y, x + 2 + LRS_CELL_WAIT_W, l->cell_w - 2 - LRS_CELL_WAIT_W,
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
			fill(y, x + 1, l->cell_w - 1, A_REVERSE);
		return;
	}
	if (model->metric == LRS_METRIC_LRU_PAGES) {
		draw_cell_pages(tui, model, y, x, cell, selected);
		return;
	}
	level = lrs_colour__level(cell->wait_ns_per_s, model->max_cell_wait_ns_per_s);
	a = tui->level_attr[level] | (selected ? A_REVERSE | A_BOLD : 0);
	if (level == 0) {
		fill(y, x + 1, l->cell_w - 1, a);
		putf(y, x + 2, l->cell_w - 2, a, "%*s", LRS_CELL_WAIT_W, ".");
		return;
	}
	/* the glyph column says the level where colour cannot */
	lrs_fmt__rate_ns(wbuf, sizeof(wbuf), cell->wait_ns_per_s);
	if (l->cell_counts)
		putf(y, x + 1, l->cell_w - 1, a, "%c%*s %*s",
		     tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ',
		     LRS_CELL_WAIT_W, wbuf, LRS_CELL_COUNT_W,
		     lrs_fmt__count(cbuf, sizeof(cbuf), cell->contended_per_s));
	else
		putf(y, x + 1, l->cell_w - 1, a, "%c%*s",
		     tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ',
		     LRS_CELL_WAIT_W, wbuf);
}

/* Instead of rows: no snapshot yet, or none to show. Returns true if it said so. */
static bool draw_rows_placeholder(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;

	if (!model->cur) {
		put(l->rows_y, 1, l->width - 1, tui->faint_attr, "waiting for the first snapshot...");
		return true;
	}
	if (!model->nr_visible) {
		put(l->rows_y, 1, l->width - 1, tui->faint_attr,
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
	sanitize(name, sizeof(name), row_label(model, row));
	if (row->removed)
		strncat(name, " (removed)", sizeof(name) - strlen(name) - 1);
	lrs_fmt__path(label, sizeof(label), name, l->name_w - 2 - indent);
	na = (row->removed ? A_DIM : 0) | (is_sel ? A_REVERSE | A_BOLD : 0);
	if (is_sel)
		put(y, 0, 1, A_BOLD, ">");
	putf(y, 1 + indent, l->name_w - 2 - indent, na, "%s", label);
}

static void draw_rows(struct lrs_tui *tui, const struct lrs_model *model)
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

		for (size_t n = l->first_node; n < l->first_node + l->nr_node_cols; n++)
			draw_cell(tui, model, y, lrs_view_layout__node_x(l, n), &row->cells[n],
				  is_sel && n == model->sel_node_idx);
		if (l->total_w && model->metric == LRS_METRIC_LRU_PAGES) {
			uint64_t pages = 0;

			for (size_t n = 0; n < model->nr_nodes; n++)
				pages += lrs_lruvec__lru_total(row->cells[n].lruvec);
			putf(y, l->name_w + (int)l->nr_node_cols * l->cell_w + 1, l->total_w - 1,
			     A_BOLD, " %*llu", LRS_CELL_WAIT_W, (unsigned long long)pages);
		} else if (l->total_w && row->wait_ns) {
			char wbuf[32], cbuf[32];
			int x = l->name_w + (int)l->nr_node_cols * l->cell_w + 1;

			lrs_fmt__rate_ns(wbuf, sizeof(wbuf), row_per_s(model, row->wait_ns));
			if (l->total_w >= LRS_CELL_FULL_W)
				putf(y, x, l->total_w - 1, A_BOLD, " %*s %*s", LRS_CELL_WAIT_W, wbuf,
				     LRS_CELL_COUNT_W, lrs_fmt__count(cbuf, sizeof(cbuf),
				     row_per_s(model, row->contended)));
			else
				putf(y, x, l->total_w - 1, A_BOLD, " %*s", LRS_CELL_WAIT_W, wbuf);
		}
	}
}

/* ---- the time view: a history strip per row ------------------------------ */

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
		const struct lrs_history *h = lrs_model__history(model, row->memcg_id, model->nodes[n]);

		if (!h)
			continue;
		/* columns map to consecutive history entries from the first one shown on */
		for (size_t c = 0; c < cols; c++) {
			long j = first >= 0 ? first + (long)c :
				 lrs_view_layout__history_index(c, cols, model->history_len);

			if (j >= 0)
				out[c] += lrs_history__at(model, h, (size_t)j);
		}
	}
}

/* The strips of the rows on screen, and the top of their colour scale. */
static void strips__compute(struct lrs_tui *tui, const struct lrs_model *model)
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
	double v = tui->time_all_nodes ? row_per_s(model, row->wait_ns) :
		   cell ? cell->wait_ns_per_s : 0;
	bool none = !tui->time_all_nodes && (!cell || !cell->lruvec);
	attr_t a = is_sel ? A_REVERSE | A_BOLD : v > 0 ? A_BOLD : tui->faint_attr;
	char buf[32];

	putf(y, l->value_x + 1, LRS_TIME_VALUE_W - 1, a, " %*s", LRS_CELL_WAIT_W,
	     none ? "-" : v > 0 ? lrs_fmt__rate_ns(buf, sizeof(buf), v) : ".");
}

/* Headings: which node the strips show (the selected one reversed), and "now". */
static void draw_time_colhdr(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->colhdr_y, end = l->value_x, x;
	attr_t a = A_BOLD | A_UNDERLINE;

	if (y >= l->status_y)
		return;
	fill(y, 0, l->width, a);
	putf(y, 0, l->name_w - 1, a, " memcg%s", model->sort == LRS_SORT_NAME ? " (tree)" : "");
	/* over the strips, and the blank left of a short ring's strip */
	x = put(y, l->name_w + 1, end - l->name_w - 1, a, "wait/s history of");
	for (size_t n = 0; n < model->nr_nodes && x < end; n++) {
		bool sel = !tui->time_all_nodes && n == model->sel_node_idx;

		x = put(y, x, end - x, a, " ");
		x = putf(y, x, end - x, a | (sel ? A_REVERSE : 0), "N%d", model->nodes[n]);
	}
	if (model->nr_nodes > 1) {
		x = put(y, x, end - x, a, " ");
		x = put(y, x, end - x, a | (tui->time_all_nodes ? A_REVERSE : 0), "all nodes");
		put(y, x, end - x, a, "  (<- -> pick)");
	}
	putf(y, l->value_x, LRS_TIME_VALUE_W, a, "%*s", LRS_TIME_VALUE_W, "now");
}

static void draw_time_rows(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	long sel = lrs_model__selected_index(model);

	if (l->rows_h <= 0 || draw_rows_placeholder(tui, model))
		return;
	for (int r = 0; r < l->rows_h; r++) {
		size_t vi = tui->top + (size_t)r;
		const struct lrs_row *row;
		int y = l->rows_y + r;

		if (vi >= model->nr_visible)
			break;
		row = &model->rows[model->visible[vi]];
		draw_row_name(tui, model, row, y, (long)vi == sel);
		if (tui->strips && (size_t)l->rows_h * l->nr_time_cols <= tui->strips_cap)
			draw_strip(tui, &tui->strips[(size_t)r * l->nr_time_cols], y);
		draw_time_value(tui, model, row, y, (long)vi == sel);
	}
}

/* Under the strips: "-60s" and the like ending at their snapshot's column, "now" last. */
static void draw_time_axis(struct lrs_tui *tui, const struct lrs_model *model)
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
	putf(l->axis_y, 0, l->strip_x - 1, tui->faint_attr, "%*s", l->strip_x - 1, cell);
	attron(tui->faint_attr);
	mvhline(l->axis_y, l->strip_x, ACS_HLINE, (int)l->nr_time_cols);
	attroff(tui->faint_attr);
	for (size_t i = 0; i < n; i++) {
		int len = (int)strlen(ticks[i].label);
		int x = l->strip_x + (int)ticks[i].col - len + 1;

		/* blanks around a label keep it off the rule */
		if (x > l->strip_x)
			put(l->axis_y, x - 1, 1, 0, " ");
		x = put(l->axis_y, x, len, i == 0 ? A_BOLD : 0, ticks[i].label);
		if (i > 0)
			put(l->axis_y, x, 1, 0, " ");
	}
}

/* Other locks contended in the interval: the rest listed would only say 0. */
static size_t others_active(const struct lrs_model *model)
{
	size_t n = 0;

	/* sorted by wait, descending: the contended ones come first */
	while (n < model->nr_others && (model->others[n].wait_ns || model->others[n].contended))
		n++;
	return n;
}

static void draw_others(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->others_y, w = l->width, name_w;
	size_t shown = (size_t)(l->others_h > 1 ? l->others_h - 1 : 0), active = others_active(model);
	char a[32], b[32], c[32];

	if (l->others_h <= 0)
		return;
	if (shown > active)
		shown = active;
	name_w = w - 50;
	if (name_w > 48)
		name_w = 48;
	if (name_w < 12)
		name_w = 12;
	fill(y, 0, w, A_BOLD | A_UNDERLINE);
	putf(y, 1, name_w, A_BOLD | A_UNDERLINE, "other locks (top %zu of %zu)", shown, active);
	if (!active && l->others_h > 1)
		put(y + 1, 2, w - 2, tui->faint_attr,
		    model->prev ? "no other lock contended in this interval" : "first interval...");
	putf(y, 1 + name_w, w - 1 - name_w, A_BOLD | A_UNDERLINE, " %9s %8s %8s  %-18s", "wait/s",
	     "cont/s", "avg", "address");
	for (size_t i = 0; i < shown; i++) {
		const struct lrs_other_row *o = &model->others[i];
		char name[256];
		int x;

		y++;
		sanitize(name, sizeof(name), o->lock && o->lock->name ? o->lock->name : "?");
		x = putf(y, 2, name_w - 1, 0, "%s", name);
		(void)x;
		putf(y, 1 + name_w, w - 1 - name_w, o->wait_ns ? 0 : tui->faint_attr,
		     " %9s %8s %8s  0x%016llx",
		     lrs_fmt__rate_ns(a, sizeof(a), o->wait_ns_per_s),
		     lrs_fmt__count(b, sizeof(b), row_per_s(model, o->contended)),
		     lrs_fmt__ns(c, sizeof(c), o->contended ? (double)o->wait_ns / (double)o->contended : 0),
		     (unsigned long long)(o->lock ? o->lock->lock_addr : 0));
	}
}

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

	put(y, x + 1, w - 1, A_BOLD, "wait histogram");
	hist_window(cell->hist, h - 1, &lo, &hi, &max);
	if (lo < 0) {
		put(y + 1, x + 1, w - 1, tui->faint_attr, "no waits in this interval");
		return;
	}
	for (int b = lo; b <= hi; b++) {
		int yy = y + 1 + (b - lo), n;

		lrs_fmt__ns(label, sizeof(label), (double)lrs_hist__bucket_low_ns(b));
		putf(yy, x + 1, 6, tui->faint_attr, "%6s", label);
		n = lrs_view_layout__bar(cell->hist[b], max, bar_w);
		attron(A_BOLD);
		for (int i = 0; i < n; i++) {
			if (tui->utf8)
				mvaddstr(yy, x + 8 + i, "\u2588");
			else
				mvaddch(yy, x + 8 + i, '#');
		}
		attroff(A_BOLD);
		putf(yy, x + 8 + bar_w + 1, 6, 0, "%6s",
		     lrs_fmt__count(cnt, sizeof(cnt), (double)cell->hist[b]));
	}
}

static void draw_waiters(struct lrs_tui *tui, const struct lrs_model *model,
			 const struct lrs_cell *cell, int y, int x, int w, int h)
{
	size_t n = lrs_detail__top_waiters(model, cell, tui->waiters,
					   h - 1 < TUI_MAX_WAITERS ? (size_t)(h - 1) : TUI_MAX_WAITERS);
	/* " pid comm " 25, memcg, " wait/s cont/s" 16, a blank before the next column */
	int memcg_w = w - 25 - 16 - 1;
	char a[32], b[32], path[256], fitted[256], comm[LRS_COMM_LEN + 1];

	if (memcg_w < 6)
		memcg_w = 6;
	putf(y, x + 1, w - 1, A_BOLD, "%7s %-15s %-*s %8s %6s", "pid", "top waiters", memcg_w,
	     "waiter's memcg", "wait/s", "cont/s");
	if (!n) {
		put(y + 1, x + 1, w - 1, tui->faint_attr,
		    cell->lruvec && cell->lruvec->nr_waiters ? "no waiter in this interval" :
							       "no waiters recorded");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct lrs_waiter *wt = tui->waiters[i].waiter;
		bool foreign = wt->memcg_id && wt->memcg_id != cell->lruvec->memcg_id;
		int yy = y + 1 + (int)i, xx;

		sanitize(comm, sizeof(comm), wt->comm);
		sanitize(path, sizeof(path), wt->memcg ? wt->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), path, memcg_w);
		xx = putf(yy, x + 1, w - 1, 0, "%7d %-15s ", wt->pid, comm);
		putf(yy, xx, memcg_w, foreign ? tui->other_memcg_attr : tui->faint_attr, "%-*s",
		     memcg_w, fitted);
		putf(yy, xx + memcg_w, w - (xx + memcg_w - x), 0, " %8s %6s",
		     lrs_fmt__rate_ns(a, sizeof(a), row_per_s(model, tui->waiters[i].wait_ns)),
		     lrs_fmt__count(b, sizeof(b), row_per_s(model, tui->waiters[i].contended)));
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
	size_t f = lrs_detail__first_caller(st);
	int line = 0, col = 0;
	char name[128], *plus;

	while (f < st->nr_frames && line < max_lines) {
		int len;

		sanitize(name, sizeof(name), st->frames[f]);
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
			col = put(y + line, x + col, w - col, tui->faint_attr, " < ") - x;
		col = put(y + line, x + col, w - col, 0, name) - x;
		f++;
	}
	return col ? line + 1 : line;
}

static void draw_stacks(struct lrs_tui *tui, const struct lrs_model *model,
			const struct lrs_cell *cell, int y, int x, int w, int h)
{
	size_t n = lrs_detail__top_stacks(model, cell, tui->stacks, TUI_MAX_STACKS);
	uint64_t total = 0;
	int line = 1;
	char a[32];

	put(y, x + 1, w - 1, A_BOLD, "top waiting stacks (sampled; callee < caller)");
	if (!n) {
		const char *u = model->cur ? model->cur->unavailable : NULL;

		put(y + 1, x + 1, w - 1, tui->faint_attr,
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
		putf(y + line++, x + 1, w - 1, tui->warn_attr, "#%zu %3.0f%% %s", i + 1,
		     total ? 100.0 * (double)s->wait_ns / (double)total : 0,
		     lrs_fmt__rate_ns(a, sizeof(a), row_per_s(model, s->wait_ns)));
		if (line >= h)
			break;
		if (!s->stack || !s->stack->nr_frames) {
			putf(y + line++, x + 3, w - 3, tui->faint_attr, "stack %d: no frames", s->id);
			continue;
		}
		line += draw_frames(tui, s->stack, y + line, x + 3, w - 4, lines < h - line ? lines : h - line);
	}
}

/*
 * The selected lruvec's top holders (issue 6), in the stacks' column: who held
 * its lock while others waited, since start (the holder maps are cumulative),
 * and each holder's call path (its own wait on the lock, sampled).
 */
static void draw_holders(struct lrs_tui *tui, const struct lrs_model *model,
			 const struct lrs_cell *cell, int y, int x, int w, int h)
{
	const struct lrs_holders *hs = model->cur->holders;
	size_t first, n = lrs_holders__rows_of(hs, cell->lruvec->memcg_id, cell->lruvec->node, &first);
	/* " imposed holds behind     pid holder " 43 after the column's edge, then the memcg */
	int memcg_w = w - 44, line = 1;
	char a[32], b[32], path[256], fitted[256], comm[LRS_COMM_LEN + 1];

	if (memcg_w < 6)
		memcg_w = 6;
	/* since start: the holder maps are cumulative (the matrix title says so) */
	putf(y, x + 1, w - 1, A_BOLD, "%8s %5s %6s %7s %-11s %s", "imposed", "holds", "behind",
	     "pid", "holder", "holder's memcg");
	if (!n) {
		put(y + 1, x + 1, w - 1, tui->faint_attr, "no holder seen on this lruvec");
		return;
	}
	for (size_t k = first; k < first + n && line < h; k++) {
		const struct lrs_holder_row *r = &hs->rows[k];
		const struct lrs_stack *st = lrs_snapshot__find_stack(model->cur, r->stack_id);
		bool foreign = r->memcg_id && r->memcg_id != cell->lruvec->memcg_id;
		int yy = y + line++, xx;

		xx = putf(yy, x + 1, w - 1, tui->warn_attr, "%8s",
			  lrs_fmt__ns(a, sizeof(a), (double)r->imposed_ns));
		xx = putf(yy, xx, w - (xx - x), 0, " %5s %6.1f ",
			  lrs_fmt__count(b, sizeof(b), (double)r->holds),
			  r->holds ? (double)r->waiters / (double)r->holds : 0.0);
		if (!r->pid) {
			put(yy, xx, w - (xx - x), tui->faint_attr, "      - (unknown holder)");
			continue;
		}
		sanitize(comm, sizeof(comm), r->comm);
		xx = putf(yy, xx, w - (xx - x), 0, "%7d %-11.11s ", r->pid, comm);
		sanitize(path, sizeof(path), r->memcg ? r->memcg : "?");
		lrs_fmt__path(fitted, sizeof(fitted), path, memcg_w);
		put(yy, xx, w - (xx - x), foreign ? tui->other_memcg_attr : tui->faint_attr, fitted);
		/* its call path, one line, when the rows after it keep a line each */
		if (st && st->nr_frames && line < h && h - line > (int)(first + n - k - 1)) {
			put(y + line, x + 3, 3, tui->faint_attr, "<-");
			line += draw_frames(tui, st, y + line, x + 6, w - 7, 1);
		}
	}
}

/*
 * The memcg x memcg matrix (key x), over the heatmap: rows the waiting memcg,
 * columns the lruvec owner's memcg or the holder's (key c); each cell the wait
 * imposed since start, coloured on the heatmap's scale (top: the largest cell).
 */
static void draw_matrix(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct lrs_holders *hs = model->cur ? model->cur->holders : NULL;
	struct lrs_holders_matrix *m = &tui->mx;
	int y0 = l->legend_y >= 0 ? l->legend_y : l->header_y + l->header_h, w = l->width;
	int name_w, col_w, y, x;
	char t[256], buf[64];

	for (y = y0; y < l->status_y; y++)
		fill(y, 0, w, 0);
	rule(y0, 0, w, tui->faint_attr, NULL);
	putf(y0, 2, w - 4, A_BOLD, " memcg x memcg: wait imposed since start; rows: waiting memcg, "
	     "columns: %s ", tui->matrix_by_holder ? "holder's memcg" : "lruvec owner");
	put(y0 + 1, 1, w - 1, tui->faint_attr,
	    tui->matrix_by_holder ? "c: columns by lruvec owner   x: back to the heatmap" :
				    "c: columns by holder's memcg   x: back to the heatmap");
	if (!hs) {
		put(y0 + 3, 1, w - 1, tui->warn_attr,
		    "holders are off: start with --holders (or replay a recording made with it)");
		return;
	}
	if (lrs_holders_view__matrix(hs, tui->matrix_by_holder, m)) {
		put(y0 + 3, 1, w - 1, tui->warn_attr, "out of memory for the matrix");
		return;
	}
	if (!m->nr_rows) {
		put(y0 + 3, 1, w - 1, tui->faint_attr, "no holder was seen");
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
	putf(y, 0, name_w, A_BOLD, "%*s", name_w, tui->matrix_by_holder ? "waiter \\ holder" :
									  "waiter \\ owner");
	for (size_t k = 0; k < m->nr_cols && name_w + (int)(k + 1) * col_w <= w; k++) {
		sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->col_ids[k]));
		lrs_fmt__path(buf, sizeof(buf), t, col_w - 1);
		putf(y, name_w + (int)k * col_w, col_w, A_BOLD, " %*s", col_w - 1, buf);
	}
	for (size_t r = 0; r < m->nr_rows && ++y < l->status_y; r++) {
		sanitize(t, sizeof(t), lrs_holders_view__name(hs, m->row_ids[r]));
		lrs_fmt__path(buf, sizeof(buf), t, name_w - 1);
		putf(y, 0, name_w, A_BOLD, "%-*s", name_w, buf);
		for (size_t k = 0; k < m->nr_cols; k++) {
			uint64_t v = m->vals[r * LRS_HOLDERS_MATRIX_MAX + k];
			int level = lrs_colour__level((double)v, (double)m->max);

			x = name_w + (int)k * col_w;
			if (x + col_w > w)
				break;
			fill(y, x + 1, col_w - 1, tui->level_attr[level]);
			putf(y, x + 1, col_w - 1, tui->level_attr[level], "%c%*s",
			     tui->mode == LRS_COLOUR_NONE ? lrs_colour__glyph(level) : ' ', col_w - 2,
			     v ? lrs_fmt__ns(t, sizeof(t), (double)v) : ".");
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
	const struct lrs_history *h = lrs_model__history(model, row->memcg_id,
							 model->nodes[model->sel_node_idx]);
	size_t n, first;
	double max = 0;

	w -= 10;	/* " history " and a blank */
	if (!h || w < 8 || !model->history_len)
		return;
	n = model->history_len < (size_t)w ? model->history_len : (size_t)w;
	first = model->history_len - n;
	for (size_t i = first; i < model->history_len; i++) {
		double v = lrs_history__at(model, h, i);

		max = v > max ? v : max;
	}
	x = put(y, x, 9, tui->faint_attr, " history ");
	for (size_t i = first; i < model->history_len; i++, x++) {
		int level = lrs_view_layout__bar((unsigned long long)lrs_history__at(model, h, i),
						 (unsigned long long)max, 8);

		if (!level)
			mvaddch(y, x, ' ');
		else if (tui->utf8)
			mvaddstr(y, x, ticks[level - 1]);
		else
			mvaddch(y, x, (chtype)"_.,-=+*#"[level - 1]);
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

	x = put(y + 1, 1, w - 1, 0, "lock word: ");
	lrs_lock_state__format(state, sizeof(state), &lv->walk);
	x = put(y + 1, x, w - x, lv->walk.locked || lv->walk.pending || lv->walk.tail_cpu >= 0 ?
	       tui->warn_attr : A_BOLD, state);
	x = put(y + 1, x, w - x, 0, "   walk vs counters: ");
	if (!lv->walk.mismatch) {
		put(y + 1, x, w - x, 0, "agree");
	} else {
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
			if (lv->walk.mismatch & (1u << l))
				x = putf(y + 1, x, w - x, tui->warn_attr, "%s differs ",
					 lrs_lru_list_names[l]);
	}
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
		max = lv->lru_pages[l] > max ? lv->lru_pages[l] : max;
	for (int l = 0; l < LRS_NR_LRU_LISTS && 2 + l < h; l++) {
		int yy = y + 2 + l, n = lrs_view_layout__bar(lv->lru_pages[l], max, bar_w);

		/* exact pages: what memory.numa_stat says, divided by the page size */
		putf(yy, 1, 22, 0, "%-13s %8llu", lrs_lru_list_names[l],
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

static void draw_detail(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct lrs_row *row = lrs_model__selected_row(model);
	const struct lrs_cell *cell = lrs_model__selected_cell(model);
	int y = l->detail_y, w = l->width, h = l->detail_h, x, cols_h;
	char t[600], path[512], a[32], b[32], c[32], d[32];

	if (h <= 0)
		return;
	if (!row || !cell) {
		rule(y, 0, w, tui->faint_attr, "detail");
		put(y + 1, 1, w - 1, tui->faint_attr, "no lruvec selected");
		return;
	}
	sanitize(path, sizeof(path), row->memcg);
	if (cell->lruvec)
		snprintf(t, sizeof(t), "%s@N%d%s  lock 0x%llx", path, model->nodes[model->sel_node_idx],
			 row->removed ? " (removed)" : "",
			 (unsigned long long)cell->lruvec->lock_addr);
	else
		snprintf(t, sizeof(t), "%s@N%d", path, model->nodes[model->sel_node_idx]);
	rule(y, 0, w, tui->faint_attr, NULL);
	x = putf(y, 2, w - 4, A_BOLD, " %s ", t);
	draw_spark(tui, model, row, y, x + 1, w - 20 - x - 2);
	put(y, w - 20 > x ? w - 20 : x, 18, tui->faint_attr, " Enter hides ");
	if (!cell->lruvec) {
		put(y + 1, 1, w - 1, tui->faint_attr, "this memcg has no lruvec on this node");
		return;
	}
	if (cell->lruvec->walk.known) {
		draw_detail_walk(tui, cell->lruvec, y, w, h);
		return;
	}

	/* counters of the interval; max and LRU sizes are as of now */
	if (!cell->contended) {
		putf(y + 1, 1, w - 1, tui->faint_attr,
		     "no contention in this interval; longest wait since start %s",
		     lrs_fmt__ns(a, sizeof(a), (double)cell->lruvec->counters.wait_max_ns));
		goto lru;
	}
	x = putf(y + 1, 1, w - 1, 0, "contended %s (%s/s)  wait %s (%s)",
		 lrs_fmt__count(a, sizeof(a), (double)cell->contended),
		 lrs_fmt__count(b, sizeof(b), cell->contended_per_s),
		 lrs_fmt__ns(c, sizeof(c), (double)cell->wait_ns),
		 lrs_fmt__rate_ns(d, sizeof(d), cell->wait_ns_per_s));
	x = putf(y + 1, x, w - x, 0, "  avg %s",
		 lrs_fmt__ns(a, sizeof(a), cell->contended ?
			     (double)cell->wait_ns / (double)cell->contended : 0));
	x = putf(y + 1, x, w - x, 0, "  p50 <%s  p99 <%s",
		 lrs_fmt__ns(a, sizeof(a), (double)lrs_hist__quantile_ns(cell->hist, 0.5)),
		 lrs_fmt__ns(b, sizeof(b), (double)lrs_hist__quantile_ns(cell->hist, 0.99)));
	putf(y + 1, x, w - x, 0, "  max %s (since start)",
	     lrs_fmt__ns(a, sizeof(a), (double)cell->lruvec->counters.wait_max_ns));

lru:
	if (h < 3)
		return;
	x = put(y + 2, 1, w - 1, 0, "LRU pages:");
	for (int i = 0; i < LRS_NR_LRU_LISTS; i++)
		x = putf(y + 2, x, w - x, 0, "  %s %s", lrs_lru_list_names[i],
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

static const struct tui_msg *status_msg(const struct lrs_tui *tui)
{
	const struct tui_msg *m;

	if (!tui->nr_msgs)
		return NULL;
	m = &tui->msgs[tui->nr_msgs - 1];
	return now_s() - m->at_s < TUI_MSG_SHOW_S ? m : NULL;
}

static void draw_status(struct lrs_tui *tui, const struct lrs_model *model)
{
	const char *const keys[][2] = {
		{ "q", "quit" }, { "arrows", "select" }, { "Enter", "detail" },
		{ "t", tui->time_view ? "heatmap" : "history" },
		{ "m", lrs_metric_names[(model->metric + 1) % LRS_NR_METRICS] }, { "s", "sort" },
		{ "p", "pause" }, { "+/-", "interval" }, { "/", "filter" }, { "h", "help" },
		{ "x", tui->matrix ? "heatmap" : "matrix" }, { "c", "columns" },
	};
	size_t nr_keys = sizeof(keys) / sizeof(keys[0]);
	const struct lrs_view_layout *l = &tui->layout;
	const struct tui_msg *m = status_msg(tui);
	int y = l->status_y, w = l->width, x = 0;

	if (tui->editing) {
		char f[sizeof(tui->edit)];

		sanitize(f, sizeof(f), tui->edit);
		x = put(y, 0, w, A_BOLD, "filter: ");
		x = put(y, x, w - x, 0, f);
		put(y, x, w - x, A_REVERSE, " ");
		put(y, x + 2, w - x - 2, tui->faint_attr, "(Enter keeps, Esc cancels)");
		return;
	}
	if (m) {
		put(y, 0, w, m->keep ? tui->warn_attr : A_BOLD, m->text);
		return;
	}
	/* x and c only with holders; c only in the matrix */
	if (!model->cur || !model->cur->holders)
		nr_keys -= 2;
	else if (!tui->matrix)
		nr_keys--;
	for (size_t i = 0; i < nr_keys && x < w; i++) {
		x = put(y, x, w - x, tui->key_attr | A_BOLD, keys[i][0]);
		x = putf(y, x, w - x, 0, " %s  ", keys[i][1]);
	}
}

static void draw_help(struct lrs_tui *tui)
{
	static const char *const lines[] = {
		"lruscope top: where Linux waits on LRU locks",
		"",
		"Rows are memory cgroups, columns NUMA nodes: each cell is one",
		"lruvec (memcg x node) and its lru_lock. A cell shows the time",
		"tasks spent waiting for that lock per second of the last",
		"interval, and how many contended acquisitions per second.",
		"Colours follow a log scale below the hottest cell (legend).",
		"\"other locks\" are the contended locks that are not lruvec locks.",
		"A waiter's memcg in colour differs from the lock's: reclaim",
		"from kswapd or from a parent's limit.",
		"",
		"arrows, PgUp/PgDn, Home/End   select a cell",
		"Enter                         detail pane on/off",
		"t                             time view: wait history per row",
		"m                             cells: wait/s or LRU pages (a walk's)",
		"  <- ->  (time view)          one node, or all nodes summed",
		"s                             sort: wait, count, max, name",
		"/                             filter by cgroup path",
		"p  or  space                  pause / resume",
		"+  -                          longer / shorter interval",
		"x                             holders: memcg x memcg matrix on/off",
		"c  (matrix)                   columns: lruvec owner or holder's memcg",
		"h  or  ?                      this help",
		"q                             quit",
	};
	const int n = (int)(sizeof(lines) / sizeof(lines[0]));
	int w = 70, h = n + 4, y0, x0;

	if (w > tui->layout.width - 2)
		w = tui->layout.width - 2;
	if (h > tui->layout.height - 2)
		h = tui->layout.height - 2;
	if (w < 10 || h < 4)
		return;
	y0 = (tui->layout.height - h) / 2;
	x0 = (tui->layout.width - w) / 2;
	for (int y = y0; y < y0 + h; y++)
		fill(y, x0, w, 0);
	attron(A_BOLD);
	mvhline(y0, x0, ACS_HLINE, w);
	mvhline(y0 + h - 1, x0, ACS_HLINE, w);
	mvvline(y0, x0, ACS_VLINE, h);
	mvvline(y0, x0 + w - 1, ACS_VLINE, h);
	mvaddch(y0, x0, ACS_ULCORNER);
	mvaddch(y0, x0 + w - 1, ACS_URCORNER);
	mvaddch(y0 + h - 1, x0, ACS_LLCORNER);
	mvaddch(y0 + h - 1, x0 + w - 1, ACS_LRCORNER);
	attroff(A_BOLD);
	put(y0, x0 + 2, w - 4, A_BOLD, " help (h closes) ");
	for (int i = 0; i < n && i < h - 4; i++)
		put(y0 + 2 + i, x0 + 3, w - 6, i == 0 ? A_BOLD : 0, lines[i]);
}

void lrs_tui__draw(struct lrs_tui *tui, const struct lrs_model *model)
{
	struct lrs_view_layout_in in = { 0 };
	const char *banner = banner_text(tui);
	int h, w;

	getmaxyx(stdscr, h, w);
	in.width = w;
	in.height = h;
	in.nr_nodes = model->nr_nodes;
	in.sel_node_idx = model->sel_node_idx;
	in.first_node = tui->first_node;
	in.name_len = name_len(model);
	in.nr_rows = model->nr_visible;
	in.banner = banner != NULL;
	in.unavailable = model->cur && model->cur->unavailable;
	/* the other locks' title stays, with a line saying none contended */
	in.nr_others = model->cur ? (others_active(model) ? others_active(model) : 1) : 0;
	if (one_instant(tui))
		in.nr_others = 0;	/* a walk reads no contention */
	in.detail = model->show_detail;
	in.time_view = tui->time_view;
	in.history_cap = model->history_cap;
	lrs_view_layout__compute(&tui->layout, &in);
	tui->first_node = tui->layout.first_node;
	{
		long sel = lrs_model__selected_index(model);

		tui->top = lrs_view_layout__scroll(tui->top, sel < 0 ? 0 : (size_t)sel, model->nr_visible,
					      tui->layout.rows_h > 0 ? (size_t)tui->layout.rows_h : 0);
	}
	if (tui->time_view)
		strips__compute(tui, model);	/* before the legend: it shows their scale */

	erase();
	if (banner && tui->layout.banner_y >= 0) {
		char b[512];

		/* the banner is ours (the demo's): UTF-8 passes where the terminal takes it */
		sanitize_keep(b, sizeof(b), banner, tui->utf8);
		fill(tui->layout.banner_y, 0, w, tui->title_attr);
		putf(tui->layout.banner_y, 0, w, tui->title_attr, " %s", b);
	}
	draw_header(tui, model);
	draw_legend(tui, model);
	if (tui->time_view) {
		draw_time_colhdr(tui, model);
		draw_time_rows(tui, model);
		draw_time_axis(tui, model);
	} else {
		draw_colhdr(tui, model);
		draw_rows(tui, model);
	}
	draw_others(tui, model);
	draw_detail(tui, model);
	if (tui->matrix)
		draw_matrix(tui, model);
	draw_status(tui, model);
	if (model->show_help)
		draw_help(tui);
	/* park the cursor on the status line: some terminals show it anyway */
	move(tui->layout.status_y, 0);
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- setup and teardown ------------------------------------------------- */

int lrs_tui__open(struct lrs_tui **out, const struct lrs_tui_opts *opts, const char *term,
		  FILE *outf, FILE *inf)
{
	struct lrs_tui *tui = calloc(1, sizeof(*tui));
	const char *cs;

	*out = NULL;
	if (!tui)
		return -ENOMEM;
	if (opts)
		tui->opts = *opts;
	tui->outf = outf ? outf : stdout;
	tui->inf = inf ? inf : stdin;
	tui->interval_s = 1.0;
	tui->source_name = "";

	/* LC_CTYPE only: number formatting and parsing stay in the C locale */
	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	tui->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));

	tui->screen = newterm(term, tui->outf, tui->inf);
	if (!tui->screen) {
		free(tui);
		return -ENOTTY;
	}
	set_term(tui->screen);
	cbreak();		/* not raw(): ^C still sends SIGINT, handled as a clean exit */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);	/* the loop waits in poll(); getch only drains */
	set_escdelay(25);
	curs_set(0);
	/* COLORS is only known after start_color(): ask terminfo */
	tui->mode = lrs_colour__mode(has_colors() ? tigetnum("colors") : 0, tui->opts.no_color,
				     getenv("NO_COLOR"));
	colours__init(tui);
	*out = tui;
	return 0;
}

void lrs_tui__close(struct lrs_tui *tui)
{
	if (!tui)
		return;
	if (tui->screen) {
		set_term(tui->screen);
		curs_set(1);
		endwin();
		delscreen(tui->screen);
	}
	for (size_t i = 0; i < tui->nr_msgs; i++)
		if (tui->msgs[i].keep)
			fprintf(stderr, "lruscope: %s\n", tui->msgs[i].text);
	free(tui->strips);
	free(tui);
}

void lrs_tui__resize(struct lrs_tui *tui, int lines, int cols)
{
	set_term(tui->screen);
	resizeterm(lines, cols);
}

void lrs_tui__set_source(struct lrs_tui *tui, const char *name, double interval_s)
{
	tui->source_name = name ? name : "";
	tui->interval_s = interval_s;
}

void lrs_tui__set_matrix_view(struct lrs_tui *tui, bool on, bool by_holder)
{
	tui->matrix = on;
	tui->matrix_by_holder = by_holder;
}

bool lrs_tui__matrix_key(struct lrs_tui *tui, int key)
{
	if (key == 'x' || key == 'X') {
		tui->matrix = !tui->matrix;
		return true;
	}
	if ((key == 'c' || key == 'C') && tui->matrix) {
		tui->matrix_by_holder = !tui->matrix_by_holder;
		return true;
	}
	return false;
}

void lrs_tui__set_time_view(struct lrs_tui *tui, bool on, bool all_nodes)
{
	tui->time_view = on;
	tui->time_all_nodes = all_nodes;
}

enum lrs_action lrs_tui__key_action(int key)
{
	switch (key) {
	case 'q': case 'Q':
		return LRS_ACT_QUIT;
	case 's': case 'S':
		return LRS_ACT_SORT_NEXT;
	case 'p': case 'P': case ' ':
		return LRS_ACT_PAUSE;
	case 't': case 'T':
		return LRS_ACT_TIME_VIEW;
	case 'm': case 'M':
		return LRS_ACT_METRIC_NEXT;
	case '+': case '=':
		return LRS_ACT_INTERVAL_UP;
	case '-': case '_':
		return LRS_ACT_INTERVAL_DOWN;
	case '/':
		return LRS_ACT_FILTER;
	case 'h': case 'H': case '?': case KEY_F(1):
		return LRS_ACT_HELP;
	case '\n': case '\r': case KEY_ENTER: case 'd':
		return LRS_ACT_DETAIL;
	case KEY_UP: case 'k':
		return LRS_ACT_UP;
	case KEY_DOWN: case 'j':
		return LRS_ACT_DOWN;
	case KEY_LEFT:
		return LRS_ACT_LEFT;
	case KEY_RIGHT: case 'l':
		return LRS_ACT_RIGHT;
	case KEY_PPAGE:
		return LRS_ACT_PAGE_UP;
	case KEY_NPAGE:
		return LRS_ACT_PAGE_DOWN;
	case KEY_HOME: case 'g':
		return LRS_ACT_HOME;
	case KEY_END: case 'G':
		return LRS_ACT_END;
	/* a replay's transport (the source handles them) */
	case '.':
		return LRS_ACT_STEP_FORWARD;
	case ',':
		return LRS_ACT_STEP_BACK;
	case '<':
		return LRS_ACT_SEEK_START;
	case '>':
		return LRS_ACT_SEEK_END;
	case ']':
		return LRS_ACT_SPEED_UP;
	case '[':
		return LRS_ACT_SPEED_DOWN;
	default:
		return LRS_ACT_NONE;
	}
}

/* ---- the loop ------------------------------------------------------------ */

/*
 * While curses owns the terminal, stderr goes into a pipe whose lines become
 * status messages: libraries (libbpf) may print at any time.
 */
struct stderr_capture {
	int saved_fd;
	int read_fd;
	char buf[1024];
	size_t len;
};

static void capture__start(struct stderr_capture *c)
{
	int p[2];

	c->saved_fd = c->read_fd = -1;
	c->len = 0;
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return;
	fflush(stderr);
	c->saved_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (c->saved_fd < 0 || dup2(p[1], STDERR_FILENO) < 0) {
		if (c->saved_fd >= 0)
			close(c->saved_fd);
		c->saved_fd = -1;
		close(p[0]);
		close(p[1]);
		return;
	}
	close(p[1]);
	c->read_fd = p[0];
}

static void capture__drain(struct stderr_capture *c, struct lrs_tui *tui)
{
	ssize_t n;

	if (c->read_fd < 0)
		return;
	fflush(stderr);
	while ((n = read(c->read_fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len)) > 0) {
		char *nl;

		c->len += (size_t)n;
		c->buf[c->len] = '\0';
		while ((nl = strchr(c->buf, '\n')) || c->len == sizeof(c->buf) - 1) {
			size_t line = nl ? (size_t)(nl - c->buf) : c->len;

			c->buf[line] = '\0';
			if (line)
				lrs_tui__message(tui, true, "%s", c->buf);
			if (nl)
				line++;
			memmove(c->buf, c->buf + line, c->len - line);
			c->len -= line;
			c->buf[c->len] = '\0';
		}
	}
}

static void capture__stop(struct stderr_capture *c, struct lrs_tui *tui)
{
	if (c->read_fd < 0)
		return;
	capture__drain(c, tui);
	if (c->len)
		lrs_tui__message(tui, true, "%.*s", (int)c->len, c->buf);
	fflush(stderr);
	dup2(c->saved_fd, STDERR_FILENO);
	close(c->saved_fd);
	close(c->read_fd);
	c->read_fd = c->saved_fd = -1;
}

static const double interval_steps[] = { 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

static double interval_next(double cur, bool up)
{
	const size_t n = sizeof(interval_steps) / sizeof(interval_steps[0]);

	if (up) {
		for (size_t i = 0; i < n; i++)
			if (interval_steps[i] > cur * 1.001)
				return interval_steps[i];
		return interval_steps[n - 1];
	}
	for (size_t i = n; i-- > 0;)
		if (interval_steps[i] < cur * 0.999)
			return interval_steps[i];
	return interval_steps[0];
}

static void filter__key(struct lrs_tui *tui, struct lrs_model *model, int ch)
{
	size_t len = strlen(tui->edit);

	switch (ch) {
	case 27:	/* Esc: back to the filter before the prompt */
		snprintf(model->filter, sizeof(model->filter), "%s", tui->filter_before);
		tui->editing = false;
		break;
	case '\n': case '\r': case KEY_ENTER:
		tui->editing = false;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		if (len)
			tui->edit[len - 1] = '\0';
		break;
	case 21:	/* ^U */
		tui->edit[0] = '\0';
		break;
	default:
		if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(tui->edit)) {
			tui->edit[len] = (char)ch;
			tui->edit[len + 1] = '\0';
		}
		break;
	}
	if (tui->editing)
		snprintf(model->filter, sizeof(model->filter), "%s", tui->edit);
	/* the filter applies as it is typed */
	lrs_model__refresh_view(model);
}

struct tui_loop {
	struct lrs_source *src;
	struct lrs_model *model;
	struct lrs_tui *tui;
	double next_due_s;
	double last_take_s;
	bool quit;
	bool dirty;
	bool paused_before;
	bool msg_shown;		/* a status message is on screen: redraw when it expires */
	bool user_moved;	/* until the user selects, the selection follows the hottest cell */
	bool instant_taken;	/* a source of one instant (interval 0) gave its snapshot */
};

/* Select the cell with the most wait: what the detail pane should show first. */
static void select_hottest(struct lrs_model *model)
{
	double best = 0;

	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];

		for (size_t n = 0; n < model->nr_nodes; n++) {
			double v = lrs_cell__value(&row->cells[n], model->metric);

			if (v <= best)
				continue;
			best = v;
			model->sel_memcg_id = row->memcg_id;
			model->sel_node_idx = n;
		}
	}
}

bool lrs_tui__time_view_key(struct lrs_tui *tui, const struct lrs_model *model,
			    enum lrs_action act)
{
	if (act == LRS_ACT_TIME_VIEW) {
		tui->time_view = !tui->time_view;
		return true;
	}
	if (!tui->time_view || model->nr_nodes < 2)
		return false;
	if (act == LRS_ACT_RIGHT && model->sel_node_idx + 1 >= model->nr_nodes) {
		tui->time_all_nodes = true;
		return true;
	}
	if (act == LRS_ACT_LEFT && tui->time_all_nodes) {
		tui->time_all_nodes = false;
		return true;
	}
	return false;
}

/* One key: an action on the model, or on the loop (quit, filter, interval). */
static void loop__key(struct tui_loop *lp, int ch)
{
	struct lrs_tui *tui = lp->tui;
	struct lrs_model *model = lp->model;
	enum lrs_action act;
	double iv;

	lp->dirty = true;
	if (ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		return;
	}
	if (tui->editing) {
		filter__key(tui, model, ch);
		return;
	}
	if (model->show_help && ch == 27) {
		model->show_help = false;
		return;
	}
	if (lrs_tui__matrix_key(tui, ch))
		return;
	act = lrs_tui__key_action(ch);
	if (lrs_tui__time_view_key(tui, model, act)) {
		lp->user_moved |= act != LRS_ACT_TIME_VIEW;
		return;
	}
	switch (act) {
	case LRS_ACT_NONE:
		lp->dirty = false;
		break;
	case LRS_ACT_QUIT:
		lp->quit = true;
		break;
	case LRS_ACT_FILTER:
		lp->user_moved = true;	/* the filter picks the rows: keep its first one */
		tui->editing = true;
		snprintf(tui->filter_before, sizeof(tui->filter_before), "%s", model->filter);
		snprintf(tui->edit, sizeof(tui->edit), "%s", model->filter);
		break;
	case LRS_ACT_INTERVAL_UP:
	case LRS_ACT_INTERVAL_DOWN:
		if (one_instant(tui)) {
			lrs_tui__message(tui, false, "%s is one instant: no interval to change",
					 lp->src->name);
			break;
		}
		iv = interval_next(lp->src->interval_s, act == LRS_ACT_INTERVAL_UP);
		lp->src->interval_s = iv;
		if (lp->src->set_interval)
			lp->src->set_interval(lp->src, iv);
		lrs_tui__set_source(tui, lp->src->name, iv);
		lp->next_due_s = lp->last_take_s + iv;
		lrs_tui__message(tui, false, "interval %.3gs", iv);
		break;
	default:
		if (lp->src->control && lp->src->control(lp->src, (int)act)) {
			/* a replay moved or changed speed: the header follows, the next take waits */
			lrs_tui__set_source(tui, lp->src->name, lp->src->interval_s);
			lp->next_due_s = now_s() + lp->src->interval_s;
			break;
		}
		if (lrs_action__moves_selection(act))
			lp->user_moved = true;
		lrs_model__apply(model, act, tui->layout.rows_h > 1 ? (size_t)tui->layout.rows_h - 1 : 1);
		break;
	}
}

static int loop__take(struct tui_loop *lp, double now)
{
	struct lrs_snapshot *snap = NULL;
	int err;

	lp->last_take_s = now;
	lp->next_due_s += lp->src->interval_s;
	if (lp->next_due_s < now)	/* fell behind (a slow take, a pause): no catching up */
		lp->next_due_s = now + lp->src->interval_s;
	err = lp->src->take(lp->src, &snap);
	if (err == -ENODATA)
		return err;
	if (err) {
		lrs_tui__message(lp->tui, true, "snapshot from %s failed: %s", lp->src->name,
				 strerror(-err));
		return 0;
	}
	err = lrs_model__push(lp->model, snap);
	if (err)
		lrs_tui__message(lp->tui, true, "model: %s", strerror(-err));
	else if (!lp->user_moved)
		select_hottest(lp->model);
	lp->instant_taken = !err && !(lp->src->interval_s > 0);
	lp->dirty = true;
	return 0;
}

/*
 * The terminal is gone when its fd reports a hangup, or polls readable again
 * and again with no key to read (end of file).
 */
static bool input__lost(short revents, bool got_key)
{
	if (revents & (POLLHUP | POLLERR | POLLNVAL))
		return true;
	return (revents & POLLIN) && !got_key;
}

int lrs_tui__run(struct lrs_source *src, struct lrs_model *model, const struct lrs_tui_opts *opts)
{
	static volatile sig_atomic_t never;
	volatile sig_atomic_t *stop = opts && opts->stop ? opts->stop : &never;
	struct stderr_capture cap = { .saved_fd = -1, .read_fd = -1 };
	struct tui_loop lp = { .src = src, .model = model, .dirty = true };
	int err, fd = fileno(stdin), eof_strikes = 0;
	double start;

	if (!isatty(fd) || !isatty(fileno(stdout))) {
		fprintf(stderr, "lruscope: the live view needs a terminal (stdin and stdout); "
				"use 'lruscope report' for text\n");
		return -ENOTTY;
	}
	err = lrs_tui__open(&lp.tui, opts, NULL, NULL, NULL);
	if (err) {
		fprintf(stderr, "lruscope: cannot start curses on TERM=%s\n",
			getenv("TERM") ? getenv("TERM") : "(unset)");
		return err;
	}
	capture__start(&cap);
	lrs_tui__set_source(lp.tui, src->name, src->interval_s);
	start = now_s();
	lp.next_due_s = start;

	while (!*stop && !lp.quit) {
		double now = now_s(), wait_s;
		struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN },
					 { .fd = cap.read_fd, .events = POLLIN } };
		bool got_key = false;
		int ch, timeout_ms;

		if (opts && opts->duration_s > 0 && now - start >= opts->duration_s)
			break;
		if (model->paused != lp.paused_before) {
			lp.paused_before = model->paused;
			/* resuming: the next snapshot is due now, no long catch-up interval */
			if (!model->paused)
				lp.next_due_s = now;
		}
		if (!model->paused && !lp.instant_taken && now >= lp.next_due_s) {
			err = loop__take(&lp, now);
			if (err == -ENODATA) {
				lrs_tui__message(lp.tui, true, "%s: no more snapshots", src->name);
				err = 0;
				break;
			}
		}
		capture__drain(&cap, lp.tui);
		if (lp.dirty || lp.tui->opts.banner_fn || lp.msg_shown || status_msg(lp.tui)) {
			lp.msg_shown = status_msg(lp.tui) != NULL;
			lrs_tui__draw(lp.tui, model);
			lp.dirty = false;
		}

		wait_s = model->paused || lp.instant_taken ? 1.0 : lp.next_due_s - now_s();
		if (opts && opts->duration_s > 0 && start + opts->duration_s - now_s() < wait_s)
			wait_s = start + opts->duration_s - now_s();
		timeout_ms = wait_s <= 0 ? 0 : (int)(wait_s * 1000) + 1;
		if (timeout_ms > TUI_POLL_MAX_MS)
			timeout_ms = TUI_POLL_MAX_MS;
		if (poll(pfd, cap.read_fd >= 0 ? 2 : 1, timeout_ms) < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		/* also after EINTR: SIGWINCH leaves a KEY_RESIZE to read */
		while ((ch = getch()) != ERR) {
			got_key = true;
			loop__key(&lp, ch);
			if (lp.quit)
				break;
		}
		if (input__lost(pfd[0].revents, got_key)) {
			if ((pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) || ++eof_strikes >= 3) {
				lrs_tui__message(lp.tui, true, "terminal lost: stopping");
				break;
			}
		} else {
			eof_strikes = 0;
		}
	}
	capture__stop(&cap, lp.tui);
	lrs_tui__close(lp.tui);
	return err;
}

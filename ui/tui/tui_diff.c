// SPDX-License-Identifier: GPL-2.0
/*
 * 'lruscope diff --tui': two recordings side by side as a heatmap. Rows are
 * memcgs in the comparison's order (significant changes first), columns per
 * node "A | B | B/A", and past one node the memcg over all of them; the
 * ratio cell carries the diverging colour.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"
#include "ui/tui/tui_internal.h"

#define DIFF_VALUE_W 9 /* "12.3ms/s" and a space */
#define DIFF_RATIO_W 8 /* " 5.13x " / "only B" */
#define DIFF_GROUP_W (2 * DIFF_VALUE_W + DIFF_RATIO_W + 2)
#define DIFF_TOP 3 /* title, legend, column headings */

struct diff_view {
	const struct lrs_compare *cmp;
	const char *name_a, *name_b;
	struct lrs_cmp_grid grid;
	size_t top; /* first memcg shown */
};

static void ratio_text(char *buf, size_t len, const struct lrs_cmp_row *r)
{
	if (r->side == LRS_CMP_ONLY_A)
		snprintf(buf, len, "only A");
	else if (r->side == LRS_CMP_ONLY_B)
		snprintf(buf, len, "only B");
	else if (isnan(r->wait.ratio))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, r->wait.ratio >= 100 ? "%.0fx" : "%.2fx", r->wait.ratio);
}

static attr_t ratio_attr(const struct lrs_tui *tui, const struct lrs_cmp_row *r)
{
	int level = lrs_colour__diverging_level(r->wait.ratio, r->wait.significant);

	if (r->side != LRS_CMP_BOTH)
		return tui->other_memcg_attr;
	return tui->diverge_attr[level + LRS_DIVERGING_LEVELS];
}

static void draw_legend(struct lrs_tui *tui, int y, int cols, const struct lrs_cmp_test *test)
{
	int x = tui__put(y, 0, cols, A_BOLD, "B/A wait/s ");

	for (int l = -LRS_DIVERGING_LEVELS; l <= LRS_DIVERGING_LEVELS; l++) {
		double low = lrs_colour__diverging_low(l);
		char label[32];

		if (l == 0)
			snprintf(label, sizeof(label), " no significant change ");
		else
			snprintf(label, sizeof(label), " %s%gx ", l > 0 ? ">" : "<", low);
		x = tui__put(y, x, cols - x, tui->diverge_attr[l + LRS_DIVERGING_LEVELS], label);
	}
	tui__putf(y, x, cols - x, tui->faint_attr, "  (p < %g, >= %g%%)", test->alpha,
		  100 * test->min_change);
}

static void draw_total(struct lrs_tui *tui, int y, int cols, const struct lrs_cmp_row *r)
{
	char a[16], b[16], ratio[16];

	ratio_text(ratio, sizeof(ratio), r);
	tui__putf(y, 0, cols, A_NORMAL, "total %-13s %10s -> %-10s", r->name,
		  lrs_fmt__rate_ns(a, sizeof(a), r->wait.a),
		  lrs_fmt__rate_ns(b, sizeof(b), r->wait.b));
	tui__putf(y, 43, cols - 43, ratio_attr(tui, r), " %s ", ratio);
	if (!isnan(r->wait.p))
		tui__putf(y, 53, cols - 53, tui->faint_attr, "p %.3g", r->wait.p);
}

/*
 * One line under the rows: the causes of the first lruvec from the top row
 * down with sampled stacks (scrolling moves it), each with its sampled wait
 * ratio on the diverging scale.
 */
static void draw_causes(struct lrs_tui *tui, int y, int cols, const struct diff_view *v)
{
	const struct lrs_cmp_row *r = NULL;
	char name[300];
	int x;

	for (size_t m = v->top; m < v->grid.nr_memcgs && !r; m++)
		for (size_t n = 0; n < v->grid.nr_nodes && !r; n++) {
			r = lrs_compare__lruvec(v->cmp, v->grid.memcgs[m], v->grid.nodes[n]);
			if (r && !r->nr_causes)
				r = NULL;
		}
	if (!r) {
		tui__put(y, 1, cols - 1, tui->faint_attr,
			 "causes: no sampled stacks from the top row down");
		return;
	}
	x = tui__putf(y, 0, cols, A_BOLD, " causes %s ",
		      lrs_lruvec__label(r->name, r->node, name, sizeof(name)));
	x = tui__put(y, x, cols - x, tui->faint_attr, "sampled B/A: ");
	for (size_t i = 0; i < r->nr_causes && x < cols; i++) {
		const struct lrs_cmp_cause *c = &r->causes[i];
		int level = lrs_colour__diverging_level(c->wait.ratio, c->wait.significant);
		char ratio[16];

		if (isnan(c->wait.ratio))
			snprintf(ratio, sizeof(ratio), "-");
		else if (isinf(c->wait.ratio))
			snprintf(ratio, sizeof(ratio), "new");
		else
			snprintf(ratio, sizeof(ratio), c->wait.ratio >= 100 ? "%.0fx" : "%.2fx",
				 c->wait.ratio);
		x = tui__putf(y, x, cols - x, A_NORMAL, "%s%s ", i ? "  " : "",
			      lrs_cause__title(c->cause));
		x = tui__putf(y, x, cols - x, tui->diverge_attr[level + LRS_DIVERGING_LEVELS],
			      "%s%s", ratio, c->wait.significant ? "*" : "");
	}
}

static void draw(struct lrs_tui *tui, struct diff_view *v)
{
	const struct lrs_compare *cmp = v->cmp;
	int lines = LINES, cols = COLS, name_w, rows_h, y;
	size_t groups;

	erase();
	groups = v->grid.nr_columns;
	if (groups > v->grid.nr_nodes && cols - (int)groups * DIFF_GROUP_W - 1 < LRS_NAME_MIN_W)
		groups = v->grid.nr_nodes; /* no room for "all": the nodes first */
	name_w = cols - (int)groups * DIFF_GROUP_W - 1;
	name_w = name_w > LRS_NAME_MAX_W ? LRS_NAME_MAX_W :
		 name_w < LRS_NAME_MIN_W ? LRS_NAME_MIN_W :
					   name_w;
	rows_h = lines - DIFF_TOP -
		 4; /* the top row's causes, two totals and the status line below */
	if (rows_h < 1)
		rows_h = 1;
	if (v->top + (size_t)rows_h > v->grid.nr_memcgs)
		v->top = v->grid.nr_memcgs > (size_t)rows_h ? v->grid.nr_memcgs - (size_t)rows_h :
							      0;

	tui__fill(0, 0, cols, tui->title_attr);
	tui__putf(0, 0, cols, tui->title_attr,
		  " lruscope diff  A: %s (%zu x %.2f s)  B: %s (%zu x %.2f s)  "
		  "Mann-Whitney U",
		  v->name_a, cmp->samples_a,
		  cmp->samples_a ? cmp->duration_a_s / (double)cmp->samples_a : 0, v->name_b,
		  cmp->samples_b, cmp->samples_b ? cmp->duration_b_s / (double)cmp->samples_b : 0);
	draw_legend(tui, 1, cols, &cmp->test);
	tui__putf(2, 0, name_w, A_BOLD, " memcg (%zu)", v->grid.nr_memcgs);
	for (size_t n = 0; n < groups; n++) {
		char col[8];

		if (n < v->grid.nr_nodes)
			snprintf(col, sizeof(col), "N%d", v->grid.nodes[n]);
		else
			snprintf(col, sizeof(col), "all"); /* the memcg's sum over its nodes */
		tui__putf(2, name_w + 1 + (int)n * DIFF_GROUP_W, DIFF_GROUP_W, A_BOLD,
			  "%-4s%*s%*s %*s", col, DIFF_VALUE_W - 4, "A", DIFF_VALUE_W, "B",
			  DIFF_RATIO_W - 1, "B/A");
	}

	y = DIFF_TOP;
	for (size_t m = v->top; m < v->grid.nr_memcgs && y < DIFF_TOP + rows_h; m++, y++) {
		char path[256];

		lrs_fmt__path(path, sizeof(path), v->grid.memcgs[m], name_w - 1);
		tui__putf(y, 0, name_w, A_NORMAL, " %s", path);
		for (size_t n = 0; n < groups; n++) {
			const struct lrs_cmp_row *r =
				n < v->grid.nr_nodes ? lrs_compare__lruvec(cmp, v->grid.memcgs[m],
									   v->grid.nodes[n]) :
						       lrs_compare__memcg(cmp, v->grid.memcgs[m]);
			int x = name_w + 1 + (int)n * DIFF_GROUP_W;
			char a[16], b[16], ratio[16];

			if (!r) {
				tui__putf(y, x, DIFF_GROUP_W, tui->faint_attr, "%*s", DIFF_VALUE_W,
					  ".");
				continue;
			}
			ratio_text(ratio, sizeof(ratio), r);
			x = tui__putf(y, x, DIFF_GROUP_W, A_NORMAL, "%*s%*s ", DIFF_VALUE_W,
				      lrs_fmt__rate_ns(a, sizeof(a), r->wait.a), DIFF_VALUE_W,
				      lrs_fmt__rate_ns(b, sizeof(b), r->wait.b));
			tui__putf(y, x, DIFF_RATIO_W, ratio_attr(tui, r), "%*s ", DIFF_RATIO_W - 1,
				  ratio);
		}
	}
	if (!v->grid.nr_memcgs)
		tui__put(y, 1, cols - 1, tui->faint_attr,
			 "(no lruvec lock was contended in A or B)");
	draw_causes(tui, lines - 4, cols, v);
	for (size_t i = 0, t = 0; i < cmp->nr_rows; i++)
		if (cmp->rows[i].kind == LRS_CMP_TOTAL)
			draw_total(tui, lines - 3 + (int)t++, cols, &cmp->rows[i]);
	tui__fill(lines - 1, 0, cols, tui->key_attr);
	tui__putf(lines - 1, 0, cols, tui->key_attr,
		  " q quit  arrows, PgUp/PgDn scroll  |  %zu significant change%s",
		  cmp->nr_significant, cmp->nr_significant == 1 ? "" : "s");
	refresh();
}

int lrs_tui__run_diff(const struct lrs_compare *cmp, const char *name_a, const char *name_b,
		      const struct lrs_tui_opts *opts)
{
	struct diff_view v = { .cmp = cmp, .name_a = name_a, .name_b = name_b };
	struct lrs_tui *tui = NULL;
	char why[200];
	int err;

	err = lrs_cmp_grid__init(&v.grid, cmp);
	if (!err && lrs_tui__term_check(NULL, fileno(stdout), why, sizeof(why))) {
		fprintf(stderr, "lruscope diff: --tui: %s\n", why);
		err = -ENOTTY; /* said */
		goto out;
	}
	if (!err)
		err = lrs_tui__open(&tui, opts, NULL, NULL, NULL);
	if (err)
		goto out;
	timeout(200); /* wake for signals and resizes */
	draw(tui, &v);
	while (!(opts && opts->stop && *opts->stop)) {
		int ch = getch();
		enum lrs_action act;

		if (ch == ERR)
			continue;
		act = ch == KEY_RESIZE ? LRS_ACT_NONE : lrs_tui__key_action(ch);
		if (act == LRS_ACT_QUIT || act == LRS_ACT_ESCAPE)
			break;
		if (ch == KEY_RESIZE || lrs_action__scroll(act, &v.top, v.grid.nr_memcgs,
							   (size_t)(LINES > 8 ? LINES - 7 : 1)))
			draw(tui, &v);
	}
out:
	lrs_tui__close(tui);
	lrs_cmp_grid__clear(&v.grid);
	return err;
}

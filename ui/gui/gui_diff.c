// SPDX-License-Identifier: GPL-2.0
/*
 * 'lruscope diff --gui': two recordings side by side in the window, as the
 * TUI's diff view draws them: memcg rows in the comparison's order, per node
 * "A | B | B/A" and past one node over all of them, the ratio cell filled
 * with the diverging colour.
 */
#include <math.h>
#include <stdio.h>

#include "model/compare.h"
#include "ui/colour.h"
#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/layout.h"

#define DIFF_VALUE_CHARS 10 /* "12.3ms/s" and room */
#define DIFF_RATIO_CHARS 8

struct gui_diff {
	struct lrs_gui *g;
	const struct lrs_compare *cmp;
	const char *name_a, *name_b;
	struct lrs_cmp_grid grid;
	size_t top;
};

/* The ratio's cell: its diverging colour, or none (not significant, one side only). */
static bool ratio_fill(const struct lrs_cmp_row *r, struct lrs_rgb *c)
{
	int level = lrs_colour__diverging_level(r->wait.ratio, r->wait.significant);

	if (r->side != LRS_CMP_BOTH || !level)
		return false;
	*c = lrs_colour__xterm_rgb(lrs_colour__diverging_style(LRS_COLOUR_256, level).bg);
	return true;
}

static void ratio_label(char *buf, size_t len, const struct lrs_cmp_row *r)
{
	if (r->side != LRS_CMP_BOTH)
		snprintf(buf, len, "only %c", r->side == LRS_CMP_ONLY_A ? 'A' : 'B');
	else if (isnan(r->wait.ratio))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, r->wait.ratio >= 100 ? "%.0fx" : "%.2fx", r->wait.ratio);
}

/* Dark text on light fills, light on dark. */
static struct lrs_rgb text_on(struct lrs_rgb bg)
{
	return bg.r * 299 + bg.g * 587 + bg.b * 114 > 140000 ? (struct lrs_rgb){ 0, 0, 0 } :
							       LRS_GUI_ACCENT;
}

static void draw_legend(struct gui_diff *d, int y, int lh, int cw)
{
	struct lrs_gui *g = d->g;
	int x = cw + gui__text(g, cw, y, LRS_GUI_TEXT, "B/A wait/s:", 0);

	for (int l = -LRS_DIVERGING_LEVELS; l <= LRS_DIVERGING_LEVELS; l++) {
		char label[80];
		int w;

		if (!l)
			snprintf(label, sizeof(label), "no significant change (p < %g, >= %g%%)",
				 d->cmp->test.alpha, 100 * d->cmp->test.min_change);
		else
			snprintf(label, sizeof(label), "%s%gx", l > 0 ? ">" : "<",
				 lrs_colour__diverging_low(l));
		w = lrs_gui_font__width(g->font, label) + cw;
		if (l) {
			struct lrs_rgb c = lrs_colour__xterm_rgb(
				lrs_colour__diverging_style(LRS_COLOUR_256, l).bg);

			gui__fill(g, x, y, w, lh, c);
			gui__text(g, x + cw / 2, y, text_on(c), label, 0);
		} else {
			gui__text(g, x + cw / 2, y, LRS_GUI_FAINT, label, 0);
		}
		x += w + cw / 2;
	}
}

static void draw(struct gui_diff *d)
{
	struct lrs_gui *g = d->g;
	const struct lrs_compare *cmp = d->cmp;
	int lh = lrs_gui_font__line_h(g->font), cw = lrs_gui_font__char_w(g->font);
	int value_w = DIFF_VALUE_CHARS * cw, ratio_w = DIFF_RATIO_CHARS * cw;
	int group_w = 2 * value_w + ratio_w + 2 * cw, name_w, y, rows_h;
	size_t groups;
	char a[16], b[16], label[16];

	gui__measure(g);
	groups = d->grid.nr_columns;
	if (groups > d->grid.nr_nodes &&
	    g->px_w - (int)groups * group_w - 2 * cw < LRS_NAME_MIN_W * cw)
		groups = d->grid.nr_nodes; /* no room for "all": the nodes first */
	name_w = g->px_w - (int)groups * group_w - 2 * cw;
	if (name_w > LRS_NAME_MAX_W * cw)
		name_w = LRS_NAME_MAX_W * cw;
	rows_h = (g->px_h - 8 * lh) / lh;
	if (rows_h < 1)
		rows_h = 1;
	if (d->top + (size_t)rows_h > d->grid.nr_memcgs)
		d->top = d->grid.nr_memcgs > (size_t)rows_h ? d->grid.nr_memcgs - (size_t)rows_h :
							      0;

	gui__colour_set(g, LRS_GUI_BG);
	SDL_RenderClear(g->ren);
	gui__textf(g, cw, lh / 2, LRS_GUI_ACCENT, g->px_w - 2 * cw,
		   "lruscope diff   A: %s (%zu x %.2f s)   B: %s (%zu x %.2f s)   Mann-Whitney U",
		   d->name_a, cmp->samples_a,
		   cmp->samples_a ? cmp->duration_a_s / (double)cmp->samples_a : 0, d->name_b,
		   cmp->samples_b, cmp->samples_b ? cmp->duration_b_s / (double)cmp->samples_b : 0);
	draw_legend(d, 2 * lh, lh, cw);
	y = 4 * lh;
	gui__textf(g, cw, y, LRS_GUI_FAINT, name_w, "memcg (%zu)", d->grid.nr_memcgs);
	for (size_t n = 0; n < groups; n++) {
		int x = 2 * cw + name_w + (int)n * group_w;

		if (n < d->grid.nr_nodes)
			gui__textf(g, x, y, LRS_GUI_FAINT, 0, "N%d", d->grid.nodes[n]);
		else
			gui__text(g, x, y, LRS_GUI_FAINT, "all",
				  0); /* the memcg's sum over its nodes */
		gui__text_right(g, x + value_w, y, LRS_GUI_FAINT, "A");
		gui__text_right(g, x + 2 * value_w, y, LRS_GUI_FAINT, "B");
		gui__text_right(g, x + 2 * value_w + ratio_w, y, LRS_GUI_FAINT, "B/A");
	}
	y += lh;
	for (size_t m = d->top; m < d->grid.nr_memcgs && m < d->top + (size_t)rows_h;
	     m++, y += lh) {
		char path[256];

		lrs_fmt__path(path, sizeof(path), d->grid.memcgs[m], name_w / cw);
		gui__text(g, cw, y, LRS_GUI_TEXT, path, name_w);
		for (size_t n = 0; n < groups; n++) {
			const struct lrs_cmp_row *r =
				n < d->grid.nr_nodes ? lrs_compare__lruvec(cmp, d->grid.memcgs[m],
									   d->grid.nodes[n]) :
						       lrs_compare__memcg(cmp, d->grid.memcgs[m]);
			int x = 2 * cw + name_w + (int)n * group_w;
			struct lrs_rgb fill;

			if (!r) {
				gui__text_right(g, x + value_w, y, LRS_GUI_FAINT, ".");
				continue;
			}
			gui__text_right(g, x + value_w, y, LRS_GUI_TEXT,
					lrs_fmt__rate_ns(a, sizeof(a), r->wait.a));
			gui__text_right(g, x + 2 * value_w, y, LRS_GUI_TEXT,
					lrs_fmt__rate_ns(b, sizeof(b), r->wait.b));
			ratio_label(label, sizeof(label), r);
			if (ratio_fill(r, &fill)) {
				gui__fill(g, x + 2 * value_w + cw, y, ratio_w, lh - 1, fill);
				gui__text_right(g, x + 2 * value_w + ratio_w, y, text_on(fill),
						label);
			} else {
				gui__text_right(g, x + 2 * value_w + ratio_w, y,
						r->side == LRS_CMP_BOTH ? LRS_GUI_TEXT :
									  LRS_GUI_FAINT,
						label);
			}
		}
	}
	if (!d->grid.nr_memcgs)
		gui__text(g, cw, y, LRS_GUI_FAINT, "(no lruvec lock was contended in A or B)", 0);
	y = g->px_h - 3 * lh - lh / 2;
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct lrs_cmp_row *r = &cmp->rows[i];

		if (r->kind != LRS_CMP_TOTAL)
			continue;
		ratio_label(label, sizeof(label), r);
		gui__textf(g, cw, y, LRS_GUI_TEXT, 0, "total %s: %s -> %s   %s%s", r->name,
			   lrs_fmt__rate_ns(a, sizeof(a), r->wait.a),
			   lrs_fmt__rate_ns(b, sizeof(b), r->wait.b), label,
			   r->wait.significant ? " (significant)" : "");
		y += lh;
	}
	gui__textf(g, cw, g->px_h - lh - lh / 4, LRS_GUI_FAINT, 0,
		   "q quit   arrows, PgUp/PgDn scroll   %zu significant change%s",
		   cmp->nr_significant, cmp->nr_significant == 1 ? "" : "s");
	SDL_RenderPresent(g->ren);
}

int lrs_gui__run_diff(const struct lrs_compare *cmp, const char *name_a, const char *name_b,
		      const struct lrs_gui_opts *opts)
{
	struct gui_diff d = { .cmp = cmp, .name_a = name_a, .name_b = name_b };
	int err;

	err = lrs_cmp_grid__init(&d.grid, cmp);
	if (!err)
		err = lrs_gui__open(&d.g, opts);
	if (err)
		goto out;
	draw(&d);
	if (opts->screenshot) {
		err = lrs_gui__save_png(d.g, opts->screenshot);
		if (err)
			fprintf(stderr, "lruscope diff: writing %s failed\n", opts->screenshot);
		goto out;
	}
	while (!(opts->stop && *opts->stop)) {
		SDL_Event ev;
		enum lrs_action act;

		if (!SDL_WaitEventTimeout(&ev, 200))
			continue;
		if (ev.type == SDL_QUIT)
			break;
		if (ev.type == SDL_WINDOWEVENT) {
			draw(&d);
			continue;
		}
		if (ev.type != SDL_KEYDOWN)
			continue;
		act = lrs_gui__key_action(ev.key.keysym.sym);
		if (act == LRS_ACT_QUIT || act == LRS_ACT_ESCAPE)
			break;
		if (lrs_action__scroll(act, &d.top, d.grid.nr_memcgs, 10))
			draw(&d);
	}
out:
	lrs_gui__close(d.g);
	lrs_cmp_grid__clear(&d.grid);
	return err;
}

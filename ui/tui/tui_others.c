// SPDX-License-Identifier: GPL-2.0
/* The other locks panel: the contended locks that are not lruvec locks. */
#include "ui/tui/tui_internal.h"

/* Other locks contended in the interval: the rest listed would only say 0. */
size_t tui__others_active(const struct lrs_model *model)
{
	size_t n = 0;

	/* sorted by wait, descending: the contended ones come first */
	while (n < model->nr_others && (model->others[n].wait_ns || model->others[n].contended))
		n++;
	return n;
}

void tui__draw_others(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	int y = l->others_y, w = l->width, name_w;
	size_t shown = (size_t)(l->others_h > 1 ? l->others_h - 1 : 0),
	       active = tui__others_active(model);
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
	tui__fill(y, 0, w, A_BOLD | A_UNDERLINE);
	tui__putf(y, 1, name_w, A_BOLD | A_UNDERLINE, "other locks (top %zu of %zu)", shown,
		  active);
	if (!active && l->others_h > 1)
		tui__put(y + 1, 2, w - 2, tui->faint_attr,
			 model->prev ? "no other lock contended in this interval" :
				       "first interval...");
	tui__putf(y, 1 + name_w, w - 1 - name_w, A_BOLD | A_UNDERLINE, " %9s %8s %8s  %-18s",
		  "wait/s", "cont/s", "avg", "address");
	for (size_t i = 0; i < shown; i++) {
		const struct lrs_other_row *o = &model->others[i];
		char name[256];
		int x;

		y++;
		tui__sanitize(name, sizeof(name), o->lock && o->lock->name ? o->lock->name : "?");
		x = tui__putf(y, 2, name_w - 1, 0, "%s", name);
		(void)x;
		tui__putf(y, 1 + name_w, w - 1 - name_w, o->wait_ns ? 0 : tui->faint_attr,
			  " %9s %8s %8s  0x%016llx",
			  lrs_fmt__rate_ns(a, sizeof(a), o->wait_ns_per_s),
			  lrs_fmt__count(b, sizeof(b), tui__row_per_s(model, o->contended)),
			  lrs_fmt__ns(c, sizeof(c),
				      o->contended ? (double)o->wait_ns / (double)o->contended : 0),
			  (unsigned long long)(o->lock ? o->lock->lock_addr : 0));
	}
}

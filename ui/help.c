// SPDX-License-Identifier: GPL-2.0
/*
 * The help overlay's layout: what a screen of cols x rows shows of the intro
 * and the keymap, and how it scrolls. Strings only: the TUI draws them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/help.h"
#include "ui/keymap.h"

#define HELP_INTRO_W 66	   /* the intro's width when the keys need no more */
#define HELP_MIN_DESC_W 10 /* narrower, a key's description goes under it */

struct help_lines {
	char **v;
	size_t n, cap;
	bool failed;
};

static void add(struct help_lines *l, const char *s)
{
	char *copy;

	if (l->failed)
		return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->failed = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	copy = strdup(s);
	if (!copy) {
		l->failed = true;
		return;
	}
	l->v[l->n++] = copy;
}

/* How many bytes of p go on a line of width w: up to the last blank that fits, else w. */
static size_t fit(const char *p, int w)
{
	size_t len = strlen(p), n;

	if (w < 1)
		w = 1;
	if (len <= (size_t)w)
		return len;
	for (n = (size_t)w; n > 0 && p[n] != ' '; n--)
		;
	return n ? n : (size_t)w;
}

/*
 * text wrapped to width: its first line after lead (padded to lead_w), the
 * others after as many blanks; an empty text is a blank line.
 */
static void wrap(struct help_lines *l, const char *lead, int lead_w, const char *text, int width)
{
	const char *p = text;
	bool first = true;
	char buf[512];

	do {
		size_t n = fit(p, width - lead_w);

		snprintf(buf, sizeof(buf), "%-*.*s%.*s", lead_w, lead_w, first ? lead : "", (int)n,
			 p);
		for (size_t e = strlen(buf); e > 0 && buf[e - 1] == ' '; e--)
			buf[e - 1] = '\0';
		add(l, buf);
		for (p += n; *p == ' '; p++)
			;
		first = false;
	} while (*p);
}

/* One key's entry, as wide as width: "keys (padded) description", wrapped. */
static void key_entry(struct help_lines *l, const struct lrs_binding *b, int width)
{
	char keys[64];

	snprintf(keys, sizeof(keys), "%-*s ", LRS_HELP_KEYS_W - 1, b->keys);
	if (width - LRS_HELP_KEYS_W >= HELP_MIN_DESC_W) {
		wrap(l, keys, LRS_HELP_KEYS_W, b->what, width);
		return;
	}
	/* narrow: the keys on a line, the description under them */
	wrap(l, "", 0, b->keys, width);
	wrap(l, "", 2, b->what, width);
}

/* The keys' entries side by side: down the left column, then the right. */
static void two_columns(struct help_lines *l, const struct help_lines *keys, int entry_w)
{
	size_t rows = (keys->n + 1) / 2;
	char buf[512];

	for (size_t r = 0; r < rows; r++) {
		snprintf(buf, sizeof(buf), "%-*s%*s%s", entry_w, keys->v[r], LRS_HELP_GAP, "",
			 r + rows < keys->n ? keys->v[r + rows] : "");
		for (size_t e = strlen(buf); e > 0 && buf[e - 1] == ' '; e--)
			buf[e - 1] = '\0';
		add(l, buf);
	}
}

static void lines_free(struct help_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int lrs_help__layout(struct lrs_help *help, const char *const *intro, size_t nr_intro,
		     unsigned int screen, bool replay, int cols, int rows)
{
	struct help_lines body = { 0 }, keys = { 0 };
	int entry_w = 0, max_h;

	memset(help, 0, sizeof(*help));
	for (size_t i = 0; i < lrs_keymap_len; i++) {
		int w = LRS_HELP_KEYS_W + (int)strlen(lrs_keymap[i].what);

		if (lrs_binding__shown(&lrs_keymap[i], screen, replay) && w > entry_w)
			entry_w = w;
	}
	/* a column of the screen each side of the box, a border and two blanks inside */
	if (cols - 8 >= 2 * entry_w + LRS_HELP_GAP) {
		help->columns = 2;
		help->inner_w = 2 * entry_w + LRS_HELP_GAP;
	} else {
		help->columns = 1;
		help->inner_w = entry_w > HELP_INTRO_W ? entry_w : HELP_INTRO_W;
		if (help->inner_w > cols - 8)
			help->inner_w = cols - 8 > 1 ? cols - 8 : 1;
	}
	for (size_t i = 0; i < nr_intro; i++)
		wrap(&body, "", 0, intro[i], help->inner_w);
	help->nr_intro = body.n;
	add(&body, "");
	for (size_t i = 0; i < lrs_keymap_len; i++)
		if (lrs_binding__shown(&lrs_keymap[i], screen, replay))
			key_entry(help->columns == 2 ? &keys : &body, &lrs_keymap[i],
				  help->columns == 2 ? entry_w : help->inner_w);
	if (help->columns == 2)
		two_columns(&body, &keys, entry_w);
	lines_free(&keys);
	if (body.failed || keys.failed) {
		lines_free(&body);
		return -ENOMEM;
	}
	help->lines = body.v;
	help->nr_lines = body.n;

	/* the box: the body and a blank line above and below it, in the screen less a line each side */
	help->w = help->inner_w + 6;
	help->h = (int)help->nr_lines + 4;
	max_h = rows > 6 ? rows - 2 : rows;
	if (help->h > max_h)
		help->h = max_h;
	help->body_h = help->h - 4 > 0 ? help->h - 4 : 0;
	help->x0 = (cols - help->w) / 2 > 0 ? (cols - help->w) / 2 : 0;
	help->y0 = (rows - help->h) / 2 > 0 ? (rows - help->h) / 2 : 0;
	help->max_top =
		help->nr_lines > (size_t)help->body_h ? help->nr_lines - (size_t)help->body_h : 0;
	return 0;
}

void lrs_help__free(struct lrs_help *help)
{
	for (size_t i = 0; i < help->nr_lines; i++)
		free(help->lines[i]);
	free(help->lines);
	memset(help, 0, sizeof(*help));
}

bool lrs_help__scrolls(enum lrs_action act)
{
	switch (act) {
	case LRS_ACT_UP:
	case LRS_ACT_DOWN:
	case LRS_ACT_PAGE_UP:
	case LRS_ACT_PAGE_DOWN:
	case LRS_ACT_HOME:
	case LRS_ACT_END:
		return true;
	default:
		return false;
	}
}

size_t lrs_help__scroll(size_t top, size_t max_top, int page, enum lrs_action act)
{
	size_t p = page > 1 ? (size_t)page : 1;

	switch (act) {
	case LRS_ACT_UP:
		top = top ? top - 1 : 0;
		break;
	case LRS_ACT_DOWN:
		top++;
		break;
	case LRS_ACT_PAGE_UP:
		top = top > p ? top - p : 0;
		break;
	case LRS_ACT_PAGE_DOWN:
		top += p;
		break;
	case LRS_ACT_HOME:
		top = 0;
		break;
	case LRS_ACT_END:
		top = max_top;
		break;
	default:
		break;
	}
	return top < max_top ? top : max_top;
}

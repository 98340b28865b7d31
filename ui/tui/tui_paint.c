// SPDX-License-Identifier: GPL-2.0
/* The TUI's drawing primitives: clipped text, fills, rules, safe strings and colours. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/tui/tui_internal.h"

enum tui_pair {
	PAIR_LEVEL0 = 1, /* ..PAIR_LEVEL0 + LRS_COLOUR_LEVELS */
	PAIR_WARN = PAIR_LEVEL0 + LRS_COLOUR_LEVELS + 1,
	PAIR_TITLE,
	PAIR_KEY,
	PAIR_OTHER_MEMCG,
	PAIR_FAINT,
	PAIR_DIVERGE0, /* ..PAIR_DIVERGE0 + 2 * LRS_DIVERGING_LEVELS: diff's ratios */
};

/* Printable ASCII only: kernel strings (comm, paths) may hold anything. */
void tui__sanitize_keep(char *dst, size_t len, const char *src, bool keep_utf8)
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

void tui__sanitize(char *dst, size_t len, const char *src)
{
	tui__sanitize_keep(dst, len, src, false);
}

/* Write at most w columns of ASCII s at (y, x); returns the column after it. */
int tui__put(int y, int x, int w, attr_t attr, const char *s)
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

int tui__putf(int y, int x, int w, attr_t attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return tui__put(y, x, w, attr, buf);
}

/* Fill columns [x, x + w) of line y with spaces in attr. */
void tui__fill(int y, int x, int w, attr_t attr)
{
	if (w <= 0)
		return;
	attron(attr);
	mvhline(y, x, ' ', w);
	attroff(attr);
}

/* A horizontal rule with a title: "── title ─────". */
void tui__rule(int y, int x, int w, attr_t attr, const char *title)
{
	if (w <= 0)
		return;
	attron(attr);
	mvhline(y, x, ACS_HLINE, w);
	attroff(attr);
	if (title && w > 4)
		tui__putf(y, x + 2, w - 4, attr | A_BOLD, " %s ", title);
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

void tui__colours_init(struct lrs_tui *tui)
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
	for (int l = -LRS_DIVERGING_LEVELS; l <= LRS_DIVERGING_LEVELS; l++) {
		struct lrs_colour_style s = lrs_colour__diverging_style(tui->mode, l);
		int pair = PAIR_DIVERGE0 + l + LRS_DIVERGING_LEVELS;

		if (tui->mode != LRS_COLOUR_NONE)
			init_pair((short)pair, (short)s.fg, (short)s.bg);
		tui->diverge_attr[l + LRS_DIVERGING_LEVELS] = style_attr(s, pair, tui->mode);
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

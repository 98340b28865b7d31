// SPDX-License-Identifier: GPL-2.0
/* Drawing primitives of the GUI: rectangles, text, plot textures, panel titles. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/gui/gui_colour.h"
#include "ui/gui/gui_internal.h"
#include "ui/layout.h"

void gui__colour_set(struct lrs_gui *g, struct lrs_rgb c)
{
	SDL_SetRenderDrawColor(g->ren, c.r, c.g, c.b, 255);
}

void gui__fill(struct lrs_gui *g, int x, int y, int w, int h, struct lrs_rgb c)
{
	SDL_Rect r = { x, y, w, h };

	if (w <= 0 || h <= 0)
		return;
	gui__colour_set(g, c);
	SDL_RenderFillRect(g->ren, &r);
}

void gui__outline(struct lrs_gui *g, int x, int y, int w, int h, int thick, struct lrs_rgb c)
{
	gui__fill(g, x, y, w, thick, c);
	gui__fill(g, x, y + h - thick, w, thick, c);
	gui__fill(g, x, y, thick, h, c);
	gui__fill(g, x + w - thick, y, thick, h, c);
}

int gui__text(struct lrs_gui *g, int x, int y, struct lrs_rgb c, const char *s, int max_w)
{
	if (max_w < 0)
		return 0;
	return lrs_gui_font__draw(g->font, x, y, c, s, max_w ? max_w : -1);
}

int gui__textf(struct lrs_gui *g, int x, int y, struct lrs_rgb c, int max_w, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return gui__text(g, x, y, c, buf, max_w);
}

void gui__text_right(struct lrs_gui *g, int right, int y, struct lrs_rgb c, const char *s)
{
	gui__text(g, right - lrs_gui_font__width(g->font, s), y, c, s, 0);
}

void gui__text_centre(struct lrs_gui *g, int cx, int y, struct lrs_rgb c, const char *s)
{
	gui__text(g, cx - lrs_gui_font__width(g->font, s) / 2, y, c, s, 0);
}

/* ASCII only: the font atlas has nothing else, and paths may hold anything. */
void gui__sanitize(char *dst, size_t len, const char *src)
{
	size_t i = 0;

	for (; src && *src && i + 1 < len; src++)
		dst[i++] = (unsigned char)*src >= 0x20 && (unsigned char)*src < 0x7f ? *src : '?';
	dst[i] = '\0';
}

int gui__chars_fit(const struct lrs_gui *g, int w)
{
	int cw = lrs_gui_font__char_w(g->font);

	return cw > 0 ? w / cw : 0;
}

uint32_t gui__argb(struct lrs_rgb c)
{
	return 0xff000000u | (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b;
}

int gui__texture_fit(struct lrs_gui *g, SDL_Texture **tex, int w, int h)
{
	int tw = 0, th = 0;

	if (*tex)
		SDL_QueryTexture(*tex, NULL, NULL, &tw, &th);
	if (*tex && tw == w && th == h)
		return 0;
	if (*tex)
		SDL_DestroyTexture(*tex);
	*tex = SDL_CreateTexture(g->ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, w,
				 h);
	if (!*tex)
		return -1;
	if ((size_t)w * h > g->px_cap) {
		free(g->px);
		g->px_cap = (size_t)w * h;
		g->px = malloc(g->px_cap * sizeof(*g->px));
		if (!g->px) {
			g->px_cap = 0;
			SDL_DestroyTexture(*tex);
			*tex = NULL;
			return -1;
		}
	}
	return 0;
}

void gui__draw_title(struct lrs_gui *g, const struct lrs_gui_rect *r, const char *title,
		     const char *note)
{
	int w = gui__text(g, r->x, r->y, LRS_GUI_ACCENT, title, r->w);

	if (note)
		gui__text(g, r->x + w, r->y, LRS_GUI_FAINT, note, r->w - w);
}

// SPDX-License-Identifier: GPL-2.0
/* A glyph atlas over SDL2_ttf: render printable ASCII once, copy per character. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <SDL2/SDL_ttf.h>

#include "ui/gui/gui_font.h"

#define FIRST_GLYPH 32
#define NR_GLYPHS 95 /* ' ' .. '~' */

struct lrs_gui_font {
	TTF_Font *ttf;
	SDL_Renderer *r;
	SDL_Texture *atlas;
	SDL_Rect src[NR_GLYPHS]; /* each glyph's cell in the atlas */
	int advance[NR_GLYPHS];
	int line_h, ascent;
};

static const char *const default_fonts[] = {
	"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
	"/usr/share/fonts/TTF/DejaVuSansMono.ttf",
	"/usr/share/fonts/dejavu/DejaVuSansMono.ttf",
	"/usr/share/fonts/dejavu-sans-mono-fonts/DejaVuSansMono.ttf",
	"/usr/local/share/fonts/DejaVuSansMono.ttf",
};

const char *lrs_gui_font__find(const char *path)
{
	const char *env = getenv("LRS_FONT");

	if (path && *path)
		return path;
	if (env && *env)
		return env;
	for (size_t i = 0; i < sizeof(default_fonts) / sizeof(default_fonts[0]); i++)
		if (access(default_fonts[i], R_OK) == 0)
			return default_fonts[i];
	return NULL;
}

static int atlas__build(struct lrs_gui_font *f, char *err, size_t err_len)
{
	SDL_Color white = { 255, 255, 255, 255 };
	SDL_Surface *atlas = NULL, *g;
	int cell_w = 0, x = 0, ret = -ENOMEM;

	for (int i = 0; i < NR_GLYPHS; i++) {
		int minx, maxx, miny, maxy, adv;

		if (TTF_GlyphMetrics(f->ttf, (Uint16)(FIRST_GLYPH + i), &minx, &maxx, &miny, &maxy,
				     &adv))
			adv = 0;
		f->advance[i] = adv;
		if (adv + 2 > cell_w)
			cell_w = adv + 2;
	}
	atlas = SDL_CreateRGBSurfaceWithFormat(0, cell_w * NR_GLYPHS, f->line_h, 32,
					       SDL_PIXELFORMAT_ARGB8888);
	if (!atlas)
		goto fail;
	SDL_SetSurfaceBlendMode(atlas, SDL_BLENDMODE_NONE);
	SDL_FillRect(atlas, NULL, 0);
	for (int i = 0; i < NR_GLYPHS; i++, x += cell_w) {
		SDL_Rect dst = { x, 0, cell_w, f->line_h };

		f->src[i] = (SDL_Rect){ x, 0, f->advance[i], f->line_h };
		if (i == 0)
			continue; /* space */
		g = TTF_RenderGlyph_Blended(f->ttf, (Uint16)(FIRST_GLYPH + i), white);
		if (!g)
			continue;
		SDL_SetSurfaceBlendMode(g, SDL_BLENDMODE_NONE);
		dst.w = g->w < cell_w ? g->w : cell_w;
		dst.h = g->h < f->line_h ? g->h : f->line_h;
		SDL_BlitSurface(g, &(SDL_Rect){ 0, 0, dst.w, dst.h }, atlas, &dst);
		f->src[i].w = dst.w > f->advance[i] ? dst.w : f->advance[i];
		SDL_FreeSurface(g);
	}
	f->atlas = SDL_CreateTextureFromSurface(f->r, atlas);
	if (!f->atlas)
		goto fail;
	SDL_SetTextureBlendMode(f->atlas, SDL_BLENDMODE_BLEND);
	ret = 0;
	goto out;
fail:
	snprintf(err, err_len, "cannot build the glyph atlas: %s", SDL_GetError());
out:
	SDL_FreeSurface(atlas);
	return ret;
}

int lrs_gui_font__open(struct lrs_gui_font **out, SDL_Renderer *r, const char *path, int px,
		       char *err, size_t err_len)
{
	struct lrs_gui_font *f;
	int ret;

	*out = NULL;
	if (!path) {
		snprintf(err, err_len,
			 "no font found: install fonts-dejavu-core, or pass "
			 "--font FILE.ttf (or set LRS_FONT)");
		return -ENOENT;
	}
	if (!TTF_WasInit() && TTF_Init()) {
		snprintf(err, err_len, "cannot start SDL2_ttf: %s", TTF_GetError());
		return -EIO;
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->r = r;
	f->ttf = TTF_OpenFont(path, px);
	if (!f->ttf) {
		snprintf(err, err_len,
			 "cannot open font %s: %s; pass --font FILE.ttf (or set "
			 "LRS_FONT) to use another",
			 path, TTF_GetError());
		ret = access(path, R_OK) ? -errno : -EINVAL;
		goto fail;
	}
	TTF_SetFontHinting(f->ttf, TTF_HINTING_LIGHT);
	f->line_h = TTF_FontLineSkip(f->ttf);
	if (f->line_h < TTF_FontHeight(f->ttf))
		f->line_h = TTF_FontHeight(f->ttf);
	f->ascent = TTF_FontAscent(f->ttf);
	ret = atlas__build(f, err, err_len);
	if (ret)
		goto fail;
	*out = f;
	return 0;
fail:
	lrs_gui_font__close(f);
	return ret;
}

void lrs_gui_font__close(struct lrs_gui_font *f)
{
	if (!f)
		return;
	if (f->atlas)
		SDL_DestroyTexture(f->atlas);
	if (f->ttf)
		TTF_CloseFont(f->ttf);
	free(f);
}

int lrs_gui_font__line_h(const struct lrs_gui_font *f)
{
	return f->line_h;
}

int lrs_gui_font__char_w(const struct lrs_gui_font *f)
{
	return f->advance['0' - FIRST_GLYPH];
}

static int glyph(unsigned char ch)
{
	return ch >= FIRST_GLYPH && ch < FIRST_GLYPH + NR_GLYPHS ? ch - FIRST_GLYPH :
								   '?' - FIRST_GLYPH;
}

int lrs_gui_font__width(const struct lrs_gui_font *f, const char *s)
{
	int w = 0;

	for (; s && *s; s++)
		w += f->advance[glyph((unsigned char)*s)];
	return w;
}

int lrs_gui_font__draw(struct lrs_gui_font *f, int x, int y, struct lrs_rgb c, const char *s,
		       int max_w)
{
	int x0 = x;

	if (!s)
		return 0;
	SDL_SetTextureColorMod(f->atlas, c.r, c.g, c.b);
	for (; *s; s++) {
		int g = glyph((unsigned char)*s), adv = f->advance[g];
		SDL_Rect src = f->src[g], dst;

		if (max_w > 0 && x + adv - x0 > max_w)
			break;
		if (*s != ' ') {
			dst = (SDL_Rect){ x, y, src.w, src.h };
			SDL_RenderCopy(f->r, f->atlas, &src, &dst);
		}
		x += adv;
	}
	return x - x0;
}

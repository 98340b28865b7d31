/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for the GUI: one TTF at one pixel size, its printable ASCII glyphs
 * rendered once into an atlas texture, then drawn as copies tinted to the
 * colour asked for. Other bytes draw as '?'.
 */
#ifndef LRS_GUI_FONT_H
#define LRS_GUI_FONT_H

#include <SDL2/SDL.h>
#include <stddef.h>

#include "ui/colour.h"

struct lrs_gui_font;

/*
 * The font file to use: path if given, else $LRS_FONT, else the first DejaVu
 * Sans Mono found in the usual places. NULL if none exists.
 */
const char *lrs_gui_font__find(const char *path);

/*
 * Open path at px pixels for renderer r. On failure returns -errno and writes
 * into err what failed (naming the file) and what to do.
 */
int lrs_gui_font__open(struct lrs_gui_font **out, SDL_Renderer *r, const char *path, int px,
		       char *err, size_t err_len);
void lrs_gui_font__close(struct lrs_gui_font *f); /* accepts NULL */

int lrs_gui_font__line_h(const struct lrs_gui_font *f);
int lrs_gui_font__char_w(const struct lrs_gui_font *f); /* advance of '0' */
int lrs_gui_font__width(const struct lrs_gui_font *f, const char *s);

/*
 * Draw s with its top-left at (x, y) in colour c, cut at max_w pixels
 * (0: no limit). Returns the width drawn.
 */
int lrs_gui_font__draw(struct lrs_gui_font *f, int x, int y, struct lrs_rgb c, const char *s,
		       int max_w);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The heatmap's colour scale: a value becomes a level on a log scale below
 * the model's maximum, and a level becomes a style for 256-colour, 8-colour
 * or colourless (NO_COLOR) terminals, or an RGB colour for the GUI. Pure
 * functions: no curses here.
 */
#ifndef LRS_COLOUR_H
#define LRS_COLOUR_H

#include <stdbool.h>
#include <stdint.h>

/* Level 0 is "no contention"; levels 1..LRS_COLOUR_LEVELS cover LRS_COLOUR_DECADES. */
#define LRS_COLOUR_LEVELS 8
#define LRS_COLOUR_DECADES 3.0

enum lrs_colour_mode {
	LRS_COLOUR_NONE, /* NO_COLOR, --no-color or a monochrome terminal */
	LRS_COLOUR_8,
	LRS_COLOUR_256,
};

/*
 * The mode for a terminal with nr_colours colours (curses COLORS, 0 if it has
 * none). no_color_env is getenv("NO_COLOR"): set and non-empty disables
 * colour, as https://no-color.org asks.
 */
enum lrs_colour_mode lrs_colour__mode(int nr_colours, bool no_color_opt, const char *no_color_env);

/* The level of value on the scale whose top is max: 0 for 0, else 1..LEVELS. */
int lrs_colour__level(double value, double max);
/* The lowest value of a level (level >= 1), for the legend. */
double lrs_colour__level_low(int level, double max);

enum lrs_colour_attr {
	LRS_ATTR_BOLD = 1 << 0,
	LRS_ATTR_DIM = 1 << 1,
	LRS_ATTR_REVERSE = 1 << 2,
};

/*
 * How a cell of a level is drawn. fg/bg are colour numbers of the mode
 * (0..7 ANSI, or 0..255 xterm), -1 for the terminal's default.
 */
struct lrs_colour_style {
	int fg, bg;
	unsigned int attrs; /* enum lrs_colour_attr bits */
};

struct lrs_colour_style lrs_colour__style(enum lrs_colour_mode mode, int level);

/* A one-character ramp for colourless terminals: ' ' for 0 up to '@'. */
char lrs_colour__glyph(int level);

struct lrs_rgb {
	uint8_t r, g, b;
};

/*
 * The diverging scale of 'diff': a ratio B/A as a level from
 * -LRS_DIVERGING_LEVELS (B far below A) to +LRS_DIVERGING_LEVELS (far above),
 * each a doubling (1: up to 2x, 2: up to 4x, 3: up to 8x, 4: more, also a
 * memcg new in B); 0 when the change is not significant. Red up, blue down.
 */
#define LRS_DIVERGING_LEVELS 4
int lrs_colour__diverging_level(double ratio, bool significant);
struct lrs_colour_style lrs_colour__diverging_style(enum lrs_colour_mode mode, int level);
/* The legend's lowest ratio of a level: 2^(level-1) up, its inverse down; 1 for 0. */
double lrs_colour__diverging_low(int level);

/* The RGB of an xterm-256 colour number, and of a level (the GUI's colours). */
struct lrs_rgb lrs_colour__xterm_rgb(int idx);
struct lrs_rgb lrs_colour__rgb(int level);

#endif

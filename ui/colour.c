// SPDX-License-Identifier: GPL-2.0
/* The heatmap's colour scale: value -> level -> style or RGB. */
#include <math.h>
#include <stdlib.h>

#include "ui/colour.h"

enum lrs_colour_mode lrs_colour__mode(int nr_colours, bool no_color_opt, const char *no_color_env)
{
	if (no_color_opt || (no_color_env && no_color_env[0]) || nr_colours < 8)
		return LRS_COLOUR_NONE;
	return nr_colours >= 256 ? LRS_COLOUR_256 : LRS_COLOUR_8;
}

int lrs_colour__level(double value, double max)
{
	double frac;
	int level;

	if (!(value > 0))
		return 0;
	if (!(max > 0) || value >= max)
		return LRS_COLOUR_LEVELS;
	/* 0 at max / 10^DECADES, 1 at max; the epsilon keeps level_low() in its level */
	frac = 1.0 + log10(value / max) / LRS_COLOUR_DECADES;
	if (frac <= 0)
		return 1;
	level = 1 + (int)floor(frac * LRS_COLOUR_LEVELS + 1e-9);
	return level > LRS_COLOUR_LEVELS ? LRS_COLOUR_LEVELS : level;
}

double lrs_colour__level_low(int level, double max)
{
	if (level <= 0)
		return 0;
	if (level > LRS_COLOUR_LEVELS)
		level = LRS_COLOUR_LEVELS;
	return max *
	       pow(10.0, LRS_COLOUR_DECADES * ((double)(level - 1) / LRS_COLOUR_LEVELS - 1.0));
}

/* Cold to hot: blue, teal, green, yellow, orange, red; text in black or white for contrast. */
static const struct lrs_colour_style ramp256[LRS_COLOUR_LEVELS + 1] = {
	{ -1, -1, LRS_ATTR_DIM },
	{ 231, 24, 0 },
	{ 231, 30, 0 },
	{ 16, 35, 0 },
	{ 16, 112, 0 },
	{ 16, 184, 0 },
	{ 16, 214, 0 },
	{ 16, 202, 0 },
	{ 231, 196, LRS_ATTR_BOLD },
};

/* ANSI: 0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white. */
static const struct lrs_colour_style ramp8[LRS_COLOUR_LEVELS + 1] = {
	{ -1, -1, LRS_ATTR_DIM },
	{ 7, 4, 0 },
	{ 0, 6, 0 },
	{ 0, 2, 0 },
	{ 7, 2, LRS_ATTR_BOLD },
	{ 0, 3, 0 },
	{ 1, 3, LRS_ATTR_BOLD },
	{ 7, 1, 0 },
	{ 7, 1, LRS_ATTR_BOLD },
};

/* Without colour: dim, plain, bold, reverse. The glyph carries the rest. */
static const struct lrs_colour_style ramp_none[LRS_COLOUR_LEVELS + 1] = {
	{ -1, -1, LRS_ATTR_DIM },
	{ -1, -1, 0 },
	{ -1, -1, 0 },
	{ -1, -1, LRS_ATTR_BOLD },
	{ -1, -1, LRS_ATTR_BOLD },
	{ -1, -1, LRS_ATTR_BOLD },
	{ -1, -1, LRS_ATTR_REVERSE },
	{ -1, -1, LRS_ATTR_REVERSE },
	{ -1, -1, LRS_ATTR_REVERSE | LRS_ATTR_BOLD },
};

static int level_clamp(int level)
{
	return level < 0 ? 0 : level > LRS_COLOUR_LEVELS ? LRS_COLOUR_LEVELS : level;
}

struct lrs_colour_style lrs_colour__style(enum lrs_colour_mode mode, int level)
{
	level = level_clamp(level);
	switch (mode) {
	case LRS_COLOUR_256:
		return ramp256[level];
	case LRS_COLOUR_8:
		return ramp8[level];
	default:
		return ramp_none[level];
	}
}

char lrs_colour__glyph(int level)
{
	static const char ramp[LRS_COLOUR_LEVELS + 2] = " .:-=+*#@";

	return ramp[level_clamp(level)];
}

int lrs_colour__diverging_level(double ratio, bool significant)
{
	int level;

	if (!significant || isnan(ratio) || ratio == 1)
		return 0;
	if (ratio <= 0 || isinf(ratio))
		return ratio <= 0 ? -LRS_DIVERGING_LEVELS : LRS_DIVERGING_LEVELS;
	level = (int)ceil(fabs(log2(ratio)) - 1e-9);
	level = level < 1 ? 1 : level > LRS_DIVERGING_LEVELS ? LRS_DIVERGING_LEVELS : level;
	return ratio > 1 ? level : -level;
}

double lrs_colour__diverging_low(int level)
{
	if (!level)
		return 1;
	return level > 0 ? pow(2, level - 1) : 1 / pow(2, -level - 1);
}

/* Blue (down) to red (up) on dark text; index LRS_DIVERGING_LEVELS is "no change". */
static const struct lrs_colour_style diverge256[2 * LRS_DIVERGING_LEVELS + 1] = {
	{ 231, 19, LRS_ATTR_BOLD }, { 231, 26, 0 }, { 16, 69, 0 },  { 16, 153, 0 },
	{ -1, -1, LRS_ATTR_DIM },   { 16, 224, 0 }, { 16, 210, 0 }, { 231, 160, 0 },
	{ 231, 88, LRS_ATTR_BOLD },
};
static const struct lrs_colour_style diverge8[2 * LRS_DIVERGING_LEVELS + 1] = {
	{ 7, 4, LRS_ATTR_BOLD },  { 7, 4, 0 },	{ 4, -1, LRS_ATTR_BOLD }, { 4, -1, 0 },
	{ -1, -1, LRS_ATTR_DIM }, { 1, -1, 0 }, { 1, -1, LRS_ATTR_BOLD }, { 7, 1, 0 },
	{ 7, 1, LRS_ATTR_BOLD },
};

struct lrs_colour_style lrs_colour__diverging_style(enum lrs_colour_mode mode, int level)
{
	level = level < -LRS_DIVERGING_LEVELS ? -LRS_DIVERGING_LEVELS :
		level > LRS_DIVERGING_LEVELS  ? LRS_DIVERGING_LEVELS :
						level;
	switch (mode) {
	case LRS_COLOUR_256:
		return diverge256[level + LRS_DIVERGING_LEVELS];
	case LRS_COLOUR_8:
		return diverge8[level + LRS_DIVERGING_LEVELS];
	default:
		/* no colour: the ratio's text says the direction; strength as emphasis */
		return (struct lrs_colour_style){ -1, -1,
						  level == 0	  ? LRS_ATTR_DIM :
						  abs(level) >= 3 ? LRS_ATTR_REVERSE :
								    LRS_ATTR_BOLD };
	}
}

struct lrs_rgb lrs_colour__xterm_rgb(int idx)
{
	static const struct lrs_rgb ansi[16] = {
		{ 0, 0, 0 },	   { 205, 0, 0 },   { 0, 205, 0 },   { 205, 205, 0 },
		{ 0, 0, 238 },	   { 205, 0, 205 }, { 0, 205, 205 }, { 229, 229, 229 },
		{ 127, 127, 127 }, { 255, 0, 0 },   { 0, 255, 0 },   { 255, 255, 0 },
		{ 92, 92, 255 },   { 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 },
	};
	static const uint8_t cube[6] = { 0, 95, 135, 175, 215, 255 };
	struct lrs_rgb c;

	if (idx < 0 || idx > 255)
		idx = 0;
	if (idx < 16)
		return ansi[idx];
	if (idx >= 232) {
		c.r = c.g = c.b = (uint8_t)(8 + 10 * (idx - 232));
		return c;
	}
	idx -= 16;
	c.r = cube[idx / 36];
	c.g = cube[(idx / 6) % 6];
	c.b = cube[idx % 6];
	return c;
}

struct lrs_rgb lrs_colour__rgb(int level)
{
	level = level_clamp(level);
	if (level == 0)
		return (struct lrs_rgb){ 0, 0, 0 };
	return lrs_colour__xterm_rgb(ramp256[level].bg);
}

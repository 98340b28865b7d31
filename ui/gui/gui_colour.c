// SPDX-License-Identifier: GPL-2.0
/* The GUI's perceptual colour scale (viridis) on a log axis. */
#include <math.h>

#include "ui/gui/gui_colour.h"

/* matplotlib's viridis at t = 0, 0.1, ..., 1 (sRGB); interpolated linearly. */
static const struct lrs_rgb viridis[] = {
	{ 68, 1, 84 },	  { 72, 36, 117 },  { 65, 68, 135 },  { 53, 95, 141 },
	{ 42, 120, 142 }, { 33, 145, 140 }, { 34, 168, 132 }, { 68, 191, 112 },
	{ 122, 209, 81 }, { 189, 223, 38 }, { 253, 231, 37 },
};
#define NR_STOPS (sizeof(viridis) / sizeof(viridis[0]))

static unsigned char lerp(unsigned char a, unsigned char b, double f)
{
	return (unsigned char)lround(a + (b - a) * f);
}

struct lrs_rgb lrs_gui_colour__map(double t)
{
	double x;
	size_t i;

	if (!(t > 0))
		t = 0;
	if (t > 1)
		t = 1;
	x = t * (NR_STOPS - 1);
	i = (size_t)x;
	if (i >= NR_STOPS - 1)
		return viridis[NR_STOPS - 1];
	x -= (double)i;
	return (struct lrs_rgb){ lerp(viridis[i].r, viridis[i + 1].r, x),
				 lerp(viridis[i].g, viridis[i + 1].g, x),
				 lerp(viridis[i].b, viridis[i + 1].b, x) };
}

double lrs_gui_colour__t(double value, double max, double decades)
{
	double t;

	if (!(value > 0))
		return -1;
	if (!(max > 0) || value >= max || !(decades > 0))
		return 1;
	t = 1.0 + log10(value / max) / decades;
	return t < 0 ? 0 : t;
}

struct lrs_rgb lrs_gui_colour__value(double value, double max, double decades)
{
	double t = lrs_gui_colour__t(value, max, decades);

	return t < 0 ? LRS_GUI_ZERO : lrs_gui_colour__map(t);
}

double lrs_gui_colour__value_at(double t, double max, double decades)
{
	if (t < 0)
		return 0;
	if (t > 1)
		t = 1;
	return max * pow(10.0, (t - 1.0) * decades);
}

static double linear(unsigned char c)
{
	double v = c / 255.0;

	return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

double lrs_gui_colour__lightness(struct lrs_rgb c)
{
	double y = 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b);

	return y > 216.0 / 24389.0 ? 116.0 * cbrt(y) - 16.0 : y * 24389.0 / 27.0;
}

struct lrs_rgb lrs_gui_colour__text_on(struct lrs_rgb bg)
{
	return lrs_gui_colour__lightness(bg) > 55 ? (struct lrs_rgb){ 0, 0, 0 } :
						    (struct lrs_rgb){ 255, 255, 255 };
}

size_t lrs_gui_colour__ticks(double max, double decades, double *out, size_t n)
{
	double lo, p;
	size_t nr = 0;

	if (!n || !(max > 0) || !(decades > 0))
		return 0;
	lo = max / pow(10.0, decades);
	for (p = pow(10.0, ceil(log10(lo) - 1e-9)); p <= max * (1 + 1e-9) && nr < n; p *= 10)
		out[nr++] = p;
	if (nr >= 2)
		return nr;
	out[0] = lo;
	if (n >= 2) {
		out[1] = max;
		return 2;
	}
	return 1;
}

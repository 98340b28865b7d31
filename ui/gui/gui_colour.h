/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The GUI's colour scale: a value on a log scale below a maximum becomes a
 * position 0..1 on viridis, a perceptual colour map whose lightness rises
 * monotonically (it reads the same in grey and to colour-blind eyes). Zero
 * ("no contention") is a neutral grey off the map. Pure functions.
 */
#ifndef LRS_GUI_COLOUR_H
#define LRS_GUI_COLOUR_H

#include <stddef.h>

#include "ui/colour.h"

/* The decades of wait per second the heatmaps span below their maximum. */
#define LRS_GUI_DECADES 3.0

/* Colours of the window's chrome. */
#define LRS_GUI_BG ((struct lrs_rgb){ 24, 26, 30 })
#define LRS_GUI_PANEL ((struct lrs_rgb){ 32, 35, 40 })
#define LRS_GUI_ZERO ((struct lrs_rgb){ 46, 49, 55 })
#define LRS_GUI_TEXT ((struct lrs_rgb){ 220, 222, 226 })
#define LRS_GUI_FAINT ((struct lrs_rgb){ 138, 143, 152 })
#define LRS_GUI_ACCENT ((struct lrs_rgb){ 255, 255, 255 })
#define LRS_GUI_WARN ((struct lrs_rgb){ 255, 170, 60 })

/* Viridis at t in [0, 1] (clamped); NaN gives the bottom. */
struct lrs_rgb lrs_gui_colour__map(double t);

/*
 * Where value sits on a log scale of decades below max: 1 at max (and above),
 * 0 at max / 10^decades (and below, if positive); -1 for zero, negative or
 * NaN values (no colour: LRS_GUI_ZERO). With no max, a positive value is 1.
 */
double lrs_gui_colour__t(double value, double max, double decades);

/* The colour of value on that scale: LRS_GUI_ZERO for t < 0, else the map. */
struct lrs_rgb lrs_gui_colour__value(double value, double max, double decades);

/* The value at position t of the scale (the inverse of __t, for legends). */
double lrs_gui_colour__value_at(double t, double max, double decades);

/* CIE L* (0..100) of an sRGB colour. */
double lrs_gui_colour__lightness(struct lrs_rgb c);

/* Black or white, whichever reads better on bg. */
struct lrs_rgb lrs_gui_colour__text_on(struct lrs_rgb bg);

/*
 * Ticks for a log legend: the powers of ten in [max / 10^decades, max], at
 * most n, ascending, as values. Returns how many. With fewer than two powers
 * of ten in range, the two ends.
 */
size_t lrs_gui_colour__ticks(double max, double decades, double *out, size_t n);

#endif

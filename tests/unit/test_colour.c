// SPDX-License-Identifier: GPL-2.0
/* The colour scale: levels on a log scale, ramps, NO_COLOR, RGB. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <cmocka.h>

#include "ui/colour.h"

static void test_mode(void **state)
{
	assert_int_equal(lrs_colour__mode(256, false, NULL), LRS_COLOUR_256);
	assert_int_equal(lrs_colour__mode(16, false, NULL), LRS_COLOUR_8);
	assert_int_equal(lrs_colour__mode(8, false, NULL), LRS_COLOUR_8);
	assert_int_equal(lrs_colour__mode(0, false, NULL), LRS_COLOUR_NONE);
	assert_int_equal(lrs_colour__mode(256, true, NULL), LRS_COLOUR_NONE);
	/* NO_COLOR: set and non-empty disables; empty does not (no-color.org) */
	assert_int_equal(lrs_colour__mode(256, false, "1"), LRS_COLOUR_NONE);
	assert_int_equal(lrs_colour__mode(256, false, ""), LRS_COLOUR_256);
}

static void test_level(void **state)
{
	double max = 12e6;

	assert_int_equal(lrs_colour__level(0, max), 0);
	assert_int_equal(lrs_colour__level(-1, max), 0);
	assert_int_equal(lrs_colour__level(NAN, max), 0);
	assert_int_equal(lrs_colour__level(max, max), LRS_COLOUR_LEVELS);
	assert_int_equal(lrs_colour__level(2 * max, max), LRS_COLOUR_LEVELS);
	/* anything above zero is at least level 1, however small */
	assert_int_equal(lrs_colour__level(1e-3, max), 1);
	assert_int_equal(lrs_colour__level(max / 1e6, max), 1);
	/* log scale: each decade covers LEVELS / DECADES levels */
	assert_int_equal(lrs_colour__level(max / 10, max), 6);
	assert_int_equal(lrs_colour__level(max / 100, max), 3);
	assert_int_equal(lrs_colour__level(max / 999, max), 1);
	/* monotonic */
	for (double v = max / 1e4, prev = 0; v <= max; v *= 1.1) {
		int l = lrs_colour__level(v, max);

		assert_true(l >= prev);
		prev = l;
	}
	/* no max (first interval): a positive value is hot */
	assert_int_equal(lrs_colour__level(5, 0), LRS_COLOUR_LEVELS);
}

static void test_level_low(void **state)
{
	double max = 1e9;

	assert_true(lrs_colour__level_low(0, max) == 0);
	assert_true(fabs(lrs_colour__level_low(1, max) - max / pow(10, LRS_COLOUR_DECADES)) < 1);
	/* each level's low end is in that level, and just below it is not */
	for (int l = 1; l <= LRS_COLOUR_LEVELS; l++) {
		double low = lrs_colour__level_low(l, max);

		assert_int_equal(lrs_colour__level(low, max), l);
		if (l > 1)
			assert_int_equal(lrs_colour__level(low * 0.999, max), l - 1);
		if (l > 1)
			assert_true(low > lrs_colour__level_low(l - 1, max));
	}
	assert_true(lrs_colour__level_low(LRS_COLOUR_LEVELS + 5, max) < max);
}

static void test_styles(void **state)
{
	/* 256 colours: distinct backgrounds, hotter levels get redder */
	for (int l = 1; l <= LRS_COLOUR_LEVELS; l++) {
		struct lrs_colour_style s = lrs_colour__style(LRS_COLOUR_256, l);

		assert_true(s.bg >= 16 && s.bg <= 255);
		assert_true(s.fg >= 0);
		if (l > 1)
			assert_int_not_equal(s.bg, lrs_colour__style(LRS_COLOUR_256, l - 1).bg);
	}
	assert_true(lrs_colour__rgb(LRS_COLOUR_LEVELS).r > lrs_colour__rgb(1).r);
	assert_true(lrs_colour__rgb(LRS_COLOUR_LEVELS).b < lrs_colour__rgb(1).b);
	/* 8 colours: only ANSI colour numbers */
	for (int l = 0; l <= LRS_COLOUR_LEVELS; l++) {
		struct lrs_colour_style s = lrs_colour__style(LRS_COLOUR_8, l);

		assert_true(s.fg >= -1 && s.fg <= 7);
		assert_true(s.bg >= -1 && s.bg <= 7);
	}
	/* adjacent 8-colour levels differ in colour or attributes */
	for (int l = 1; l <= LRS_COLOUR_LEVELS; l++) {
		struct lrs_colour_style a = lrs_colour__style(LRS_COLOUR_8, l - 1);
		struct lrs_colour_style b = lrs_colour__style(LRS_COLOUR_8, l);

		assert_true(a.fg != b.fg || a.bg != b.bg || a.attrs != b.attrs);
	}
	/* no colour: never a colour number; the hottest is reversed */
	for (int l = 0; l <= LRS_COLOUR_LEVELS; l++) {
		struct lrs_colour_style s = lrs_colour__style(LRS_COLOUR_NONE, l);

		assert_int_equal(s.fg, -1);
		assert_int_equal(s.bg, -1);
	}
	assert_true(lrs_colour__style(LRS_COLOUR_NONE, LRS_COLOUR_LEVELS).attrs & LRS_ATTR_REVERSE);
	assert_true(lrs_colour__style(LRS_COLOUR_NONE, 0).attrs & LRS_ATTR_DIM);
	/* out of range levels clamp */
	assert_int_equal(lrs_colour__style(LRS_COLOUR_256, 99).bg,
			 lrs_colour__style(LRS_COLOUR_256, LRS_COLOUR_LEVELS).bg);
}

static void test_glyph(void **state)
{
	assert_int_equal(lrs_colour__glyph(0), ' ');
	assert_int_equal(lrs_colour__glyph(LRS_COLOUR_LEVELS), '@');
	for (int l = 1; l <= LRS_COLOUR_LEVELS; l++)
		assert_int_not_equal(lrs_colour__glyph(l), lrs_colour__glyph(l - 1));
}

static void test_xterm_rgb(void **state)
{
	struct lrs_rgb c;

	c = lrs_colour__xterm_rgb(196);
	assert_int_equal(c.r, 255);
	assert_int_equal(c.g, 0);
	assert_int_equal(c.b, 0);
	c = lrs_colour__xterm_rgb(24);
	assert_int_equal(c.r, 0);
	assert_int_equal(c.g, 95);
	assert_int_equal(c.b, 135);
	c = lrs_colour__xterm_rgb(232);
	assert_int_equal(c.r, 8);
	c = lrs_colour__xterm_rgb(255);
	assert_int_equal(c.g, 238);
	c = lrs_colour__xterm_rgb(15);
	assert_int_equal(c.b, 255);
}

static void test_diverging(void **state)
{
	struct lrs_colour_style up, down, none;

	/* not significant: no colour, whatever the ratio */
	assert_int_equal(lrs_colour__diverging_level(5.0, false), 0);
	assert_int_equal(lrs_colour__diverging_level(NAN, true), 0);
	/* a doubling per level, up positive, down negative */
	assert_int_equal(lrs_colour__diverging_level(1.3, true), 1);
	assert_int_equal(lrs_colour__diverging_level(2.0, true), 1);
	assert_int_equal(lrs_colour__diverging_level(5.0, true), 3);
	assert_int_equal(lrs_colour__diverging_level(1000.0, true), 4);
	assert_int_equal(lrs_colour__diverging_level(INFINITY, true), 4);
	assert_int_equal(lrs_colour__diverging_level(0.2, true), -3);
	assert_int_equal(lrs_colour__diverging_level(0, true), -4);
	assert_true(lrs_colour__diverging_low(3) == 4.0);
	assert_true(lrs_colour__diverging_low(-2) == 0.5);
	/* red up, blue down, the default background for no change */
	up = lrs_colour__diverging_style(LRS_COLOUR_256, 3);
	down = lrs_colour__diverging_style(LRS_COLOUR_256, -3);
	none = lrs_colour__diverging_style(LRS_COLOUR_256, 0);
	assert_true(lrs_colour__xterm_rgb(up.bg).r > lrs_colour__xterm_rgb(up.bg).b);
	assert_true(lrs_colour__xterm_rgb(down.bg).b > lrs_colour__xterm_rgb(down.bg).r);
	assert_int_equal(none.bg, -1);
	assert_int_equal(lrs_colour__diverging_style(LRS_COLOUR_8, 4).bg, 1);
	assert_int_equal(lrs_colour__diverging_style(LRS_COLOUR_8, -4).bg, 4);
	assert_int_equal(lrs_colour__diverging_style(LRS_COLOUR_NONE, 4).attrs, LRS_ATTR_REVERSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mode),	  cmocka_unit_test(test_level),
		cmocka_unit_test(test_level_low), cmocka_unit_test(test_styles),
		cmocka_unit_test(test_glyph),	  cmocka_unit_test(test_diverging),
		cmocka_unit_test(test_xterm_rgb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

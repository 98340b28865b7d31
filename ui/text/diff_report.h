/* SPDX-License-Identifier: GPL-2.0 */
/* 'lruscope diff': the comparison of two recordings as text or JSON. */
#ifndef LRS_DIFF_REPORT_H
#define LRS_DIFF_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model/compare.h"

/* One side of the comparison as the reader found it. */
struct lrs_diff_input {
	const char *name; /* the file as given */
	char kernel[64];  /* of its first snapshot */
};

struct lrs_diff_report_opts {
	bool json;  /* else text */
	bool color; /* text: bold headings */
};

/*
 * Text: a heading naming both recordings (intervals, samples, the test),
 * the totals, the lruvecs and the other locks as lrs_compare() sorted them,
 * then one line saying how many changes are significant. JSON: the same
 * facts (docs/lruscope.8). 0 or -EIO.
 */
int lrs_diff_report__write(const struct lrs_compare *cmp, const struct lrs_diff_input *a,
			   const struct lrs_diff_input *b, const struct lrs_diff_report_opts *opts,
			   FILE *f);

#endif

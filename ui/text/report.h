/* SPDX-License-Identifier: GPL-2.0 */
/* One table of a snapshot's counters, then exit: text, JSON or CSV. */
#ifndef LRS_REPORT_H
#define LRS_REPORT_H

#include <stdio.h>

#include "model/snapshot.h"

enum lrs_report_format {
	LRS_REPORT_TEXT,
	LRS_REPORT_JSON,
	LRS_REPORT_CSV,
	LRS_REPORT_FOLDED,
};

struct lrs_report_opts {
	enum lrs_report_format format;
	size_t max_other_locks; /* text: how many other locks to list */
	bool all_lruvecs;	/* text: also lruvecs that never waited */
	bool color;
	bool holders; /* text: lock holders and the memcg matrix */
};

/* "text" -> LRS_REPORT_TEXT; -EINVAL for an unknown name. */
int lrs_report__parse_format(const char *name, enum lrs_report_format *out);

/* Counters in snap are over the whole report (the collector started with it). */
int lrs_report__write(const struct lrs_snapshot *snap, const struct lrs_report_opts *opts, FILE *f);
/* Waiter stacks weighted by wait, folded for flame graphs (ui/text/report_folded.c). */
int lrs_report__write_folded(const struct lrs_snapshot *snap, FILE *f);

#endif

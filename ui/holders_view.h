/* SPDX-License-Identifier: GPL-2.0 */
/* Holders (collector/holders.h) as text: the report's table and matrix, the detail pane's lines. */
#ifndef LRS_HOLDERS_VIEW_H
#define LRS_HOLDERS_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "../collector/holders.h"

/* "holders: estimated" / "holders: exact (fentry), 93% right memcg" / "holders: off". */
void lrs_holders_view__header(const struct lrs_snapshot *snap, char *buf, size_t len);

/*
 * The report's section: per contended lruvec (top max_lruvecs by wait) its
 * top holders, then the memcg x memcg matrices (by holder, by owner). 0 or -errno.
 */
int lrs_holders_view__write_text(const struct lrs_snapshot *snap, size_t max_lruvecs, bool color,
				 FILE *f);

/* One holder as a short line for a detail pane: "12.3ms x3  1234 kswapd0  /  (4 behind)". */
void lrs_holders_view__line(const struct lrs_holder_row *r, char *buf, size_t len);

#endif

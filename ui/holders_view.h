/* SPDX-License-Identifier: GPL-2.0 */
/* Holders (model/holders.h) as text: the report's table and matrix, the detail pane's lines. */
#ifndef LRS_HOLDERS_VIEW_H
#define LRS_HOLDERS_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "model/holders.h"
#include "model/snapshot.h"

/* "holders: estimated" / "holders: exact (fentry), 93% right memcg" / "holders: off". */
void lrs_holders_view__header(const struct lrs_snapshot *snap, char *buf, size_t len);

/*
 * The report's section: per contended lruvec (top max_lruvecs by wait) its
 * top holders, then the memcg x memcg matrices (by holder, by owner). 0 or -errno.
 */
int lrs_holders_view__write_text(const struct lrs_snapshot *snap, size_t max_lruvecs, bool color,
				 FILE *f);

/* A memcg's path as the matrix cells name it: "(unknown)" for 0, "?" if not found. */
const char *lrs_holders_view__name(const struct lrs_holders *h, uint64_t id);

/* The matrix folded for a view (TUI, GUI): the top rows and columns by imposed wait. */
#define LRS_HOLDERS_MATRIX_MAX 12
struct lrs_holders_matrix {
	bool by_holder; /* columns: holder's memcg, else the lruvec owner */
	uint64_t row_ids[LRS_HOLDERS_MATRIX_MAX], col_ids[LRS_HOLDERS_MATRIX_MAX];
	size_t nr_rows, nr_cols;
	uint64_t vals[LRS_HOLDERS_MATRIX_MAX * LRS_HOLDERS_MATRIX_MAX]; /* imposed ns, row-major */
	uint64_t max; /* the largest cell: the colour scale's top */
};

/* Fold h (NULL: an empty matrix). 0 or -ENOMEM. */
int lrs_holders_view__matrix(const struct lrs_holders *h, bool by_holder,
			     struct lrs_holders_matrix *m);

#endif

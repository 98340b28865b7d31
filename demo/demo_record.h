/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lruscope demo --record DIR: one recording per layout (DIR/shared.jsonl,
 * DIR/isolated.jsonl) of every snapshot the collector takes during that
 * layout's runs, so that 'lruscope diff' compares them afterwards. Between
 * two runs of a layout the demo tears down and sets up, and the other layout
 * may run: that interval is a pause, which diff leaves out
 * (LRS_COMPARE_PAUSE_FACTOR).
 */
#ifndef LRS_DEMO_RECORD_H
#define LRS_DEMO_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "collector/source.h"
#include "demo/workload.h"

struct lrs_demo_record;

/*
 * Make DIR (one level) when missing, then create DIR/<layout>.jsonl for each
 * layout in use[], refusing files that exist. interval_s goes in the headers.
 * Returns 0, or -errno with err saying which path and why (nothing left behind).
 */
int lrs_demo_record__open(struct lrs_demo_record **out, const char *dir, const bool use[2],
			  double interval_s, char *err, size_t err_len);
/*
 * A source that hands on src's snapshots and writes each one into the
 * recording of layout, for one run: valid until the next call or
 * lrs_demo_record__close(). From a layout's second run on, its first
 * snapshot follows one taken and dropped, which makes the time since the
 * file's last line a pause for diff.
 */
struct lrs_source *lrs_demo_record__source(struct lrs_demo_record *rec, enum lrs_layout layout,
					   struct lrs_source *src);
/* The first write error (-errno), 0 when none; its message in err. */
int lrs_demo_record__error(const struct lrs_demo_record *rec, char *err, size_t err_len);
/* The path of layout's recording (NULL if not recorded) and its snapshots so far. */
const char *lrs_demo_record__path(const struct lrs_demo_record *rec, enum lrs_layout layout);
size_t lrs_demo_record__snapshots(const struct lrs_demo_record *rec, enum lrs_layout layout);
/*
 * Finish the files; a file with fewer than two snapshots (no interval: diff
 * cannot use it) is removed. Returns the first error, as _error(). Accepts NULL.
 */
int lrs_demo_record__close(struct lrs_demo_record *rec, char *err, size_t err_len);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* 'lruscope walk' as text: one line per lruvec (memcg@node), then what the walk found. */
#ifndef LRS_WALK_REPORT_H
#define LRS_WALK_REPORT_H

#include <stdio.h>

#include "model/walk.h"

/*
 * The lruvec table (LRU pages per list, walked vs counted, lock state), then
 * lru_check's verdict, held locks, page owners and warnings. Returns 0 or
 * -errno of the write.
 */
int lrs_walk_report__print(FILE *f, const struct lrs_walk *walk, const char *what);

/*
 * The walk-vs-counter column of lruvec i: "ok", "-" (not walked), or the
 * lists that differ ("inactive_file walked 3 counted 5") or were cut short.
 */
const char *lrs_walk_report__check(char *buf, size_t len, const struct lrs_walk *walk, size_t i);

#endif

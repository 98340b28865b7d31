/* SPDX-License-Identifier: GPL-2.0 */
/* Parts of a snapshot line that full and delta lines share (snapshot_json*.c only). */
#ifndef LRS_SNAPSHOT_JSON_INTERNAL_H
#define LRS_SNAPSHOT_JSON_INTERNAL_H

#include "model/snapshot.h"

struct lrs_json;
/* "t_ns", "interval_ns", "kernel", "nodes" */
void lrs_snapshot_json__write_head_fields(struct lrs_json *j, const struct lrs_snapshot *snap);
/* A waiter's "pid", "comm", "memcg" and "memcg_id" (its counters are the caller's) */
void lrs_snapshot_json__write_waiter_id(struct lrs_json *j, const struct lrs_waiter *w);
/* "lru_pages": { list: pages } */
void lrs_snapshot_json__write_lru_pages(struct lrs_json *j, const struct lrs_lruvec *lv);
/* "stacks": { "id": [frames] } */
void lrs_snapshot_json__write_stacks(struct lrs_json *j, const struct lrs_snapshot *snap);
/* "drops", "unavailable" and "holders", as far as the snapshot has them */
void lrs_snapshot_json__write_tail(struct lrs_json *j, const struct lrs_snapshot *snap);

#endif

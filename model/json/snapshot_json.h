/* SPDX-License-Identifier: GPL-2.0 */
/* A snapshot as one line of JSON (the schema of docs/design.md; the recording line format). */
#ifndef LRS_SNAPSHOT_JSON_H
#define LRS_SNAPSHOT_JSON_H

#include <stdio.h>

#include "model/snapshot.h"

/* Writes the snapshot and a newline. Returns 0 or -EIO. */
int lrs_snapshot__write_json(const struct lrs_snapshot *snap, FILE *f);
/* The same with each lruvec's "causes" (model/causes.h): what `report -f json` prints. */
int lrs_snapshot__write_json_causes(const struct lrs_snapshot *snap, FILE *f);

/* Parts shared with the recording's delta lines (collector/replay/recording_encode.c). */
struct lrs_json;
/* "t_ns", "interval_ns", "kernel", "nodes" */
void lrs_snapshot_json__write_head_fields(struct lrs_json *j, const struct lrs_snapshot *snap);
/* "stacks": { "id": [frames] } */
void lrs_snapshot_json__write_stacks(struct lrs_json *j, const struct lrs_snapshot *snap);
/* "drops", "unavailable" and "holders", as far as the snapshot has them */
void lrs_snapshot_json__write_tail(struct lrs_json *j, const struct lrs_snapshot *snap);

#endif

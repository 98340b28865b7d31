/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A snapshot as one line of JSON (the schema of docs/design.md; the recording
 * line format), written and read back.
 */
#ifndef LRS_SNAPSHOT_JSON_H
#define LRS_SNAPSHOT_JSON_H

#include <stdio.h>

#include "model/snapshot.h"

/* Writes the snapshot and a newline. Returns 0 or -EIO. */
int lrs_snapshot__write_json(const struct lrs_snapshot *snap, FILE *f);
/* The same with each lruvec's "causes" (model/causes.h): what `report -f json` prints. */
int lrs_snapshot__write_json_causes(const struct lrs_snapshot *snap, FILE *f);

/*
 * snap as a recording's delta line over prev (docs/recording-format.md), or
 * as a full line when prev is NULL. Returns 0 or -EIO.
 */
int lrs_snapshot__write_json_delta(const struct lrs_snapshot *snap, const struct lrs_snapshot *prev,
				   FILE *f);

/*
 * One line (no newline needed), full or delta, back into a snapshot; prev
 * is the snapshot of the line before (NULL for the first). On failure
 * returns -EINVAL (bad line), -EPROTONOSUPPORT (unknown schema major) or
 * -ENOMEM, and says why in err.
 */
int lrs_snapshot__read_json(const char *line, size_t len, const struct lrs_snapshot *prev,
			    struct lrs_snapshot **out, char *err, size_t err_len);

/*
 * The "schema" member v as a number into *ver (a recording's header has one
 * too); -EINVAL when absent or not a number, with why naming which
 * ("the string \"1\"").
 */
struct lrs_jval;
int lrs_snapshot_json__schema_version(const struct lrs_jval *v, double *ver, char *why,
				      size_t why_len);

#endif

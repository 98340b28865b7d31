/* SPDX-License-Identifier: GPL-2.0 */
/* A snapshot as one line of JSON (DESIGN.md's schema; the recording line format). */
#ifndef LRS_SNAPSHOT_JSON_H
#define LRS_SNAPSHOT_JSON_H

#include <stdio.h>

#include "snapshot.h"

/* Writes the snapshot and a newline. Returns 0 or -EIO. */
int lrs_snapshot__write_json(const struct lrs_snapshot *snap, FILE *f);

#endif

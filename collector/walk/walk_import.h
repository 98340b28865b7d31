/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON of drgn-scripts/walk.py (docs/drgn.md) into a struct lrs_walk
 * (model/walk.h). Pure: no drgn, no processes; cli/cmd_walk.c runs it.
 */
#ifndef LRS_WALK_IMPORT_H
#define LRS_WALK_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "model/walk.h"

/*
 * walk.py's JSON (one object) into *out. Returns 0, -EINVAL (not a walk:
 * says why in err), -EPROTONOSUPPORT (unknown schema) or -ENOMEM.
 */
int lrs_walk__import(const char *json, size_t len, struct lrs_walk **out, char *err,
		     size_t err_len);

#endif

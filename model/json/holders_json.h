/* SPDX-License-Identifier: GPL-2.0 */
/* Lock holders in the snapshot JSON: the "holders" object, written and read back. */
#ifndef LRS_HOLDERS_JSON_H
#define LRS_HOLDERS_JSON_H

#include <stddef.h>

#include "model/holders.h"
#include "model/snapshot.h"

struct lrs_json;
/* The "holders" object of the snapshot JSON (nothing when snap->holders is NULL). */
void lrs_holders__write_json(struct lrs_json *j, const struct lrs_snapshot *snap);

struct lrs_jval;
/*
 * Read a "holders" object back (recordings, report -i): *out is NULL when obj
 * is NULL or null. 0, -EINVAL (what is wrong in err) or -ENOMEM.
 */
int lrs_holders__read_json(const struct lrs_jval *obj, struct lrs_holders **out, char *err,
			   size_t err_len);
#endif

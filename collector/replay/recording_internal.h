/* SPDX-License-Identifier: GPL-2.0 */
/* Internals shared by the recording modules (collector/recording*.c), not part of recording.h. */
#ifndef LRS_RECORDING_INTERNAL_H
#define LRS_RECORDING_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "model/json/json_reader.h"
#include "model/snapshot.h"

/*
 * recording_encode.c: the previous line's entry a delta count is an increment
 * over (NULL: over zero). The encoder subtracts it, the decoder adds it back.
 */
const struct lrs_stack_use *recording__use_base(const struct lrs_stack_use *prev, size_t n,
						int32_t id);
const struct lrs_waiter *recording__waiter_base(const struct lrs_lruvec *prev, int32_t pid);

/* recording_decode.c: an optional u64 member (absent: *out unchanged); -EINVAL when not one. */
int recording__opt_u64(const struct lrs_jval *obj, const char *key, uint64_t *out);
/*
 * recording_decode.c: the "schema" member v as a number into *ver; -EINVAL
 * when absent or not a number, with why naming which ("the string \"1\"").
 */
int recording__schema_version(const struct lrs_jval *v, double *ver, char *why, size_t why_len);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Optional members of a parsed JSON object (model/json/json_reader.h), as
 * the snapshot, holders and recording header readers take them: absent
 * leaves *out as it was; present but of the wrong kind is -EINVAL with what
 * is wrong in err, which may be NULL.
 */
#ifndef LRS_JSON_GET_H
#define LRS_JSON_GET_H

#include <stddef.h>
#include <stdint.h>

#include "model/json/json_reader.h"

/* Where a reader says what is wrong: a caller's buffer, or nothing (buf NULL). */
struct lrs_jerr {
	char *buf;
	size_t len;
};

/* Write the message into e (when it has a buffer); returns -EINVAL. */
int lrs_jerr__set(struct lrs_jerr *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A non-negative integer. */
int lrs_jval__opt_u64(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
		      uint64_t *out);
/* An integer added to *out, modulo 2^64 (a recording's delta counters). */
int lrs_jval__opt_inc(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
		      uint64_t *out);
int lrs_jval__opt_int(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key, int *out);
int lrs_jval__opt_bool(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key, bool *out);
/* A string or null into a fresh copy that replaces *out (freed); -ENOMEM too. */
int lrs_jval__opt_strdup(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
			 char **out);
/* A kernel address as the writer puts it: the string "0x..." (JSON numbers lose low bits). */
int lrs_jval__opt_addr(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
		       uint64_t *out);

#endif

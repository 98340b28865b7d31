/* SPDX-License-Identifier: GPL-2.0 */
/* A small streaming JSON writer: compact, one document per call sequence. */
#ifndef LRS_JSON_WRITER_H
#define LRS_JSON_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LRS_JSON_MAX_DEPTH 32

struct lrs_json {
	FILE *f;
	int depth;
	bool first[LRS_JSON_MAX_DEPTH]; /* no comma before the first item */
	bool after_key;
};

void lrs_json__init(struct lrs_json *j, FILE *f);
void lrs_json__obj_begin(struct lrs_json *j);
void lrs_json__obj_end(struct lrs_json *j);
void lrs_json__arr_begin(struct lrs_json *j);
void lrs_json__arr_end(struct lrs_json *j);
void lrs_json__key(struct lrs_json *j, const char *key);
void lrs_json__str(struct lrs_json *j, const char *s); /* NULL writes null */
void lrs_json__u64(struct lrs_json *j, uint64_t v);
void lrs_json__i64(struct lrs_json *j, int64_t v);
void lrs_json__dbl(struct lrs_json *j, double v);
void lrs_json__bool(struct lrs_json *j, bool v);
/* key and "0xffff...": kernel addresses are strings, JSON numbers lose their low bits */
void lrs_json__addr(struct lrs_json *j, const char *key, uint64_t addr);
/* The string escaped for JSON, quotes included, into f. */
void lrs_json__write_string(FILE *f, const char *s);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON parser for recordings: one document (a line) into a tree held
 * in an arena, freed at once. Strict RFC 8259, bounded depth, no external
 * library. Numbers keep their integer value exactly (u64 or negative i64).
 * Kept over jansson and json-c while it stays at least twice as fast as the
 * faster of them on recordings (2.6 times fewer instructions than json-c when
 * measured): tests/bench/json_bench.sh (make bench) checks it; docs/performance.md.
 */
#ifndef LRS_JSON_READER_H
#define LRS_JSON_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LRS_JSON_READ_MAX_DEPTH 64

enum lrs_jtype { LRS_JNULL, LRS_JBOOL, LRS_JNUM, LRS_JSTR, LRS_JARR, LRS_JOBJ };

struct lrs_jval;

struct lrs_jmember {
	const char *key;
	struct lrs_jval *val;
};

struct lrs_jval {
	enum lrs_jtype type;
	union {
		bool b;
		struct {
			double dbl;
			uint64_t mag; /* |value| when is_int */
			bool is_int;  /* no fraction or exponent, fits 64 bits */
			bool neg;
		} num;
		struct {
			const char *s; /* NUL-terminated, may hold no NUL itself */
			size_t len;
		} str;
		struct {
			struct lrs_jval **items;
			size_t len;
		} arr;
		struct {
			struct lrs_jmember *members;
			size_t len;
		} obj;
	} u;
};

struct lrs_jdoc {
	struct lrs_jval *root;
	void *arena; /* chunks, freed by lrs_jdoc__free */
};

/*
 * Parse text[0..len). On failure returns -EINVAL (bad JSON), -E2BIG (too
 * deep) or -ENOMEM and writes what and at which byte into err. Trailing
 * white space is allowed, trailing text is not.
 */
int lrs_jdoc__parse(struct lrs_jdoc *doc, const char *text, size_t len, char *err, size_t err_len);
void lrs_jdoc__free(struct lrs_jdoc *doc); /* accepts NULL and a zeroed doc */

/* Member key of an object, or NULL (also when v is not an object). */
const struct lrs_jval *lrs_jval__get(const struct lrs_jval *v, const char *key);
/* Typed reads: 0 or -EINVAL when v is NULL, of another type or out of range. */
int lrs_jval__u64(const struct lrs_jval *v, uint64_t *out);
int lrs_jval__i64(const struct lrs_jval *v, int64_t *out);
int lrs_jval__int(const struct lrs_jval *v, int *out);
int lrs_jval__dbl(const struct lrs_jval *v, double *out);
int lrs_jval__bool(const struct lrs_jval *v, bool *out);
/* The string, or NULL when v is not a string. */
const char *lrs_jval__str(const struct lrs_jval *v);
/* Whether v is there and of type t. */
static inline bool lrs_jval__is(const struct lrs_jval *v, enum lrs_jtype t)
{
	return v && v->type == t;
}

#endif

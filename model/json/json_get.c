// SPDX-License-Identifier: GPL-2.0
/* Optional members of a JSON object, each saying what is wrong with it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json/json_get.h"

int lrs_jerr__set(struct lrs_jerr *e, const char *fmt, ...)
{
	va_list ap;

	if (e && e->buf && e->len) {
		va_start(ap, fmt);
		vsnprintf(e->buf, e->len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int lrs_jval__opt_u64(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
		      uint64_t *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);

	if (v && lrs_jval__u64(v, out))
		return lrs_jerr__set(e, "\"%s\" is not a non-negative integer", key);
	return 0;
}

int lrs_jval__opt_inc(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
		      uint64_t *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);
	int64_t inc;

	if (!v)
		return 0;
	if (lrs_jval__i64(v, &inc))
		return lrs_jerr__set(e, "\"%s\" is not an integer", key);
	*out += (uint64_t)inc;
	return 0;
}

int lrs_jval__opt_int(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key, int *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);

	if (v && lrs_jval__int(v, out))
		return lrs_jerr__set(e, "\"%s\" is not an integer", key);
	return 0;
}

int lrs_jval__opt_bool(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key, bool *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);

	if (v && lrs_jval__bool(v, out))
		return lrs_jerr__set(e, "\"%s\" is not true or false", key);
	return 0;
}

int lrs_jval__opt_strdup(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
			 char **out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);
	char *s = NULL;

	if (!v)
		return 0;
	if (v->type != LRS_JNULL) {
		if (v->type != LRS_JSTR)
			return lrs_jerr__set(e, "\"%s\" is not a string", key);
		s = strdup(v->u.str.s);
		if (!s)
			return -ENOMEM;
	}
	free(*out);
	*out = s;
	return 0;
}

int lrs_jval__opt_addr(struct lrs_jerr *e, const struct lrs_jval *obj, const char *key,
		       uint64_t *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);
	const char *s = lrs_jval__str(v);
	char *end;

	if (!v)
		return 0;
	if (!s || strncmp(s, "0x", 2) || !s[2] || strlen(s) > 18)
		return lrs_jerr__set(e, "\"%s\" is not a hex address (\"0x...\")", key);
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	if (*end || errno)
		return lrs_jerr__set(e, "\"%s\" is not a hex address (\"0x...\")", key);
	return 0;
}

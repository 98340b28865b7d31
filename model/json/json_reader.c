// SPDX-License-Identifier: GPL-2.0
/* A recursive-descent JSON parser into an arena-held tree. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json/json_reader.h"

/* ---- arena: big chunks, one free ------------------------------------------ */

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	max_align_t data[];
};

#define ARENA_CHUNK_BYTES (64 * 1024)

static void *arena__alloc(void **arena, size_t size)
{
	struct arena_chunk *c = *arena;

	size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
	if (!c || c->cap - c->used < size) {
		size_t cap = size > ARENA_CHUNK_BYTES ? size : ARENA_CHUNK_BYTES;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = *arena;
		c->used = 0;
		c->cap = cap;
		*arena = c;
	}
	c->used += size;
	return (char *)c->data + c->used - size;
}

static void arena__free(void *arena)
{
	struct arena_chunk *c = arena;

	while (c) {
		struct arena_chunk *next = c->next;

		free(c);
		c = next;
	}
}

/* ---- parser ----------------------------------------------------------------- */

struct parser {
	const char *p, *start, *end;
	void **arena;
	char *err;
	size_t err_len;
	int depth;
	/* scratch for arrays and objects: items are copied into the arena when done */
	void *stack;
	size_t stack_len, stack_cap;
};

static int fail(struct parser *ps, int err, const char *what)
{
	if (ps->err && ps->err_len && !ps->err[0])
		snprintf(ps->err, ps->err_len, "%s at byte %zu", what,
			 (size_t)(ps->p - ps->start) + 1);
	return err;
}

static void skip_ws(struct parser *ps)
{
	while (ps->p < ps->end &&
	       (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static struct lrs_jval *new_val(struct parser *ps, enum lrs_jtype t)
{
	struct lrs_jval *v = arena__alloc(ps->arena, sizeof(*v));

	if (v) {
		memset(v, 0, sizeof(*v));
		v->type = t;
	}
	return v;
}

/* Push bytes onto the scratch stack; returns the offset they start at, or -1. */
static long stack__push(struct parser *ps, const void *data, size_t size)
{
	size_t off = ps->stack_len;

	if (ps->stack_cap - ps->stack_len < size) {
		size_t cap = ps->stack_cap ? ps->stack_cap * 2 : 4096;
		void *n;

		while (cap - ps->stack_len < size)
			cap *= 2;
		n = realloc(ps->stack, cap);
		if (!n)
			return -1;
		ps->stack = n;
		ps->stack_cap = cap;
	}
	memcpy((char *)ps->stack + off, data, size);
	ps->stack_len += size;
	return (long)off;
}

static int hex4(const char *p, unsigned int *out)
{
	unsigned int v = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t utf8_put(char *dst, unsigned int cp)
{
	if (cp < 0x80) {
		dst[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		dst[0] = (char)(0xc0 | cp >> 6);
		dst[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		dst[0] = (char)(0xe0 | cp >> 12);
		dst[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		dst[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	dst[0] = (char)(0xf0 | cp >> 18);
	dst[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	dst[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	dst[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at ps->p (the opening quote), decoded into the arena. */
static int parse_string(struct parser *ps, const char **out, size_t *out_len)
{
	const char *q = ps->p + 1;
	size_t raw = 0;
	char *dst, *d;

	/* the decoded text is never longer than the raw text */
	while (q < ps->end && *q != '"') {
		if (*q == '\\')
			q++;
		q++;
	}
	if (q >= ps->end)
		return fail(ps, -EINVAL, "unterminated string");
	raw = (size_t)(q - ps->p - 1);
	dst = arena__alloc(ps->arena, raw + 1);
	if (!dst)
		return fail(ps, -ENOMEM, "out of memory");
	d = dst;
	ps->p++;
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;

		if (c < 0x20)
			return fail(ps, -EINVAL, "control character in string");
		if (c != '\\') {
			*d++ = (char)c;
			ps->p++;
			continue;
		}
		ps->p++;
		switch (*ps->p) {
		case '"':
			*d++ = '"';
			break;
		case '\\':
			*d++ = '\\';
			break;
		case '/':
			*d++ = '/';
			break;
		case 'b':
			*d++ = '\b';
			break;
		case 'f':
			*d++ = '\f';
			break;
		case 'n':
			*d++ = '\n';
			break;
		case 'r':
			*d++ = '\r';
			break;
		case 't':
			*d++ = '\t';
			break;
		case 'u': {
			unsigned int cp, lo;

			if (ps->end - ps->p < 5 || hex4(ps->p + 1, &cp))
				return fail(ps, -EINVAL, "bad \\u escape");
			ps->p += 4;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (ps->end - ps->p < 7 || ps->p[1] != '\\' || ps->p[2] != 'u' ||
				    hex4(ps->p + 3, &lo) || lo < 0xdc00 || lo > 0xdfff)
					return fail(ps, -EINVAL,
						    "unpaired surrogate in \\u escape");
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				ps->p += 6;
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				return fail(ps, -EINVAL, "unpaired surrogate in \\u escape");
			}
			if (cp == 0)
				return fail(ps, -EINVAL, "\\u0000 in string");
			/* \uXXXX is 6 raw bytes, at most 4 decoded: the bound above holds */
			d += utf8_put(d, cp);
			break;
		}
		default:
			return fail(ps, -EINVAL, "bad escape in string");
		}
		ps->p++;
	}
	ps->p++;
	*d = '\0';
	*out = dst;
	*out_len = (size_t)(d - dst);
	return 0;
}

static int parse_number(struct parser *ps, struct lrs_jval *v)
{
	const char *s = ps->p;
	bool is_int = true, overflow = false;
	uint64_t mag = 0;
	char buf[64];
	size_t n;

	if (ps->p < ps->end && *ps->p == '-') {
		v->u.num.neg = true;
		ps->p++;
	}
	if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
		return fail(ps, -EINVAL, "bad number");
	if (*ps->p == '0' && ps->p + 1 < ps->end && ps->p[1] >= '0' && ps->p[1] <= '9')
		return fail(ps, -EINVAL, "leading zero in number");
	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
		unsigned int dgt = (unsigned int)(*ps->p - '0');

		if (mag > (UINT64_MAX - dgt) / 10)
			overflow = true;
		mag = mag * 10 + dgt;
		ps->p++;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		is_int = false;
		ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			return fail(ps, -EINVAL, "bad number");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		is_int = false;
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (ps->p >= ps->end || *ps->p < '0' || *ps->p > '9')
			return fail(ps, -EINVAL, "bad number");
		while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
			ps->p++;
	}
	n = (size_t)(ps->p - s);
	if (n >= sizeof(buf)) {
		/* long fractions: strtod of the first 63 bytes is close enough */
		n = sizeof(buf) - 1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	v->u.num.dbl = strtod(buf, NULL);
	if (is_int && overflow)
		is_int = false;
	if (is_int && v->u.num.neg && mag > (uint64_t)INT64_MAX + 1)
		is_int = false;
	v->u.num.is_int = is_int;
	v->u.num.mag = is_int ? mag : 0;
	return 0;
}

static int parse_value(struct parser *ps, struct lrs_jval **out);

/*
 * After an array item or object member: 1 if a ',' follows (another comes), 0
 * if the closing bracket does (consumed), else an error.
 */
static int list_next(struct parser *ps, char close)
{
	static const char *const what[] = { "expected ',' or ']'", "expected ',' or '}'" };

	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ',') {
		ps->p++;
		return 1;
	}
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	return fail(ps, -EINVAL, ps->p < ps->end ? what[close == '}'] : "unexpected end");
}

/* The items pushed since base, moved into the arena; NULL when out of memory. */
static void *stack_to_arena(struct parser *ps, size_t base, size_t bytes)
{
	void *dst = arena__alloc(ps->arena, bytes);

	if (!dst) {
		fail(ps, -ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(dst, (char *)ps->stack + base, bytes);
	return dst;
}

static int parse_array(struct parser *ps, struct lrs_jval *v)
{
	size_t base = ps->stack_len, n = 0;
	int err;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return 0;
	}
	do {
		struct lrs_jval *item;

		err = parse_value(ps, &item);
		if (err)
			goto out;
		if (stack__push(ps, &item, sizeof(item)) < 0) {
			err = fail(ps, -ENOMEM, "out of memory");
			goto out;
		}
		n++;
	} while ((err = list_next(ps, ']')) > 0);
	if (err)
		goto out;
	v->u.arr.items = stack_to_arena(ps, base, n * sizeof(*v->u.arr.items));
	if (!v->u.arr.items) {
		err = -ENOMEM;
		goto out;
	}
	v->u.arr.len = n;
out:
	ps->stack_len = base;
	return err;
}

static int parse_object(struct parser *ps, struct lrs_jval *v)
{
	size_t base = ps->stack_len, n = 0;
	int err;

	ps->p++;
	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 0;
	}
	do {
		struct lrs_jmember m;
		size_t klen;

		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"') {
			err = fail(ps, -EINVAL,
				   ps->p < ps->end ? "expected a key" : "unexpected end");
			goto out;
		}
		err = parse_string(ps, &m.key, &klen);
		if (err)
			goto out;
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':') {
			err = fail(ps, -EINVAL,
				   ps->p < ps->end ? "expected ':'" : "unexpected end");
			goto out;
		}
		ps->p++;
		err = parse_value(ps, &m.val);
		if (err)
			goto out;
		if (stack__push(ps, &m, sizeof(m)) < 0) {
			err = fail(ps, -ENOMEM, "out of memory");
			goto out;
		}
		n++;
	} while ((err = list_next(ps, '}')) > 0);
	if (err)
		goto out;
	v->u.obj.members = stack_to_arena(ps, base, n * sizeof(*v->u.obj.members));
	if (!v->u.obj.members) {
		err = -ENOMEM;
		goto out;
	}
	v->u.obj.len = n;
out:
	ps->stack_len = base;
	return err;
}

static bool literal(struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

static int parse_value(struct parser *ps, struct lrs_jval **out)
{
	struct lrs_jval *v;
	int err = 0;

	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail(ps, -EINVAL, "unexpected end");
	switch (*ps->p) {
	case '{':
	case '[':
		if (++ps->depth > LRS_JSON_READ_MAX_DEPTH)
			return fail(ps, -E2BIG, "nested too deep");
		v = new_val(ps, *ps->p == '{' ? LRS_JOBJ : LRS_JARR);
		if (!v)
			return fail(ps, -ENOMEM, "out of memory");
		err = v->type == LRS_JOBJ ? parse_object(ps, v) : parse_array(ps, v);
		ps->depth--;
		break;
	case '"':
		v = new_val(ps, LRS_JSTR);
		if (!v)
			return fail(ps, -ENOMEM, "out of memory");
		err = parse_string(ps, &v->u.str.s, &v->u.str.len);
		break;
	case 't':
	case 'f':
	case 'n':
		v = new_val(ps, *ps->p == 'n' ? LRS_JNULL : LRS_JBOOL);
		if (!v)
			return fail(ps, -ENOMEM, "out of memory");
		if (literal(ps, "true"))
			v->u.b = true;
		else if (!literal(ps, "false") && !literal(ps, "null"))
			return fail(ps, -EINVAL, "unexpected word");
		break;
	default:
		v = new_val(ps, LRS_JNUM);
		if (!v)
			return fail(ps, -ENOMEM, "out of memory");
		if (*ps->p != '-' && (*ps->p < '0' || *ps->p > '9'))
			return fail(ps, -EINVAL, "unexpected character");
		err = parse_number(ps, v);
		break;
	}
	if (!err)
		*out = v;
	return err;
}

int lrs_jdoc__parse(struct lrs_jdoc *doc, const char *text, size_t len, char *err, size_t err_len)
{
	struct parser ps = {
		.p = text,
		.start = text,
		.end = text + len,
		.err = err,
		.err_len = err_len,
	};
	int ret;

	memset(doc, 0, sizeof(*doc));
	ps.arena = &doc->arena;
	if (err && err_len)
		err[0] = '\0';
	ret = parse_value(&ps, &doc->root);
	if (!ret) {
		skip_ws(&ps);
		if (ps.p != ps.end)
			ret = fail(&ps, -EINVAL, "text after the JSON value");
	}
	free(ps.stack);
	if (ret)
		lrs_jdoc__free(doc);
	return ret;
}

void lrs_jdoc__free(struct lrs_jdoc *doc)
{
	if (!doc)
		return;
	arena__free(doc->arena);
	doc->arena = NULL;
	doc->root = NULL;
}

const struct lrs_jval *lrs_jval__get(const struct lrs_jval *v, const char *key)
{
	if (!v || v->type != LRS_JOBJ)
		return NULL;
	/* the last duplicate wins, as in most parsers */
	for (size_t i = v->u.obj.len; i-- > 0;)
		if (!strcmp(v->u.obj.members[i].key, key))
			return v->u.obj.members[i].val;
	return NULL;
}

int lrs_jval__u64(const struct lrs_jval *v, uint64_t *out)
{
	if (!v || v->type != LRS_JNUM || !v->u.num.is_int || (v->u.num.neg && v->u.num.mag))
		return -EINVAL;
	*out = v->u.num.mag;
	return 0;
}

int lrs_jval__i64(const struct lrs_jval *v, int64_t *out)
{
	if (!v || v->type != LRS_JNUM || !v->u.num.is_int)
		return -EINVAL;
	if (v->u.num.neg) {
		*out = v->u.num.mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v->u.num.mag;
		return 0;
	}
	if (v->u.num.mag > INT64_MAX)
		return -EINVAL;
	*out = (int64_t)v->u.num.mag;
	return 0;
}

int lrs_jval__int(const struct lrs_jval *v, int *out)
{
	int64_t x;

	if (lrs_jval__i64(v, &x) || x < INT_MIN || x > INT_MAX)
		return -EINVAL;
	*out = (int)x;
	return 0;
}

int lrs_jval__dbl(const struct lrs_jval *v, double *out)
{
	if (!v || v->type != LRS_JNUM)
		return -EINVAL;
	*out = v->u.num.is_int ? (v->u.num.neg ? -(double)v->u.num.mag : (double)v->u.num.mag) :
				 v->u.num.dbl;
	return 0;
}

int lrs_jval__bool(const struct lrs_jval *v, bool *out)
{
	if (!v || v->type != LRS_JBOOL)
		return -EINVAL;
	*out = v->u.b;
	return 0;
}

const char *lrs_jval__str(const struct lrs_jval *v)
{
	return v && v->type == LRS_JSTR ? v->u.str.s : NULL;
}

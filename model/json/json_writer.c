// SPDX-License-Identifier: GPL-2.0
#include <inttypes.h>
#include <math.h>

#include "model/json/json_writer.h"

void lrs_json__init(struct lrs_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
}

/* A comma before every value but the first of its container. */
static void before_value(struct lrs_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
}

static void open_container(struct lrs_json *j, char c)
{
	before_value(j);
	fputc(c, j->f);
	if (j->depth < LRS_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_container(struct lrs_json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void lrs_json__obj_begin(struct lrs_json *j)
{
	open_container(j, '{');
}
void lrs_json__obj_end(struct lrs_json *j)
{
	close_container(j, '}');
}
void lrs_json__arr_begin(struct lrs_json *j)
{
	open_container(j, '[');
}
void lrs_json__arr_end(struct lrs_json *j)
{
	close_container(j, ']');
}

void lrs_json__write_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void lrs_json__key(struct lrs_json *j, const char *key)
{
	before_value(j);
	lrs_json__write_string(j->f, key);
	fputc(':', j->f);
	j->after_key = true;
}

void lrs_json__str(struct lrs_json *j, const char *s)
{
	before_value(j);
	if (s)
		lrs_json__write_string(j->f, s);
	else
		fputs("null", j->f);
}

void lrs_json__u64(struct lrs_json *j, uint64_t v)
{
	before_value(j);
	fprintf(j->f, "%" PRIu64, v);
}

void lrs_json__i64(struct lrs_json *j, int64_t v)
{
	before_value(j);
	fprintf(j->f, "%" PRId64, v);
}

void lrs_json__dbl(struct lrs_json *j, double v)
{
	before_value(j);
	if (isfinite(v))
		fprintf(j->f, "%.6g", v);
	else
		fputs("null", j->f); /* JSON has no inf or nan */
}

void lrs_json__addr(struct lrs_json *j, const char *key, uint64_t addr)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
	lrs_json__key(j, key);
	lrs_json__str(j, buf);
}

void lrs_json__bool(struct lrs_json *j, bool v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->f);
}

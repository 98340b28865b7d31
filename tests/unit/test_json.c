// SPDX-License-Identifier: GPL-2.0
/* The JSON parser: values, numbers at the edges of 64 bits, errors with their byte. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "model/json/json_reader.h"

static void test_json_values(void **state)
{
	static const char text[] =
		" {\"a\": [1, -2, 18446744073709551615, -9223372036854775808, 1.5e3, 0],"
		" \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\", \"t\": true, \"f\": false,"
		" \"n\": null, \"o\": {}, \"e\": [] } ";
	struct lrs_jdoc doc;
	const struct lrs_jval *a, *v;
	uint64_t u;
	int64_t i;
	double d;
	bool b;
	char err[128];

	assert_int_equal(lrs_jdoc__parse(&doc, text, strlen(text), err, sizeof(err)), 0);
	a = lrs_jval__get(doc.root, "a");
	assert_true(lrs_jval__is(a, LRS_JARR));
	assert_int_equal(a->u.arr.len, 6);
	assert_int_equal(lrs_jval__u64(a->u.arr.items[0], &u), 0);
	assert_int_equal(u, 1);
	assert_int_equal(lrs_jval__u64(a->u.arr.items[1], &u), -EINVAL); /* negative */
	assert_int_equal(lrs_jval__i64(a->u.arr.items[1], &i), 0);
	assert_int_equal(i, -2);
	assert_int_equal(lrs_jval__u64(a->u.arr.items[2], &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(lrs_jval__i64(a->u.arr.items[2], &i), -EINVAL); /* too big */
	assert_int_equal(lrs_jval__i64(a->u.arr.items[3], &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(lrs_jval__u64(a->u.arr.items[4], &u), -EINVAL); /* not an integer */
	assert_int_equal(lrs_jval__dbl(a->u.arr.items[4], &d), 0);
	assert_true(d == 1500.0);
	assert_string_equal(lrs_jval__str(lrs_jval__get(doc.root, "s")),
			    "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80");
	assert_int_equal(lrs_jval__bool(lrs_jval__get(doc.root, "t"), &b), 0);
	assert_true(b);
	v = lrs_jval__get(doc.root, "n");
	assert_true(lrs_jval__is(v, LRS_JNULL));
	assert_true(lrs_jval__is(lrs_jval__get(doc.root, "o"), LRS_JOBJ));
	assert_null(lrs_jval__get(doc.root, "missing"));
	assert_null(lrs_jval__str(lrs_jval__get(doc.root, "t")));
	lrs_jdoc__free(&doc);
	lrs_jdoc__free(NULL);
}

static void test_json_errors(void **state)
{
	static const struct {
		const char *text;
		const char *want;
	} cases[] = {
		{ "", "unexpected end at byte 1" },
		{ "{", "unexpected end" },
		{ "{\"a\":1,}", "expected a key at byte 8" },
		{ "[1 2]", "expected ',' or ']' at byte 4" },
		{ "{\"a\":1 \"b\":2}", "expected ',' or '}' at byte 8" },
		{ "[1,", "unexpected end at byte 4" },
		{ "{\"a\" 1}", "expected ':'" },
		{ "\"abc", "unterminated string" },
		{ "\"a\tb\"", "control character in string" },
		{ "\"\\x\"", "bad escape" },
		{ "\"\\ud800\"", "unpaired surrogate" },
		{ "\"\\u0000\"", "\\u0000" },
		{ "01", "leading zero" },
		{ "-", "bad number" },
		{ "1.", "bad number" },
		{ "1e", "bad number" },
		{ "tru", "unexpected word" },
		{ "{} x", "text after the JSON value at byte 4" },
		{ "@", "unexpected character at byte 1" },
	};
	struct lrs_jdoc doc;
	char err[128], deep[200];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(lrs_jdoc__parse(&doc, cases[i].text, strlen(cases[i].text), err,
						 sizeof(err)),
				 -EINVAL);
		if (!strstr(err, cases[i].want))
			fail_msg("'%s': error '%s' lacks '%s'", cases[i].text, err, cases[i].want);
	}
	memset(deep, '[', sizeof(deep));
	assert_int_equal(lrs_jdoc__parse(&doc, deep, sizeof(deep), err, sizeof(err)), -E2BIG);
	assert_non_null(strstr(err, "nested too deep"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_values),
		cmocka_unit_test(test_json_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Option tables (cli/options.c, cli/options_man.c): shared tables walked in
 * place, getopt's tables built from them and refused when two options clash,
 * the parse loop, the --help lines and the man page's entries.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/commands.h"
#include "cli/options.h"

enum { OPT_NO_COLOR = LRS_OPT_KEY_LONG, OPT_HOLDERS = LRS_OPT_KEY_SHARED, OPT_SPIN };

static const struct lrs_opt spin[] = { { "spin-source", OPT_SPIN, 0, "SRC", "where waits come from",
					 .choices = "auto slowpath" },
				       { 0 } };

static const struct lrs_opt shared[] = { { "holders", OPT_HOLDERS, 0, NULL, "who held the locks" },
					 LRS_OPT_GROUP(spin),
					 { "verbose", 'v', LRS_OPT_SHORT, NULL,
					   "libbpf's messages" },
					 { 0 } };

static const struct lrs_opt table[] = {
	{ "interval", 'i', LRS_OPT_SHORT, "SECS", "time between updates (default 1)" },
	{ "no-color", OPT_NO_COLOR, 0, NULL, "no colours", .alias = "no-colour" },
	LRS_OPT_GROUP(shared),
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fputs("usage: test\n", f);
	lrs_opts__write_help(f, table);
}

static int run(int argc, char **argv)
{
	return 0;
}

static const struct lrs_command cmd = {
	.name = "test",
	.synopsis = "test  a command",
	.opts = table,
	.operands = LRS_OPT_FILE,
	.help = help,
	.run = run,
};

static void test_iter(void **state)
{
	static const char *const names[] = { "interval",    "no-color", "holders",
					     "spin-source", "verbose",	"help" };
	const struct lrs_opt *const tables[] = { table, table, shared, spin, shared, lrs_opts_help };
	struct lrs_opts_iter it;
	const struct lrs_opt *o;
	size_t n = 0;

	lrs_opts_iter__init(&it, table);
	while ((o = lrs_opts_iter__next(&it))) {
		assert_true(n < 6);
		assert_string_equal(o->name, names[n]);
		/* each row is known to come from its own table: the man page's sections */
		assert_ptr_equal(lrs_opts_iter__table(&it), tables[n]);
		n++;
	}
	assert_int_equal(n, 6);
}

static void test_getopt(void **state)
{
	struct lrs_getopt g;
	char err[128];

	assert_int_equal(lrs_opts__getopt(table, &g, err, sizeof(err)), 0);
	assert_string_equal(g.shorts, ":i:vh");
	assert_string_equal(g.longs[0].name, "interval");
	assert_int_equal(g.longs[0].has_arg, required_argument);
	assert_int_equal(g.longs[0].val, 'i');
	/* the alias answers with the option's key */
	assert_string_equal(g.longs[2].name, "no-colour");
	assert_int_equal(g.longs[2].val, OPT_NO_COLOR);
	assert_string_equal(g.longs[4].name, "spin-source");
	assert_int_equal(g.longs[4].val, OPT_SPIN);
	assert_null(g.longs[7].name);
}

static void test_getopt_clash(void **state)
{
	/* a command's own option on a shared key: the gui bug where --spin-source was --screenshot */
	static const struct lrs_opt same_key[] = {
		{ "screenshot", OPT_SPIN, 0, "FILE", "a picture" }, LRS_OPT_GROUP(spin), { 0 }
	};
	static const struct lrs_opt same_name[] = { { "verbose", 'V', LRS_OPT_SHORT, NULL, "more" },
						    LRS_OPT_GROUP(shared),
						    { 0 } };
	static const struct lrs_opt alias_taken[] = { { "color", 'c', 0, NULL, "colours",
							.alias = "holders" },
						      LRS_OPT_GROUP(shared),
						      { 0 } };
	struct lrs_getopt g;
	char err[128] = "";

	assert_int_equal(lrs_opts__getopt(same_key, &g, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "--screenshot and --spin-source"));
	assert_int_equal(lrs_opts__getopt(same_name, &g, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "--verbose"));
	assert_int_equal(lrs_opts__getopt(alias_taken, &g, err, sizeof(err)), -EEXIST);
}

struct seen {
	int keys[8];
	const char *values[8];
	int n;
};

static int apply(void *ctx, int key, const char *value)
{
	struct seen *s = ctx;

	if (value && !strcmp(value, "bad"))
		return -EINVAL;
	s->keys[s->n] = key;
	s->values[s->n++] = value;
	return 0;
}

static void test_parse(void **state)
{
	char *argv[] = { "test", "-i", "2", "--no-colour", "--spin-source=auto", "-v", "A", NULL };
	struct seen s = { 0 };
	int status = -1;

	assert_int_equal(lrs_opts__parse(&cmd, 7, argv, apply, &s, &status), 6);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.keys[0], 'i');
	assert_string_equal(s.values[0], "2");
	assert_int_equal(s.keys[1], OPT_NO_COLOR);
	assert_int_equal(s.keys[2], OPT_SPIN);
	assert_string_equal(s.values[2], "auto");
	assert_int_equal(s.keys[3], 'v');
	assert_int_equal(status, -1);
}

static void test_parse_refused(void **state)
{
	char *unknown[] = { "test", "--frobnicate", NULL };
	char *missing[] = { "test", "-i", NULL };
	char *bad[] = { "test", "-i", "bad", NULL };
	struct seen s = { 0 };
	int status = -1;

	assert_int_equal(lrs_opts__parse(&cmd, 2, unknown, apply, &s, &status), -1);
	assert_int_equal(status, LRS_EXIT_USAGE);
	status = -1;
	assert_int_equal(lrs_opts__parse(&cmd, 2, missing, apply, &s, &status), -1);
	assert_int_equal(status, LRS_EXIT_USAGE);
	status = -1;
	assert_int_equal(lrs_opts__parse(&cmd, 3, bad, apply, &s, &status), -1);
	assert_int_equal(status, LRS_EXIT_USAGE);
	assert_int_equal(s.n, 0);
}

static void test_parse_operands(void **state)
{
	static const struct lrs_command none = {
		.name = "none",
		.opts = table,
		.help = help,
		.run = run,
	};
	char *one[] = { "none", "-v", "A", NULL };
	char *options_only[] = { "none", "-v", NULL };
	struct seen s = { 0 };
	int status = -1;

	/* a command that takes no operand refuses one, after its options */
	assert_int_equal(lrs_opts__parse(&none, 3, one, apply, &s, &status), -1);
	assert_int_equal(status, LRS_EXIT_USAGE);
	status = -1;
	assert_int_equal(lrs_opts__parse(&none, 2, options_only, apply, &s, &status), 2);
	assert_int_equal(status, -1);
}

/* f's text from the start */
static char *read_back(FILE *f)
{
	long n = ftell(f);
	char *buf = calloc(1, (size_t)n + 1);

	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	return buf;
}

static void test_help_lines(void **state)
{
	static const struct lrs_opt wide[] = {
		{ "a-very-long-option-name", 'x', LRS_OPT_SHORT, "VALUE",
		  "its text starts on the next line, at the column of the others, and this sentence "
		  "is long enough to wrap twice before it ends, never past the eightieth column of "
		  "the terminal",
		  .choices = NULL },
		{ "list", 'l', 0, NULL, "one:\n  two, indented\nthree" },
		{ 0 }
	};
	FILE *f = tmpfile();
	char *text, *line, *save = NULL;
	int lines = 0;

	lrs_opts__write_help(f, table);
	lrs_opts__write_help(f, wide);
	text = read_back(f);
	assert_non_null(
		strstr(text, "  -i, --interval SECS     time between updates (default 1)\n"));
	assert_non_null(strstr(text, "      --no-color          no colours\n"));
	assert_null(strstr(text, "no-colour"));
	assert_non_null(strstr(text, "  -h, --help              this text\n"));
	assert_non_null(strstr(text, "  -x, --a-very-long-option-name VALUE\n"
				     "                          its text starts"));
	assert_non_null(strstr(text, "      --list              one:\n"
				     "                            two, indented\n"
				     "                          three\n"));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_true(strlen(line) < 80);
		lines++;
	}
	assert_true(lines > 10);
	free(text);
	fclose(f);
}

static void test_man(void **state)
{
	static const struct lrs_opt spin_only[] = { LRS_OPT_GROUP(spin), { 0 } };
	static const struct lrs_command third = {
		.name = "third",
		.synopsis = "third",
		.opts = spin_only,
		.help = help,
		.run = run,
	};
	static const struct lrs_command plain = {
		.name = "plain",
		.synopsis = "plain",
		.opts = lrs_opts_help,
		.help = help,
		.run = run,
	};
	static const struct lrs_command hidden = {
		.name = "hidden", .opts = table, .help = help, .run = run
	};
	const struct lrs_command *const cmds[] = { &cmd, &third, &plain, &hidden, NULL };
	const struct lrs_command *const two[] = { &cmd, &third, NULL };
	FILE *f = tmpfile();
	char *text;

	lrs_opts__write_man(f, cmds);
	text = read_back(f);
	/* the four shapes of a tag; the help as a sentence where the table has no man text */
	assert_non_null(strstr(text, ".TP\n.BI \\-i \" SECS\" \"\\fR,\\fP \\-\\-interval \" SECS\n"
				     "Time between updates (default 1).\n"));
	assert_non_null(strstr(text, ".TP\n.B \\-\\-no\\-color\nNo colours.\n"));
	assert_non_null(strstr(text, ".TP\n.BI \\-\\-spin\\-source \" SRC\"\n"));
	assert_non_null(strstr(text, ".TP\n.BR \\-v \", \" \\-\\-verbose\n"));
	assert_non_null(
		strstr(text, ".TP\n.BR \\-h \", \" \\-\\-help\nDescribe the command and exit.\n"));
	/* a shared table once, under the listed commands that take it; the hidden one in none */
	assert_non_null(strstr(text, ".SS Common to test\n.TP\n.B \\-\\-holders\n"));
	assert_non_null(strstr(text, ".SS Common to test and third\n.TP\n.BI \\-\\-spin\\-source"));
	assert_non_null(strstr(text, ".SS test\n.TP\n.BI \\-i"));
	assert_null(strstr(text, ".SS third"));
	assert_non_null(strstr(text, ".SS Common to test and plain\n.TP\n.BR \\-h"));
	assert_null(strstr(text, "hidden"));
	/* once: the second command that takes it does not repeat it */
	assert_null(strstr(strstr(text, ".BI \\-\\-spin\\-source") + 1, ".BI \\-\\-spin\\-source"));
	free(text);
	fclose(f);

	/* taken by every listed command */
	f = tmpfile();
	lrs_opts__write_man(f, two);
	text = read_back(f);
	assert_non_null(strstr(text, ".SS Common to every command\n.TP\n.BI \\-\\-spin\\-source"));
	free(text);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iter),	      cmocka_unit_test(test_getopt),
		cmocka_unit_test(test_getopt_clash),  cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_refused), cmocka_unit_test(test_parse_operands),
		cmocka_unit_test(test_help_lines),    cmocka_unit_test(test_man),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope options [--man | --commands]: every command's option table, as a
 * table for tests and scripts, or as the man page's OPTIONS section.
 */
#include <errno.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/options.h"

enum { OPT_MAN = LRS_OPT_KEY_LONG, OPT_COMMANDS };

static const struct lrs_opt opts[] = {
	{ "man", OPT_MAN, 0, NULL, "the man page's OPTIONS section (roff)" },
	{ "commands", OPT_COMMANDS, 0, NULL,
	  "the commands instead: name, listed or hidden (in no --help list, completion or man "
	  "page), and what completes their operands" },
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f, "usage: lruscope options [--man | --commands]\n\n"
		   "Every option of every command, one line each: command, short option, long\n"
		   "option, value name and what completes the value (file, dir, user, or the\n"
		   "values it takes joined by '|'; '-' where none). --man: as the man page's\n"
		   "OPTIONS section, which 'make man-options' puts into docs/lruscope.8.\n\n");
	lrs_opts__write_help(f, opts);
}

/* What completes a value: file, dir, user, its choices joined by '|', or "-". */
static const char *value_kind(unsigned int flags, const char *choices, char *buf, size_t len)
{
	size_t i;

	if (choices) {
		for (i = 0; choices[i] && i + 1 < len; i++)
			buf[i] = choices[i] == ' ' ? '|' : choices[i];
		buf[i] = 0;
		return buf;
	}
	return flags & LRS_OPT_FILE ? "file" :
	       flags & LRS_OPT_DIR  ? "dir" :
	       flags & LRS_OPT_USER ? "user" :
				      "-";
}

static void write_table(FILE *f)
{
	fprintf(f, "%-10s %-5s %-20s %-16s %s\n", "command", "short", "long", "arg", "value");
	for (size_t i = 0; lrs_commands[i]; i++) {
		struct lrs_opts_iter it;
		const struct lrs_opt *o;

		lrs_opts_iter__init(&it, lrs_commands[i]->opts);
		while ((o = lrs_opts_iter__next(&it))) {
			char letter[3] = "-", kind[64], name[64];

			if (o->flags & LRS_OPT_SHORT)
				snprintf(letter, sizeof(letter), "-%c", o->key);
			snprintf(name, sizeof(name), "--%s", o->name);
			fprintf(f, "%-10s %-5s %-20s %-16s %s\n", lrs_commands[i]->name, letter,
				name, o->arg ? o->arg : "-",
				o->arg ? value_kind(o->flags, o->choices, kind, sizeof(kind)) :
					 "-");
		}
	}
}

static void write_commands(FILE *f)
{
	for (size_t i = 0; lrs_commands[i]; i++) {
		const struct lrs_command *c = lrs_commands[i];
		char kind[64];

		fprintf(f, "%-10s %-6s %s\n", c->name, c->synopsis ? "listed" : "hidden",
			c->operands || c->operand_choices ?
				value_kind(c->operands, c->operand_choices, kind, sizeof(kind)) :
				"-");
	}
}

/* Every table builds for getopt (no name, letter or key twice): 0, or -EEXIST (said). */
static int check_tables(void)
{
	int ret = 0;

	for (size_t i = 0; lrs_commands[i]; i++) {
		struct lrs_getopt g;
		char err[256];

		if (lrs_opts__getopt(lrs_commands[i]->opts, &g, err, sizeof(err))) {
			fprintf(stderr, "lruscope options: %s: %s\n", lrs_commands[i]->name, err);
			ret = -EEXIST;
		}
	}
	return ret;
}

static int apply(void *ctx, int key, const char *value)
{
	*(int *)ctx = key;
	return 0;
}

static int run(int argc, char **argv)
{
	int what = 0, status;

	if (lrs_opts__parse(&lrs_command_options, argc, argv, apply, &what, &status) < 0)
		return status;
	if (check_tables())
		return LRS_EXIT_FAIL;
	if (what == OPT_MAN) {
		lrs_opts__write_man(stdout, lrs_commands);
		return lrs_cli__stdout_done("options", "the OPTIONS section");
	}
	if (what == OPT_COMMANDS)
		write_commands(stdout);
	else
		write_table(stdout);
	return lrs_cli__stdout_done("options", "the table");
}

const struct lrs_command lrs_command_options = {
	.name = "options",
	.opts = opts,
	.operand_hint = ": usage: lruscope options [--man | --commands]",
	.help = help,
	.run = run,
};

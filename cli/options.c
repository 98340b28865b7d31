// SPDX-License-Identifier: GPL-2.0
/*
 * Option tables: walking them, getopt_long's tables built from them, the
 * parse loop every command shares, and the --help option lines.
 */
#include <errno.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"

/* --help's text column and width: a tag longer than the column puts its text on the next line */
#define HELP_COLUMN 26
#define HELP_WIDTH 80

const struct lrs_opt lrs_opts_help[] = { { "help", LRS_OPT_KEY_HELP, LRS_OPT_SHORT, NULL,
					   "this text", .man = "Describe the command and exit.\n" },
					 { 0 } };

void lrs_opts_iter__init(struct lrs_opts_iter *it, const struct lrs_opt *table)
{
	memset(it, 0, sizeof(*it));
	it->table[0] = it->at[0] = table;
}

const struct lrs_opt *lrs_opts_iter__next(struct lrs_opts_iter *it)
{
	while (it->depth >= 0) {
		const struct lrs_opt *o = it->at[it->depth];

		if (!o->name && !o->group) {
			it->depth--; /* this table ended: back to the one that included it */
			continue;
		}
		it->at[it->depth]++;
		if (!o->group)
			return o;
		if (it->depth + 1 < LRS_OPTS_DEPTH) {
			it->depth++;
			it->table[it->depth] = it->at[it->depth] = o->group;
		}
	}
	return NULL;
}

const struct lrs_opt *lrs_opts_iter__table(const struct lrs_opts_iter *it)
{
	/* next() returns a row of the table it is in */
	return it->table[it->depth < 0 ? 0 : it->depth];
}

/* Has a long option of g (the first n) this name? */
static bool long_taken(const struct lrs_getopt *g, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(g->longs[i].name, name))
			return true;
	return false;
}

int lrs_opts__getopt(const struct lrs_opt *table, struct lrs_getopt *g, char *err, size_t err_len)
{
	int keys[LRS_OPTS_MAX];
	const char *names[LRS_OPTS_MAX];
	struct lrs_opts_iter it;
	const struct lrs_opt *o;
	size_t n = 0, nlong = 0, s = 0;

	memset(g, 0, sizeof(*g));
	g->shorts[s++] = ':'; /* a missing value is ':', told apart from an unknown option */
	lrs_opts_iter__init(&it, table);
	while ((o = lrs_opts_iter__next(&it))) {
		const char *alias = o->alias;
		int has_arg = o->arg ? required_argument : no_argument;

		if (n == LRS_OPTS_MAX) {
			snprintf(err, err_len, "option table: more than %d options", LRS_OPTS_MAX);
			return -E2BIG;
		}
		for (size_t i = 0; i < n; i++) {
			if (keys[i] == o->key) {
				snprintf(err, err_len,
					 "option table: --%s and --%s have one key (%d)", names[i],
					 o->name, o->key);
				return -EEXIST;
			}
		}
		if (long_taken(g, nlong, o->name) || (alias && long_taken(g, nlong, alias))) {
			snprintf(err, err_len, "option table: --%s is there twice", o->name);
			return -EEXIST;
		}
		keys[n] = o->key;
		names[n++] = o->name;
		g->longs[nlong++] = (struct option){ o->name, has_arg, NULL, o->key };
		if (alias)
			g->longs[nlong++] = (struct option){ alias, has_arg, NULL, o->key };
		if (o->flags & LRS_OPT_SHORT) {
			/* keys are told apart above: a letter cannot come twice */
			g->shorts[s++] = (char)o->key;
			if (o->arg)
				g->shorts[s++] = ':';
		}
	}
	return 0;
}

int lrs_opts__parse(const struct lrs_command *cmd, int argc, char **argv,
		    int (*apply)(void *ctx, int key, const char *value), void *ctx, int *status)
{
	struct lrs_getopt g;
	char err[256];
	int c;

	if (lrs_opts__getopt(cmd->opts, &g, err, sizeof(err))) {
		fprintf(stderr, "lruscope %s: %s\n", cmd->name, err);
		*status = LRS_EXIT_FAIL;
		return -1;
	}
	optind = 1;
	opterr = 0; /* a bad option is one line of ours (lrs_cli__bad_option) */
	while ((c = getopt_long(argc, argv, g.shorts, g.longs, NULL)) != -1) {
		if (c == '?' || c == ':') {
			*status = lrs_cli__bad_option(cmd->name, c, argv);
			return -1;
		}
		if (c == LRS_OPT_KEY_HELP) {
			cmd->help(stdout);
			*status = lrs_cli__stdout_done(cmd->name, "the help");
			return -1;
		}
		if (apply(ctx, c, optarg)) {
			*status = LRS_EXIT_USAGE;
			return -1;
		}
	}
	if (optind < argc && !cmd->operands && !cmd->operand_choices) {
		fprintf(stderr, "lruscope %s: unexpected argument '%s'%s\n", cmd->name,
			argv[optind], cmd->operand_hint ? cmd->operand_hint : "");
		if (cmd->help_on_operand)
			cmd->help(stderr);
		*status = LRS_EXIT_USAGE;
		return -1;
	}
	return optind;
}

size_t lrs_opt__tag(const struct lrs_opt *o, char *buf, size_t len)
{
	int n;

	if (o->flags & LRS_OPT_SHORT)
		n = snprintf(buf, len, "-%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
			     o->arg ? o->arg : "");
	else
		n = snprintf(buf, len, "--%s%s%s", o->name, o->arg ? " " : "",
			     o->arg ? o->arg : "");
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

/*
 * text from column col, where the cursor is: words wrapped at HELP_WIDTH onto
 * lines indented to col; after a '\n', its leading spaces indent that line
 * and the lines it wraps onto.
 */
static void write_wrapped(FILE *f, const char *text, int col)
{
	int pos = col, indent = col;
	bool line_start = true;
	const char *p = text;

	while (*p) {
		size_t len;

		if (*p == '\n') {
			p++;
			indent = col;
			while (*p == ' ') {
				indent++;
				p++;
			}
			fprintf(f, "\n%*s", indent, "");
			pos = indent;
			line_start = true;
			continue;
		}
		if (*p == ' ') {
			p++;
			continue;
		}
		len = strcspn(p, " \n");
		if (!line_start && pos + 1 + (int)len >= HELP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			pos = indent;
		} else if (!line_start) {
			fputc(' ', f);
			pos++;
		}
		fwrite(p, 1, len, f);
		pos += (int)len;
		p += len;
		line_start = false;
	}
	fputc('\n', f);
}

void lrs_opts__write_help(FILE *f, const struct lrs_opt *table)
{
	struct lrs_opts_iter it;
	const struct lrs_opt *o;

	lrs_opts_iter__init(&it, table);
	while ((o = lrs_opts_iter__next(&it))) {
		char tag[128];
		int pos;

		lrs_opt__tag(o, tag, sizeof(tag));
		/* long-only options line up with the long names of the others */
		pos = fprintf(f, "  %s%s", o->flags & LRS_OPT_SHORT ? "" : "    ", tag);
		if (pos + 2 > HELP_COLUMN)
			fprintf(f, "\n%*s", HELP_COLUMN, "");
		else
			fprintf(f, "%*s", HELP_COLUMN - pos, "");
		write_wrapped(f, o->help, HELP_COLUMN);
	}
}

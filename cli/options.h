/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A command's options as one table. getopt_long's long options and its short
 * string are built from it, and so are the --help option lines, the man
 * page's OPTIONS section (cli/options_man.c) and the bash completion
 * (cli/completion.c). Options that several commands share (the live
 * collector's) are a table of their own that each of them includes.
 */
#ifndef LRS_CLI_OPTIONS_H
#define LRS_CLI_OPTIONS_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

/* lrs_opt.flags: the key is also a short option; what the value is, for completion */
#define LRS_OPT_SHORT 0x1 /* -k as well as --name */
#define LRS_OPT_FILE 0x2  /* the value (or an operand) names a file */
#define LRS_OPT_DIR 0x4	  /* a directory */
#define LRS_OPT_USER 0x8  /* a user */

/* Keys of long-only options: a command's own from here, shared tables' from LRS_OPT_KEY_SHARED. */
#define LRS_OPT_KEY_LONG 0x100
#define LRS_OPT_KEY_SHARED 0x200

/* Every command's -h, --help: the parser writes the help itself. */
#define LRS_OPT_KEY_HELP 'h'

/* Bounds of one command's table, its shared tables included. */
#define LRS_OPTS_MAX 40
#define LRS_OPTS_DEPTH 4

struct lrs_opt {
	const char *name; /* the long name, without "--"; NULL (and no group) ends a table */
	int key; /* what the command's apply() is given: the letter, or a LRS_OPT_KEY_* code */
	unsigned int flags; /* LRS_OPT_* */
	const char *arg;    /* the value's name in the help and the man page ("SECS"); NULL: none */
	const char *help;   /* --help: plain text, wrapped at 80 columns; '\n' breaks a line */
	const char *man;    /* the man page's paragraph in roff; NULL: the help as a sentence */
	const char *choices; /* the values it takes, space-separated (completion); NULL: any */
	const char *alias;   /* another long name getopt takes for it, in no help (--no-colour) */
	const struct lrs_opt *group; /* alone in a row: a shared table's options go here */
};

#define LRS_OPT_GROUP(table)     \
	{                        \
		.group = (table) \
	}

/* The -h, --help row every command includes. */
extern const struct lrs_opt lrs_opts_help[];

struct lrs_command {
	const char *name;
	/* its line in 'lruscope --help' after "lruscope "; NULL: not listed (nor in the man page) */
	const char *synopsis;
	const struct lrs_opt *opts;
	/*
	 * What its operands are, for completion: LRS_OPT_FILE, or one of choices.
	 * Neither: it takes none, and the parser refuses one ("unexpected
	 * argument"), adding operand_hint, then the help when help_on_operand.
	 */
	unsigned int operands;
	const char *operand_choices;
	const char *operand_hint;
	bool help_on_operand;
	void (*help)(FILE *f); /* the whole --help text */
	int (*run)(int argc, char **argv);
};

/* Walks a table with the shared tables it includes expanded in place. */
struct lrs_opts_iter {
	const struct lrs_opt *table[LRS_OPTS_DEPTH]; /* the table of each level */
	const struct lrs_opt *at[LRS_OPTS_DEPTH];    /* its next row */
	int depth;
};

void lrs_opts_iter__init(struct lrs_opts_iter *it, const struct lrs_opt *table);
/* The next option, or NULL after the last. */
const struct lrs_opt *lrs_opts_iter__next(struct lrs_opts_iter *it);
/* The table the option next() returned last is a row of (the command's own, or a shared one). */
const struct lrs_opt *lrs_opts_iter__table(const struct lrs_opts_iter *it);

/* getopt_long's view of a table: its long options, and its short ones (":" first). */
struct lrs_getopt {
	struct option longs[LRS_OPTS_MAX * 2 + 1]; /* the aliases too */
	char shorts[LRS_OPTS_MAX * 2 + 2];
};

/*
 * Build g from table. 0,
 * or -EEXIST when two options share a name, a letter or a key, -E2BIG when
 * the table is too large; then why is written into err.
 */
int lrs_opts__getopt(const struct lrs_opt *table, struct lrs_getopt *g, char *err, size_t err_len);

/*
 * Parse argv (argv[0]: the command's name) with cmd's table: apply(ctx, key,
 * value) for each option, in order, which returns 0, or -EINVAL after saying
 * on stderr why the value is wrong. -h, --help writes cmd's help to stdout.
 * An operand is refused when cmd takes none.
 * Returns the index of the first operand, or -1 when the command is done:
 * *status is then its exit status (the help written: 0, or 1 when writing it
 * failed; an unknown option or a bad value, said on stderr: 2).
 */
int lrs_opts__parse(const struct lrs_command *cmd, int argc, char **argv,
		    int (*apply)(void *ctx, int key, const char *value), void *ctx, int *status);

/* "--name ARG" or "-k, --name ARG" (no indent) into buf; its length. */
size_t lrs_opt__tag(const struct lrs_opt *o, char *buf, size_t len);

/*
 * The --help lines of table's options: "  -i, --interval SECS     text", the
 * text from column 26 (the next line when the tag is longer), wrapped at 80.
 */
void lrs_opts__write_help(FILE *f, const struct lrs_opt *table);

/* The man page's OPTIONS section (roff) for the listed commands of cmds (NULL-ended). */
void lrs_opts__write_man(FILE *f, const struct lrs_command *const *cmds);

#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope completion bash: the bash completion script, written from the
 * commands' option tables: the commands, each command's options, files or
 * directories where an option or operand names one, and the fixed values of
 * options that take a choice (--format text|json|csv|folded).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"

static const char prologue[] =
	"# bash completion for lruscope, written by 'lruscope completion bash' from its\n"
	"# option tables; make install puts it in share/bash-completion/completions/lruscope.\n"
	"\n"
	"# _lruscope_reply KIND [WORDS]: COMPREPLY from what completes cur\n"
	"_lruscope_reply()\n"
	"{\n"
	"\tcase $1 in\n"
	"\tfile) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;\n"
	"\tdir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n"
	"\tuser) mapfile -t COMPREPLY < <(compgen -u -- \"$cur\") ;;\n"
	"\twords) mapfile -t COMPREPLY < <(compgen -W \"$2\" -- \"$cur\") ;;\n"
	"\tesac\n"
	"}\n"
	"\n"
	"_lruscope()\n"
	"{\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd opts\n"
	"\tCOMPREPLY=()\n"
	"\t# --name=value: bash splits the word at '='\n"
	"\tif [[ $cur == = ]]; then\n"
	"\t\tcur=\n"
	"\telif [[ $prev == = && $COMP_CWORD -ge 3 ]]; then\n"
	"\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
	"\tfi\n"
	"\tif [[ $COMP_CWORD -eq 1 ]]; then\n";

static const char epilogue[] = "\tif [[ $cur == -* || -z $operands ]]; then\n"
			       "\t\t_lruscope_reply words \"$opts\"\n"
			       "\telse\n"
			       "\t\t_lruscope_reply $operands \"$operand_words\"\n"
			       "\tfi\n"
			       "}\n"
			       "\n"
			       "complete -F _lruscope lruscope\n";

/* The words of table's options: "-i --interval --cgroup-root ..." */
static void write_option_words(FILE *f, const struct lrs_opt *table)
{
	struct lrs_opts_iter it;
	const struct lrs_opt *o;
	const char *sep = "";

	lrs_opts_iter__init(&it, table);
	while ((o = lrs_opts_iter__next(&it))) {
		if (o->flags & LRS_OPT_SHORT) {
			fprintf(f, "%s-%c", sep, o->key);
			sep = " ";
		}
		fprintf(f, "%s--%s", sep, o->name);
		sep = " ";
	}
}

/* "-i|--interval" */
static void write_pattern(FILE *f, const struct lrs_opt *o)
{
	if (o->flags & LRS_OPT_SHORT)
		fprintf(f, "-%c|", o->key);
	fprintf(f, "--%s", o->name);
}

/* What completes a value or an operand, as _lruscope_reply's arguments. */
static const char *reply_kind(unsigned int flags, const char *choices)
{
	return choices		    ? "words" :
	       flags & LRS_OPT_FILE ? "file" :
	       flags & LRS_OPT_DIR  ? "dir" :
	       flags & LRS_OPT_USER ? "user" :
				      NULL;
}

/*
 * cmd's case arm: the value of the option before the cursor (its kind, or
 * nothing to offer for a free value), else its options and operands.
 */
static void write_command(FILE *f, const struct lrs_command *cmd)
{
	struct lrs_opts_iter it;
	const struct lrs_opt *o;
	const char *kind, *sep = "";

	fprintf(f, "\t%s)\n\t\tcase $prev in\n", cmd->name);
	lrs_opts_iter__init(&it, cmd->opts);
	while ((o = lrs_opts_iter__next(&it))) {
		if (!o->arg || !(kind = reply_kind(o->flags, o->choices)))
			continue;
		fputs("\t\t", f);
		write_pattern(f, o);
		fprintf(f, ") _lruscope_reply %s%s%s%s; return ;;\n", kind, o->choices ? " \"" : "",
			o->choices ? o->choices : "", o->choices ? "\"" : "");
	}
	/* a value of its own, not completed: offer nothing rather than the options */
	lrs_opts_iter__init(&it, cmd->opts);
	while ((o = lrs_opts_iter__next(&it))) {
		if (!o->arg || reply_kind(o->flags, o->choices))
			continue;
		fputs(*sep ? sep : "\t\t", f);
		write_pattern(f, o);
		sep = "|";
	}
	fprintf(f, "%s\t\tesac\n\t\topts='", *sep ? ") return ;;\n" : "");
	write_option_words(f, cmd->opts);
	kind = reply_kind(cmd->operands, cmd->operand_choices);
	fprintf(f, "'\n\t\toperands=%s operand_words='%s'\n\t\t;;\n", kind ? kind : "''",
		cmd->operand_choices ? cmd->operand_choices : "");
}

static void write_bash(FILE *f)
{
	const char *sep = "";

	fputs(prologue, f);
	fputs("\t\t_lruscope_reply words '", f);
	for (size_t i = 0; lrs_commands[i]; i++) {
		if (!lrs_commands[i]->synopsis)
			continue;
		fprintf(f, "%s%s", sep, lrs_commands[i]->name);
		sep = " ";
	}
	fputs(" -h --help -V --version'\n\t\treturn\n\tfi\n", f);
	fputs("\tlocal operands operand_words\n\tcmd=${COMP_WORDS[1]}\n\tcase $cmd in\n", f);
	for (size_t i = 0; lrs_commands[i]; i++)
		if (lrs_commands[i]->synopsis)
			write_command(f, lrs_commands[i]);
	fputs("\t*) return ;;\n\tesac\n", f);
	fputs(epilogue, f);
}

static const struct lrs_opt opts[] = { LRS_OPT_GROUP(lrs_opts_help), { 0 } };

static void help(FILE *f)
{
	fprintf(f, "usage: lruscope completion bash\n\n"
		   "Print the bash completion script: the commands, each command's options, files\n"
		   "and directories where one is named, the values of options that take a choice.\n"
		   "Try it with: source <(lruscope completion bash). make install installs it in\n"
		   "PREFIX/share/bash-completion/completions/lruscope.\n\n");
	lrs_opts__write_help(f, opts);
}

static int apply(void *ctx, int key, const char *value)
{
	return -ENOENT; /* --help is the parser's */
}

static int run(int argc, char **argv)
{
	int first, status;

	first = lrs_opts__parse(&lrs_command_completion, argc, argv, apply, NULL, &status);
	if (first < 0)
		return status;
	if (argc - first != 1) {
		fprintf(stderr,
			"lruscope completion: want one shell, bash%s: usage: lruscope completion "
			"bash\n",
			argc - first > 1 ? ", got more" : "");
		return LRS_EXIT_USAGE;
	}
	if (strcmp(argv[first], "bash")) {
		fprintf(stderr, "lruscope completion: '%s': only bash's completion is written\n",
			argv[first]);
		return LRS_EXIT_USAGE;
	}
	write_bash(stdout);
	return lrs_cli__stdout_done("completion", "the completion script");
}

const struct lrs_command lrs_command_completion = {
	.name = "completion",
	.synopsis =
		"completion bash                           the bash completion, from the option tables",
	.opts = opts,
	.operand_choices = "bash",
	.help = help,
	.run = run,
};

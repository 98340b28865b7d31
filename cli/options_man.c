// SPDX-License-Identifier: GPL-2.0
/*
 * The man page's OPTIONS section from the option tables: each shared table
 * once, under the commands that include it, then each command's own options.
 */
#include <ctype.h>
#include <string.h>

#include "cli/options.h"
#include "ui/roff.h"

#define MAX_SHARED 16

/* s with its hyphens escaped, for a tag (names and values have no backslash) */
static const char *roff_word(char *buf, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (*s == '-')
			buf[n++] = '\\';
		buf[n++] = *s;
	}
	buf[n] = 0;
	return buf;
}

/*
 * The tag line of an entry, in one of four shapes: ".BI \-i " SECS" "\fR,\fP
 * \-\-interval " SECS", ".BR \-a ", " \-\-all", ".BI \-\-x " N", ".B \-\-y"
 */
static void write_tag(FILE *f, const struct lrs_opt *o)
{
	char name[128], arg[64];

	roff_word(name, sizeof(name), o->name);
	roff_word(arg, sizeof(arg), o->arg ? o->arg : "");
	if ((o->flags & LRS_OPT_SHORT) && o->arg)
		fprintf(f, ".BI \\-%c \" %s\" \"\\fR,\\fP \\-\\-%s \" %s\n", o->key, arg, name,
			arg);
	else if (o->flags & LRS_OPT_SHORT)
		fprintf(f, ".BR \\-%c \", \" \\-\\-%s\n", o->key, name);
	else if (o->arg)
		fprintf(f, ".BI \\-\\-%s \" %s\"\n", name, arg);
	else
		fprintf(f, ".B \\-\\-%s\n", name);
}

/* The help text as a sentence: one line, its first letter capital, a full stop at the end. */
static void write_help_sentence(FILE *f, const char *help)
{
	char buf[1024];
	size_t n = 0;

	for (const char *p = help; *p && n + 1 < sizeof(buf); p++) {
		char c = *p == '\n' ? ' ' : *p;

		if (c == ' ' && (!n || buf[n - 1] == ' '))
			continue;
		buf[n++] = c;
	}
	while (n && buf[n - 1] == ' ')
		n--;
	buf[n] = 0;
	buf[0] = (char)toupper((unsigned char)buf[0]);
	lrs_roff__puts(f, buf);
	fputs(n && buf[n - 1] == '.' ? "\n" : ".\n", f);
}

static void write_entry(FILE *f, const struct lrs_opt *o)
{
	fputs(".TP\n", f);
	write_tag(f, o);
	if (o->man)
		fputs(o->man, f);
	else
		write_help_sentence(f, o->help);
}

/* Does cmd's table include the shared table, directly or through another? */
static bool includes(const struct lrs_command *cmd, const struct lrs_opt *shared)
{
	struct lrs_opts_iter it;

	lrs_opts_iter__init(&it, cmd->opts);
	while (lrs_opts_iter__next(&it))
		if (lrs_opts_iter__table(&it) == shared)
			return true;
	return false;
}

/* The rows of table itself (not those of the tables it includes). */
static size_t write_own(FILE *f, const struct lrs_opt *table, bool dry)
{
	size_t n = 0;

	for (const struct lrs_opt *o = table; o->name || o->group; o++) {
		if (o->group)
			continue;
		if (!dry)
			write_entry(f, o);
		n++;
	}
	return n;
}

/* ".SS Common to top, gui and report", or "every command" */
static void write_shared_heading(FILE *f, const struct lrs_command *const *cmds,
				 const struct lrs_opt *shared)
{
	size_t listed = 0, in = 0, done = 0;

	for (size_t i = 0; cmds[i]; i++) {
		if (!cmds[i]->synopsis)
			continue;
		listed++;
		in += includes(cmds[i], shared);
	}
	if (in == listed) {
		fputs(".SS Common to every command\n", f);
		return;
	}
	fputs(".SS Common to", f);
	for (size_t i = 0; cmds[i]; i++) {
		if (!cmds[i]->synopsis || !includes(cmds[i], shared))
			continue;
		done++;
		fprintf(f, "%s %s", done == 1 ? "" : done == in ? " and" : ",", cmds[i]->name);
	}
	fputc('\n', f);
}

void lrs_opts__write_man(FILE *f, const struct lrs_command *const *cmds)
{
	const struct lrs_opt *shared[MAX_SHARED];
	size_t nshared = 0;

	/* the shared tables, in the order the commands first include them */
	for (size_t i = 0; cmds[i]; i++) {
		struct lrs_opts_iter it;

		if (!cmds[i]->synopsis)
			continue;
		lrs_opts_iter__init(&it, cmds[i]->opts);
		while (lrs_opts_iter__next(&it)) {
			const struct lrs_opt *t = lrs_opts_iter__table(&it);
			size_t k = 0;

			while (k < nshared && shared[k] != t)
				k++;
			if (t != cmds[i]->opts && k == nshared && nshared < MAX_SHARED)
				shared[nshared++] = t;
		}
	}
	for (size_t k = 0; k < nshared; k++) {
		if (!write_own(f, shared[k], true))
			continue;
		write_shared_heading(f, cmds, shared[k]);
		write_own(f, shared[k], false);
	}
	for (size_t i = 0; cmds[i]; i++) {
		if (!cmds[i]->synopsis || !write_own(f, cmds[i]->opts, true))
			continue;
		fprintf(f, ".SS %s\n", cmds[i]->name);
		write_own(f, cmds[i]->opts, false);
	}
}

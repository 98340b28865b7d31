// SPDX-License-Identifier: GPL-2.0
/* lruscope keys [--man]: the keymap of top and gui, as a table or the man page's KEYS section. */
#include <errno.h>
#include <stdio.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "ui/keymap.h"

enum { OPT_MAN = LRS_OPT_KEY_LONG };

static const struct lrs_opt opts[] = { { "man", OPT_MAN, 0, NULL,
					 "the man page's KEYS section (roff)" },
				       LRS_OPT_GROUP(lrs_opts_help),
				       { 0 } };

static void help(FILE *f)
{
	fprintf(f, "usage: lruscope keys [--man]\n\n"
		   "The keys of top, gui and replay as a table; --man: as the man page's KEYS\n"
		   "section (roff), which 'make man-keys' puts into docs/lruscope.8.\n\n");
	lrs_opts__write_help(f, opts);
}

static int apply(void *ctx, int key, const char *value)
{
	if (key != OPT_MAN)
		return -ENOENT; /* the table has no other */
	*(bool *)ctx = true;
	return 0;
}

static int run(int argc, char **argv)
{
	bool man = false;
	int status;

	if (lrs_opts__parse(&lrs_command_keys, argc, argv, apply, &man, &status) < 0)
		return status;
	if (man) {
		lrs_keymap__write_man(stdout);
		return lrs_cli__stdout_done("keys", "the KEYS section");
	}
	lrs_keymap__write_table(stdout);
	return lrs_cli__stdout_done("keys", "the key table");
}

const struct lrs_command lrs_command_keys = {
	.name = "keys",
	.opts = opts,
	.operand_hint = ": usage: lruscope keys [--man]",
	.help = help,
	.run = run,
};

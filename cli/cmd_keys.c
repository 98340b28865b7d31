// SPDX-License-Identifier: GPL-2.0
/* lruscope keys [--man]: the keymap of top and gui, as a table or the man page's KEYS section. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "ui/keymap.h"

int lrs_cmd_keys(int argc, char **argv)
{
	const char *bad;

	if (argc == 2 && !strcmp(argv[1], "--man")) {
		lrs_keymap__write_man(stdout);
		return lrs_cli__stdout_done("keys", "the KEYS section");
	}
	if (argc == 1) {
		lrs_keymap__write_table(stdout);
		return lrs_cli__stdout_done("keys", "the key table");
	}
	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: lruscope keys [--man]\n\n"
		       "The keys of top, gui and replay as a table; --man: as the man page's KEYS\n"
		       "section (roff).\n");
		return lrs_cli__stdout_done("keys", "the help");
	}
	bad = strcmp(argv[1], "--man") ? argv[1] : argv[2];
	if (bad[0] == '-')
		fprintf(stderr, "lruscope keys: unrecognized option '%s': see 'lruscope keys --help'\n", bad);
	else
		fprintf(stderr, "lruscope keys: unexpected argument '%s': usage: lruscope keys [--man]\n", bad);
	return LRS_EXIT_USAGE;
}

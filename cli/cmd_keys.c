// SPDX-License-Identifier: GPL-2.0
/* lruscope keys [--man]: the keymap of top and gui, as a table or the man page's KEYS section. */
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "ui/keymap.h"

int lrs_cmd_keys(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--man")) {
		lrs_keymap__write_man(stdout);
		return LRS_EXIT_OK;
	}
	if (argc == 1) {
		lrs_keymap__write_table(stdout);
		return LRS_EXIT_OK;
	}
	fprintf(stderr, "usage: lruscope keys [--man]\n");
	return argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) ? LRS_EXIT_OK
										      : LRS_EXIT_USAGE;
}

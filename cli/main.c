// SPDX-License-Identifier: GPL-2.0
/* lruscope: where Linux waits on LRU locks, per memcg and NUMA node. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"

const struct lrs_command *const lrs_commands[] = { &lrs_command_top,	    &lrs_command_gui,
						   &lrs_command_report,	    &lrs_command_record,
						   &lrs_command_diff,	    &lrs_command_replay,
						   &lrs_command_demo,	    &lrs_command_export,
						   &lrs_command_walk,	    &lrs_command_workload,
						   &lrs_command_completion, &lrs_command_keys,
						   &lrs_command_options,    NULL };

static void usage(FILE *f)
{
	fprintf(f, "usage: lruscope COMMAND [OPTIONS]\n\n"
		   "Shows, live, where Linux waits on LRU locks (lruvec->lru_lock), per memory\n"
		   "cgroup and NUMA node. Loading BPF needs root; viewing a recording does not.\n\n"
		   "commands:\n");
	for (size_t i = 0; lrs_commands[i]; i++)
		if (lrs_commands[i]->synopsis)
			fprintf(f, "  lruscope %s\n", lrs_commands[i]->synopsis);
	fprintf(f, "\n'lruscope COMMAND --help' describes each command. With no command,\n"
		   "lruscope runs 'top' on a terminal and 'report' otherwise.\n");
}

int main(int argc, char **argv)
{
	static char *no_args[2];
	const char *name;

	if (argc >= 2 &&
	    (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))) {
		usage(stdout);
		return lrs_cli__stdout_done(NULL, "the help");
	}
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("lruscope %s\n", LRS_VERSION);
		return lrs_cli__stdout_done(NULL, "the version");
	}
	if (argc >= 2) {
		/* the command sees itself as argv[0] */
		name = argv[1];
		argc--;
		argv++;
	} else {
		name = isatty(STDOUT_FILENO) ? "top" : "report";
		no_args[0] = (char *)name;
		argc = 1;
		argv = no_args;
	}
	for (size_t i = 0; lrs_commands[i]; i++) {
		if (strcmp(name, lrs_commands[i]->name))
			continue;
		lrs_crash__install(lrs_commands[i]->name);
		return lrs_commands[i]->run(argc, argv);
	}
	fprintf(stderr, "lruscope: unknown command '%s': see 'lruscope --help'\n", name);
	return LRS_EXIT_USAGE;
}

// SPDX-License-Identifier: GPL-2.0
/* lruscope: where Linux waits on LRU locks, per memcg and NUMA node. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"

/* Commands built by other modules are weak: a build without one says so. */
#pragma weak lrs_cmd_top
#pragma weak lrs_cmd_gui
#pragma weak lrs_cmd_record
#pragma weak lrs_cmd_replay
#pragma weak lrs_cmd_diff
#pragma weak lrs_cmd_demo
#pragma weak lrs_cmd_walk
#pragma weak lrs_cmd_workload
#pragma weak lrs_cmd_export

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
};

static const struct command commands[] = {
	{ "top", lrs_cmd_top, "top      [-i SECS] [--cgroup-root PATH]   live curses heatmap (default on a TTY)" },
	{ "gui", lrs_cmd_gui, "gui      [-i SECS]                        live SDL2 window" },
	{ "report", lrs_cmd_report, "report   [-d SECS | -i FILE] [--format text|json|csv|folded]   one table, then exit" },
	{ "record", lrs_cmd_record, "record   -o FILE [-d SECS]                write a recording" },
	{ "diff", lrs_cmd_diff, "diff     [-f text|json | --tui | --gui] A B  compare two recordings: what changed, beyond noise" },
	{ "replay", lrs_cmd_replay, "replay   FILE [--gui] [--speed X]         play a recording in the TUI or GUI" },
	{ "demo", lrs_cmd_demo, "demo     [--readers N] [--layout shared|isolated|both] [--batch]   the per-memcg lru_lock experiment" },
	{ "export", lrs_cmd_export, "export   [--listen ADDR:PORT] [--textfile DIR]   Prometheus metrics for fleets" },
	{ "walk", lrs_cmd_walk, "walk     [-c VMCORE -s VMLINUX] [--json]  run the drgn scripts, show the result" },
	{ "workload", lrs_cmd_workload, "workload --layout shared|isolated ...    the demo's readtwice load alone, no BPF" },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: lruscope COMMAND [OPTIONS]\n\n"
		   "Shows, live, where Linux waits on LRU locks (lruvec->lru_lock), per memory\n"
		   "cgroup and NUMA node. Loading BPF needs root; viewing a recording does not.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  lruscope %s%s\n", commands[i].synopsis,
			commands[i].run ? "" : "  (not in this build)");
	fprintf(f, "\n'lruscope COMMAND --help' describes each command. With no command,\n"
		   "lruscope runs 'top' on a terminal and 'report' otherwise.\n");
}

int main(int argc, char **argv)
{
	static char *no_args[2];
	const char *name;

	opterr = 0;	/* each command names a bad option in one line (lrs_cli__bad_option) */

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))) {
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
	/* hidden: not in the usage, it prints the keymap for the man page */
	if (!strcmp(name, "keys"))
		return lrs_cmd_keys(argc, argv);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(name, commands[i].name))
			continue;
		if (!commands[i].run) {
			fprintf(stderr, "lruscope: '%s' is not in this build\n", name);
			return LRS_EXIT_FAIL;
		}
		return commands[i].run(argc, argv);
	}
	fprintf(stderr, "lruscope: unknown command '%s': see 'lruscope --help'\n", name);
	return LRS_EXIT_USAGE;
}

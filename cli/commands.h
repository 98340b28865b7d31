/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands of lruscope: each parses its own options (argv[0] is its name). */
#ifndef LRS_COMMANDS_H
#define LRS_COMMANDS_H

#include <signal.h>

/* Exit codes: 0 ok, 1 failure (a message on stderr said what), 2 usage. */
#include "model/clock.h"

#ifndef LRS_VERSION
#define LRS_VERSION "0.1"
#endif

#define LRS_EXIT_OK 0
#define LRS_EXIT_FAIL 1
#define LRS_EXIT_USAGE 2

int lrs_cmd_top(int argc, char **argv);		/* cli/cmd_top.c */
int lrs_cmd_report(int argc, char **argv);	/* cli/cmd_report.c */
int lrs_cmd_record(int argc, char **argv);	/* cli/cmd_record.c */
int lrs_cmd_replay(int argc, char **argv);	/* cli/cmd_replay.c */
int lrs_cmd_diff(int argc, char **argv);	/* cli/cmd_diff.c: two recordings compared */
int lrs_cmd_gui(int argc, char **argv);		/* cli/cmd_gui.c */
int lrs_cmd_demo(int argc, char **argv);	/* cli/cmd_demo.c */
int lrs_cmd_workload(int argc, char **argv);	/* cli/cmd_workload.c: the demo's load alone */
int lrs_cmd_walk(int argc, char **argv);	/* cli/cmd_walk.c */
int lrs_cmd_export(int argc, char **argv);	/* cli/cmd_export.c: Prometheus exporter */
int lrs_cmd_keys(int argc, char **argv);		/* cli/cmd_keys.c: hidden, the keymap for the man page */

/* Set by SIGINT/SIGTERM/SIGHUP once lrs_signals__install() ran. */
extern volatile sig_atomic_t lrs_stop;
void lrs_signals__install(void);

/* CLOCK_MONOTONIC in seconds. */

/* Parse a positive number of seconds ("0.5", "2"); -EINVAL if not. */
int lrs_parse_seconds(const char *s, double *out);
/* The same for option -OPT of command CMD; says what it wants on stderr when not. */
int lrs_cli__seconds(const char *cmd, char opt, const char *arg, double *out);
/* Parse a size with an optional k/m/g suffix (powers of 1024). */
int lrs_parse_bytes(const char *s, unsigned long long *out);
/* Parse a whole number 0..max; -EINVAL if not one. */
int lrs_parse_uint(const char *s, unsigned int max, unsigned int *out);
/* What a failed write (-errno) means to the person: a full disk, a reader that closed the pipe. */
const char *lrs_cli__write_error(int err);
/*
 * A getopt_long result that is no option of CMD (c '?': unknown, ':' a
 * missing value; opterr 0, optstring starting with ':'): one line naming it
 * and pointing at --help. Returns LRS_EXIT_USAGE.
 */
int lrs_cli__bad_option(const char *cmd, int c, char **argv);
/*
 * After writing WHAT (the help, the table) to stdout: LRS_EXIT_OK, or after
 * saying why on stderr (a full disk), LRS_EXIT_FAIL. A reader that closed
 * the pipe is not a failure. cmd NULL: "lruscope:" alone.
 */
int lrs_cli__stdout_done(const char *cmd, const char *what);
/*
 * Whether a file can be made at path (its directory exists and is writable,
 * it is not a directory): says why not on stderr, naming command and option.
 */
int lrs_cli__writable(const char *cmd, const char *opt, const char *path);

/*
 * The live collector's options, the same in top, gui, record and report:
 * their getopt_long entries, their help lines, and their parser.
 */
/* --max-locks at most: the kernel sizes the map's hash buckets for it when it loads */
#define LRS_MAX_LOCKS_MAX 1048576u

#define LRS_COLLECTOR_LONG_OPTS \
	{ "cgroup-root", required_argument, NULL, 'R' }, \
	{ "stack-every", required_argument, NULL, 'S' }, \
	{ "max-locks", required_argument, NULL, 'L' }, \
	{ "holders", no_argument, NULL, 'H' }, \
	{ "spin-source", required_argument, NULL, 'P' }, \
	{ "verbose", no_argument, NULL, 'v' }

#define LRS_COLLECTOR_OPTS_HELP \
	"      --cgroup-root PATH  the memory cgroup mount (default: detect v2, then v1)\n" \
	"      --stack-every N     sample a waiter's stack on 1 in N waits, at most one\n" \
	"                          per CPU per 5 ms (default 16; 0: no stacks)\n" \
	"      --max-locks N       locks the BPF map holds (default 16384, 1 to 1048576);\n" \
	"                          waits on locks beyond it are counted in drops.stats_full\n" \
	"      --holders           also infer who held the lruvec locks others waited on\n" \
	"                          (docs/holders.md)\n" \
	"      --spin-source SRC   where spinlock waits come from: auto (default: the\n" \
	"                          tracepoint where it sees every waiter, else the slow\n" \
	"                          path), tracepoint, or slowpath (fentry on the queued-\n" \
	"                          spinlock slow path: first waiters and test-and-set too)\n" \
	"  -v, --verbose           libbpf's messages\n"

struct lrs_collector_opts;
/*
 * Apply c, a getopt_long result, when it is one of the collector's options:
 * returns 1 when applied, 0 when c is not one, -EINVAL on a bad value (said
 * on stderr, naming the command).
 */
int lrs_cli__collector_option(const char *cmd, int c, const char *arg, struct lrs_collector_opts *opts);

#endif

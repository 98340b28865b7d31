/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The subcommands of lruscope: each is a struct lrs_command (cli/options.h):
 * its option table, help and run function; run parses its own options with
 * lrs_opts__parse (argv[0] is its name).
 */
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

struct lrs_command;
extern const struct lrs_command lrs_command_top;      /* cli/cmd_top.c */
extern const struct lrs_command lrs_command_gui;      /* cli/cmd_gui.c */
extern const struct lrs_command lrs_command_report;   /* cli/cmd_report.c */
extern const struct lrs_command lrs_command_record;   /* cli/cmd_record.c */
extern const struct lrs_command lrs_command_diff;     /* cli/cmd_diff.c: two recordings compared */
extern const struct lrs_command lrs_command_replay;   /* cli/cmd_replay.c */
extern const struct lrs_command lrs_command_demo;     /* cli/cmd_demo.c */
extern const struct lrs_command lrs_command_export;   /* cli/cmd_export.c: Prometheus exporter */
extern const struct lrs_command lrs_command_walk;     /* cli/cmd_walk.c */
extern const struct lrs_command lrs_command_workload; /* cli/cmd_workload.c: the demo load alone */
extern const struct lrs_command lrs_command_completion; /* cli/completion.c */
/* not listed: they print the tables the man page is made from */
extern const struct lrs_command lrs_command_keys;    /* cli/cmd_keys.c */
extern const struct lrs_command lrs_command_options; /* cli/cmd_options.c */

/* Every command (cli/main.c), in the order 'lruscope --help' lists them; NULL ends it. */
extern const struct lrs_command *const lrs_commands[];

/* Set by SIGINT/SIGTERM/SIGHUP once lrs_signals__install() ran. */
extern volatile sig_atomic_t lrs_stop;
void lrs_signals__install(void);
/* A fatal signal (SIGSEGV, SIGABRT, ...) prints COMMAND, the signal and a backtrace first. */
void lrs_crash__install(const char *command);

/* Parse a number from min to max ("0.5", "2", "1e-3"), all of s; -EINVAL if not one. */
int lrs_parse_number(const char *s, double min, double max, double *out);
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
 * and pointing at --help. Returns LRS_EXIT_USAGE. lrs_opts__parse calls it.
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

#endif

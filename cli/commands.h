/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands of lruscope: each parses its own options (argv[0] is its name). */
#ifndef LRS_COMMANDS_H
#define LRS_COMMANDS_H

#include <signal.h>

/* Exit codes: 0 ok, 1 failure (a message on stderr said what), 2 usage. */
#define LRS_EXIT_OK 0
#define LRS_EXIT_FAIL 1
#define LRS_EXIT_USAGE 2

int lrs_cmd_top(int argc, char **argv);		/* cli/cmd_top.c */
int lrs_cmd_report(int argc, char **argv);	/* cli/cmd_report.c */
int lrs_cmd_record(int argc, char **argv);	/* cli/cmd_record.c */
int lrs_cmd_replay(int argc, char **argv);	/* cli/cmd_replay.c */
int lrs_cmd_gui(int argc, char **argv);		/* cli/cmd_gui.c */
int lrs_cmd_demo(int argc, char **argv);	/* cli/cmd_demo.c */
int lrs_cmd_workload(int argc, char **argv);	/* cli/cmd_workload.c: the demo's load alone */
int lrs_cmd_walk(int argc, char **argv);	/* cli/cmd_walk.c */

/* Set by SIGINT/SIGTERM/SIGHUP once lrs_signals__install() ran. */
extern volatile sig_atomic_t lrs_stop;
void lrs_signals__install(void);

/* Parse a positive number of seconds ("0.5", "2"); -EINVAL if not. */
int lrs_parse_seconds(const char *s, double *out);
/* Parse a size with an optional k/m/g suffix (powers of 1024). */
int lrs_parse_bytes(const char *s, unsigned long long *out);

#endif

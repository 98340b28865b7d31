// SPDX-License-Identifier: GPL-2.0
/* lruscope top: the live curses heatmap over the BPF collector. */
#include <stdio.h>
#include <unistd.h>

#include "cli/collector_opts.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run.h"
#include "collector/live/live.h"
#include "ui/keymap.h"
#include "ui/tui/tui.h"

enum { OPT_NO_COLOR = LRS_OPT_KEY_LONG };

static const struct lrs_opt opts[] = {
	{ "interval", 'i', LRS_OPT_SHORT, "SECS",
	  "time between updates (default 1; + and - change it)" },
	{ "duration", 'd', LRS_OPT_SHORT, "SECS", "exit after this long (default: until q)" },
	{ "no-color", OPT_NO_COLOR, 0, NULL, "no colours (also when NO_COLOR is set)",
	  .alias = "no-colour" },
	LRS_OPT_GROUP(lrs_opts_collector),
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f, "usage: lruscope top [-i SECS] [--cgroup-root PATH] [options]\n"
		   "\n"
		   "A live heatmap of LRU lock contention: one row per memory cgroup (in tree\n"
		   "order), one column per NUMA node. Each cell is one lruvec's lru_lock: the\n"
		   "time tasks waited for it per second of the last interval, and how many\n"
		   "contended acquisitions per second, coloured on a log scale. Below: the\n"
		   "other contended kernel locks for comparison, and for the selected lruvec\n"
		   "its wait histogram, top waiting tasks and stacks, and LRU list sizes.\n"
		   "Loading the BPF programs needs root (or CAP_BPF and CAP_PERFMON).\n"
		   "\n"
		   "options:\n");
	lrs_opts__write_help(f, opts);
	fprintf(f, "\nkeys:\n");
	lrs_keymap__write_help(f, LRS_KEYMAP_TUI, LRS_KEYMAP_REPLAY);
}

struct top_args {
	struct lrs_collector_opts copts;
	struct lrs_tui_opts topts;
};

static int apply(void *ctx, int key, const char *value)
{
	struct top_args *a = ctx;

	switch (key) {
	case 'i':
		return lrs_cli__seconds("top", 'i', value, &a->copts.interval_s);
	case 'd':
		return lrs_cli__seconds("top", 'd', value, &a->topts.duration_s);
	case OPT_NO_COLOR:
		a->topts.no_color = true;
		return 0;
	default:
		return lrs_cli__collector_option("top", key, value, &a->copts);
	}
}

static int run(int argc, char **argv)
{
	struct top_args a = { .topts = { .stop = &lrs_stop } };
	char err[512] = "";
	int status;

	lrs_collector_opts__defaults(&a.copts);
	if (lrs_opts__parse(&lrs_command_top, argc, argv, apply, &a, &status) < 0)
		return status;
	/* say so before loading anything into the kernel */
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr,
			"lruscope top: needs a terminal; 'lruscope report' prints a table\n");
		return LRS_EXIT_FAIL;
	}
	if (lrs_tui__term_check(NULL, STDOUT_FILENO, err, sizeof(err))) {
		fprintf(stderr, "lruscope top: %s\n", err);
		return LRS_EXIT_FAIL;
	}
	if (lrs_collector__check_privileges(err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return LRS_EXIT_FAIL;
	}
	/* loading and attaching takes seconds on a busy machine: say what happens */
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "lruscope top: loading the BPF programs...\n");
	/* the memcg tree first; s sorts by wait, count, max */
	return lrs_cli__run_view(&(struct lrs_cli_view){
		.cmd = "top", .live = &a.copts, .sort = LRS_SORT_NAME, .tui = &a.topts });
}

const struct lrs_command lrs_command_top = {
	.name = "top",
	.synopsis =
		"top      [-i SECS] [--cgroup-root PATH]   live curses heatmap (default on a TTY)",
	.opts = opts,
	.help = help,
	.run = run,
};

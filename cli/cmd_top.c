// SPDX-License-Identifier: GPL-2.0
/* lruscope top: the live curses heatmap over the BPF collector. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collector/live/live.h"
#include "cli/commands.h"
#include "ui/keymap.h"
#include "model/model.h"
#include "ui/tui/tui.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope top [-i SECS] [--cgroup-root PATH] [options]\n"
		"\n"
		"A live heatmap of LRU lock contention: one row per memory cgroup (in tree\n"
		"order), one column per NUMA node. Each cell is one lruvec's lru_lock: the\n"
		"time tasks waited for it per second of the last interval, and how many\n"
		"contended acquisitions per second, coloured on a log scale. Below: the\n"
		"other contended kernel locks for comparison, and for the selected lruvec\n"
		"its wait histogram, top waiting tasks and stacks, and LRU list sizes.\n"
		"Loading the BPF programs needs root (or CAP_BPF and CAP_PERFMON).\n"
		"\n"
		"options:\n"
		"  -i, --interval SECS    time between updates (default 1; + and - change it)\n"
		"  -d, --duration SECS    exit after this long (default: until q)\n"
		"      --no-color          no colours (also when NO_COLOR is set)\n"
		LRS_COLLECTOR_OPTS_HELP
		"  -h, --help              this text\n"
		"\n"
		"keys:\n");
	lrs_keymap__write_help(f, LRS_KEYMAP_TUI, LRS_KEYMAP_REPLAY);
}

int lrs_cmd_top(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-colour", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		LRS_COLLECTOR_LONG_OPTS,
		{}
	};
	struct lrs_collector_opts copts;
	struct lrs_tui_opts topts = { .stop = &lrs_stop };
	struct lrs_source *src = NULL;
	struct lrs_model *model = NULL;
	char err[512] = "";
	int c, applied, ret = LRS_EXIT_FAIL;

	lrs_collector_opts__defaults(&copts);
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:d:vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (lrs_cli__seconds("top", 'i', optarg, &copts.interval_s))
				return LRS_EXIT_USAGE;
			break;
		case 'd':
			if (lrs_cli__seconds("top", 'd', optarg, &topts.duration_s))
				return LRS_EXIT_USAGE;
			break;
		case 'C':
			topts.no_color = true;
			break;
		case 'h':
			help(stdout);
			return lrs_cli__stdout_done("top", "the help");
		default:
			applied = lrs_cli__collector_option("top", c, optarg, &copts);
			if (applied > 0)
				break;
			if (!applied)
				lrs_cli__bad_option("top", c, argv);
			return LRS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope top: unexpected argument '%s'\n", argv[optind]);
		return LRS_EXIT_USAGE;
	}
	/* say so before loading anything into the kernel */
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "lruscope top: needs a terminal; 'lruscope report' prints a table\n");
		return LRS_EXIT_FAIL;
	}
	if (lrs_tui__term_check(NULL, STDOUT_FILENO, err, sizeof(err))) {
		fprintf(stderr, "lruscope top: %s\n", err);
		return LRS_EXIT_FAIL;
	}

	lrs_signals__install();
	if (lrs_collector__check_privileges(err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return LRS_EXIT_FAIL;
	}
	/* loading and attaching takes seconds on a busy machine: say what happens */
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "lruscope top: loading the BPF programs...\n");
	if (lrs_collector__open(&copts, &src, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err[0] ? err : "lruscope top: cannot start the collector");
		return LRS_EXIT_FAIL;
	}
	model = lrs_model__new(LRS_HISTORY_DEFAULT);
	if (!model) {
		fprintf(stderr, "lruscope top: out of memory for the model\n");
		goto out;
	}
	/* the memcg tree first; s sorts by wait, count, max */
	model->sort = LRS_SORT_NAME;
	ret = lrs_tui__run(src, model, &topts) ? LRS_EXIT_FAIL : LRS_EXIT_OK;
out:
	lrs_model__free(model);
	lrs_source__destroy(src);
	return ret;
}

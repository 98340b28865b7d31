// SPDX-License-Identifier: GPL-2.0
/* lruscope diff A B: two recordings side by side, and which differences are real. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "collector/replay/recording.h"
#include "model/compare.h"
#include "ui/text/diff_report.h"
#include "ui/tui/tui.h"
#if LRS_GUI
#include "ui/gui/gui.h"
#endif

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope diff [--min-change PCT] [--format text|json | --tui | --gui\n"
		"                     [--screenshot F.png]] A B\n\n"
		"Compare two recordings (lruscope record), A before and B after a change: per\n"
		"lruvec (memcg@node, memcgs matched by cgroup path, not id), per other lock (by\n"
		"name) and in total, the mean wait/s and contentions/s in A and in B, the ratio\n"
		"B/A, and whether the difference is beyond the noise between intervals.\n"
		"Either may be -, a recording on standard input: a live run against a baseline\n"
		"is  sudo lruscope record -d 60 -o - | lruscope diff before.jsonl -\n\n"
		"Each interval of a recording is one sample (its rate). The test is Mann-Whitney\n"
		"U, two-sided: interval rates are few, skewed and often tied, and a rank test\n"
		"assumes no distribution. A change is significant at p < 0.01 and when the mean\n"
		"moved by at least --min-change (10%%) either way: a steady load's intervals are\n"
		"alike, so the test alone would call a change the few percent that two\n"
		"recordings of one unchanged load drift apart. With few intervals the p-value is\n"
		"exact; otherwise it is the normal approximation, its variance widened when\n"
		"neighbouring intervals are correlated. Under 3 intervals on a side: not tested;\n"
		"under 20, that correlation cannot be judged (a note says so): record longer.\n"
		"Memcgs and locks on one side only are listed as such, not tested. Significant\n"
		"changes come first, largest wait/s difference first. No root needed.\n\n"
		"A memcg whose lruvecs waited on several nodes also has a row summing them:\n"
		"where its pages sit, and so which node's lock its reclaim waits on, moves\n"
		"within one load, and its lruvecs can change while the memcg does not.\n"
		"Where a side comes from a kernel before 5.11 (one LRU lock per node, the row\n"
		"N0 (node lock)), two more sections set it against one of a lock per memcg:\n"
		"each node's lruvec locks summed, and each memcg's own tasks' wait on any\n"
		"lruvec lock, matched by path.\n\n"
"Under each lruvec, its causes (the kernel paths of its sampled waiting stacks,\n"
"as in report): each cause's sampled wait/s in A and B, the ratio, the same test\n"
"over each interval's sampled wait of that cause (the increase of its stacks'\n"
"uses), and its share of the lruvec's sampled wait. Stacks are sampled: compare\n"
"recordings made with the same options. unclassified is always shown. An\n"
"interval over 4 times the collector's own is a pause (the file misses what\n"
"happened, as between demo --record runs): not a sample.\n\n"
		"  -m, --min-change PCT    the least change of a mean, in percent either way,\n"
		"                          called significant (default 10; 0: the test alone)\n"
		"  -f, --format FMT        text (default) or json\n"
		"  -t, --tui               a heatmap in the terminal: memcg rows, per node\n"
		"                          A | B | B/A (and past one node, all of them), the\n"
		"                          ratio red up, blue down, plain when\n"
		"                          not significant; below, the causes of the first\n"
		"                          lruvec from the top row down; arrows and pages\n"
		"                          scroll, q quits\n"
		"  -g, --gui               the same in the SDL2 window\n"
		"      --screenshot FILE.png  with --gui: draw it into FILE.png, no display\n"
		"      --no-color          no bold or colour (also when NO_COLOR is set, or text\n"
		"                          not to a terminal)\n"
		"  -h, --help              this text\n\n"
		"exit status: 0 ok (changes or not), 1 a recording could not be read, 2 usage error\n");
}

/* Read one recording into a new run; NULL after saying why on stderr. */
static struct lrs_cmp_run *read_side(struct lrs_diff_input *in)
{
	struct lrs_cmp_run *run = lrs_cmp_run__new();

	if (!run) {
		fprintf(stderr, "lruscope diff: out of memory\n");
		return NULL;
	}
	if (lrs_recording__read_run(in->name, run, in->kernel, sizeof(in->kernel))) {
		lrs_cmp_run__free(run);
		return NULL;
	}
	return run;
}

int lrs_cmd_diff(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "min-change", required_argument, NULL, 'm' },
		{ "tui", no_argument, NULL, 't' },
		{ "gui", no_argument, NULL, 'g' },
		{ "screenshot", required_argument, NULL, 'P' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct lrs_diff_report_opts opts = {};
	struct lrs_diff_input a = {}, b = {};
	struct lrs_cmp_test test = { LRS_COMPARE_ALPHA, LRS_COMPARE_MIN_CHANGE };
	struct lrs_cmp_run *run_a = NULL, *run_b = NULL;
	struct lrs_compare *cmp = NULL;
	bool no_color = getenv("NO_COLOR") != NULL, tui = false, gui = false;
	const char *screenshot = NULL;
	int c, ret = LRS_EXIT_FAIL;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":f:m:tgh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json")) {
				fprintf(stderr, "lruscope diff: --format '%s': want text or json\n", optarg);
				return LRS_EXIT_USAGE;
			}
			opts.json = !strcmp(optarg, "json");
			break;
		case 'm': {
			char *end;
			double pct = strtod(optarg, &end);

			if (end == optarg || *end || !(pct >= 0 && pct <= 1000)) {
				fprintf(stderr, "lruscope diff: --min-change '%s': want a percentage, "
						"0 to 1000\n", optarg);
				return LRS_EXIT_USAGE;
			}
			test.min_change = pct / 100;
			break;
		}
		case 't':
			tui = true;
			break;
		case 'g':
			gui = true;
			break;
		case 'P':
			screenshot = optarg;
			break;
		case 'C':
			no_color = true;
			break;
		case 'h':
			help(stdout);
			return lrs_cli__stdout_done("diff", "the help");
		default:
			return lrs_cli__bad_option("diff", c, argv);
		}
	}
	if (argc - optind != 2) {
		fprintf(stderr, "lruscope diff: want two recordings, A and B, got %d: "
			"usage: lruscope diff [--format text|json | --tui] A B\n", argc - optind);
		return LRS_EXIT_USAGE;
	}
	a.name = argv[optind];
	b.name = argv[optind + 1];
	if (!strcmp(a.name, "-") && !strcmp(b.name, "-")) {
		fprintf(stderr, "lruscope diff: A and B cannot both be stdin ('-')\n");
		return LRS_EXIT_USAGE;
	}
	if ((tui && gui) || ((tui || gui) && opts.json)) {
		fprintf(stderr, "lruscope diff: --tui, --gui and --format json: choose one\n");
		return LRS_EXIT_USAGE;
	}
	if (screenshot && !gui) {
		fprintf(stderr, "lruscope diff: --screenshot goes with --gui\n");
		return LRS_EXIT_USAGE;
	}
	if (gui && !LRS_GUI) {	/* make GUI=0: no window in this build */
		fprintf(stderr, "lruscope diff: --gui: this lruscope was built without the SDL2 "
				"window (make GUI=0); use --tui or the text\n");
		return LRS_EXIT_USAGE;
	}
	opts.color = !no_color && isatty(STDOUT_FILENO);

	run_a = read_side(&a);
	run_b = run_a ? read_side(&b) : NULL;
	if (!run_b)
		goto out;	/* the reader said what and where */
	if (lrs_compare(run_a, run_b, &test, &cmp)) {
		fprintf(stderr, "lruscope diff: out of memory comparing %s and %s\n", a.name, b.name);
		goto out;
	}
	if (tui) {
		struct lrs_tui_opts topts = { .no_color = no_color, .stop = &lrs_stop };

		lrs_signals__install();
		ret = lrs_tui__run_diff(cmp, a.name, b.name, &topts);
		if (ret && ret != -ENOTTY)	/* -ENOTTY: the TUI said why */
			fprintf(stderr, "lruscope diff: --tui: %s\n", strerror(-ret));
		ret = ret ? LRS_EXIT_FAIL : LRS_EXIT_OK;
		goto out;
	}
#if LRS_GUI
	if (gui) {
		struct lrs_gui_opts gopts = { .screenshot = screenshot, .stop = &lrs_stop,
					      .title = "lruscope diff" };

		lrs_signals__install();
		/* the GUI said what went wrong */
		ret = lrs_gui__run_diff(cmp, a.name, b.name, &gopts) ? LRS_EXIT_FAIL : LRS_EXIT_OK;
		goto out;
	}
#endif
	/* a reader that closed the pipe (| head) makes EPIPE, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	lrs_diff_report__write(cmp, &a, &b, &opts, stdout);
	ret = lrs_cli__stdout_done("diff", "the comparison");
out:
	lrs_compare__free(cmp);
	lrs_cmp_run__free(run_a);
	lrs_cmp_run__free(run_b);
	return ret;
}

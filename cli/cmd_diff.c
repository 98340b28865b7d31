// SPDX-License-Identifier: GPL-2.0
/* lruscope diff A B: two recordings side by side, and which differences are real. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "collector/replay/recording.h"
#include "model/compare.h"
#include "ui/text/diff_report.h"
#include "ui/tui/tui.h"
#if LRS_GUI
#include "ui/gui/gui.h"
#endif

enum { OPT_SCREENSHOT = LRS_OPT_KEY_LONG, OPT_NO_COLOR };

static const struct lrs_opt opts[] = {
	{ "min-change", 'm', LRS_OPT_SHORT, "PCT",
	  "the least change of a mean, in percent either way, called significant (default 10; "
	  "0: the test alone)",
	  .man = "The least change of a mean, in percent either way, that is called significant\n"
		 "(default 10, 0 to 1000); 0 leaves it to the test alone.\n" },
	{ "format", 'f', LRS_OPT_SHORT, "FMT", "text (default) or json", .choices = "text json",
	  .man = ".B text\n"
		 "(default) or\n"
		 ".B json\n"
		 "(the same facts: for each side the file, kernel, samples, duration and interval;\n"
		 "the test, its level,\n"
		 ".B min_change\n"
		 "(0.1 is 10%) and\n"
		 ".B few_samples\n"
		 "(the text\\(aqs note) and the\n"
		 ".B pauses\n"
		 "left out; then\n"
		 ".BR totals ,\n"
		 ".B memcgs\n"
		 "(those that waited on several nodes, summed over them),\n"
		 ".B lruvecs\n"
		 "and\n"
		 ".BR other_locks ,\n"
		 "each with\n"
		 ".B side\n"
		 "(both, only_a, only_b) and, for\n"
		 ".B wait_ns_per_s\n"
		 "and\n"
		 ".BR contended_per_s ,\n"
		 ".BR a ,\n"
		 ".BR b ,\n"
		 ".BR ratio ,\n"
		 ".B p\n"
		 "(null when not tested) and\n"
		 ".BR significant ;\n"
		 "each lruvec also has\n"
		 ".BR causes ,\n"
		 "an array in the text\\(aqs order of\n"
		 ".B cause\n"
		 "(the key of\n"
		 ".BR report \\(aqs\n"
		 "JSON),\n"
		 ".BR title ,\n"
		 ".B side\n"
		 "(where its stacks were sampled: both, only_a, only_b),\n"
		 ".BR share_a ,\n"
		 ".B share_b\n"
		 "(of the lruvec\\(aqs sampled wait, 0 to 1) and\n"
		 ".B sampled_wait_ns_per_s\n"
		 "with the fields above; empty when no stack was sampled).\n" },
	{ "tui", 't', LRS_OPT_SHORT, NULL,
	  "a heatmap in the terminal: memcg rows, per node A, B and B/A (and past one node, all of "
	  "them), the ratio red up, blue down, plain when not significant; below, the causes of "
	  "the first lruvec from the top row down; arrows and pages scroll, q quits",
	  .man = "The comparison as a heatmap in the terminal: one row per memcg (significant\n"
		 "changes first), per node a group\n"
		 ".B \"A  B  B/A\"\n"
		 "of wait/s and, past one node and where the width allows, a group\n"
		 ".B all\n"
		 "with the memcg over all its nodes, the ratio on a diverging scale (a doubling per "
		 "level, red when B waits\n"
		 "more, blue when less, no colour when the change is not significant,\n"
		 ".B \"only A\"\n"
		 "or\n"
		 ".B \"only B\"\n"
		 "for a memcg on one side); below, the causes of the first lruvec from the top row\n"
		 "down with sampled stacks (its sampled wait ratio per cause on the same scale,\n"
		 ".B *\n"
		 "when significant), and the totals.\n"
		 "The keys of\n"
		 ".B top\n"
		 "scroll (arrows, PgUp, PgDn, Home, End);\n"
		 ".B q\n"
		 "or Esc quits.\n" },
	{ "gui", 'g', LRS_OPT_SHORT, NULL, "the same in the SDL2 window",
	  .man = "The same in the SDL2 window (the ratio cell filled with the colour).\n" },
	{ "screenshot", OPT_SCREENSHOT, LRS_OPT_FILE, "FILE.png",
	  "with --gui: draw it into FILE.png, no display",
	  .man = "With\n"
		 ".BR \\-\\-gui :\n"
		 "draw the window into\n"
		 ".I FILE.png\n"
		 "headless and exit; no display needed.\n" },
	{ "no-color", OPT_NO_COLOR, 0, NULL,
	  "no bold or colour (also when NO_COLOR is set, or text not to a terminal)",
	  .man = "No bold, no colour (also when\n"
		 ".B NO_COLOR\n"
		 "is set, or the text goes to no terminal).\n" },
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

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
		"happened, as between demo --record runs): not a sample.\n\n");
	lrs_opts__write_help(f, opts);
	fprintf(f,
		"\n"
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

struct diff_args {
	struct lrs_diff_report_opts opts;
	struct lrs_cmp_test test;
	bool no_color, tui, gui;
	const char *screenshot;
};

static int apply(void *ctx, int key, const char *value)
{
	struct diff_args *a = ctx;
	double pct;

	switch (key) {
	case 'f':
		if (strcmp(value, "text") && strcmp(value, "json")) {
			fprintf(stderr, "lruscope diff: --format '%s': want text or json\n", value);
			return -EINVAL;
		}
		a->opts.json = !strcmp(value, "json");
		return 0;
	case 'm':
		if (lrs_parse_number(value, 0, 1000, &pct)) {
			fprintf(stderr,
				"lruscope diff: --min-change '%s': want a percentage, 0 to 1000\n",
				value);
			return -EINVAL;
		}
		a->test.min_change = pct / 100;
		return 0;
	case 't':
		a->tui = true;
		return 0;
	case 'g':
		a->gui = true;
		return 0;
	case OPT_SCREENSHOT:
		a->screenshot = value;
		return 0;
	case OPT_NO_COLOR:
		a->no_color = true;
		return 0;
	default:
		return -ENOENT; /* the table has no other */
	}
}

/* The operands and the options together: 0, or -EINVAL after saying why. */
static int check(const struct diff_args *a, char **operands, int nr_operands)
{
	if (nr_operands != 2) {
		fprintf(stderr,
			"lruscope diff: want two recordings, A and B, got %d: "
			"usage: lruscope diff [--format text|json | --tui] A B\n",
			nr_operands);
		return -EINVAL;
	}
	if (!strcmp(operands[0], "-") && !strcmp(operands[1], "-")) {
		fprintf(stderr, "lruscope diff: A and B cannot both be stdin ('-')\n");
		return -EINVAL;
	}
	if ((a->tui && a->gui) || ((a->tui || a->gui) && a->opts.json)) {
		fprintf(stderr, "lruscope diff: --tui, --gui and --format json: choose one\n");
		return -EINVAL;
	}
	if (a->screenshot && !a->gui) {
		fprintf(stderr, "lruscope diff: --screenshot goes with --gui\n");
		return -EINVAL;
	}
	if (a->gui && !LRS_GUI) { /* make GUI=0: no window in this build */
		fprintf(stderr, "lruscope diff: --gui: this lruscope was built without the SDL2 "
				"window (make GUI=0); use --tui or the text\n");
		return -EINVAL;
	}
	return 0;
}

/* The comparison on the screen a asks for, or as text: the exit status. */
static int show(const struct diff_args *a, const struct lrs_compare *cmp,
		const struct lrs_diff_input *in_a, const struct lrs_diff_input *in_b)
{
	int ret;

	if (a->tui) {
		struct lrs_tui_opts topts = { .no_color = a->no_color, .stop = &lrs_stop };

		lrs_signals__install();
		ret = lrs_tui__run_diff(cmp, in_a->name, in_b->name, &topts);
		if (ret && ret != -ENOTTY) /* -ENOTTY: the TUI said why */
			fprintf(stderr, "lruscope diff: --tui: %s\n", strerror(-ret));
		return ret ? LRS_EXIT_FAIL : LRS_EXIT_OK;
	}
#if LRS_GUI
	if (a->gui) {
		struct lrs_gui_opts gopts = { .screenshot = a->screenshot,
					      .stop = &lrs_stop,
					      .title = "lruscope diff" };

		lrs_signals__install();
		/* the GUI said what went wrong */
		return lrs_gui__run_diff(cmp, in_a->name, in_b->name, &gopts) ? LRS_EXIT_FAIL :
										LRS_EXIT_OK;
	}
#endif
	/* a reader that closed the pipe (| head) makes EPIPE, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	lrs_diff_report__write(cmp, in_a, in_b, &a->opts, stdout);
	return lrs_cli__stdout_done("diff", "the comparison");
}

static int run(int argc, char **argv)
{
	struct diff_args a = {
		.test = { LRS_COMPARE_ALPHA, LRS_COMPARE_MIN_CHANGE },
		.no_color = getenv("NO_COLOR") != NULL,
	};
	struct lrs_diff_input in_a = {}, in_b = {};
	struct lrs_cmp_run *run_a = NULL, *run_b = NULL;
	struct lrs_compare *cmp = NULL;
	int first, status;

	first = lrs_opts__parse(&lrs_command_diff, argc, argv, apply, &a, &status);
	if (first < 0)
		return status;
	if (check(&a, argv + first, argc - first))
		return LRS_EXIT_USAGE;
	in_a.name = argv[first];
	in_b.name = argv[first + 1];
	a.opts.color = !a.no_color && isatty(STDOUT_FILENO);

	status = LRS_EXIT_FAIL;
	run_a = read_side(&in_a);
	run_b = run_a ? read_side(&in_b) : NULL;
	if (!run_b)
		goto out; /* the reader said what and where */
	if (lrs_compare(run_a, run_b, &a.test, &cmp)) {
		fprintf(stderr, "lruscope diff: out of memory comparing %s and %s\n", in_a.name,
			in_b.name);
		goto out;
	}
	status = show(&a, cmp, &in_a, &in_b);
out:
	lrs_compare__free(cmp);
	lrs_cmp_run__free(run_a);
	lrs_cmp_run__free(run_b);
	return status;
}

const struct lrs_command lrs_command_diff = {
	.name = "diff",
	.synopsis =
		"diff     [-f text|json | --tui | --gui] A B  compare two recordings: what changed, beyond noise",
	.opts = opts,
	.operands = LRS_OPT_FILE,
	.help = help,
	.run = run,
};

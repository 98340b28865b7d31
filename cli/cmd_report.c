// SPDX-License-Identifier: GPL-2.0
/* lruscope report: collect for SECS seconds (or read a recording), print one table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/collector_opts.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run.h"
#include "collector/live/live.h"
#include "collector/replay/recording.h"
#include "ui/text/report.h"

enum { OPT_NO_COLOR = LRS_OPT_KEY_LONG };

static const struct lrs_opt opts[] = {
	{ "duration", 'd', LRS_OPT_SHORT, "SECS", "how long to collect (default 5)",
	  .man = "How long to collect (default 5); Ctrl\\-C ends it early.\n" },
	{ "input", 'i', LRS_OPT_SHORT | LRS_OPT_FILE, "FILE",
	  "report over a recording instead (no root needed)",
	  .man = "Report over a recording instead of collecting: the last snapshot's counters minus the\n"
		 "first's. No privileges needed.\n"
		 ".B \\-d\n"
		 "and\n"
		 ".B \\-i\n"
		 "exclude each other: given both, report says to choose one (status 2).\n" },
	{ "format", 'f', LRS_OPT_SHORT, "FMT",
	  "text (default), json (one snapshot, docs/design.md), csv, folded (waiter stacks "
	  "weighted by wait, for flame graphs)",
	  .choices = "text json csv folded",
	  .man = ".B text\n"
		 "(default),\n"
		 ".B json\n"
		 "(exactly one snapshot),\n"
		 ".B csv\n"
		 "or\n"
		 ".B folded\n"
		 "(waiter stacks weighted by wait, one line each, for flame graphs).\n"
		 "Text prints under each lruvec whose waits were sampled the kernel paths behind them\n"
		 "(\"causes: 62% reclaim, 30% lru-add drain, 8% unclassified\"; see OUTPUT); JSON gives\n"
		 "them as each lruvec's\n"
		 ".B causes\n"
		 "array; CSV (columns kind,name,node,lock,type,contended,wait_ns,wait_max_ns,avg_wait_ns)\n"
		 "follows each lruvec row with one\n"
		 ".B lruvec-cause\n"
		 "row per cause, the cause in the type column and wait_max_ns empty.\n" },
	{ "all", 'a', LRS_OPT_SHORT, NULL, "text: list lruvecs that never waited too",
	  .man = "Text: also list lruvecs that never waited.\n" },
	{ "other-locks", 'n', LRS_OPT_SHORT, "N", "text: how many other locks to list (default 10)",
	  .man = "Text: how many other locks to list (default 10, 0 to 1000000).\n" },
	{ "no-color", OPT_NO_COLOR, 0, NULL,
	  "no colour (also when NO_COLOR is set or not a terminal)" },
	LRS_OPT_GROUP(lrs_opts_collector),
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope report [-d SECS | -i FILE] [--format text|json|csv|folded] [options]\n\n"
		"Collect lock contention for SECS seconds (default 5), then print one table and exit:\n"
		"lruvec locks by total wait, as memcg@node, then the other locks the kernel waited on.\n"
		"Ctrl-C ends the collection early and prints what was seen.\n"
		"Under each lruvec whose waits were sampled: its causes, the kernel paths they took\n"
		"(\"causes: 62%% reclaim, 30%% lru-add drain, 8%% unclassified\"; json: \"causes\",\n"
		"csv: lruvec-cause rows; see the man page).\n\n");
	lrs_opts__write_help(f, opts);
	fprintf(f,
		"\nWith --holders the report adds the holder table (each lruvec's \"held for:\" the\n"
		"causes of its holders' own stacks) and the memcg x memcg matrix (json: \"holders\",\n"
		"\"holder_causes\"); with -i, those of a recording made with --holders.\n\n"
		"exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

struct report_args {
	struct lrs_collector_opts copts;
	struct lrs_report_opts ropts;
	const char *input;
	double duration;
	bool duration_given, no_color;
};

static int apply(void *ctx, int key, const char *value)
{
	struct report_args *a = ctx;
	unsigned int n;

	switch (key) {
	case 'd':
		a->duration_given = true;
		return lrs_cli__seconds("report", 'd', value, &a->duration);
	case 'i':
		a->input = value;
		return 0;
	case 'f':
		if (lrs_report__parse_format(value, &a->ropts.format)) {
			fprintf(stderr,
				"lruscope report: --format '%s': want text, json, csv or folded\n",
				value);
			return -EINVAL;
		}
		return 0;
	case 'a':
		a->ropts.all_lruvecs = true;
		return 0;
	case 'n':
		if (lrs_parse_uint(value, 1000000, &n)) {
			fprintf(stderr,
				"lruscope report: -n '%s': want a number from 0 to 1000000\n",
				value);
			return -EINVAL;
		}
		a->ropts.max_other_locks = n;
		return 0;
	case OPT_NO_COLOR:
		a->no_color = true;
		return 0;
	case LRS_COPT_HOLDERS:
	case LRS_COPT_HOLDERS_EXACT:
		/* the report prints them too; -i reads a recording's */
		a->ropts.holders = true;
		/* fall through */
	default:
		return lrs_cli__collector_option("report", key, value, &a->copts);
	}
}

/*
 * Collect until the deadline or a signal. A snapshot each second is taken
 * and dropped: it moves the names of memcgs created since the last one out
 * of their BPF map (as many entries as the iterator's memcgs) before it can
 * fill, so one removed before the end keeps its name on a busy machine.
 */
static void collect_until(struct lrs_source *src, double secs)
{
	double start = lrs_now_s(), next_refresh = start + 1.0;

	while (!lrs_stop) {
		double now = lrs_now_s(), left = secs - (now - start);

		if (left <= 0)
			break;
		if (now >= next_refresh && left > 0.5) {
			struct lrs_snapshot *snap = NULL;

			if (!src->take(src, &snap))
				lrs_snapshot__free(snap);
			next_refresh = now + 1.0;
		}
		usleep(left > 0.1 ? 100000 : (useconds_t)(left * 1e6));
	}
}

/* Collect live for a->duration: one snapshot of it all, or NULL after saying why. */
static struct lrs_snapshot *collect(struct report_args *a)
{
	struct lrs_source *src = NULL;
	struct lrs_snapshot *snap = NULL;
	double started;
	int ret;

	if (lrs_cli__open_live("report", &a->copts, &src))
		return NULL;
	if (isatty(STDERR_FILENO) && a->ropts.format == LRS_REPORT_TEXT)
		fprintf(stderr, "collecting for %.1f s (Ctrl-C ends early)...\n", a->duration);
	started = lrs_now_s();
	src->interval_s = a->duration;
	collect_until(src, a->duration);
	ret = src->take(src, &snap);
	/* the counters are cumulative since the start: so is the report's interval */
	if (!ret)
		snap->interval_ns = (uint64_t)((lrs_now_s() - started) * 1e9);
	lrs_source__destroy(src);
	if (ret) {
		fprintf(stderr, "lruscope report: reading the collector's maps failed: %s\n",
			strerror(-ret));
		return NULL;
	}
	return snap;
}

/* The report of snap to stdout: the exit status. */
static int write_report(struct lrs_snapshot *snap, const struct lrs_report_opts *ropts)
{
	int ret;

	/* a reader that closed the pipe (| head) makes EPIPE, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	ret = lrs_report__write(snap, ropts, stdout);
	if (ret == -EOPNOTSUPP) {
		fprintf(stderr, "lruscope report: --format folded needs a recording (-i FILE)\n");
		return LRS_EXIT_USAGE;
	}
	if (ret || fflush(stdout)) {
		int err = errno ? -errno : ret;

		if (err == -EPIPE)
			return LRS_EXIT_OK; /* it read what it wanted, as head does */
		fprintf(stderr, "lruscope report: writing the report failed: %s\n",
			lrs_cli__write_error(err));
		return LRS_EXIT_FAIL;
	}
	return LRS_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct report_args a = {
		.ropts = { .format = LRS_REPORT_TEXT, .max_other_locks = 10 },
		.duration = 5.0,
		.no_color = getenv("NO_COLOR") != NULL,
	};
	struct lrs_snapshot *snap = NULL;
	int status;

	lrs_collector_opts__defaults(&a.copts);
	if (lrs_opts__parse(&lrs_command_report, argc, argv, apply, &a, &status) < 0)
		return status;
	if (a.input && a.duration_given) {
		fprintf(stderr, "lruscope report: -d and -i: choose one (-d SECS collects live, "
				"-i FILE reads a recording, whose length is its own)\n");
		return LRS_EXIT_USAGE;
	}
	a.ropts.color = !a.no_color && isatty(STDOUT_FILENO);

	if (a.input) {
		if (lrs_report__from_recording(a.input, &snap))
			return LRS_EXIT_FAIL; /* the reader said what and where */
	} else {
		snap = collect(&a);
		if (!snap)
			return LRS_EXIT_FAIL;
	}
	status = write_report(snap, &a.ropts);
	lrs_snapshot__free(snap);
	return status;
}

const struct lrs_command lrs_command_report = {
	.name = "report",
	.synopsis =
		"report   [-d SECS | -i FILE] [--format text|json|csv|folded]   one table, then exit",
	.opts = opts,
	.help = help,
	.run = run,
};

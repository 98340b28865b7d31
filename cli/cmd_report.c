// SPDX-License-Identifier: GPL-2.0
/* lruscope report: collect for SECS seconds (or read a recording), print one table. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "collector/live/live.h"
#include "ui/text/report.h"

#pragma weak lrs_report__from_recording

/* cli/cmd_record.c: the whole of a recording as one snapshot (last minus first). */
int lrs_report__from_recording(const char *path, struct lrs_snapshot **out);

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope report [-d SECS | -i FILE] [--format text|json|csv|folded] [options]\n\n"
		"Collect lock contention for SECS seconds (default 5), then print one table and exit:\n"
		"lruvec locks by total wait, as memcg@node, then the other locks the kernel waited on.\n"
		"Ctrl-C ends the collection early and prints what was seen.\n"
		"Under each lruvec whose waits were sampled: its causes, the kernel paths they took\n"
		"(\"causes: 62%% reclaim, 30%% lru-add drain, 8%% unclassified\"; json: \"causes\",\n"
		"csv: lruvec-cause rows; see the man page).\n\n"
		"  -d, --duration SECS     how long to collect (default 5)\n"
		"  -i, --input FILE        report over a recording instead (no root needed)\n"
		"  -f, --format FMT        text (default), json (one snapshot, docs/design.md), csv,\n"
		"                          folded (waiter stacks weighted by wait, for flame graphs)\n"
		"  -a, --all               text: list lruvecs that never waited too\n"
		"  -n, --other-locks N     text: how many other locks to list (default 10)\n"
		"      --no-color          no colour (also when NO_COLOR is set or not a terminal)\n"
		LRS_COLLECTOR_OPTS_HELP
		"  -h, --help              this text\n\n"
		"With --holders the report adds the holder table (each lruvec's \"held for:\" the\n"
		"causes of its holders' own stacks) and the memcg x memcg matrix (json: \"holders\",\n"
		"\"holder_causes\"); with -i, those of a recording made with --holders.\n\n"
		"exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
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

int lrs_cmd_report(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "input", required_argument, NULL, 'i' },
		{ "format", required_argument, NULL, 'f' },
		{ "all", no_argument, NULL, 'a' },
		{ "other-locks", required_argument, NULL, 'n' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		LRS_COLLECTOR_LONG_OPTS,
		{}
	};
	struct lrs_collector_opts copts;
	struct lrs_report_opts ropts = { .format = LRS_REPORT_TEXT, .max_other_locks = 10 };
	const char *input = NULL;
	double duration = 5.0;
	bool duration_given = false;
	bool no_color = getenv("NO_COLOR") != NULL;
	struct lrs_source *src = NULL;
	struct lrs_snapshot *snap = NULL;
	char err[512] = "";
	int c, ret;

	lrs_collector_opts__defaults(&copts);
	optind = 1;
	while ((c = getopt_long(argc, argv, ":d:i:f:an:vh", long_opts, NULL)) != -1) {
		unsigned int n;

		switch (c) {
		case 'd':
			if (lrs_cli__seconds("report", 'd', optarg, &duration))
				return LRS_EXIT_USAGE;
			duration_given = true;
			break;
		case 'i':
			input = optarg;
			break;
		case 'f':
			if (lrs_report__parse_format(optarg, &ropts.format)) {
				fprintf(stderr, "lruscope report: --format '%s': want text, json, csv or folded\n", optarg);
				return LRS_EXIT_USAGE;
			}
			break;
		case 'a':
			ropts.all_lruvecs = true;
			break;
		case 'n':
			if (lrs_parse_uint(optarg, 1000000, &n)) {
				fprintf(stderr, "lruscope report: -n '%s': want a number from 0 to 1000000\n",
					optarg);
				return LRS_EXIT_USAGE;
			}
			ropts.max_other_locks = n;
			break;
		case 'C':
			no_color = true;
			break;
		case 'H':
			/* the report prints them too; -i reads a recording's */
			copts.holders = ropts.holders = true;
			break;
		case 'h':
			help(stdout);
			return lrs_cli__stdout_done("report", "the help");
		default:
			ret = lrs_cli__collector_option("report", c, optarg, &copts);
			if (ret > 0)
				break;
			if (!ret)
				lrs_cli__bad_option("report", c, argv);
			return LRS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope report: unexpected argument '%s'\n", argv[optind]);
		return LRS_EXIT_USAGE;
	}
	if (input && duration_given) {
		fprintf(stderr, "lruscope report: -d and -i: choose one (-d SECS collects live, "
				"-i FILE reads a recording, whose length is its own)\n");
		return LRS_EXIT_USAGE;
	}
	ropts.color = !no_color && isatty(STDOUT_FILENO);

	if (input) {
		if (!lrs_report__from_recording) {
			fprintf(stderr, "lruscope report: -i: recordings are not in this build\n");
			return LRS_EXIT_FAIL;
		}
		ret = lrs_report__from_recording(input, &snap);
		if (ret)
			return LRS_EXIT_FAIL;	/* the reader said what and where */
	} else {
		lrs_signals__install();
		ret = lrs_collector__open(&copts, &src, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "%s\n", err);
			return LRS_EXIT_FAIL;
		}
		if (isatty(STDERR_FILENO) && ropts.format == LRS_REPORT_TEXT)
			fprintf(stderr, "collecting for %.1f s (Ctrl-C ends early)...\n", duration);
		double started = lrs_now_s();

		src->interval_s = duration;
		collect_until(src, duration);
		ret = src->take(src, &snap);
		/* the counters are cumulative since the start: so is the report's interval */
		if (!ret)
			snap->interval_ns = (uint64_t)((lrs_now_s() - started) * 1e9);
		lrs_source__destroy(src);
		if (ret) {
			fprintf(stderr, "lruscope report: reading the collector's maps failed: %s\n", strerror(-ret));
			return LRS_EXIT_FAIL;
		}
	}
	/* a reader that closed the pipe (| head) makes EPIPE, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	errno = 0;
	ret = lrs_report__write(snap, &ropts, stdout);
	lrs_snapshot__free(snap);
	if (ret == -EOPNOTSUPP) {
		fprintf(stderr, "lruscope report: --format folded needs a recording (-i FILE)\n");
		return LRS_EXIT_USAGE;
	}
	if (ret || fflush(stdout)) {
		int err = errno ? -errno : ret;

		if (err == -EPIPE)
			return LRS_EXIT_OK;	/* it read what it wanted, as head does */
		fprintf(stderr, "lruscope report: writing the report failed: %s\n",
			lrs_cli__write_error(err));
		return LRS_EXIT_FAIL;
	}
	return LRS_EXIT_OK;
}

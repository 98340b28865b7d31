// SPDX-License-Identifier: GPL-2.0
/* lruscope record: live snapshots into a recording, one line per interval. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/commands.h"
#include "collector/live/live.h"
#include "collector/replay/recording.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope record -o FILE [-d SECS] [-i SECS] [--force] [options]\n\n"
		"Write a recording: a header line, then one snapshot per interval (the JSON of\n"
		"'report -f json', lines that only say what changed after the first). Each\n"
		"interval is flushed, so a recorder that is killed leaves a readable file.\n"
		"Needs root to load BPF; 'lruscope replay FILE' and 'lruscope report -i FILE'\n"
		"read it without.\n\n"
		"  -o, --output FILE       where: FILE.gz is gzip, FILE.zst is zstd, '-' is stdout\n"
		"                          (sudo lruscope record -o - | lruscope replay -); other\n"
		"                          compression suffixes (.xz, .bz2, ...) are refused\n"
		"      --force             overwrite FILE if it exists (default: refuse)\n"
		"  -d, --duration SECS     stop after SECS (default: until Ctrl-C or SIGTERM)\n"
		"  -i, --interval SECS     time between snapshots (default 1)\n"
		"  -q, --quiet             no summary on stderr at the end\n"
		LRS_COLLECTOR_OPTS_HELP
		"  -h, --help              this text\n\n"
		"With --holders, 'lruscope report -i FILE --holders' shows the holders.\n\n"
		"exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

/* A name that asks for a compression lruscope does not write (it would be plain JSON). */
static bool unwritten_compression(const char *path)
{
	static const char *const suffixes[] = { ".xz", ".bz2", ".lz4", ".lzma", ".lz", ".zip", ".Z", ".br" };
	size_t n = strlen(path);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && !strcmp(path + n - k, suffixes[i]))
			return true;
	}
	return false;
}

/* Sleep until deadline (CLOCK_MONOTONIC seconds) or a signal. */
static void sleep_until(double deadline)
{
	while (!lrs_stop) {
		double left = deadline - lrs_now_s();

		if (left <= 0)
			break;
		usleep(left > 0.1 ? 100000 : (useconds_t)(left * 1e6) + 1);
	}
}

int lrs_cmd_record(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "duration", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "force", no_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		LRS_COLLECTOR_LONG_OPTS,
		{}
	};
	struct lrs_collector_opts copts;
	struct lrs_recording_header hdr;
	struct lrs_recording_writer *w = NULL;
	struct lrs_source *src = NULL;
	const char *path = NULL, *where;
	double duration = 0, start, next;
	bool quiet = false, force = false, fresh, to_stdout;
	struct stat st;
	FILE *f = NULL;
	char err[512] = "";
	int c, ret, status = LRS_EXIT_FAIL;

	lrs_collector_opts__defaults(&copts);
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:d:i:qvh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			path = optarg;
			break;
		case 'd':
			if (lrs_cli__seconds("record", 'd', optarg, &duration))
				return LRS_EXIT_USAGE;
			break;
		case 'i':
			if (lrs_parse_seconds(optarg, &copts.interval_s) || copts.interval_s < 0.01) {
				fprintf(stderr, "lruscope record: -i '%s': want seconds, at least 0.01\n", optarg);
				return LRS_EXIT_USAGE;
			}
			break;
		case 'q':
			quiet = true;
			break;
		case 'F':
			force = true;
			break;
		case 'h':
			help(stdout);
			return lrs_cli__stdout_done("record", "the help");
		default:
			ret = lrs_cli__collector_option("record", c, optarg, &copts);
			if (ret > 0)
				break;
			if (!ret)
				lrs_cli__bad_option("record", c, argv);
			return LRS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope record: unexpected argument '%s'\n", argv[optind]);
		return LRS_EXIT_USAGE;
	}
	if (!path) {
		fprintf(stderr, "lruscope record: -o FILE is required ('-o -' writes to stdout)\n");
		return LRS_EXIT_USAGE;
	}
	to_stdout = !strcmp(path, "-");
	where = to_stdout ? "stdout" : path;
	if (to_stdout && isatty(STDOUT_FILENO)) {
		fprintf(stderr, "lruscope record: -o - on a terminal: pipe it (| lruscope replay -) "
				"or give a file\n");
		return LRS_EXIT_USAGE;
	}

	if (!to_stdout && unwritten_compression(path)) {
		fprintf(stderr, "lruscope record: -o %s: lruscope compresses with gzip (FILE.gz) and "
				"zstd (FILE.zst) only, and would write plain JSON here: name the file "
				".gz, .zst or .jsonl\n", path);
		return LRS_EXIT_USAGE;
	}
	/* a file that cannot be made is said now, before loading anything */
	if (!to_stdout && lrs_cli__writable("record", "-o", path))
		return LRS_EXIT_FAIL;
	/* a recording is the only copy of what was seen: never replaced unasked */
	fresh = stat(path, &st) != 0;
	if (!to_stdout && !force && !fresh && S_ISREG(st.st_mode)) {
		fprintf(stderr, "lruscope record: -o %s exists: give --force to overwrite it, or "
				"another name\n", path);
		return LRS_EXIT_FAIL;
	}

	lrs_signals__install();
	ret = lrs_collector__open(&copts, &src, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return LRS_EXIT_FAIL;
	}
	/* x: one made meanwhile is not replaced either (a device, a FIFO are written as they are) */
	f = to_stdout ? stdout : fopen(path, !force && fresh ? "wbx" : "wb");
	if (!f) {
		fprintf(stderr, "lruscope record: %s: cannot create: %s%s\n", path, strerror(errno),
			errno == EEXIST ? " (made while loading; --force overwrites it)" : "");
		goto out;
	}
	lrs_recording_header__fill_local(&hdr, src->interval_s);
	ret = lrs_recording_writer__open(&w, f, to_stdout ? LRS_Z_PLAIN : lrs_zkind__from_name(path), &hdr);
	lrs_recording_header__clear(&hdr);
	if (ret) {
		fprintf(stderr, "lruscope record: %s: writing the header failed: %s\n", where,
			lrs_cli__write_error(ret));
		goto out;
	}
	if (!quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "recording to %s every %.3g s (Ctrl-C ends)...\n", to_stdout ? "stdout" : path,
			src->interval_s);

	start = lrs_now_s();
	next = start + src->interval_s;
	while (!lrs_stop) {
		struct lrs_snapshot *snap = NULL;

		if (duration > 0 && next > start + duration + 1e-3)
			next = start + duration;
		sleep_until(next);
		/* a signal during the wait still records what was seen until then */
		ret = src->take(src, &snap);
		if (ret) {
			fprintf(stderr, "lruscope record: reading the collector's maps failed: %s\n",
				strerror(-ret));
			goto out;
		}
		ret = lrs_recording_writer__write(w, snap);
		lrs_snapshot__free(snap);
		if (ret) {
			fprintf(stderr, "lruscope record: %s: writing snapshot %llu failed: %s\n", where,
				(unsigned long long)lrs_recording_writer__snapshots(w) + 1,
				lrs_cli__write_error(ret));
			goto out;
		}
		if (duration > 0 && lrs_now_s() - start >= duration - 1e-3)
			break;
		next += src->interval_s;
		if (next < lrs_now_s())
			next = lrs_now_s() + src->interval_s;	/* fell behind: no burst to catch up */
	}
	status = LRS_EXIT_OK;
out:
	if (w) {
		uint64_t snaps = lrs_recording_writer__snapshots(w), bytes;

		ret = lrs_recording_writer__close(w, &bytes);
		if (ret && status == LRS_EXIT_OK) {
			fprintf(stderr, "lruscope record: %s: finishing the file failed: %s\n", where,
				lrs_cli__write_error(ret));
			status = LRS_EXIT_FAIL;
		}
		if (!quiet)
			fprintf(stderr, "lruscope record: wrote %llu snapshots, %llu bytes to %s\n",
				(unsigned long long)snaps, (unsigned long long)bytes,
				to_stdout ? "stdout" : path);
	}
	if (f && !to_stdout && fclose(f) && status == LRS_EXIT_OK) {
		fprintf(stderr, "lruscope record: %s: %s\n", path, lrs_cli__write_error(-errno));
		status = LRS_EXIT_FAIL;
	}
	lrs_source__destroy(src);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/* lruscope record: live snapshots into a recording, one line per interval. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/collector_opts.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run.h"
#include "collector/live/live.h"
#include "collector/replay/recording.h"

enum { OPT_FORCE = LRS_OPT_KEY_LONG };

static const struct lrs_opt opts[] = {
	{ "output", 'o', LRS_OPT_SHORT | LRS_OPT_FILE, "FILE",
	  "where: FILE.gz is gzip, FILE.zst is zstd, '-' is stdout (to pipe into 'lruscope "
	  "replay -'); other compression suffixes (.xz, .bz2, ...) are refused",
	  .man = "Where to write:\n"
		 ".IB FILE .gz\n"
		 "is gzip,\n"
		 ".IB FILE .zst\n"
		 "zstd,\n"
		 ".B \\-\n"
		 "standard output. Required.\n" },
	{ "force", OPT_FORCE, 0, NULL, "overwrite FILE if it exists (default: refuse)",
	  .man = "Overwrite\n"
		 ".I FILE\n"
		 "if it exists; without it an existing file is refused (status 1) and left as it was.\n" },
	{ "duration", 'd', LRS_OPT_SHORT, "SECS",
	  "stop after SECS (default: until Ctrl-C or SIGTERM)" },
	{ "interval", 'i', LRS_OPT_SHORT, "SECS",
	  "time between snapshots (default 1, at least 0.01)" },
	{ "quiet", 'q', LRS_OPT_SHORT, NULL, "no summary on stderr at the end",
	  .man = "No summary on standard error at the end.\n" },
	LRS_OPT_GROUP(lrs_opts_collector),
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f, "usage: lruscope record -o FILE [-d SECS] [-i SECS] [--force] [options]\n\n"
		   "Write a recording: a header line, then one snapshot per interval (the JSON of\n"
		   "'report -f json', lines that only say what changed after the first). Each\n"
		   "interval is flushed, so a recorder that is killed leaves a readable file.\n"
		   "Needs root to load BPF; 'lruscope replay FILE' and 'lruscope report -i FILE'\n"
		   "read it without.\n\n");
	lrs_opts__write_help(f, opts);
	fprintf(f, "\nWith --holders, 'lruscope report -i FILE --holders' shows the holders.\n\n"
		   "exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

struct record_args {
	struct lrs_collector_opts copts;
	const char *path;
	double duration;
	bool quiet, force;
};

static int apply(void *ctx, int key, const char *value)
{
	struct record_args *a = ctx;

	switch (key) {
	case 'o':
		a->path = value;
		return 0;
	case 'd':
		return lrs_cli__seconds("record", 'd', value, &a->duration);
	case 'i':
		if (lrs_parse_seconds(value, &a->copts.interval_s) || a->copts.interval_s < 0.01) {
			fprintf(stderr, "lruscope record: -i '%s': want seconds, at least 0.01\n",
				value);
			return -EINVAL;
		}
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	default:
		return lrs_cli__collector_option("record", key, value, &a->copts);
	}
}

/* A name that asks for a compression lruscope does not write (it would be plain JSON). */
static bool unwritten_compression(const char *path)
{
	static const char *const suffixes[] = { ".xz", ".bz2", ".lz4", ".lzma",
						".lz", ".zip", ".Z",   ".br" };
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

/* What a->path says before anything is loaded: 0, or the exit status after saying why. */
static int check(const struct record_args *a, bool *fresh)
{
	bool to_stdout = !strcmp(a->path, "-");
	struct stat st;

	if (to_stdout && isatty(STDOUT_FILENO)) {
		fprintf(stderr,
			"lruscope record: -o - on a terminal: pipe it (| lruscope replay -) "
			"or give a file\n");
		return LRS_EXIT_USAGE;
	}
	*fresh = true;
	if (to_stdout)
		return 0;
	if (unwritten_compression(a->path)) {
		fprintf(stderr,
			"lruscope record: -o %s: lruscope compresses with gzip (FILE.gz) and "
			"zstd (FILE.zst) only, and would write plain JSON here: name the file "
			".gz, .zst or .jsonl\n",
			a->path);
		return LRS_EXIT_USAGE;
	}
	/* a file that cannot be made is said now, before loading anything */
	if (lrs_cli__writable("record", "-o", a->path))
		return LRS_EXIT_FAIL;
	/* a recording is the only copy of what was seen: never replaced unasked */
	*fresh = stat(a->path, &st) != 0;
	if (!a->force && !*fresh && S_ISREG(st.st_mode)) {
		fprintf(stderr,
			"lruscope record: -o %s exists: give --force to overwrite it, or "
			"another name\n",
			a->path);
		return LRS_EXIT_FAIL;
	}
	return 0;
}

/* A snapshot of src into w every interval until the duration or a signal: 0, or -1 (said). */
static int record_loop(struct lrs_source *src, struct lrs_recording_writer *w, const char *where,
		       double duration)
{
	double start = lrs_now_s(), next = start + src->interval_s;
	int ret;

	while (!lrs_stop) {
		struct lrs_snapshot *snap = NULL;

		if (duration > 0 && next > start + duration + 1e-3)
			next = start + duration;
		sleep_until(next);
		/* a signal during the wait still records what was seen until then */
		ret = src->take(src, &snap);
		if (ret) {
			fprintf(stderr,
				"lruscope record: reading the collector's maps failed: %s\n",
				strerror(-ret));
			return -1;
		}
		ret = lrs_recording_writer__write(w, snap);
		lrs_snapshot__free(snap);
		if (ret) {
			fprintf(stderr, "lruscope record: %s: writing snapshot %llu failed: %s\n",
				where, (unsigned long long)lrs_recording_writer__snapshots(w) + 1,
				lrs_cli__write_error(ret));
			return -1;
		}
		if (duration > 0 && lrs_now_s() - start >= duration - 1e-3)
			break;
		/* fell behind: the next tick on the grid, no burst to catch up */
		next = lrs_clock__next_tick(next, src->interval_s, lrs_now_s(), NULL);
	}
	return 0;
}

/* Finish the file; the summary unless quiet. The exit status, from status so far. */
static int finish(struct lrs_recording_writer *w, const char *where, bool quiet, int status)
{
	uint64_t snaps = lrs_recording_writer__snapshots(w), bytes;
	int ret = lrs_recording_writer__close(w, &bytes);

	if (ret && status == LRS_EXIT_OK) {
		fprintf(stderr, "lruscope record: %s: finishing the file failed: %s\n", where,
			lrs_cli__write_error(ret));
		status = LRS_EXIT_FAIL;
	}
	if (!quiet)
		fprintf(stderr, "lruscope record: wrote %llu snapshots, %llu bytes to %s\n",
			(unsigned long long)snaps, (unsigned long long)bytes, where);
	return status;
}

static int run(int argc, char **argv)
{
	struct record_args a = { 0 };
	struct lrs_recording_header hdr;
	struct lrs_recording_writer *w = NULL;
	struct lrs_source *src = NULL;
	const char *where;
	bool fresh, to_stdout;
	FILE *f = NULL;
	int ret, status;

	lrs_collector_opts__defaults(&a.copts);
	if (lrs_opts__parse(&lrs_command_record, argc, argv, apply, &a, &status) < 0)
		return status;
	if (!a.path) {
		fprintf(stderr, "lruscope record: -o FILE is required ('-o -' writes to stdout)\n");
		return LRS_EXIT_USAGE;
	}
	status = check(&a, &fresh);
	if (status)
		return status;
	to_stdout = !strcmp(a.path, "-");
	where = to_stdout ? "stdout" : a.path;

	status = LRS_EXIT_FAIL;
	if (lrs_cli__open_live("record", &a.copts, &src))
		return LRS_EXIT_FAIL;
	/* x: one made meanwhile is not replaced either (a device, a FIFO are written as they are) */
	f = to_stdout ? stdout : fopen(a.path, !a.force && fresh ? "wbx" : "wb");
	if (!f) {
		fprintf(stderr, "lruscope record: %s: cannot create: %s%s\n", a.path,
			strerror(errno),
			errno == EEXIST ? " (made while loading; --force overwrites it)" : "");
		goto out;
	}
	lrs_recording_header__fill_local(&hdr, src->interval_s);
	ret = lrs_recording_writer__open(
		&w, f, to_stdout ? LRS_Z_PLAIN : lrs_zkind__from_name(a.path), &hdr);
	lrs_recording_header__clear(&hdr);
	if (ret) {
		fprintf(stderr, "lruscope record: %s: writing the header failed: %s\n", where,
			lrs_cli__write_error(ret));
		goto out;
	}
	if (!a.quiet && isatty(STDERR_FILENO))
		fprintf(stderr, "recording to %s every %.3g s (Ctrl-C ends)...\n", where,
			src->interval_s);
	if (!record_loop(src, w, where, a.duration))
		status = LRS_EXIT_OK;
out:
	if (w)
		status = finish(w, where, a.quiet, status);
	if (f && !to_stdout && fclose(f) && status == LRS_EXIT_OK) {
		fprintf(stderr, "lruscope record: %s: %s\n", a.path, lrs_cli__write_error(-errno));
		status = LRS_EXIT_FAIL;
	}
	lrs_source__destroy(src);
	return status;
}

const struct lrs_command lrs_command_record = {
	.name = "record",
	.synopsis = "record   -o FILE [-d SECS]                write a recording",
	.opts = opts,
	.help = help,
	.run = run,
};

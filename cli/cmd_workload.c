// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope workload: the demo's readtwice load alone, no BPF. Tests use it to
 * make lruvec-lock contention in memcgs whose names they know.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "demo/workload.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: lruscope workload --layout shared|isolated --readers N --duration SECS\n"
"                         [--size BYTES] [--limit BYTES] [--read 4k|dd]\n"
"                         [--prefix lrs-test-] [--nest] [--cpu-shares N]\n"
"\n"
"Run the demo's readtwice load alone (no BPF): per container a sparse file read\n"
"by two concurrent readers, in memcgs with a memory limit. Prints the memcg\n"
"paths it created, one per line, once the readers run; then, at the end (the\n"
"duration, SIGINT or SIGTERM), one JSON line with MB/s per memcg, and removes\n"
"everything it created.\n"
"\n"
"  --layout shared|isolated  one memcg for all readers, or one per container\n"
"  --readers N               reader processes, two per container (default 4)\n"
"  --duration SECS           how long to read; 0 runs until SIGINT/SIGTERM\n"
"  --size BYTES              sparse file per container, k/m/g suffixes (default 1g)\n"
"  --limit BYTES             memory limit per container (default 256m); the shared\n"
"                            memcg gets it times the number of containers\n"
"  --read 4k|dd              4 KiB preads after POSIX_FADV_RANDOM (default), or\n"
"                            dd bs=4k as vm-scalability (readahead, large folios)\n"
"  --prefix PFX              memcg and temp dir prefix, must start with lrs-\n"
"                            (default lrs-test-)\n"
"  --nest                    put the memcgs under PFXparent/\n"
"  --cpu-shares N            give the readers cpu.shares N (v1: a cgroup PFXcpu;\n"
"                            v2: cpu.weight of the memcgs); default 0: unchanged\n"
"\n"
"Needs root. Sparse files go to $LRS_WORKDIR or /var/tmp (a disk filesystem).\n");
}

static void print_json(struct lrs_workload *wl, const struct lrs_workload_opts *opts)
{
	double secs = lrs_workload__elapsed_s(wl);

	printf("{\"layout\": \"%s\", \"read\": \"%s\", \"readers\": %u, \"elapsed_s\": %.3f, "
	       "\"mb_per_s\": %.1f, \"memcgs\": [", lrs_layout__name(opts->layout),
	       lrs_read_mode__name(opts->read), opts->readers, secs,
	       secs > 0 ? (double)lrs_workload__bytes(wl) / 1e6 / secs : 0.0);
	for (size_t i = 0; i < lrs_workload__nr_memcgs(wl); i++) {
		const struct lrs_workload_memcg *m = lrs_workload__memcg(wl, i);

		printf("%s{\"memcg\": \"%s\", \"id\": %" PRIu64 ", \"pids\": [", i ? ", " : "",
		       m->cgroup, m->id);
		for (size_t p = 0; p < m->nr_pids; p++)
			printf("%s%d", p ? ", " : "", (int)m->pids[p]);
		printf("], \"bytes\": %" PRIu64 ", \"mb_per_s\": %.1f}", m->bytes,
		       secs > 0 ? (double)m->bytes / 1e6 / secs : 0.0);
	}
	printf("]}\n");
	fflush(stdout);
}

int lrs_cmd_workload(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "layout", required_argument, NULL, 'L' },
		{ "readers", required_argument, NULL, 'n' },
		{ "duration", required_argument, NULL, 'd' },
		{ "size", required_argument, NULL, 's' },
		{ "limit", required_argument, NULL, 'l' },
		{ "read", required_argument, NULL, 'r' },
		{ "prefix", required_argument, NULL, 'p' },
		{ "nest", no_argument, NULL, 'N' },
		{ "cpu-shares", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct lrs_workload_opts opts;
	struct lrs_workload *wl = NULL;
	unsigned long long v;
	double duration_s = -1;
	bool have_layout = false;
	char err[512] = "", *end;
	int c, ret;

	lrs_workload_opts__defaults(&opts);
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'L':
			if (lrs_layout__parse(optarg, &opts.layout)) {
				fprintf(stderr, "lruscope workload: --layout '%s': use shared or "
					"isolated\n", optarg);
				return LRS_EXIT_USAGE;
			}
			have_layout = true;
			break;
		case 'n':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' || v > 4096) {
				fprintf(stderr, "lruscope workload: --readers '%s': a number from 1 "
					"to 4096\n", optarg);
				return LRS_EXIT_USAGE;
			}
			opts.readers = (unsigned int)v;
			break;
		case 'd':
			if (!strcmp(optarg, "0")) {
				duration_s = 0;
			} else if (lrs_parse_seconds(optarg, &duration_s)) {
				fprintf(stderr, "lruscope workload: --duration '%s': seconds, e.g. 5 "
					"or 0.5 (0: until a signal)\n", optarg);
				return LRS_EXIT_USAGE;
			}
			break;
		case 's':
		case 'l':
			if (lrs_parse_bytes(optarg, &v)) {
				fprintf(stderr, "lruscope workload: --%s '%s': bytes with an optional "
					"k/m/g suffix, e.g. 512m\n", c == 's' ? "size" : "limit",
					optarg);
				return LRS_EXIT_USAGE;
			}
			if (c == 's')
				opts.file_bytes = v;
			else
				opts.limit_bytes = v;
			break;
		case 'r':
			if (lrs_read_mode__parse(optarg, &opts.read)) {
				fprintf(stderr, "lruscope workload: --read '%s': use 4k or dd\n",
					optarg);
				return LRS_EXIT_USAGE;
			}
			break;
		case 'p':
			opts.prefix = optarg;
			break;
		case 'N':
			opts.nest = true;
			break;
		case 'c':
			errno = 0;
			v = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || optarg[0] == '-' || v > 262144) {
				fprintf(stderr, "lruscope workload: --cpu-shares '%s': 0 to 262144 "
					"(1024 is a default task group)\n", optarg);
				return LRS_EXIT_USAGE;
			}
			opts.cpu_shares = (unsigned int)v;
			break;
		case 'h':
			usage(stdout);
			return lrs_cli__stdout_done("workload", "the help");
		default:
			return lrs_cli__bad_option("workload", c, argv);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope workload: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return LRS_EXIT_USAGE;
	}
	if (!have_layout || duration_s < 0) {
		fprintf(stderr, "lruscope workload: --layout and --duration are required\n");
		usage(stderr);
		return LRS_EXIT_USAGE;
	}

	lrs_signals__install();
	ret = lrs_workload__check(&opts, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope workload: %s\n", err);
		return ret == -EINVAL ? LRS_EXIT_USAGE : LRS_EXIT_FAIL;
	}
	ret = lrs_workload__create(&opts, &lrs_stop, &wl, err, sizeof(err));
	if (ret) {
		if (!lrs_stop)
			fprintf(stderr, "lruscope workload: %s\n", err);
		return LRS_EXIT_FAIL;
	}
	lrs_workload__start(wl);
	for (size_t i = 0; i < lrs_workload__nr_memcgs(wl); i++)
		printf("%s\n", lrs_workload__memcg(wl, i)->cgroup);
	fflush(stdout);

	ret = lrs_workload__wait(wl, duration_s > 0 ? duration_s : 1e9, &lrs_stop, err,
				 sizeof(err));
	lrs_workload__stop(wl);
	print_json(wl, &opts);
	if (ret)
		fprintf(stderr, "lruscope workload: %s\n", err);
	lrs_workload__destroy(wl);
	return ret ? LRS_EXIT_FAIL : LRS_EXIT_OK;
}

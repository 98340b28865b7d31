// SPDX-License-Identifier: GPL-2.0
/* lruscope demo: its options; the experiment itself is demo/demo.c. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "collector/live/spin_choice.h"
#include "demo/demo.h"

static unsigned int default_readers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int r = DEMO_READERS_PER_CPU * (unsigned int)(n > 0 ? n : 1);

	return r > DEMO_MAX_READERS ? DEMO_MAX_READERS : r;
}

static void usage(FILE *f)
{
	fprintf(f,
"usage: sudo lruscope demo [--readers N] [--layout shared|isolated|both]\n"
"                          [--duration SECS] [--runs K] [--size BYTES] [--limit BYTES]\n"
"                          [--read 4k|dd] [--batch] [--json] [-i SECS] [--no-color]\n"
"                          [--record DIR] [--spin-source SRC]\n"
"\n"
"The per-memcg lru_lock experiment (Linux 5.11), rebuilt on today's kernel.\n"
"Before 5.11 a NUMA node had one LRU lock that every container queued on; since,\n"
"each memcg has its own lock per node. The demo runs vm-scalability's readtwice\n"
"(per container a sparse file and two concurrent readers, a memory limit per\n"
"container so reclaim keeps the LRU moving) in two layouts:\n"
"  shared    all readers in ONE memcg: one lruvec, one lock per node (the old world)\n"
"  isolated  one memcg per container: one lock each (today's world)\n"
"and shows the live heatmap during each run, then a side-by-side summary:\n"
"throughput (MB/s over all readers), lruvec-lock contentions and wait, the other\n"
"locks' wait, the ratios, and whether the throughput difference is outside the\n"
"run-to-run noise (the layouts alternate; median and range over --runs).\n"
"\n"
"  --readers N         reader processes, two per container (default %u per CPU,\n"
"                      at most %u: %u here)\n"
"  --layout L          shared, isolated or both (default both)\n"
"  --duration SECS     length of one run (default %.0f)\n"
"  --runs K            runs per layout, alternating (default %u)\n"
"  --size BYTES        sparse file per container, k/m/g suffixes (default 1g,\n"
"                      at least 4k)\n"
"  --limit BYTES       memory limit per container (default 256m, lower when RAM is\n"
"                      short; at least 4m); the shared memcg gets it times the\n"
"                      containers\n"
"  --read 4k|dd        how readers read (default 4k):\n"
"                        4k  4 KiB pread()s after POSIX_FADV_RANDOM: no readahead,\n"
"                            so the page cache holds 4 KiB folios as in 2020 and\n"
"                            every page passes the LRU lock\n"
"                        dd  dd bs=4k as vm-scalability: readahead now makes large\n"
"                            folios (ext4), 30-400x fewer LRU operations per byte,\n"
"                            so the lock matters far less on today's kernels\n"
"  --batch             no screen: run, then print the summary\n"
"  --json              the summary as one JSON object (implies --batch)\n"
"  -i, --interval SECS heatmap refresh (default 1)\n"
"  --no-color          no colour in the heatmap\n"
"  --record DIR        also write every snapshot of each layout's runs into\n"
"                      DIR/shared.jsonl and DIR/isolated.jsonl (DIR is made if\n"
"                      missing; existing files are refused, never overwritten),\n"
"                      with waiting stacks even in --batch, and print the\n"
"                      'lruscope diff' command that compares them\n"
"  --spin-source SRC   where spinlock waits come from: auto (default), tracepoint\n"
"                      or slowpath (see 'lruscope report --help')\n"
"\n"
"Readers run with cpu.shares %d (a cpu cgroup %scpu on cgroup v1, cpu.weight\n"
"on v2) so other load on a small machine disturbs the measurement less.\n"
"Everything it creates (memcgs %s*, sparse files in $LRS_WORKDIR or /var/tmp,\n"
"its readers) is removed at the end, on Ctrl-C and on SIGTERM. One demo at a\n"
"time (lock %s). Needs root. Exit: 0 ok, 1 failure, 2 usage.\n",
		DEMO_READERS_PER_CPU, DEMO_MAX_READERS, default_readers(),
		DEMO_DURATION_S, DEMO_RUNS, DEMO_CPU_SHARES, DEMO_PREFIX, DEMO_PREFIX,
		DEMO_LOCK_PATH);
}

/* The default limit: 256m per container, less when RAM is short. */
static uint64_t default_limit(unsigned int containers)
{
	uint64_t avail_kb = 0, limit = DEMO_LIMIT_BYTES;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %" SCNu64, &avail_kb) == 1)
			break;
	if (f)
		fclose(f);
	if (avail_kb && containers && avail_kb * 1024 / 2 / containers < limit)
		limit = avail_kb * 1024 / 2 / containers;
	return limit < DEMO_MIN_LIMIT_BYTES ? DEMO_MIN_LIMIT_BYTES : limit & ~((1ULL << 20) - 1);
}

static int parse_args(int argc, char **argv, struct lrs_demo_opts *o)
{
	static const struct option longopts[] = {
		{ "readers", required_argument, NULL, 'n' },
		{ "layout", required_argument, NULL, 'L' },
		{ "duration", required_argument, NULL, 'd' },
		{ "runs", required_argument, NULL, 'k' },
		{ "size", required_argument, NULL, 's' },
		{ "limit", required_argument, NULL, 'l' },
		{ "read", required_argument, NULL, 'r' },
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'j' },
		{ "interval", required_argument, NULL, 'i' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "record", required_argument, NULL, 'R' },
		{ "spin-source", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	unsigned long long v;
	int c;

	memset(o, 0, sizeof(*o));
	lrs_workload_opts__defaults(&o->wl);
	o->wl.prefix = DEMO_PREFIX;
	o->wl.readers = default_readers();
	o->wl.file_bytes = DEMO_FILE_BYTES;
	o->wl.layout = LRS_LAYOUT_SHARED;
	o->wl.cpu_shares = DEMO_CPU_SHARES;
	o->both = true;
	o->runs = DEMO_RUNS;
	o->duration_s = DEMO_DURATION_S;
	o->interval_s = 1.0;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":hi:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (lrs_parse_uint(optarg, DEMO_MAX_READERS, &o->wl.readers) || !o->wl.readers) {
				fprintf(stderr, "lruscope demo: --readers '%s': a number from 1 to "
					"%u (2 per container)\n", optarg, DEMO_MAX_READERS);
				return -EINVAL;
			}
			break;
		case 'L':
			if (!strcmp(optarg, "both")) {
				o->both = true;
			} else if (!lrs_layout__parse(optarg, &o->wl.layout)) {
				o->both = false;
			} else {
				fprintf(stderr, "lruscope demo: --layout '%s': use shared, isolated or "
					"both\n", optarg);
				return -EINVAL;
			}
			break;
		case 'd':
			if (lrs_parse_seconds(optarg, &o->duration_s)) {
				fprintf(stderr, "lruscope demo: --duration '%s': seconds, e.g. 8\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'k':
			if (lrs_parse_uint(optarg, 100, &o->runs) || !o->runs) {
				fprintf(stderr, "lruscope demo: --runs '%s': a number from 1 to 100\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 's':
		case 'l':
			if (lrs_parse_bytes(optarg, &v) ||
			    v < (c == 's' ? LRS_WORKLOAD_MIN_FILE_BYTES : LRS_WORKLOAD_MIN_LIMIT_BYTES)) {
				fprintf(stderr, "lruscope demo: --%s '%s': bytes with an optional k/m/g "
					"suffix, at least %s, e.g. 256m\n", c == 's' ? "size" : "limit",
					optarg, c == 's' ? "4k" : "4m");
				return -EINVAL;
			}
			if (c == 's') {
				o->wl.file_bytes = v;
				o->size_given = true;
			} else {
				o->wl.limit_bytes = v;
				o->limit_given = true;
			}
			break;
		case 'r':
			if (lrs_read_mode__parse(optarg, &o->wl.read)) {
				fprintf(stderr, "lruscope demo: --read '%s': use 4k or dd\n", optarg);
				return -EINVAL;
			}
			break;
		case 'b':
			o->batch = true;
			break;
		case 'j':
			o->json = o->batch = true;
			break;
		case 'i':
			if (lrs_parse_seconds(optarg, &o->interval_s)) {
				fprintf(stderr, "lruscope demo: -i '%s': seconds, e.g. 1\n", optarg);
				return -EINVAL;
			}
			break;
		case 'C':
			o->no_color = true;
			break;
		case 'R':
			if (!*optarg) {
				fprintf(stderr, "lruscope demo: --record '': name a directory\n");
				return -EINVAL;
			}
			o->record_dir = optarg;
			break;
		case 'P':
			o->spin_source = lrs_spin_request__parse(optarg);
			if (o->spin_source < 0) {
				fprintf(stderr, "lruscope demo: --spin-source '%s': want auto, tracepoint or "
					"slowpath\n", optarg);
				return -EINVAL;
			}
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			lrs_cli__bad_option("demo", c, argv);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope demo: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	if (!o->limit_given)
		o->wl.limit_bytes = default_limit(lrs_workload__containers(o->wl.readers));
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		o->batch = true;	/* no terminal for the heatmap */
	return 0;
}

int lrs_cmd_demo(int argc, char **argv)
{
	struct lrs_demo_opts o;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret > 0 ? lrs_cli__stdout_done("demo", "the help") : LRS_EXIT_USAGE;
	if (geteuid() != 0) {
		fprintf(stderr, "lruscope demo: needs root (memcgs, BPF): run 'sudo lruscope demo' "
			"or 'sudo make demo'\n");
		return LRS_EXIT_FAIL;
	}
	lrs_signals__install();
	return lrs_demo__run(&o, &lrs_stop);
}

// SPDX-License-Identifier: GPL-2.0
/* lruscope demo: its options; the experiment itself is demo/demo.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/collector_opts.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "demo/demo.h"
#include "demo/demo_lab.h"

static unsigned int default_readers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int r = DEMO_READERS_PER_CPU * (unsigned int)(n > 0 ? n : 1);

	return r > DEMO_MAX_READERS ? DEMO_MAX_READERS : r;
}

#define STR_(x) #x
#define STR(x) STR_(x)

enum {
	OPT_READERS = LRS_OPT_KEY_LONG,
	OPT_LAYOUT,
	OPT_DURATION,
	OPT_RUNS,
	OPT_SIZE,
	OPT_LIMIT,
	OPT_READ,
	OPT_BATCH,
	OPT_JSON,
	OPT_NO_COLOR,
	OPT_RECORD,
	OPT_LAB,
};

static const struct lrs_opt opts[] = {
	{ "readers", OPT_READERS, 0, "N",
	  "reader processes, two per container (default " STR(
		  DEMO_READERS_PER_CPU) " per CPU, at "
					"most " STR(DEMO_MAX_READERS) ")" },
	{ "layout", OPT_LAYOUT, 0, "L", "shared, isolated or both (default both)",
	  .choices = "shared isolated both",
	  .man = ".BR shared ,\n"
		 ".B isolated\n"
		 "or\n"
		 ".B both\n"
		 "(default).\n" },
	{ "duration", OPT_DURATION, 0, "SECS",
	  "length of one run (default " STR(DEMO_DURATION_S) " s)" },
	{ "runs", OPT_RUNS, 0, "K", "runs per layout, alternating (default " STR(DEMO_RUNS) ")" },
	{ "size", OPT_SIZE, 0, "BYTES",
	  "sparse file per container, k/m/g suffixes (default 1g, at least 4k)",
	  .man = "Sparse file per container, with k, m or g suffixes (default 1g, at least 4k).\n" },
	{ "limit", OPT_LIMIT, 0, "BYTES",
	  "memory limit per container (default 256m, lower when RAM is short; at least 4m); the "
	  "shared memcg gets it times the containers",
	  .man = "Memory limit per container (default 256m, lower when RAM is short; at least 4m);\n"
		 "the shared memcg gets it times the number of containers.\n" },
	{ "read", OPT_READ, 0, "4k|dd",
	  "how readers read (default 4k):\n"
	  "4k: 4 KiB pread()s after POSIX_FADV_RANDOM: no readahead, so the page cache holds "
	  "4 KiB folios as in 2020 and every page passes the LRU lock\n"
	  "dd: dd bs=4k as vm-scalability: readahead now makes large folios (ext4), 30-400x fewer "
	  "LRU operations per byte, so the lock matters far less on today's kernels",
	  .choices = "4k dd",
	  .man = "How readers read:\n"
		 ".B 4k\n"
		 "(default) reads 4 KiB at a time after\n"
		 ".BR POSIX_FADV_RANDOM ,\n"
		 "so the page cache holds 4 KiB folios and every page passes the LRU lock;\n"
		 ".B dd\n"
		 "runs\n"
		 ".B dd bs=4k\n"
		 "as vm\\-scalability does (readahead makes large folios on ext4, far fewer LRU "
		 "operations).\n" },
	{ "batch", OPT_BATCH, 0, NULL, "no screen: run, then print the summary" },
	{ "json", OPT_JSON, 0, NULL, "the summary as one JSON object (implies --batch)",
	  .man = "The summary as one JSON object (implies\n"
		 ".BR \\-\\-batch ).\n" },
	{ "interval", 'i', LRS_OPT_SHORT, "SECS", "heatmap refresh (default 1)" },
	{ "no-color", OPT_NO_COLOR, 0, NULL, "no colour in the heatmap" },
	{ "record", OPT_RECORD, LRS_OPT_DIR, "DIR",
	  "also write every snapshot of each layout's runs into DIR/shared.jsonl and "
	  "DIR/isolated.jsonl (DIR is made if missing; existing files are refused, never "
	  "overwritten), with waiting stacks even in --batch, and print the 'lruscope diff' "
	  "command that compares them",
	  .man = "Also write every snapshot the collector takes during each layout\\(aqs runs into\n"
		 ".IB DIR /shared.jsonl\n"
		 "and\n"
		 ".IB DIR /isolated.jsonl\n"
		 "(plain recordings; with\n"
		 ".BR \\-\\-layout ,\n"
		 "that layout\\(aqs only), and at the end print the command that compares them:\n"
		 ".BI \"lruscope diff \" DIR \"/shared.jsonl \" DIR /isolated.jsonl\n"
		 "(A the shared layout, as before 5.11, B the isolated one, so its lruvec wait B/A is\n"
		 "the inverse of the summary\\(aqs shared/isolated).\n"
		 ".I DIR\n"
		 "is made when missing; a file that exists is refused (exit 1, before anything is\n"
		 "created), never overwritten.\n"
		 "Waiting stacks are taken even with\n"
		 ".BR \\-\\-batch ,\n"
		 "for\n"
		 ".BR diff \\(aqs\n"
		 "causes.\n"
		 "The time between two runs of a layout is a pause to\n"
		 ".BR diff .\n"
		 "A file left with fewer than two snapshots (the demo ended before) is removed.\n"
		 "The summary counts the demo\\(aqs memcgs only, median over runs;\n"
		 ".B diff\n"
		 "counts every lruvec (the total\n"
		 ".B \"lruvec locks\"\n"
		 "row) and the mean over all intervals, so the two agree closely on an otherwise idle\n"
		 "machine, not to the digit.\n" },
	{ "lab", OPT_LAB, 0, NULL,
	  "the experiment on its two real kernels instead: Debian's 5.10 (one LRU lock per "
	  "node) and 6.1 (one per memcg) in the lab's QEMU guests, --runs rounds each of "
	  "--readers/2 containers; recordings, pictures and the summary in build/lab-demo, or "
	  "the --record DIR (the source tree's make lab-demo; minutes per round)",
	  .man = "The experiment on its two real kernels instead of this one: Debian\\(aqs 5.10 (one\n"
		 "LRU lock per node) and 6.1 (one per memcg) boot in turn in the lab\\(aqs QEMU guests\n"
		 "(the same vCPUs, nodes, memory and disks), the same containers under\n"
		 ".B lruscope record\n"
		 "in each;\n"
		 ".BR \\-\\-runs ,\n"
		 ".BR \\-\\-readers ,\n"
		 ".BR \\-\\-duration ,\n"
		 ".B \\-\\-size\n"
		 "and\n"
		 ".B \\-\\-limit\n"
		 "where given; recordings, pictures and the summary go to\n"
		 ".B build/lab\\-demo\n"
		 "or the\n"
		 ".BI \\-\\-record \" DIR\" .\n"
		 "The lab is part of the source tree: this is\n"
		 ".B make lab\\-demo\n"
		 "(see LAB DEMO under\n"
		 ".BR demo ).\n" },
	LRS_OPT_GROUP(lrs_opts_spin_source),
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: sudo lruscope demo [--readers N] [--layout shared|isolated|both]\n"
		"                          [--duration SECS] [--runs K] [--size BYTES] [--limit BYTES]\n"
		"                          [--read 4k|dd] [--batch] [--json] [-i SECS] [--no-color]\n"
		"                          [--record DIR] [--spin-source SRC] [--lab]\n"
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
		"\n");
	lrs_opts__write_help(f, opts);
	fprintf(f,
		"\n"
		"Here --readers is %u by default. Readers run with cpu.shares %d (a cpu\n"
		"cgroup %scpu on cgroup v1, cpu.weight on v2) so other load on a small\n"
		"machine disturbs the measurement less. Everything it creates\n"
		"(memcgs %s*, sparse files in $LRS_WORKDIR or /var/tmp, its readers) is\n"
		"removed at the end, on Ctrl-C and on SIGTERM. One demo at a time (lock\n"
		"%s). Needs root. Exit: 0 ok, 1 failure, 2 usage.\n",
		default_readers(), DEMO_CPU_SHARES, DEMO_PREFIX, DEMO_PREFIX, DEMO_LOCK_PATH);
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

/* --size and --limit: bytes with a suffix, at least min_bytes (named min in the message) */
static int parse_size(const char *opt, const char *value, unsigned long long min_bytes,
		      const char *min, uint64_t *out)
{
	unsigned long long v;

	if (lrs_parse_bytes(value, &v) || v < min_bytes) {
		fprintf(stderr,
			"lruscope demo: --%s '%s': bytes with an optional k/m/g suffix, at "
			"least %s, e.g. 256m\n",
			opt, value, min);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int apply(void *ctx, int key, const char *value)
{
	struct lrs_demo_opts *o = ctx;

	switch (key) {
	case OPT_READERS:
		o->readers_given = true;
		if (lrs_parse_uint(value, DEMO_MAX_READERS, &o->wl.readers) || !o->wl.readers) {
			fprintf(stderr,
				"lruscope demo: --readers '%s': a number from 1 to %u (2 per "
				"container)\n",
				value, DEMO_MAX_READERS);
			return -EINVAL;
		}
		return 0;
	case OPT_LAYOUT:
		if (!strcmp(value, "both")) {
			o->both = true;
		} else if (!lrs_layout__parse(value, &o->wl.layout)) {
			o->both = false;
		} else {
			fprintf(stderr,
				"lruscope demo: --layout '%s': use shared, isolated or both\n",
				value);
			return -EINVAL;
		}
		return 0;
	case OPT_DURATION:
		o->duration_given = true;
		if (lrs_parse_seconds(value, &o->duration_s)) {
			fprintf(stderr, "lruscope demo: --duration '%s': seconds, e.g. 8\n", value);
			return -EINVAL;
		}
		return 0;
	case OPT_RUNS:
		o->runs_given = true;
		if (lrs_parse_uint(value, 100, &o->runs) || !o->runs) {
			fprintf(stderr, "lruscope demo: --runs '%s': a number from 1 to 100\n",
				value);
			return -EINVAL;
		}
		return 0;
	case OPT_SIZE:
		o->size_given = true;
		return parse_size("size", value, LRS_WORKLOAD_MIN_FILE_BYTES, "4k",
				  &o->wl.file_bytes);
	case OPT_LIMIT:
		o->limit_given = true;
		return parse_size("limit", value, LRS_WORKLOAD_MIN_LIMIT_BYTES, "4m",
				  &o->wl.limit_bytes);
	case OPT_READ:
		if (lrs_read_mode__parse(value, &o->wl.read)) {
			fprintf(stderr, "lruscope demo: --read '%s': use 4k or dd\n", value);
			return -EINVAL;
		}
		return 0;
	case OPT_BATCH:
		o->batch = true;
		return 0;
	case OPT_JSON:
		o->json = o->batch = true;
		return 0;
	case 'i':
		if (lrs_parse_seconds(value, &o->interval_s)) {
			fprintf(stderr, "lruscope demo: -i '%s': seconds, e.g. 1\n", value);
			return -EINVAL;
		}
		return 0;
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	case OPT_RECORD:
		if (!*value) {
			fprintf(stderr, "lruscope demo: --record '': name a directory\n");
			return -EINVAL;
		}
		o->record_dir = value;
		return 0;
	case OPT_LAB:
		o->lab = true;
		return 0;
	case LRS_COPT_SPIN_SOURCE:
		return lrs_cli__spin_source("demo", value, &o->spin_source);
	default:
		return -ENOENT; /* the table has no other */
	}
}

static void defaults(struct lrs_demo_opts *o)
{
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
}

static int run(int argc, char **argv)
{
	struct lrs_demo_opts o;
	int status;

	defaults(&o);
	if (lrs_opts__parse(&lrs_command_demo, argc, argv, apply, &o, &status) < 0)
		return status;
	if (o.lab)
		return lrs_demo__run_lab(&o);
	if (!o.limit_given)
		o.wl.limit_bytes = default_limit(lrs_workload__containers(o.wl.readers));
	if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))
		o.batch = true; /* no terminal for the heatmap */
	if (geteuid() != 0) {
		fprintf(stderr, "lruscope demo: needs root (memcgs, BPF): run 'sudo lruscope demo' "
				"or 'sudo make demo'\n");
		return LRS_EXIT_FAIL;
	}
	lrs_signals__install();
	return lrs_demo__run(&o, &lrs_stop);
}

const struct lrs_command lrs_command_demo = {
	.name = "demo",
	.synopsis =
		"demo     [--readers N] [--layout shared|isolated|both] [--batch]   the per-memcg lru_lock experiment",
	.opts = opts,
	.help = usage,
	.run = run,
};

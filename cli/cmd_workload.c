// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope workload: the demo's readtwice load alone, no BPF. Tests use it to
 * make lruvec-lock contention in memcgs whose names they know.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "demo/workload.h"

enum {
	OPT_LAYOUT = LRS_OPT_KEY_LONG,
	OPT_READERS,
	OPT_DURATION,
	OPT_SIZE,
	OPT_LIMIT,
	OPT_READ,
	OPT_PREFIX,
	OPT_NEST,
	OPT_CPU_SHARES,
};

static const struct lrs_opt opts[] = {
	{ "layout", OPT_LAYOUT, 0, "shared|isolated",
	  "one memcg for all readers, or one per container", .choices = "shared isolated" },
	{ "readers", OPT_READERS, 0, "N", "reader processes, two per container (default 4)" },
	{ "duration", OPT_DURATION, 0, "SECS", "how long to read; 0 runs until SIGINT/SIGTERM",
	  .man = "How long to read; 0 runs until SIGINT or SIGTERM.\n" },
	{ "size", OPT_SIZE, 0, "BYTES", "sparse file per container, k/m/g suffixes (default 1g)" },
	{ "limit", OPT_LIMIT, 0, "BYTES",
	  "memory limit per container (default 256m); the shared memcg gets it times the number "
	  "of containers" },
	{ "read", OPT_READ, 0, "4k|dd",
	  "4 KiB preads after POSIX_FADV_RANDOM (default), or dd bs=4k as vm-scalability "
	  "(readahead, large folios)",
	  .choices = "4k dd" },
	{ "prefix", OPT_PREFIX, 0, "PFX",
	  "memcg and temp dir prefix, must start with lrs- (default lrs-test-)",
	  .man = "Memcg and temporary directory prefix; must start with\n"
		 ".B lrs\\-\n"
		 "(default\n"
		 ".BR lrs\\-test\\- ).\n" },
	{ "nest", OPT_NEST, 0, NULL, "put the memcgs under PFXparent/",
	  .man = "Put the memcgs under\n"
		 ".IR PFX parent/.\n" },
	{ "cpu-shares", OPT_CPU_SHARES, 0, "N",
	  "give the readers cpu.shares N (v1: a cgroup PFXcpu; v2: cpu.weight of the memcgs); "
	  "default 0: unchanged",
	  .man = "Give the readers cpu.shares\n"
		 ".I N\n"
		 "(v1: a cgroup\n"
		 ".IR PFX cpu;\n"
		 "v2: cpu.weight of the memcgs); default 0, unchanged.\n" },
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

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
		"\n");
	lrs_opts__write_help(f, opts);
	fprintf(f,
		"\n"
		"Needs root. Sparse files go to $LRS_WORKDIR or /var/tmp (a disk filesystem).\n");
}

struct workload_args {
	struct lrs_workload_opts opts;
	double duration_s;
	bool have_layout;
};

/* A whole number from 0 to max in *out; -EINVAL if not. */
static int parse_count(const char *value, unsigned long long max, unsigned int *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno || *end || !*value || value[0] == '-' || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

static int apply(void *ctx, int key, const char *value)
{
	struct workload_args *a = ctx;
	unsigned long long v;

	switch (key) {
	case OPT_LAYOUT:
		if (lrs_layout__parse(value, &a->opts.layout)) {
			fprintf(stderr,
				"lruscope workload: --layout '%s': use shared or isolated\n",
				value);
			return -EINVAL;
		}
		a->have_layout = true;
		return 0;
	case OPT_READERS:
		if (parse_count(value, 4096, &a->opts.readers)) {
			fprintf(stderr,
				"lruscope workload: --readers '%s': a number from 1 to 4096\n",
				value);
			return -EINVAL;
		}
		return 0;
	case OPT_DURATION:
		if (!strcmp(value, "0")) {
			a->duration_s = 0;
		} else if (lrs_parse_seconds(value, &a->duration_s)) {
			fprintf(stderr,
				"lruscope workload: --duration '%s': seconds, e.g. 5 or 0.5 (0: "
				"until a signal)\n",
				value);
			return -EINVAL;
		}
		return 0;
	case OPT_SIZE:
	case OPT_LIMIT:
		if (lrs_parse_bytes(value, &v)) {
			fprintf(stderr,
				"lruscope workload: --%s '%s': bytes with an optional k/m/g "
				"suffix, e.g. 512m\n",
				key == OPT_SIZE ? "size" : "limit", value);
			return -EINVAL;
		}
		*(key == OPT_SIZE ? &a->opts.file_bytes : &a->opts.limit_bytes) = v;
		return 0;
	case OPT_READ:
		if (lrs_read_mode__parse(value, &a->opts.read)) {
			fprintf(stderr, "lruscope workload: --read '%s': use 4k or dd\n", value);
			return -EINVAL;
		}
		return 0;
	case OPT_PREFIX:
		a->opts.prefix = value;
		return 0;
	case OPT_NEST:
		a->opts.nest = true;
		return 0;
	case OPT_CPU_SHARES:
		if (parse_count(value, 262144, &a->opts.cpu_shares)) {
			fprintf(stderr,
				"lruscope workload: --cpu-shares '%s': 0 to 262144 (1024 is a "
				"default task group)\n",
				value);
			return -EINVAL;
		}
		return 0;
	default:
		return -ENOENT; /* the table has no other */
	}
}

static void print_json(struct lrs_workload *wl, const struct lrs_workload_opts *opts)
{
	double secs = lrs_workload__elapsed_s(wl);

	printf("{\"layout\": \"%s\", \"read\": \"%s\", \"readers\": %u, \"elapsed_s\": %.3f, "
	       "\"mb_per_s\": %.1f, \"memcgs\": [",
	       lrs_layout__name(opts->layout), lrs_read_mode__name(opts->read), opts->readers, secs,
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

static int run(int argc, char **argv)
{
	struct workload_args a = { .duration_s = -1 };
	struct lrs_workload *wl = NULL;
	char err[512] = "";
	int ret;

	lrs_workload_opts__defaults(&a.opts);
	if (lrs_opts__parse(&lrs_command_workload, argc, argv, apply, &a, &ret) < 0)
		return ret;
	if (!a.have_layout || a.duration_s < 0) {
		fprintf(stderr, "lruscope workload: --layout and --duration are required\n");
		usage(stderr);
		return LRS_EXIT_USAGE;
	}

	lrs_signals__install();
	ret = lrs_workload__check(&a.opts, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope workload: %s\n", err);
		return ret == -EINVAL ? LRS_EXIT_USAGE : LRS_EXIT_FAIL;
	}
	ret = lrs_workload__create(&a.opts, &lrs_stop, &wl, err, sizeof(err));
	if (ret) {
		if (!lrs_stop)
			fprintf(stderr, "lruscope workload: %s\n", err);
		return LRS_EXIT_FAIL;
	}
	lrs_workload__start(wl);
	for (size_t i = 0; i < lrs_workload__nr_memcgs(wl); i++)
		printf("%s\n", lrs_workload__memcg(wl, i)->cgroup);
	fflush(stdout);

	ret = lrs_workload__wait(wl, a.duration_s > 0 ? a.duration_s : 1e9, &lrs_stop, err,
				 sizeof(err));
	lrs_workload__stop(wl);
	print_json(wl, &a.opts);
	if (ret)
		fprintf(stderr, "lruscope workload: %s\n", err);
	lrs_workload__destroy(wl);
	return ret ? LRS_EXIT_FAIL : LRS_EXIT_OK;
}

const struct lrs_command lrs_command_workload = {
	.name = "workload",
	.synopsis =
		"workload --layout shared|isolated ...    the demo's readtwice load alone, no BPF",
	.opts = opts,
	.help_on_operand = true,
	.help = usage,
	.run = run,
};

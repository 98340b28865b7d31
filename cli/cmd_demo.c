// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope demo: the per-memcg lru_lock experiment, rebuilt on a kernel that
 * has the patch. "shared" puts every reader in one memcg: one lruvec, one lock
 * per node, as before 5.11. "isolated" gives each container its own memcg, as
 * after. Runs both with the live collector, alternating, and summarises.
 */
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

#include "collector/live/live.h"
#include "cli/commands.h"
#include "demo/demo_summary.h"
#include "model/model.h"
#include "ui/tui/tui.h"
#include "demo/workload.h"

#define DEMO_PREFIX "lrs-demo-"
#define DEMO_LOCK_PATH "/run/lruscope-demo.lock"
/*
 * Calibrated on a 2-core VM (docs/demo.md): 16 readers give a lruvec wait
 * ratio of 40x and more, 8 readers about 13x. More containers than CPUs make
 * it rare that a container's two readers run at the same time.
 */
#define DEMO_READERS_PER_CPU 8
#define DEMO_MAX_READERS 256
#define DEMO_DURATION_S 8.0
#define DEMO_RUNS 3
#define DEMO_FILE_BYTES (1ULL << 30)
#define DEMO_LIMIT_BYTES (256ULL << 20)
#define DEMO_MIN_LIMIT_BYTES (32ULL << 20)
/* 8 default task groups' worth: background builds on 2 cores disturb less */
#define DEMO_CPU_SHARES 8192

struct demo_opts {
	struct lrs_workload_opts wl;
	bool both;			/* --layout both (default) */
	unsigned int runs;		/* per layout */
	double duration_s;		/* per run */
	double interval_s;		/* TUI refresh */
	bool batch, json, no_color;
	bool limit_given, size_given;
};

/* What the banner callback shows while the TUI runs. */
struct banner_ctx {
	struct lrs_workload *wl;
	enum lrs_layout layout;
	unsigned int run, nr_runs;
	double duration_s;
	char text[256];
};

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
"  --size BYTES        sparse file per container, k/m/g suffixes (default 1g)\n"
"  --limit BYTES       memory limit per container (default 256m, lower when RAM is\n"
"                      short); the shared memcg gets it times the containers\n"
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

static int parse_args(int argc, char **argv, struct demo_opts *o)
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
	while ((c = getopt_long(argc, argv, "hi:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (lrs_parse_uint(optarg, 4096, &o->wl.readers) || !o->wl.readers) {
				fprintf(stderr, "lruscope demo: --readers '%s': a number from 1 to "
					"4096 (2 per container)\n", optarg);
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
			if (lrs_parse_bytes(optarg, &v)) {
				fprintf(stderr, "lruscope demo: --%s '%s': bytes with an optional k/m/g "
					"suffix, e.g. 256m\n", c == 's' ? "size" : "limit", optarg);
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
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
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

/* One demo at a time: an flock held for the whole run. Returns the fd or -errno. */
static int demo_lock(void)
{
	char buf[32] = "";
	int fd, n;

	fd = open(DEMO_LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "lruscope demo: cannot open the lock file %s: %s\n", DEMO_LOCK_PATH,
			strerror(errno));
		return -errno;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		n = (int)read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		fprintf(stderr, "lruscope demo: another demo is running (pid %s, lock %s): wait "
			"for it to end, or stop it with Ctrl-C or kill %s\n", buf[0] ? buf : "?",
			DEMO_LOCK_PATH, buf[0] ? buf : "PID");
		close(fd);
		return -EBUSY;
	}
	if (ftruncate(fd, 0) == 0) {
		n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
		if (pwrite(fd, buf, (size_t)n, 0) != n)
			buf[0] = '\0';	/* the pid is a courtesy; the flock is the lock */
	}
	return fd;
}

static void demo_unlock(int fd)
{
	if (fd < 0)
		return;
	unlink(DEMO_LOCK_PATH);	/* still holding it: nobody else owns this path now */
	close(fd);
}

static const char *banner_text(void *p)
{
	struct banner_ctx *b = p;
	double el = lrs_workload__elapsed_s(b->wl);
	double mbs = el > 0 ? (double)lrs_workload__bytes_now(b->wl) / 1e6 / el : 0;
	const struct lrs_workload_memcg *m = lrs_workload__memcg(b->wl, 0);

	snprintf(b->text, sizeof(b->text),
		 "demo %u/%u  %s layout: %s  %4.1f/%.0f s  %.0f MB/s  (q: skip to the summary)",
		 b->run, b->nr_runs, lrs_layout__name(b->layout),
		 b->layout == LRS_LAYOUT_SHARED ? m->cgroup : "one memcg per container",
		 el, b->duration_s, mbs);
	return b->text;
}

/*
 * A snapshot, retried: the cgroup iterator fails (EOPNOTSUPP) while its
 * output outgrows one read, e.g. when another program makes many cgroups.
 */
static int take_retry(struct lrs_source *src, struct lrs_snapshot **out)
{
	int ret = -EIO;

	for (int i = 0; i < 5 && !lrs_stop; i++) {
		ret = src->take(src, out);
		if (!ret)
			return 0;
		usleep(200000);
	}
	return ret;
}

/* Fill ids from the workload: its memcg ids and each reader's memcg. */
static int run_ids(struct lrs_workload *wl, struct lrs_demo_run_ids *ids, uint64_t **memcgs,
		   pid_t **pids, uint64_t **pid_memcgs)
{
	size_t nm = lrs_workload__nr_memcgs(wl), np = 0;

	for (size_t i = 0; i < nm; i++)
		np += lrs_workload__memcg(wl, i)->nr_pids;
	*memcgs = calloc(nm, sizeof(**memcgs));
	*pids = calloc(np ? np : 1, sizeof(**pids));
	*pid_memcgs = calloc(np ? np : 1, sizeof(**pid_memcgs));
	if (!*memcgs || !*pids || !*pid_memcgs)
		return -ENOMEM;
	np = 0;
	for (size_t i = 0; i < nm; i++) {
		const struct lrs_workload_memcg *m = lrs_workload__memcg(wl, i);

		(*memcgs)[i] = m->id;
		for (size_t k = 0; k < m->nr_pids; k++) {
			(*pids)[np] = m->pids[k];
			(*pid_memcgs)[np++] = m->id;
		}
	}
	*ids = (struct lrs_demo_run_ids){ *memcgs, nm, *pids, *pid_memcgs, np };
	return 0;
}

/*
 * One run of one layout: create the load, snapshot, run (heatmap or sleep),
 * snapshot, stop, remove. Returns 0 with run filled, 1 when the user or a
 * signal cut it short, 2 when the collector failed for this run (both: run
 * not usable), or -errno.
 */
static int demo_run_one(const struct demo_opts *o, enum lrs_layout layout, unsigned int idx,
			unsigned int nr, struct lrs_source *src, struct lrs_demo_run *run)
{
	struct lrs_workload_opts wo = o->wl;
	struct lrs_workload *wl = NULL;
	struct lrs_snapshot *s0 = NULL, *s1 = NULL;
	struct lrs_model *model = NULL;
	struct lrs_demo_run_ids ids;
	uint64_t *memcgs = NULL, *pid_memcgs = NULL;
	pid_t *pids = NULL;
	char err[512] = "";
	double t0;
	int ret, cut = 0;

	wo.layout = layout;
	if (!o->json)
		fprintf(stderr, "lruscope demo: run %u/%u: %s layout, %u readers, %.0f s\n", idx, nr,
			lrs_layout__name(layout), wo.readers, o->duration_s);
	ret = lrs_workload__create(&wo, &lrs_stop, &wl, err, sizeof(err));
	if (ret) {
		if (lrs_stop)
			return 1;
		fprintf(stderr, "lruscope demo: %s\n", err);
		return ret;
	}
	ret = run_ids(wl, &ids, &memcgs, &pids, &pid_memcgs);
	if (ret)
		goto out;
	ret = take_retry(src, &s0);
	if (ret) {
		fprintf(stderr, "lruscope demo: run %u skipped: collector snapshot failed: %s\n",
			idx, strerror(-ret));
		ret = 2;
		goto out;
	}
	lrs_workload__start(wl);
	t0 = lrs_now_s();
	if (o->batch) {
		ret = lrs_workload__wait(wl, o->duration_s, &lrs_stop, err, sizeof(err));
	} else {
		struct banner_ctx b = { wl, layout, idx, nr, o->duration_s, "" };
		struct lrs_tui_opts to = {
			.no_color = o->no_color,
			.banner_fn = banner_text,
			.banner_ctx = &b,
			.duration_s = o->duration_s,
			.stop = &lrs_stop,
		};

		model = lrs_model__new(LRS_HISTORY_DEFAULT);
		if (!model) {
			ret = -ENOMEM;
			goto out;
		}
		ret = lrs_tui__run(src, model, &to);
		if (!ret && !lrs_workload__healthy(wl)) {
			snprintf(err, sizeof(err), "a reader exited early (see dmesg for an OOM kill; "
				 "a larger --limit may help)");
			ret = -ECHILD;
		}
	}
	if (!ret && (lrs_stop || lrs_now_s() - t0 < o->duration_s - 0.25))
		cut = 1;	/* Ctrl-C, SIGTERM, or q in the heatmap */
	if (!ret && !cut && take_retry(src, &s1))
		cut = 2;
	lrs_workload__stop(wl);
	if (ret) {
		if (err[0])
			fprintf(stderr, "lruscope demo: %s\n", err);
		goto out;
	}
	if (cut == 2 && !lrs_stop)
		fprintf(stderr, "lruscope demo: run %u skipped: collector snapshot failed\n", idx);
	if (cut) {
		ret = cut == 2 && !lrs_stop ? 2 : 1;
		goto out;
	}
	memset(run, 0, sizeof(*run));
	run->layout = layout;
	run->readers = wo.readers;
	run->elapsed_s = lrs_workload__elapsed_s(wl);
	run->bytes = lrs_workload__bytes(wl);
	run->mb_per_s = run->elapsed_s > 0 ? (double)run->bytes / 1e6 / run->elapsed_s : 0;
	ret = lrs_demo_run__from_snapshots(run, s0, s1, &ids);
out:
	lrs_workload__destroy(wl);
	lrs_model__free(model);
	lrs_snapshot__free(s0);
	lrs_snapshot__free(s1);
	free(memcgs);
	free(pids);
	free(pid_memcgs);
	return ret;
}

static void print_header(const struct demo_opts *o, FILE *f)
{
	unsigned int containers = lrs_workload__containers(o->wl.readers);

	fprintf(f, "\nlruscope demo: readtwice, %u readers in %u containers, %s reads, %" PRIu64
		" MiB sparse file and %" PRIu64 " MiB limit per container, %u run%s x %.0f s per "
		"layout, alternating\n\n", o->wl.readers, containers,
		lrs_read_mode__name(o->wl.read), o->wl.file_bytes >> 20, o->wl.limit_bytes >> 20,
		o->runs, o->runs == 1 ? "" : "s", o->duration_s);
}

int lrs_cmd_demo(int argc, char **argv)
{
	struct demo_opts o;
	struct lrs_collector_opts co;
	struct lrs_source *src = NULL;
	struct lrs_demo_run *runs = NULL;
	struct lrs_demo_summary sum;
	size_t nr_runs = 0, total, skipped = 0;
	char err[512] = "";
	int lock_fd = -1, ret, rc = LRS_EXIT_FAIL;
	bool interrupted = false;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret > 0 ? LRS_EXIT_OK : LRS_EXIT_USAGE;
	if (geteuid() != 0) {
		fprintf(stderr, "lruscope demo: needs root (memcgs, BPF): run 'sudo lruscope demo' "
			"or 'sudo make demo'\n");
		return LRS_EXIT_FAIL;
	}
	/* every check before anything is created */
	for (int l = 0; l < 2; l++) {
		struct lrs_workload_opts wo = o.wl;

		if (!o.both && l != (int)o.wl.layout)
			continue;
		wo.layout = (enum lrs_layout)l;
		ret = lrs_workload__check(&wo, err, sizeof(err));
		if (ret && ret != -EEXIST) {
			fprintf(stderr, "lruscope demo: %s\n", err);
			return ret == -EINVAL ? LRS_EXIT_USAGE : LRS_EXIT_FAIL;
		}
	}
	if (o.wl.file_bytes <= o.wl.limit_bytes && !o.json)
		fprintf(stderr, "lruscope demo: note: --size %" PRIu64 " MiB fits in the --limit %"
			PRIu64 " MiB: no reclaim, little LRU movement\n", o.wl.file_bytes >> 20,
			o.wl.limit_bytes >> 20);
	if (lrs_collector__check_privileges(err, sizeof(err))) {
		fprintf(stderr, "lruscope demo: %s\n", err);
		return LRS_EXIT_FAIL;
	}
	lock_fd = demo_lock();
	if (lock_fd < 0)
		return LRS_EXIT_FAIL;
	lrs_signals__install();
	/* we hold the lock: any lrs-demo-* left is a killed demo's */
	if (lrs_workload__remove_stale(&o.wl) > 0 && !o.json)
		fprintf(stderr, "lruscope demo: removed leftovers of an earlier demo\n");
	for (int l = 0; l < 2; l++) {
		struct lrs_workload_opts wo = o.wl;

		if (!o.both && l != (int)o.wl.layout)
			continue;
		wo.layout = (enum lrs_layout)l;
		if (lrs_workload__check(&wo, err, sizeof(err))) {
			fprintf(stderr, "lruscope demo: %s\n", err);
			goto out;
		}
	}

	if (!o.json)
		fprintf(stderr, "lruscope demo: loading the BPF collector...\n");
	lrs_collector_opts__defaults(&co);
	co.interval_s = o.interval_s;
	if (o.batch)
		co.stack_every = 0;	/* no view shows stacks: keep their cost out of the waits */
	ret = lrs_collector__open(&co, &src, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope demo: %s\n", err);
		goto out;
	}

	total = (size_t)o.runs * (o.both ? 2 : 1);
	runs = calloc(total, sizeof(*runs));
	if (!runs)
		goto out;
	for (size_t i = 0; i < total && !lrs_stop; i++) {
		enum lrs_layout layout = o.wl.layout;

		/* alternate, and swap the order every round: drift hits both layouts */
		if (o.both)
			layout = (enum lrs_layout)((i % 2) ^ ((i / 2) % 2));
		ret = demo_run_one(&o, layout, (unsigned int)i + 1, (unsigned int)total, src,
				   &runs[nr_runs]);
		if (ret < 0)
			goto out;
		if (ret == 2) {
			skipped++;
			continue;
		}
		if (ret == 1) {
			interrupted = true;
			break;
		}
		nr_runs++;
	}
	if (lrs_stop)
		interrupted = true;
	if (!nr_runs) {
		fprintf(stderr, "lruscope demo: %s before a run completed; removed everything it "
			"created\n", lrs_stop ? "interrupted" : "stopped");
		goto out;
	}
	lrs_demo_summary__compute(runs, nr_runs, &sum);
	if (o.json) {
		lrs_demo_summary__print_json(&sum, runs, nr_runs, stdout);
	} else {
		print_header(&o, stdout);
		lrs_demo_summary__print_text(&sum, stdout);
		if (interrupted || skipped)
			printf("(%zu of %zu runs completed%s)\n", nr_runs, total,
			       skipped ? "; the collector failed in the others" : "");
	}
	fflush(stdout);
	rc = lrs_stop ? LRS_EXIT_FAIL : LRS_EXIT_OK;
out:
	free(runs);
	lrs_source__destroy(src);
	demo_unlock(lock_fd);
	return rc;
}

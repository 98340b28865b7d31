// SPDX-License-Identifier: GPL-2.0
/* The demo's orchestration: rounds of both layouts under the live collector. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "collector/live/live.h"
#include "demo/demo.h"
#include "demo/demo_record.h"
#include "demo/demo_summary.h"
#include "model/clock.h"
#include "model/model.h"
#include "ui/tui/tui.h"

/* What the banner callback shows while the TUI runs. */
struct banner_ctx {
	struct lrs_workload *wl;
	enum lrs_layout layout;
	unsigned int run, nr_runs;
	double duration_s;
	char text[256];
};

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
		fprintf(stderr,
			"lruscope demo: another demo is running (pid %s, lock %s): wait "
			"for it to end, or stop it with Ctrl-C or kill %s\n",
			buf[0] ? buf : "?", DEMO_LOCK_PATH, buf[0] ? buf : "PID");
		close(fd);
		return -EBUSY;
	}
	if (ftruncate(fd, 0) == 0) {
		n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
		if (pwrite(fd, buf, (size_t)n, 0) != n)
			buf[0] = '\0'; /* the pid is a courtesy; the flock is the lock */
	}
	return fd;
}

static void demo_unlock(int fd)
{
	if (fd < 0)
		return;
	unlink(DEMO_LOCK_PATH); /* still holding it: nobody else owns this path now */
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
		 b->layout == LRS_LAYOUT_SHARED ? m->cgroup : "one memcg per container", el,
		 b->duration_s, mbs);
	return b->text;
}

/*
 * A snapshot, retried: the cgroup iterator fails (EOPNOTSUPP) while its
 * output outgrows one read, e.g. when another program makes many cgroups.
 */
static int take_retry(struct lrs_source *src, struct lrs_snapshot **out,
		      volatile sig_atomic_t *stop)
{
	int ret = -EIO;

	/* 200 ms, then longer: a busy guest can take seconds to settle its cgroups */
	for (int i = 0; i < 8 && !*stop; i++) {
		ret = src->take(src, out);
		if (!ret)
			return 0;
		if (i < 7)
			usleep(200000u * (i < 4 ? 1 : 1u << (i - 3)));
	}
	return ret;
}

/*
 * --batch with --record: the run's length in steps of the collector's
 * interval, a snapshot after each (the recording source writes it; the last
 * one is the run's end snapshot, taken after this).
 */
static int wait_sampling(struct lrs_workload *wl, const struct lrs_demo_opts *o,
			 struct lrs_source *src, volatile sig_atomic_t *stop, char *err,
			 size_t err_len)
{
	double end = lrs_now_s() + o->duration_s;

	for (;;) {
		double left = end - lrs_now_s();
		struct lrs_snapshot *snap = NULL;
		int ret;

		ret = lrs_workload__wait(wl, left < src->interval_s ? left : src->interval_s, stop,
					 err, err_len);
		if (ret || *stop || end - lrs_now_s() < src->interval_s / 4)
			return ret;
		if (!take_retry(src, &snap, stop)) /* a failed one: a longer interval */
			lrs_snapshot__free(snap);
	}
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
static int demo_run_one(const struct lrs_demo_opts *o, enum lrs_layout layout, unsigned int idx,
			unsigned int nr, struct lrs_source *src, struct lrs_demo_run *run,
			volatile sig_atomic_t *stop)
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
		fprintf(stderr, "lruscope demo: run %u/%u: %s layout, %u readers, %.0f s\n", idx,
			nr, lrs_layout__name(layout), wo.readers, o->duration_s);
	ret = lrs_workload__create(&wo, stop, &wl, err, sizeof(err));
	if (ret) {
		if (*stop)
			return 1;
		fprintf(stderr, "lruscope demo: %s\n", err);
		return ret;
	}
	ret = run_ids(wl, &ids, &memcgs, &pids, &pid_memcgs);
	if (ret)
		goto out;
	ret = take_retry(src, &s0, stop);
	if (ret) {
		fprintf(stderr, "lruscope demo: run %u skipped: collector snapshot failed: %s\n",
			idx, strerror(-ret));
		ret = 2;
		goto out;
	}
	lrs_workload__start(wl);
	t0 = lrs_now_s();
	if (o->batch && o->record_dir) {
		ret = wait_sampling(wl, o, src, stop, err, sizeof(err));
	} else if (o->batch) {
		ret = lrs_workload__wait(wl, o->duration_s, stop, err, sizeof(err));
	} else {
		struct banner_ctx b = { wl, layout, idx, nr, o->duration_s, "" };
		struct lrs_tui_opts to = {
			.no_color = o->no_color,
			.banner_fn = banner_text,
			.banner_ctx = &b,
			.duration_s = o->duration_s,
			.stop = stop,
		};

		model = lrs_model__new(LRS_HISTORY_DEFAULT);
		if (!model) {
			ret = -ENOMEM;
			goto out;
		}
		ret = lrs_tui__run(src, model, &to);
		if (!ret && !lrs_workload__healthy(wl)) {
			snprintf(err, sizeof(err),
				 "a reader exited early (see dmesg for an OOM kill; "
				 "a larger --limit may help)");
			ret = -ECHILD;
		}
	}
	if (!ret && (*stop || lrs_now_s() - t0 < o->duration_s - 0.25))
		cut = 1; /* Ctrl-C, SIGTERM, or q in the heatmap */
	if (!ret && !cut && take_retry(src, &s1, stop))
		cut = 2;
	lrs_workload__stop(wl);
	if (ret) {
		if (err[0])
			fprintf(stderr, "lruscope demo: %s\n", err);
		goto out;
	}
	if (cut == 2 && !*stop)
		fprintf(stderr, "lruscope demo: run %u skipped: collector snapshot failed\n", idx);
	if (cut) {
		ret = cut == 2 && !*stop ? 2 : 1;
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

/*
 * Close the recordings and say how to compare them on f: A the shared
 * layout (one lock, as before 5.11), B the isolated one. Nonzero after an error.
 */
static int finish_recording(struct lrs_demo_record **rec, FILE *f)
{
	char path[2][4096], err[600];
	size_t snaps[2];
	int ret;

	for (int k = 0; k < 2; k++) {
		const char *p = lrs_demo_record__path(*rec, (enum lrs_layout)k);

		snprintf(path[k], sizeof(path[k]), "%s", p ? p : "");
		snaps[k] = lrs_demo_record__snapshots(*rec, (enum lrs_layout)k);
	}
	ret = lrs_demo_record__close(*rec, err, sizeof(err));
	*rec = NULL;
	if (ret) {
		fprintf(stderr, "lruscope demo: %s\n", err);
		return ret;
	}
	for (int k = 0; k < 2; k++)
		if (path[k][0] && snaps[k] < 2)
			fprintf(stderr, "lruscope demo: %s: %zu snapshot%s, no interval: removed\n",
				path[k], snaps[k], snaps[k] == 1 ? "" : "s");
		else if (path[k][0])
			fprintf(f, "recorded %s (%zu snapshots)\n", path[k], snaps[k]);
	if (path[0][0] && path[1][0] && snaps[0] >= 2 && snaps[1] >= 2)
		fprintf(f,
			"compare the layouts, shared (A) against isolated (B):\n  lruscope diff %s %s\n",
			path[0], path[1]);
	return 0;
}

static void print_header(const struct lrs_demo_opts *o, FILE *f)
{
	unsigned int containers = lrs_workload__containers(o->wl.readers);

	fprintf(f,
		"\nlruscope demo: readtwice, %u readers in %u containers, %s reads, %" PRIu64
		" MiB sparse file and %" PRIu64 " MiB limit per container, %u run%s x %.0f s per "
		"layout, alternating\n\n",
		o->wl.readers, containers, lrs_read_mode__name(o->wl.read), o->wl.file_bytes >> 20,
		o->wl.limit_bytes >> 20, o->runs, o->runs == 1 ? "" : "s", o->duration_s);
}

int lrs_demo__run(const struct lrs_demo_opts *o, volatile sig_atomic_t *stop)
{
	struct lrs_workload_opts wl_opts = o->wl;
	struct lrs_collector_opts co;
	struct lrs_source *src = NULL;
	struct lrs_demo_run *runs = NULL;
	struct lrs_demo_summary sum;
	struct lrs_demo_record *rec = NULL;
	size_t nr_runs = 0, total, skipped = 0;
	char err[512] = "";
	int lock_fd = -1, ret, rc = 1;
	bool interrupted = false;

	/* every check before anything is created */
	for (int l = 0; l < 2; l++) {
		struct lrs_workload_opts wo = o->wl;

		if (!o->both && l != (int)o->wl.layout)
			continue;
		wo.layout = (enum lrs_layout)l;
		ret = lrs_workload__check(&wo, err, sizeof(err));
		if (ret && ret != -EEXIST) {
			fprintf(stderr, "lruscope demo: %s\n", err);
			return ret == -EINVAL ? 2 : 1;
		}
	}
	if (o->wl.file_bytes <= o->wl.limit_bytes && !o->json)
		fprintf(stderr,
			"lruscope demo: note: --size %" PRIu64 " MiB fits in the --limit %" PRIu64
			" MiB: no reclaim, little LRU movement\n",
			o->wl.file_bytes >> 20, o->wl.limit_bytes >> 20);
	if (lrs_collector__check_privileges(err, sizeof(err))) {
		fprintf(stderr, "lruscope demo: %s\n", err);
		return 1;
	}
	lock_fd = demo_lock();
	if (lock_fd < 0)
		return 1;
	if (o->record_dir) {
		bool use[2] = { o->both || o->wl.layout == LRS_LAYOUT_SHARED,
				o->both || o->wl.layout == LRS_LAYOUT_ISOLATED };

		if (lrs_demo_record__open(&rec, o->record_dir, use, o->interval_s, err,
					  sizeof(err))) {
			fprintf(stderr, "lruscope demo: %s\n", err);
			goto out;
		}
	}
	/* we hold the lock: any lrs-demo-* left is a killed demo's */
	if (lrs_workload__remove_stale(&wl_opts) > 0 && !o->json)
		fprintf(stderr, "lruscope demo: removed leftovers of an earlier demo\n");
	for (int l = 0; l < 2; l++) {
		struct lrs_workload_opts wo = o->wl;

		if (!o->both && l != (int)o->wl.layout)
			continue;
		wo.layout = (enum lrs_layout)l;
		if (lrs_workload__check(&wo, err, sizeof(err))) {
			fprintf(stderr, "lruscope demo: %s\n", err);
			goto out;
		}
	}

	if (!o->json)
		fprintf(stderr, "lruscope demo: loading the BPF collector...\n");
	lrs_collector_opts__defaults(&co);
	co.interval_s = o->interval_s;
	co.spin_source = o->spin_source;
	if (o->batch && !o->record_dir)
		co.stack_every = 0; /* no view shows stacks: keep their cost out of the waits */
	ret = lrs_collector__open(&co, &src, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope demo: %s\n", err);
		goto out;
	}

	total = (size_t)o->runs * (o->both ? 2 : 1);
	runs = calloc(total, sizeof(*runs));
	if (!runs)
		goto out;
	for (size_t i = 0; i < total && !*stop; i++) {
		enum lrs_layout layout = o->wl.layout;

		/* alternate, and swap the order every round: drift hits both layouts */
		if (o->both)
			layout = (enum lrs_layout)((i % 2) ^ ((i / 2) % 2));
		ret = demo_run_one(o, layout, (unsigned int)i + 1, (unsigned int)total,
				   rec ? lrs_demo_record__source(rec, layout, src) : src,
				   &runs[nr_runs], stop);
		if (ret < 0)
			goto out;
		if (rec && lrs_demo_record__error(rec, err, sizeof(err))) {
			fprintf(stderr, "lruscope demo: %s\n", err);
			goto out;
		}
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
	if (*stop)
		interrupted = true;
	if (!nr_runs) {
		fprintf(stderr,
			"lruscope demo: %s before a run completed; removed everything it "
			"created\n",
			*stop ? "interrupted" : "stopped");
		goto out;
	}
	lrs_demo_summary__compute(runs, nr_runs, &sum);
	if (o->json) {
		lrs_demo_summary__print_json(&sum, runs, nr_runs, stdout);
	} else {
		print_header(o, stdout);
		lrs_demo_summary__print_text(&sum, stdout);
		if (interrupted || skipped)
			printf("(%zu of %zu runs completed%s)\n", nr_runs, total,
			       skipped ? "; the collector failed in the others" : "");
	}
	if (rec && finish_recording(&rec, o->json ? stderr : stdout))
		goto out;
	fflush(stdout);
	rc = *stop ? 1 : 0;
out:
	if (rec && lrs_demo_record__close(rec, err, sizeof(err)))
		fprintf(stderr, "lruscope demo: %s\n", err);
	free(runs);
	lrs_source__destroy(src);
	demo_unlock(lock_fd);
	return rc;
}

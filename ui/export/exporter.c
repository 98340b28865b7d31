// SPDX-License-Identifier: GPL-2.0
/* Snapshot, fold, render, publish: once an interval. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "model/clock.h"
#include "ui/export/exporter.h"
#include "ui/export/series.h"
#include "ui/export/textfile.h"
#include "ui/text/exposition.h"

struct rendered {
	char *text;
	size_t len;
};

static int render(const struct lrs_exposition *e, enum lrs_expo_format fmt, struct rendered *out)
{
	FILE *f = open_memstream(&out->text, &out->len);
	int err;

	if (!f)
		return -errno;
	err = lrs_expo__write(f, e, fmt);
	if (fclose(f) && !err)
		err = -errno;
	if (err) {
		free(out->text);
		out->text = NULL;
	}
	return err;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru))
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static double unix_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Sleep until deadline (monotonic seconds) or *stop. */
static void wait_until(double deadline, volatile sig_atomic_t *stop)
{
	while (!*stop) {
		double left = deadline - lrs_now_s();

		if (left <= 0)
			break;
		usleep(left > 0.1 ? 100000 : (useconds_t)(left * 1e6) + 1);
	}
}

struct loop {
	const struct lrs_export_opts *opts;
	struct lrs_series *series;
	struct lrs_expo_self self;
	char last_textfile_err[512];
};

/* One interval's page: fold, render both formats, publish, write the textfile. */
static int publish(struct loop *lp, const struct lrs_snapshot *snap)
{
	const struct lrs_export_opts *opts = lp->opts;
	struct lrs_exposition e = { .version = opts->version };
	struct rendered prom = { 0 }, om = { 0 };
	char err[512];
	int ret;

	ret = lrs_series__update(lp->series, snap, &e);
	if (ret)
		return ret;
	lp->self.snapshots++;
	lp->self.last_snapshot_unix = unix_now();
	lp->self.cpu_seconds = cpu_seconds();
	lp->self.bpf_cost = snap->bpf_cost;
	lp->self.textfile = opts->textfile_dir != NULL;
	lrs_series__memcgs(lp->series, &lp->self.own_memcgs, &lp->self.folded_memcgs,
			   &lp->self.folded_memcgs_total);
	e.self = lp->self;
	ret = render(&e, LRS_EXPO_PROMETHEUS, &prom);
	if (!ret && opts->http)
		ret = render(&e, LRS_EXPO_OPENMETRICS, &om);
	if (ret) {
		free(prom.text);
		return ret;
	}
	if (opts->textfile_dir &&
	    lrs_textfile__write(opts->textfile_dir, prom.text, prom.len, err, sizeof(err))) {
		lp->self.textfile_errors++;
		/* said once per kind of failure, not once an interval */
		if (strcmp(err, lp->last_textfile_err)) {
			fprintf(stderr, "lruscope export: %s (the exporter goes on)\n", err);
			snprintf(lp->last_textfile_err, sizeof(lp->last_textfile_err), "%s", err);
		}
	} else if (opts->textfile_dir) {
		lp->last_textfile_err[0] = 0;
	}
	if (opts->http)
		return lrs_http__publish(opts->http, prom.text, prom.len, om.text, om.len);
	free(prom.text);
	return 0;
}

int lrs_export__run(struct lrs_source *src, const struct lrs_export_opts *opts,
		    volatile sig_atomic_t *stop, char *err, size_t err_len)
{
	struct lrs_series_opts sopts = {
		.max_series = opts->max_series,
		.top_locks = opts->top_locks,
		.holders = opts->holders,
	};
	struct loop lp = { .opts = opts };
	double start = lrs_now_s(), next = start;
	int ret;

	ret = lrs_series__new(&sopts, &lp.series);
	if (ret) {
		snprintf(err, err_len, "out of memory");
		return ret;
	}
	while (!*stop) {
		struct lrs_snapshot *snap = NULL;

		wait_until(next, stop);
		if (*stop)
			break;
		ret = src->take(src, &snap);
		if (ret) {
			snprintf(err, err_len, "reading the collector's maps failed: %s",
				 strerror(-ret));
			break;
		}
		ret = publish(&lp, snap);
		lrs_snapshot__free(snap);
		if (ret) {
			snprintf(err, err_len, "rendering the page failed: %s", strerror(-ret));
			break;
		}
		if (opts->duration_s > 0 && lrs_now_s() - start >= opts->duration_s - 1e-3)
			break;
		/* fell behind: the intervals passed over are counted, not caught up in a burst */
		next = lrs_clock__next_tick(next, src->interval_s, lrs_now_s(),
					    &lp.self.missed_intervals);
		/* a duration shorter than the interval ends at the duration, as record does */
		if (opts->duration_s > 0 && next > start + opts->duration_s)
			next = start + opts->duration_s;
	}
	lrs_series__free(lp.series);
	return ret;
}

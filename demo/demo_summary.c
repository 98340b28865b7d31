// SPDX-License-Identifier: GPL-2.0
/* The demo's arithmetic: run deltas, medians, ranges, ratios, verdicts. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo/demo_summary.h"

static uint64_t sub_u64(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0; /* a restarted counter never goes negative */
}

static bool id_in(uint64_t id, const uint64_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* The memcg id of a reader pid, or 0 if the pid is not a reader. */
static uint64_t reader_memcg(const struct lrs_demo_run_ids *ids, pid_t pid)
{
	for (size_t i = 0; i < ids->nr_pids; i++)
		if (ids->pids[i] == pid)
			return ids->pid_memcg_ids[i];
	return 0;
}

/* pid's waiter row from memcg_id: a task that moved has a row for each memcg it waited from */
static const struct lrs_waiter *find_waiter(const struct lrs_lruvec *lv, pid_t pid,
					    uint64_t memcg_id)
{
	if (!lv)
		return NULL;
	for (size_t i = 0; i < lv->nr_waiters; i++)
		if (lv->waiters[i].pid == pid && lv->waiters[i].memcg_id == memcg_id)
			return &lv->waiters[i];
	return NULL;
}

static const struct lrs_other_lock *find_other(const struct lrs_snapshot *s, uint64_t addr)
{
	if (!s)
		return NULL;
	for (size_t i = 0; i < s->nr_other_locks; i++)
		if (s->other_locks[i].lock_addr == addr)
			return &s->other_locks[i];
	return NULL;
}

int lrs_demo_run__from_snapshots(struct lrs_demo_run *run, const struct lrs_snapshot *s0,
				 const struct lrs_snapshot *s1, const struct lrs_demo_run_ids *ids)
{
	if (!run || !s1 || !ids)
		return -EINVAL;
	run->lruvec_contended = run->lruvec_wait_ns = run->all_lruvec_wait_ns = 0;
	run->other_contended = run->other_wait_ns = 0;
	run->own_contended = run->foreign_contended = run->outside_contended = 0;
	run->waiter_memcg_right = run->waiter_memcg_wrong = 0;
	run->top_lruvec[0] = '\0';
	run->top_lruvec_wait_ns = 0;
	run->attribution_known = false;

	for (size_t i = 0; i < s1->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &s1->lruvecs[i];
		const struct lrs_lruvec *old =
			s0 ? lrs_snapshot__find_lruvec(s0, lv->memcg_id, lv->node) : NULL;
		uint64_t c = sub_u64(lv->counters.contended, old ? old->counters.contended : 0);
		uint64_t w = sub_u64(lv->counters.wait_ns, old ? old->counters.wait_ns : 0);
		bool mine = id_in(lv->memcg_id, ids->memcg_ids, ids->nr_memcg_ids);

		if (lv->nr_waiters)
			run->attribution_known = true;
		run->all_lruvec_wait_ns += w;
		if (mine) {
			run->lruvec_contended += c;
			run->lruvec_wait_ns += w;
		}
		if (mine && w > run->top_lruvec_wait_ns) {
			run->top_lruvec_wait_ns = w;
			snprintf(run->top_lruvec, sizeof(run->top_lruvec), "%s@N%d",
				 lv->memcg ? lv->memcg : "?", lv->node);
		}
		for (size_t k = 0; k < lv->nr_waiters; k++) {
			const struct lrs_waiter *wt = &lv->waiters[k];
			const struct lrs_waiter *ow = find_waiter(old, wt->pid, wt->memcg_id);
			uint64_t reader_id = reader_memcg(ids, wt->pid);
			uint64_t wc = sub_u64(wt->contended, ow ? ow->contended : 0);

			if (reader_id && wt->memcg_id == reader_id)
				run->waiter_memcg_right += wc;
			else if (reader_id)
				run->waiter_memcg_wrong += wc;
			if (reader_id == lv->memcg_id)
				run->own_contended += wc;
			else if (mine)
				run->foreign_contended += wc;
			else if (reader_id)
				run->outside_contended += wc;
		}
	}
	for (size_t i = 0; i < s1->nr_other_locks; i++) {
		const struct lrs_other_lock *ol = &s1->other_locks[i];
		const struct lrs_other_lock *old = find_other(s0, ol->lock_addr);

		run->other_contended +=
			sub_u64(ol->counters.contended, old ? old->counters.contended : 0);
		run->other_wait_ns +=
			sub_u64(ol->counters.wait_ns, old ? old->counters.wait_ns : 0);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double lrs_demo__median(const double *v, size_t n)
{
	double *s, m;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return v[0];
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

struct lrs_range lrs_demo__range(const double *v, size_t n)
{
	struct lrs_range r = { 0, 0, 0 };

	if (!n)
		return r;
	r.median = lrs_demo__median(v, n);
	r.min = r.max = v[0];
	for (size_t i = 1; i < n; i++) {
		if (v[i] < r.min)
			r.min = v[i];
		if (v[i] > r.max)
			r.max = v[i];
	}
	return r;
}

enum lrs_noise_verdict lrs_demo__verdict(const struct lrs_range *a, size_t na,
					 const struct lrs_range *b, size_t nb)
{
	if (na < 2 || nb < 2)
		return LRS_NOISE_UNKNOWN;
	if (a->min > b->max || b->min > a->max)
		return LRS_NOISE_OUTSIDE;
	return LRS_NOISE_WITHIN;
}

static double safe_ratio(double num, double den)
{
	if (den > 0)
		return num / den;
	return num > 0 ? INFINITY : NAN;
}

static void layout_stats(const struct lrs_demo_run *runs, size_t nr_runs, enum lrs_layout layout,
			 struct lrs_demo_layout_stats *st)
{
	double mb[nr_runs], cnt[nr_runs], wait[nr_runs], other[nr_runs];
	size_t n = 0, median_run = 0;
	double best = INFINITY;

	memset(st, 0, sizeof(*st));
	st->layout = layout;
	for (size_t i = 0; i < nr_runs; i++) {
		const struct lrs_demo_run *r = &runs[i];

		if (r->layout != layout)
			continue;
		st->readers = r->readers;
		mb[n] = r->mb_per_s;
		cnt[n] = (double)r->lruvec_contended;
		wait[n] = (double)r->lruvec_wait_ns;
		other[n] = (double)r->other_wait_ns;
		if (r->attribution_known)
			st->attribution_known = true;
		st->own_contended += r->own_contended;
		st->foreign_contended += r->foreign_contended;
		st->outside_contended += r->outside_contended;
		st->waiter_memcg_right += r->waiter_memcg_right;
		st->waiter_memcg_wrong += r->waiter_memcg_wrong;
		n++;
	}
	st->nr_runs = n;
	if (!n)
		return;
	st->mb_per_s = lrs_demo__range(mb, n);
	st->lruvec_contended = lrs_demo__range(cnt, n);
	st->lruvec_wait_ns = lrs_demo__range(wait, n);
	st->other_wait_ns = lrs_demo__range(other, n);
	/* name the top lruvec of the run closest to the median wait */
	for (size_t i = 0; i < nr_runs; i++) {
		double d;

		if (runs[i].layout != layout)
			continue;
		d = fabs((double)runs[i].lruvec_wait_ns - st->lruvec_wait_ns.median);
		if (d < best) {
			best = d;
			median_run = i;
		}
	}
	snprintf(st->top_lruvec, sizeof(st->top_lruvec), "%s", runs[median_run].top_lruvec);
}

int lrs_demo_summary__compute(const struct lrs_demo_run *runs, size_t nr_runs,
			      struct lrs_demo_summary *out)
{
	const struct lrs_demo_layout_stats *sh = NULL, *iso = NULL;

	memset(out, 0, sizeof(*out));
	if (!runs || !nr_runs)
		return -EINVAL;
	for (size_t i = 0; i < nr_runs; i++) {
		bool seen = false;

		for (size_t k = 0; k < out->nr_layouts; k++)
			seen |= out->layouts[k].layout == runs[i].layout;
		if (seen)
			continue;
		if (out->nr_layouts == 2 || (unsigned int)runs[i].layout > LRS_LAYOUT_ISOLATED)
			return -EINVAL;
		layout_stats(runs, nr_runs, runs[i].layout, &out->layouts[out->nr_layouts++]);
	}
	for (size_t k = 0; k < out->nr_layouts; k++) {
		if (out->layouts[k].layout == LRS_LAYOUT_SHARED)
			sh = &out->layouts[k];
		else
			iso = &out->layouts[k];
	}
	if (!sh || !iso)
		return 0;
	out->have_ratio = true;
	out->wait_ratio = safe_ratio(sh->lruvec_wait_ns.median, iso->lruvec_wait_ns.median);
	out->mb_ratio = safe_ratio(iso->mb_per_s.median, sh->mb_per_s.median);
	out->mb_ratio_min = safe_ratio(iso->mb_per_s.min, sh->mb_per_s.max);
	out->mb_ratio_max = safe_ratio(iso->mb_per_s.max, sh->mb_per_s.min);
	out->mb_verdict =
		lrs_demo__verdict(&sh->mb_per_s, sh->nr_runs, &iso->mb_per_s, iso->nr_runs);
	out->wait_verdict = lrs_demo__verdict(&sh->lruvec_wait_ns, sh->nr_runs,
					      &iso->lruvec_wait_ns, iso->nr_runs);
	return 0;
}

static const struct lrs_demo_layout_stats *find_layout(const struct lrs_demo_summary *s,
						       enum lrs_layout layout)
{
	for (size_t k = 0; k < s->nr_layouts; k++)
		if (s->layouts[k].layout == layout)
			return &s->layouts[k];
	return NULL;
}

/* "+25%" / "-3%" for a ratio. */
static void pct(double ratio, char *buf, size_t len)
{
	if (isinf(ratio) || isnan(ratio))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.0f%%", (ratio - 1) * 100);
}

void lrs_demo_summary__verdict_text(const struct lrs_demo_summary *s, char *buf, size_t len)
{
	const struct lrs_demo_layout_stats *sh = find_layout(s, LRS_LAYOUT_SHARED);
	const struct lrs_demo_layout_stats *iso = find_layout(s, LRS_LAYOUT_ISOLATED);
	char med[16], lo[16], hi[16];

	if (!s->have_ratio) {
		snprintf(buf, len, "only one layout has complete runs: nothing to compare");
		return;
	}
	pct(s->mb_ratio, med, sizeof(med));
	pct(s->mb_ratio_min, lo, sizeof(lo));
	pct(s->mb_ratio_max, hi, sizeof(hi));
	switch (s->mb_verdict) {
	case LRS_NOISE_UNKNOWN:
		snprintf(buf, len,
			 "throughput isolated vs shared: %s from one run each: cannot tell "
			 "it from run-to-run noise (use --runs 3 or more)",
			 med);
		break;
	case LRS_NOISE_WITHIN:
		snprintf(buf, len,
			 "throughput isolated vs shared: %s (runs range %s to %s): within "
			 "run-to-run noise, the %zu and %zu runs' ranges overlap",
			 med, lo, hi, sh->nr_runs, iso->nr_runs);
		break;
	case LRS_NOISE_OUTSIDE:
		snprintf(buf, len,
			 "throughput isolated vs shared: %s (runs range %s to %s): outside "
			 "run-to-run noise, every %s run beat every %s run (%zu and %zu runs)",
			 med, lo, hi, s->mb_ratio > 1 ? "isolated" : "shared",
			 s->mb_ratio > 1 ? "shared" : "isolated", iso->nr_runs, sh->nr_runs);
		break;
	}
}

static void fmt_ratio(double r, char *buf, size_t len)
{
	if (isinf(r))
		snprintf(buf, len, "inf (isolated 0)");
	else if (isnan(r))
		snprintf(buf, len, "n/a (both 0)");
	else
		snprintf(buf, len, r < 10 ? "%.2fx" : "%.1fx", r);
}

static void fmt_range(const struct lrs_range *r, double scale, int prec, bool one, char *buf,
		      size_t len)
{
	if (one)
		snprintf(buf, len, "%.*f", prec, r->median / scale);
	else
		snprintf(buf, len, "%.*f (%.*f-%.*f)", prec, r->median / scale, prec,
			 r->min / scale, prec, r->max / scale);
}

static void fmt_attr(const struct lrs_demo_layout_stats *st, char *buf, size_t len)
{
	uint64_t all = st->own_contended + st->foreign_contended;

	if (!st->attribution_known)
		snprintf(buf, len, "unavailable");
	else if (!all)
		snprintf(buf, len, "none waited");
	else
		snprintf(buf, len, "%.0f%% own readers",
			 100.0 * (double)st->own_contended / (double)all);
}

void lrs_demo_summary__print_text(const struct lrs_demo_summary *s, FILE *f)
{
	char cell[2][96], ratio[160], verdict[512];
	const int w = 26;

#define ROW(label, expr_fmt, ratio_str)                                          \
	do {                                                                     \
		for (size_t k = 0; k < s->nr_layouts; k++) {                     \
			const struct lrs_demo_layout_stats *st = &s->layouts[k]; \
			bool one = st->nr_runs < 2;                              \
			(void)one;                                               \
			expr_fmt;                                                \
		}                                                                \
		fprintf(f, "%-22s", label);                                      \
		for (size_t k = 0; k < s->nr_layouts; k++)                       \
			fprintf(f, " %-*s", w, cell[k]);                         \
		fprintf(f, " %s\n", ratio_str);                                  \
	} while (0)

	fprintf(f, "%-22s", "");
	for (size_t k = 0; k < s->nr_layouts; k++) {
		char h[64];

		snprintf(h, sizeof(h), "%s (%zu run%s)", lrs_layout__name(s->layouts[k].layout),
			 s->layouts[k].nr_runs, s->layouts[k].nr_runs == 1 ? "" : "s");
		fprintf(f, " %-*s", w, h);
	}
	fprintf(f, " %s\n", s->have_ratio ? "ratio" : "");

	ratio[0] = '\0';
	if (s->have_ratio) {
		char a[32], b[32], c[32];

		fmt_ratio(s->mb_ratio, a, sizeof(a));
		fmt_ratio(s->mb_ratio_min, b, sizeof(b));
		fmt_ratio(s->mb_ratio_max, c, sizeof(c));
		if (s->layouts[0].nr_runs > 1 || s->layouts[1].nr_runs > 1)
			snprintf(ratio, sizeof(ratio), "isolated/shared %s (%s-%s)", a, b, c);
		else
			snprintf(ratio, sizeof(ratio), "isolated/shared %s", a);
	}
	ROW("throughput MB/s", fmt_range(&st->mb_per_s, 1, 0, one, cell[k], sizeof(cell[k])),
	    ratio);
	ROW("lruvec contended",
	    fmt_range(&st->lruvec_contended, 1, 0, one, cell[k], sizeof(cell[k])), "");
	if (s->have_ratio) {
		char a[32];

		fmt_ratio(s->wait_ratio, a, sizeof(a));
		snprintf(ratio, sizeof(ratio), "shared/isolated %s", a);
	}
	ROW("lruvec wait ms", fmt_range(&st->lruvec_wait_ns, 1e6, 1, one, cell[k], sizeof(cell[k])),
	    ratio);
	ROW("other locks wait ms",
	    fmt_range(&st->other_wait_ns, 1e6, 1, one, cell[k], sizeof(cell[k])), "(machine-wide)");
	ROW("top lruvec",
	    snprintf(cell[k], sizeof(cell[k]), "%s", st->top_lruvec[0] ? st->top_lruvec : "-"), "");
	ROW("waiters on its lruvecs", fmt_attr(st, cell[k], sizeof(cell[k])), "");
#undef ROW
	fprintf(f, "(median, range over the runs in parentheses; lruvec counts are the demo's "
		   "memcgs)\n\n");
	if (s->have_ratio) {
		char a[32];

		fmt_ratio(s->wait_ratio, a, sizeof(a));
		fprintf(f, "lruvec-lock wait: shared/isolated %s%s\n", a,
			s->wait_verdict == LRS_NOISE_OUTSIDE ? ", outside run-to-run noise" :
			s->wait_verdict == LRS_NOISE_WITHIN  ? ", within run-to-run noise" :
							       "");
	}
	lrs_demo_summary__verdict_text(s, verdict, sizeof(verdict));
	fprintf(f, "%s\n", verdict);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* JSON has no infinity or NaN: null. */
static void json_num(FILE *f, double v, int prec)
{
	if (isinf(v) || isnan(v))
		fprintf(f, "null");
	else
		fprintf(f, "%.*f", prec, v);
}

static const char *verdict_name(enum lrs_noise_verdict v)
{
	return v == LRS_NOISE_OUTSIDE ? "outside" : v == LRS_NOISE_WITHIN ? "within" : "unknown";
}

void lrs_demo_summary__print_json(const struct lrs_demo_summary *s, const struct lrs_demo_run *runs,
				  size_t nr_runs, FILE *f)
{
	char verdict[512];

	fprintf(f, "{\"layouts\": [");
	for (size_t k = 0; k < s->nr_layouts; k++) {
		const struct lrs_demo_layout_stats *st = &s->layouts[k];

		fprintf(f, "%s{\"layout\": \"%s\", \"readers\": %u, \"runs\": %zu, \"mb_per_s\": ",
			k ? ", " : "", lrs_layout__name(st->layout), st->readers, st->nr_runs);
		json_num(f, st->mb_per_s.median, 1);
		fprintf(f, ", \"mb_per_s_min\": ");
		json_num(f, st->mb_per_s.min, 1);
		fprintf(f, ", \"mb_per_s_max\": ");
		json_num(f, st->mb_per_s.max, 1);
		fprintf(f,
			", \"lruvec_contended\": %.0f, \"lruvec_wait_ns\": %.0f, "
			"\"lruvec_wait_ns_min\": %.0f, \"lruvec_wait_ns_max\": %.0f, "
			"\"other_wait_ns\": %.0f, \"top_lruvec\": ",
			st->lruvec_contended.median, st->lruvec_wait_ns.median,
			st->lruvec_wait_ns.min, st->lruvec_wait_ns.max, st->other_wait_ns.median);
		json_str(f, st->top_lruvec);
		fprintf(f,
			", \"attribution\": {\"known\": %s, \"own_contended\": %" PRIu64
			", \"foreign_contended\": %" PRIu64 ", \"outside_contended\": %" PRIu64
			", \"waiter_memcg_right\": %" PRIu64 ", \"waiter_memcg_wrong\": %" PRIu64
			"}}",
			st->attribution_known ? "true" : "false", st->own_contended,
			st->foreign_contended, st->outside_contended, st->waiter_memcg_right,
			st->waiter_memcg_wrong);
	}
	fprintf(f, "]");
	if (s->have_ratio) {
		fprintf(f, ", \"ratio\": {\"lruvec_wait\": ");
		json_num(f, s->wait_ratio, 2);
		fprintf(f, ", \"mb_per_s\": ");
		json_num(f, s->mb_ratio, 3);
		fprintf(f, ", \"mb_per_s_min\": ");
		json_num(f, s->mb_ratio_min, 3);
		fprintf(f, ", \"mb_per_s_max\": ");
		json_num(f, s->mb_ratio_max, 3);
		fprintf(f,
			"}, \"noise\": {\"mb_per_s\": \"%s\", \"lruvec_wait\": \"%s\", \"text\": ",
			verdict_name(s->mb_verdict), verdict_name(s->wait_verdict));
		lrs_demo_summary__verdict_text(s, verdict, sizeof(verdict));
		json_str(f, verdict);
		fprintf(f, "}");
	}
	if (runs) {
		fprintf(f, ", \"per_run\": [");
		for (size_t i = 0; i < nr_runs; i++) {
			const struct lrs_demo_run *r = &runs[i];

			fprintf(f,
				"%s{\"layout\": \"%s\", \"elapsed_s\": %.3f, \"mb_per_s\": %.1f, "
				"\"lruvec_contended\": %" PRIu64 ", \"lruvec_wait_ns\": %" PRIu64
				", \"all_lruvec_wait_ns\": %" PRIu64
				", \"other_contended\": %" PRIu64 ", \"other_wait_ns\": %" PRIu64
				", \"own_contended\": %" PRIu64 ", \"foreign_contended\": %" PRIu64
				", \"outside_contended\": %" PRIu64 ", \"top_lruvec\": ",
				i ? ", " : "", lrs_layout__name(r->layout), r->elapsed_s,
				r->mb_per_s, r->lruvec_contended, r->lruvec_wait_ns,
				r->all_lruvec_wait_ns, r->other_contended, r->other_wait_ns,
				r->own_contended, r->foreign_contended, r->outside_contended);
			json_str(f, r->top_lruvec);
			fprintf(f, "}");
		}
		fprintf(f, "]");
	}
	fprintf(f, "}\n");
}

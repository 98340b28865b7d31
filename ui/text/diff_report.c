// SPDX-License-Identifier: GPL-2.0
/* 'lruscope diff' output: text (a table like report's) and JSON. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/json/json_writer.h"
#include "ui/layout.h"
#include "ui/text/diff_report.h"

#define TEST_NAME "mann-whitney-u"

static const char *const json_sides[] = { "both", "only_a", "only_b" };

static const char *side_name(enum lrs_cmp_side side)
{
	return side == LRS_CMP_ONLY_A ? "only in A" : side == LRS_CMP_ONLY_B ? "only in B" : "both";
}

static double interval_s(double duration_s, size_t samples)
{
	return samples ? duration_s / (double)samples : 0;
}

static bool few_samples(const struct lrs_compare *cmp)
{
	return cmp->samples_a < LRS_COMPARE_FEW_SAMPLES || cmp->samples_b < LRS_COMPARE_FEW_SAMPLES;
}

/* ---- text ---------------------------------------------------------------------- */

static char *fmt_ratio(char *buf, size_t len, double r)
{
	if (isnan(r))
		snprintf(buf, len, "-");
	else if (isinf(r))
		snprintf(buf, len, "new");
	else
		snprintf(buf, len, r >= 100 ? "%.0fx" : "%.2fx", r);
	return buf;
}

static char *fmt_p(char *buf, size_t len, const struct lrs_cmp_metric *m)
{
	if (isnan(m->p))
		snprintf(buf, len, "-");
	else if (m->p < 0.001)
		snprintf(buf, len, "<0.001%s", m->significant ? "*" : "");
	else
		snprintf(buf, len, "%.3f%s", m->p, m->significant ? "*" : "");
	return buf;
}

static void text_row(FILE *f, const struct lrs_cmp_row *r)
{
	char wa[16], wb[16], wr[16], wp[16], ca[16], cb[16], cr[16], cp[16];
	bool node_lock = r->kind == LRS_CMP_LRUVEC && !strcmp(r->name, LRS_NODE_LOCK_MEMCG);

	fprintf(f, "%10s %10s %7s %7s  %8s %8s %7s %7s   %s",
		lrs_fmt__rate_ns(wa, sizeof(wa), r->wait.a),
		lrs_fmt__rate_ns(wb, sizeof(wb), r->wait.b),
		fmt_ratio(wr, sizeof(wr), r->wait.ratio), fmt_p(wp, sizeof(wp), &r->wait),
		lrs_fmt__count(ca, sizeof(ca), r->contended.a),
		lrs_fmt__count(cb, sizeof(cb), r->contended.b),
		fmt_ratio(cr, sizeof(cr), r->contended.ratio), fmt_p(cp, sizeof(cp), &r->contended),
		node_lock ? "" : r->name);
	if (node_lock)
		fprintf(f, "N%d %s", r->node, LRS_NODE_LOCK_MEMCG);
	else if (r->kind == LRS_CMP_LRUVEC)
		fprintf(f, "@N%d", r->node);
	if (r->side != LRS_CMP_BOTH)
		fprintf(f, "  (%s)", side_name(r->side));
	fputc('\n', f);
}

/*
 * Under an lruvec's row, one line per cause: its sampled wait/s, the ratio
 * and p in the wait columns, its share of the sampled wait in A and B in
 * the contention columns.
 */
static void text_causes(FILE *f, const struct lrs_cmp_row *r)
{
	for (size_t i = 0; i < r->nr_causes; i++) {
		const struct lrs_cmp_cause *c = &r->causes[i];
		char wa[16], wb[16], wr[16], wp[16], sa[16], sb[16];

		snprintf(sa, sizeof(sa), "%.0f%%", 100 * c->share_a);
		snprintf(sb, sizeof(sb), "%.0f%%", 100 * c->share_b);
		fprintf(f, "%10s %10s %7s %7s  %8s %8s %7s %7s     cause: %s",
			lrs_fmt__rate_ns(wa, sizeof(wa), c->wait.a),
			lrs_fmt__rate_ns(wb, sizeof(wb), c->wait.b),
			fmt_ratio(wr, sizeof(wr), c->wait.ratio), fmt_p(wp, sizeof(wp), &c->wait),
			sa, sb, "", "", lrs_cause__title(c->cause));
		if (c->side != LRS_CMP_BOTH)
			fprintf(f, " (sampled %s)", side_name(c->side));
		fputc('\n', f);
	}
}

/* The heading and the rows of one kind, in the comparison's order; returns the rows. */
static size_t text_section(FILE *f, const struct lrs_compare *cmp, enum lrs_cmp_kind kind,
			   const char *bold, const char *off, const char *what)
{
	size_t n = 0;

	fprintf(f, "\n%s%10s %10s %7s %7s  %8s %8s %7s %7s   %s%s\n", bold, "wait/s A", "wait/s B",
		"B/A", "p", "cont/s A", "cont/s B", "B/A", "p", what, off);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		if (cmp->rows[i].kind != kind)
			continue;
		text_row(f, &cmp->rows[i]);
		text_causes(f, &cmp->rows[i]);
		n++;
	}
	return n;
}

static void text_side(FILE *f, const char *label, const struct lrs_diff_input *in,
		      double duration_s, size_t samples, size_t pauses)
{
	fprintf(f, "%s: %s, Linux %s, %zu interval%s of %.2f s", label, in->name,
		in->kernel[0] ? in->kernel : "?", samples, samples == 1 ? "" : "s",
		interval_s(duration_s, samples));
	if (pauses)
		fprintf(f, " (%zu pause%s over %dx the interval left out)", pauses,
			pauses == 1 ? "" : "s", LRS_COMPARE_PAUSE_FACTOR);
	fputc('\n', f);
}

static bool any_causes(const struct lrs_compare *cmp)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		if (cmp->rows[i].nr_causes)
			return true;
	return false;
}

static void write_text(const struct lrs_compare *cmp, const struct lrs_diff_input *a,
		       const struct lrs_diff_input *b, bool color, FILE *f)
{
	const char *bold = color ? "\033[1m" : "", *off = color ? "\033[0m" : "";
	size_t lruvecs = 0, locks = 0, memcgs = 0;

	fprintf(f, "%slruscope diff%s: B compared with A, per interval rates\n", bold, off);
	text_side(f, "A", a, cmp->duration_a_s, cmp->samples_a, cmp->pauses_a);
	text_side(f, "B", b, cmp->duration_b_s, cmp->samples_b, cmp->pauses_b);
	fprintf(f,
		"test: Mann-Whitney U over each interval's rate, two-sided; * significant: p < %g and a "
		"change of at least %g%% (- not tested: under %d intervals, or one side only)\n",
		cmp->test.alpha, 100 * cmp->test.min_change, LRS_COMPARE_MIN_SAMPLES);
	if (any_causes(cmp))
		fprintf(f,
			"causes: under an lruvec, each kernel path of its sampled waiting stacks: the sampled "
			"wait/s (a part of the wait), B/A and p in the wait columns, its share of the sampled wait "
			"in A and B in the cont/s columns (- not tested: no stack sampled on a side)\n");
	if (few_samples(cmp))
		fprintf(f,
			"note: under %d intervals on a side, a correlation between neighbouring intervals "
			"cannot be judged and would make p too small: record longer for a firmer answer\n",
			LRS_COMPARE_FEW_SAMPLES);

	text_section(f, cmp, LRS_CMP_TOTAL, bold, off, "total");
	if (cmp->node_locks) {
		text_section(f, cmp, LRS_CMP_NODE, bold, off,
			     "node (its lruvec locks: one lock before 5.11, one per memcg since)");
		text_section(f, cmp, LRS_CMP_WAITER, bold, off,
			     "waiting memcg (its tasks' wait on any lruvec lock)");
	}
	for (size_t i = 0; i < cmp->nr_rows; i++)
		memcgs += cmp->rows[i].kind == LRS_CMP_MEMCG;
	if (memcgs) /* only those that waited on more than one node */
		text_section(f, cmp, LRS_CMP_MEMCG, bold, off, "memcg (its lruvecs on all nodes)");
	lruvecs = text_section(f, cmp, LRS_CMP_LRUVEC, bold, off, "lruvec (memcg@node)");
	if (!lruvecs)
		fprintf(f, "%10s   (no lruvec lock was contended in A or B)\n", "");
	locks = text_section(f, cmp, LRS_CMP_LOCK, bold, off, "other locks (by name)");
	if (!locks)
		fprintf(f, "%10s   (no other lock was contended in A or B)\n", "");

	fputc('\n', f);
	if (cmp->nr_significant)
		fprintf(f, "%s%zu significant change%s%s (p < %g, at least %g%%)", bold,
			cmp->nr_significant, cmp->nr_significant == 1 ? "" : "s", off,
			cmp->test.alpha, 100 * cmp->test.min_change);
	else
		fprintf(f, "%sno significant change%s (p < %g, at least %g%%)", bold, off,
			cmp->test.alpha, 100 * cmp->test.min_change);
	fprintf(f, " among ");
	if (memcgs)
		fprintf(f, "%zu memcg%s on several nodes, ", memcgs, memcgs == 1 ? "" : "s");
	fprintf(f, "%zu lruvec%s and %zu other lock%s", lruvecs, lruvecs == 1 ? "" : "s", locks,
		locks == 1 ? "" : "s");
	fprintf(f, "; %zu never contended in either, not listed\n", cmp->nr_idle);
}

/* ---- JSON ---------------------------------------------------------------------- */

static void json_metric(struct lrs_json *j, const char *key, const struct lrs_cmp_metric *m)
{
	lrs_json__key(j, key);
	lrs_json__obj_begin(j);
	lrs_json__key(j, "a");
	lrs_json__dbl(j, m->a);
	lrs_json__key(j, "b");
	lrs_json__dbl(j, m->b);
	lrs_json__key(j, "ratio"); /* null: A was 0 */
	lrs_json__dbl(j, m->ratio);
	lrs_json__key(j, "p"); /* null: not tested */
	lrs_json__dbl(j, m->p);
	lrs_json__key(j, "significant");
	lrs_json__bool(j, m->significant);
	lrs_json__obj_end(j);
}

static void json_side(struct lrs_json *j, const char *key, const struct lrs_diff_input *in,
		      double duration_s, size_t samples, size_t pauses)
{
	lrs_json__key(j, key);
	lrs_json__obj_begin(j);
	lrs_json__key(j, "file");
	lrs_json__str(j, in->name);
	lrs_json__key(j, "kernel");
	lrs_json__str(j, in->kernel);
	lrs_json__key(j, "samples");
	lrs_json__u64(j, samples);
	lrs_json__key(j, "duration_s");
	lrs_json__dbl(j, duration_s);
	lrs_json__key(j, "interval_s");
	lrs_json__dbl(j, interval_s(duration_s, samples));
	lrs_json__key(j, "pauses");
	lrs_json__u64(j, pauses);
	lrs_json__obj_end(j);
}

/* An lruvec's causes, in the text's order. */
static void json_causes(struct lrs_json *j, const struct lrs_cmp_row *r)
{
	lrs_json__key(j, "causes");
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < r->nr_causes; i++) {
		const struct lrs_cmp_cause *c = &r->causes[i];

		lrs_json__obj_begin(j);
		lrs_json__key(j, "cause");
		lrs_json__str(j, lrs_cause__key(c->cause));
		lrs_json__key(j, "title");
		lrs_json__str(j, lrs_cause__title(c->cause));
		lrs_json__key(j, "side"); /* where its stacks were sampled */
		lrs_json__str(j, json_sides[c->side]);
		lrs_json__key(j, "share_a");
		lrs_json__dbl(j, c->share_a);
		lrs_json__key(j, "share_b");
		lrs_json__dbl(j, c->share_b);
		json_metric(j, "sampled_wait_ns_per_s", &c->wait);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

static void json_rows(struct lrs_json *j, const struct lrs_compare *cmp, enum lrs_cmp_kind kind,
		      const char *key)
{
	lrs_json__key(j, key);
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct lrs_cmp_row *r = &cmp->rows[i];

		if (r->kind != kind)
			continue;
		lrs_json__obj_begin(j);
		lrs_json__key(j, kind == LRS_CMP_LRUVEC || kind == LRS_CMP_MEMCG ||
						 kind == LRS_CMP_WAITER ?
					 "memcg" :
					 "name");
		lrs_json__str(j, r->name);
		if (kind == LRS_CMP_LRUVEC || kind == LRS_CMP_NODE) {
			lrs_json__key(j, "node");
			lrs_json__i64(j, r->node);
		}
		lrs_json__key(j, "side");
		lrs_json__str(j, json_sides[r->side]);
		lrs_json__key(j, "significant");
		lrs_json__bool(j, r->wait.significant || r->contended.significant);
		json_metric(j, "wait_ns_per_s", &r->wait);
		json_metric(j, "contended_per_s", &r->contended);
		if (kind == LRS_CMP_LRUVEC)
			json_causes(j, r);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

static void write_json(const struct lrs_compare *cmp, const struct lrs_diff_input *a,
		       const struct lrs_diff_input *b, FILE *f)
{
	struct lrs_json j;

	lrs_json__init(&j, f);
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "test");
	lrs_json__str(&j, TEST_NAME);
	lrs_json__key(&j, "two_sided");
	lrs_json__bool(&j, true);
	lrs_json__key(&j, "alpha");
	lrs_json__dbl(&j, cmp->test.alpha);
	lrs_json__key(&j, "min_change"); /* 0.1: 10% either way */
	lrs_json__dbl(&j, cmp->test.min_change);
	lrs_json__key(&j, "min_samples");
	lrs_json__u64(&j, LRS_COMPARE_MIN_SAMPLES);
	lrs_json__key(&j, "few_samples"); /* the text's note */
	lrs_json__bool(&j, few_samples(cmp));
	json_side(&j, "a", a, cmp->duration_a_s, cmp->samples_a, cmp->pauses_a);
	json_side(&j, "b", b, cmp->duration_b_s, cmp->samples_b, cmp->pauses_b);
	lrs_json__key(&j, "significant");
	lrs_json__u64(&j, cmp->nr_significant);
	lrs_json__key(&j, "never_contended");
	lrs_json__u64(&j, cmp->nr_idle);
	json_rows(&j, cmp, LRS_CMP_TOTAL, "totals");
	lrs_json__key(&j, "node_locks"); /* a side has them: nodes and waiting_memcgs filled */
	lrs_json__bool(&j, cmp->node_locks);
	json_rows(&j, cmp, LRS_CMP_NODE, "nodes");
	json_rows(&j, cmp, LRS_CMP_WAITER, "waiting_memcgs");
	json_rows(&j, cmp, LRS_CMP_MEMCG, "memcgs"); /* those that waited on several nodes */
	json_rows(&j, cmp, LRS_CMP_LRUVEC, "lruvecs");
	json_rows(&j, cmp, LRS_CMP_LOCK, "other_locks");
	lrs_json__obj_end(&j);
	fputc('\n', f);
}

int lrs_diff_report__write(const struct lrs_compare *cmp, const struct lrs_diff_input *a,
			   const struct lrs_diff_input *b, const struct lrs_diff_report_opts *opts,
			   FILE *f)
{
	if (opts->json)
		write_json(cmp, a, b, f);
	else
		write_text(cmp, a, b, opts->color, f);
	return ferror(f) ? -EIO : 0;
}

// SPDX-License-Identifier: GPL-2.0
/* The exporter's page in the Prometheus text format or OpenMetrics. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "ui/text/exposition.h"

const char *lrs_expo__content_type(enum lrs_expo_format fmt)
{
	return fmt == LRS_EXPO_OPENMETRICS ?
		       "application/openmetrics-text; version=1.0.0; charset=utf-8" :
		       "text/plain; version=0.0.4; charset=utf-8";
}

enum lrs_expo_format lrs_expo__negotiate(const char *accept)
{
	/* Prometheus asks for OpenMetrics first; curl and browsers take anything */
	return accept && strstr(accept, "application/openmetrics-text") ? LRS_EXPO_OPENMETRICS :
									  LRS_EXPO_PROMETHEUS;
}

enum family_type { COUNTER, GAUGE, HISTOGRAM };

static const char *const type_names[] = { "counter", "gauge", "histogram" };

/*
 * The # lines of a family. A counter's samples end in _total: OpenMetrics
 * names the family without it, the 0.0.4 format with it.
 */
static void family(FILE *f, enum lrs_expo_format fmt, const char *name, enum family_type type,
		   const char *unit, const char *help)
{
	const char *total = type == COUNTER && fmt == LRS_EXPO_PROMETHEUS ? "_total" : "";

	fprintf(f, "# HELP %s%s %s\n", name, total, help);
	fprintf(f, "# TYPE %s%s %s\n", name, total, type_names[type]);
	if (unit && fmt == LRS_EXPO_OPENMETRICS)
		fprintf(f, "# UNIT %s %s\n", name, unit);
}

/* A label value: backslash, double quote and newline escaped, as both formats want. */
static void label_value(FILE *f, const char *v)
{
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			fputc('\\', f);
		if (*v == '\n') {
			fputs("\\n", f);
			continue;
		}
		fputc(*v, f);
	}
}

static void lruvec_labels(FILE *f, const char *memcg, int node)
{
	fputs("{memcg=\"", f);
	label_value(f, memcg);
	fprintf(f, "\",numa_node=\"%d\"", node);
}

/* Nanoseconds as exact decimal seconds: no rounding, so a counter never steps back. */
static void seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%" PRIu64 ".%09" PRIu64, ns / UINT64_C(1000000000), ns % UINT64_C(1000000000));
}

static void lruvec_ns(FILE *f, const char *name, const struct lrs_expo_lruvec *lv, uint64_t ns)
{
	fputs(name, f);
	lruvec_labels(f, lv->memcg, lv->node);
	fputs("} ", f);
	seconds(f, ns);
	fputc('\n', f);
}

static void write_lruvec_locks(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	family(f, fmt, "lruscope_lruvec_lock_wait_seconds", COUNTER, "seconds",
	       "Time tasks spent waiting for this lruvec's lru_lock.");
	for (size_t i = 0; i < e->nr_lruvecs; i++)
		if (e->lruvecs[i].contended)
			lruvec_ns(f, "lruscope_lruvec_lock_wait_seconds_total", &e->lruvecs[i],
				  e->lruvecs[i].counters.wait_ns);

	family(f, fmt, "lruscope_lruvec_lock_contentions", COUNTER, NULL,
	       "Waits for this lruvec's lru_lock (contended acquisitions).");
	for (size_t i = 0; i < e->nr_lruvecs; i++) {
		const struct lrs_expo_lruvec *lv = &e->lruvecs[i];

		if (!lv->contended)
			continue;
		fputs("lruscope_lruvec_lock_contentions_total", f);
		lruvec_labels(f, lv->memcg, lv->node);
		fprintf(f, "} %" PRIu64 "\n", lv->counters.contended);
	}

	family(f, fmt, "lruscope_lruvec_lock_wait_max_seconds", GAUGE, "seconds",
	       "The longest single wait for this lruvec's lru_lock since the exporter started.");
	for (size_t i = 0; i < e->nr_lruvecs; i++)
		if (e->lruvecs[i].contended)
			lruvec_ns(f, "lruscope_lruvec_lock_wait_max_seconds", &e->lruvecs[i],
				  e->lruvecs[i].counters.wait_max_ns);

	family(f, fmt, "lruscope_lruvec_lock_wait_duration_seconds", HISTOGRAM, "seconds",
	       "Distribution of single waits for this lruvec's lru_lock.");
	for (size_t i = 0; i < e->nr_lruvecs; i++) {
		const struct lrs_expo_lruvec *lv = &e->lruvecs[i];
		uint64_t below = 0, all = 0;
		int b = 0;

		if (!lv->contended)
			continue;
		for (int k = 0; k < LRS_HIST_BUCKETS; k++)
			all += lv->counters.hist[k];
		for (int le = LRS_EXPO_LE_FIRST_LOG2; le <= LRS_EXPO_LE_LAST_LOG2;
		     le += LRS_EXPO_LE_STEP_LOG2) {
			/* hist[k] holds waits in [2^k, 2^(k+1)) ns: all of them are below 2^le when k < le */
			for (; b < le && b < LRS_HIST_BUCKETS; b++)
				below += lv->counters.hist[b];
			fputs("lruscope_lruvec_lock_wait_duration_seconds_bucket", f);
			lruvec_labels(f, lv->memcg, lv->node);
			fprintf(f, ",le=\"%.9g\"} %" PRIu64 "\n", (double)(1ULL << le) * 1e-9,
				below);
		}
		fputs("lruscope_lruvec_lock_wait_duration_seconds_bucket", f);
		lruvec_labels(f, lv->memcg, lv->node);
		fprintf(f, ",le=\"+Inf\"} %" PRIu64 "\n", all);
		fputs("lruscope_lruvec_lock_wait_duration_seconds_count", f);
		lruvec_labels(f, lv->memcg, lv->node);
		fprintf(f, "} %" PRIu64 "\n", all);
		lruvec_ns(f, "lruscope_lruvec_lock_wait_duration_seconds_sum", lv,
			  lv->counters.wait_ns);
	}
}

static void write_causes(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	family(f, fmt, "lruscope_lruvec_lock_sampled_wait_seconds", COUNTER, "seconds",
	       "Sampled wait for this lruvec's lru_lock by the kernel path that waited (label cause).");
	for (size_t i = 0; i < e->nr_lruvecs; i++) {
		const struct lrs_expo_lruvec *lv = &e->lruvecs[i];

		for (int k = 0; lv->causes && k < LRS_NR_CAUSES; k++) {
			if (!lv->cause_wait_ns[k])
				continue;
			fputs("lruscope_lruvec_lock_sampled_wait_seconds_total", f);
			lruvec_labels(f, lv->memcg, lv->node);
			fprintf(f, ",cause=\"%s\"} ", lrs_cause__key((enum lrs_cause)k));
			seconds(f, lv->cause_wait_ns[k]);
			fputc('\n', f);
		}
	}
}

static void write_pages(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	family(f, fmt, "lruscope_lru_pages", GAUGE, NULL,
	       "Pages on each LRU list of this memcg on this node.");
	for (size_t i = 0; i < e->nr_lruvecs; i++) {
		const struct lrs_expo_lruvec *lv = &e->lruvecs[i];

		for (int l = 0; l < LRS_NR_LRU_LISTS; l++) {
			fputs("lruscope_lru_pages", f);
			lruvec_labels(f, lv->memcg, lv->node);
			fprintf(f, ",lru=\"%s\"} %" PRIu64 "\n", lrs_lru_list_names[l],
				lv->lru_pages[l]);
		}
	}
}

static void write_imposed(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	if (!e->holders)
		return;
	family(f, fmt, "lruscope_lruvec_lock_imposed_seconds", COUNTER, "seconds",
	       "Wait imposed on this lruvec's waiters by lock holders of holder_memcg (an estimate).");
	for (size_t i = 0; i < e->nr_imposed; i++) {
		const struct lrs_expo_imposed *im = &e->imposed[i];

		fputs("lruscope_lruvec_lock_imposed_seconds_total", f);
		lruvec_labels(f, im->memcg, im->node);
		fputs(",holder_memcg=\"", f);
		label_value(f, im->holder_memcg);
		fputs("\"} ", f);
		seconds(f, im->imposed_ns);
		fputc('\n', f);
	}
}

static void write_other_locks(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	family(f, fmt, "lruscope_lock_wait_seconds", COUNTER, "seconds",
	       "Time tasks waited for other kernel locks, by name (the top ones only).");
	for (size_t i = 0; i < e->nr_locks; i++) {
		fputs("lruscope_lock_wait_seconds_total{lock=\"", f);
		label_value(f, e->locks[i].name);
		fputs("\"} ", f);
		seconds(f, e->locks[i].wait_ns);
		fputc('\n', f);
	}
	family(f, fmt, "lruscope_lock_contentions", COUNTER, NULL,
	       "Waits for other kernel locks, by name (the top ones only).");
	for (size_t i = 0; i < e->nr_locks; i++) {
		fputs("lruscope_lock_contentions_total{lock=\"", f);
		label_value(f, e->locks[i].name);
		fprintf(f, "\"} %" PRIu64 "\n", e->locks[i].contended);
	}
}

static void write_self(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	const struct lrs_expo_self *s = &e->self;
	const struct lrs_drops *d = &e->drops;
	/* a wait lost for want of its begin or end, by cause (the causes add up to drops.task,
	 * so task itself is no series): each a series, so that a sum over the label is the
	 * whole and a rate shows which cause grows */
	static const char *const reasons[] = { "task_nested",	"task_unmatched", "task_no_room",
					       "task_lost",	"stack",	  "stats_full",
					       "insert_failed", "negative_time" };
	const uint64_t lost[] = { d->task_nested,   d->task_unmatched, d->task_no_room,
				  d->task_lost,	    d->stack,	       d->stats_full,
				  d->insert_failed, d->negative_time };

	family(f, fmt, "lruscope_lost_events", COUNTER, NULL,
	       "Lock events the collector could not account, by reason.");
	for (size_t i = 0; i < sizeof(lost) / sizeof(lost[0]); i++)
		fprintf(f, "lruscope_lost_events_total{reason=\"%s\"} %" PRIu64 "\n", reasons[i],
			lost[i]);
	if (s->bpf_cost.known) {
		family(f, fmt, "lruscope_bpf_run_seconds", COUNTER, "seconds",
		       "CPU time the kernel spent in lruscope's BPF programs.");
		fputs("lruscope_bpf_run_seconds_total ", f);
		seconds(f, s->bpf_cost.run_ns);
		fputc('\n', f);
		family(f, fmt, "lruscope_bpf_runs", COUNTER, NULL,
		       "Runs of lruscope's BPF programs.");
		fprintf(f, "lruscope_bpf_runs_total %" PRIu64 "\n", s->bpf_cost.runs);
	}
	family(f, fmt, "lruscope_process_cpu_seconds", COUNTER, "seconds",
	       "User and system CPU time of the exporter process.");
	fprintf(f, "lruscope_process_cpu_seconds_total %.6f\n", s->cpu_seconds);
	family(f, fmt, "lruscope_snapshots", COUNTER, NULL, "Snapshots the collector has taken.");
	fprintf(f, "lruscope_snapshots_total %" PRIu64 "\n", s->snapshots);
	family(f, fmt, "lruscope_missed_intervals", COUNTER, NULL,
	       "Intervals the collector woke too late to take a snapshot in.");
	fprintf(f, "lruscope_missed_intervals_total %" PRIu64 "\n", s->missed_intervals);
	family(f, fmt, "lruscope_last_snapshot_timestamp_seconds", GAUGE, "seconds",
	       "When the values on this page were read (seconds since the epoch).");
	fprintf(f, "lruscope_last_snapshot_timestamp_seconds %.3f\n", s->last_snapshot_unix);
	family(f, fmt, "lruscope_memcgs", GAUGE, NULL,
	       "Memcgs with series of their own (series=own), and those folded into memcg=other.");
	fprintf(f, "lruscope_memcgs{series=\"own\"} %" PRIu64 "\n", s->own_memcgs);
	fprintf(f, "lruscope_memcgs{series=\"other\"} %" PRIu64 "\n", s->folded_memcgs);
	family(f, fmt, "lruscope_folded_memcgs", COUNTER, NULL,
	       "Memcgs folded into memcg=other since start, as --max-series was reached.");
	fprintf(f, "lruscope_folded_memcgs_total %" PRIu64 "\n", s->folded_memcgs_total);
	if (s->textfile) {
		family(f, fmt, "lruscope_textfile_errors", COUNTER, NULL,
		       "Failed writes of the --textfile file.");
		fprintf(f, "lruscope_textfile_errors_total %" PRIu64 "\n", s->textfile_errors);
	}
	family(f, fmt, "lruscope_build_info", GAUGE, NULL,
	       "lruscope's version and the kernel it runs on.");
	fputs("lruscope_build_info{version=\"", f);
	label_value(f, e->version ? e->version : "");
	fputs("\",kernel=\"", f);
	label_value(f, e->kernel ? e->kernel : "");
	fputs("\"} 1\n", f);
	if (e->spin && lrs_spin_name__str(e->spin->name)) {
		family(f, fmt, "lruscope_spin_source_info", GAUGE, NULL,
		       "Where spinlock waits are counted from (source=none: no spinlock wait is seen "
		       "here), and whether first waiters are.");
		fprintf(f, "lruscope_spin_source_info{source=\"%s\",first_waiter=\"%s\"} 1\n",
			lrs_spin_name__str(e->spin->name),
			e->spin->first_waiter ? "true" : "false");
	}
}

int lrs_expo__write(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	write_lruvec_locks(f, e, fmt);
	write_causes(f, e, fmt);
	write_pages(f, e, fmt);
	write_imposed(f, e, fmt);
	write_other_locks(f, e, fmt);
	write_self(f, e, fmt);
	if (fmt == LRS_EXPO_OPENMETRICS)
		fputs("# EOF\n", f);
	return fflush(f) || ferror(f) ? -(errno ? errno : EIO) : 0;
}

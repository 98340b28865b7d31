// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/causes.h"
#include "model/lock_names.h"
#include "ui/holders_view.h"
#include "ui/layout.h"
#include "ui/text/report.h"
#include "model/json/snapshot_json.h"

int lrs_report__parse_format(const char *name, enum lrs_report_format *out)
{
	static const char *const names[] = { "text", "json", "csv", "folded" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i])) {
			*out = (enum lrs_report_format)i;
			return 0;
		}
	return -EINVAL;
}

static const struct lrs_snapshot *sort_snap; /* qsort has no context argument */

static int cmp_lruvec_wait(const void *a, const void *b)
{
	const struct lrs_lruvec *x = &sort_snap->lruvecs[*(const size_t *)a];
	const struct lrs_lruvec *y = &sort_snap->lruvecs[*(const size_t *)b];

	if (x->counters.wait_ns != y->counters.wait_ns)
		return x->counters.wait_ns < y->counters.wait_ns ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int cmp_other_wait(const void *a, const void *b)
{
	const struct lrs_other_lock *x = &sort_snap->other_locks[*(const size_t *)a];
	const struct lrs_other_lock *y = &sort_snap->other_locks[*(const size_t *)b];

	if (x->counters.wait_ns != y->counters.wait_ns)
		return x->counters.wait_ns < y->counters.wait_ns ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static size_t *sorted_lruvecs(const struct lrs_snapshot *snap)
{
	size_t *idx = calloc(snap->nr_lruvecs ? snap->nr_lruvecs : 1, sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		idx[i] = i;
	sort_snap = snap;
	qsort(idx, snap->nr_lruvecs, sizeof(*idx), cmp_lruvec_wait);
	return idx;
}

static size_t *sorted_others(const struct lrs_snapshot *snap)
{
	size_t *idx = calloc(snap->nr_other_locks ? snap->nr_other_locks : 1, sizeof(*idx));

	if (!idx)
		return NULL;
	for (size_t i = 0; i < snap->nr_other_locks; i++)
		idx[i] = i;
	sort_snap = snap;
	qsort(idx, snap->nr_other_locks, sizeof(*idx), cmp_other_wait);
	return idx;
}

/* One row as perf lock contention prints it, with the lock's name last. */
static void text_row(FILE *f, const struct lrs_lock_counters *c, const char *type, const char *name,
		     const char *suffix)
{
	char total[16], max[16], avg[16];

	lrs_fmt__ns(total, sizeof(total), (double)c->wait_ns);
	lrs_fmt__ns(max, sizeof(max), (double)c->wait_max_ns);
	lrs_fmt__ns(avg, sizeof(avg), c->contended ? (double)c->wait_ns / (double)c->contended : 0);
	fprintf(f, "%10" PRIu64 " %12s %12s %12s %12s   %s%s\n", c->contended, total, max, avg,
		type, name, suffix);
}

static void lruvec_name(char *buf, size_t len, const struct lrs_lruvec *lv)
{
	lrs_lruvec__name(lv, buf, len);
}

/* The lruvec's sampled wait by cause, under its row; nothing when no stack was sampled. */
static void text_causes(FILE *f, const struct lrs_snapshot *snap, const struct lrs_lruvec *lv)
{
	struct lrs_causes c;
	char line[512];

	lrs_causes__of_lruvec(snap, lv, NULL, &c);
	if (!c.contended && !c.wait_ns)
		return;
	fprintf(f, "%10s   causes: %s\n", "",
		lrs_causes__summary(&c, LRS_NR_CAUSES, line, sizeof(line)));
}

static int write_text(const struct lrs_snapshot *snap, const struct lrs_report_opts *opts, FILE *f)
{
	size_t *lidx = sorted_lruvecs(snap), *oidx = sorted_others(snap);
	uint64_t lv_wait = 0, lv_cont = 0, ot_wait = 0, ot_cont = 0;
	size_t memcgs = 0, shown = 0;
	char a[16], b[16], name[512];
	const char *bold = opts->color ? "\033[1m" : "", *off = opts->color ? "\033[0m" : "";
	const char *warn = opts->color ? "\033[1;31m" : "";

	if (!lidx || !oidx) {
		free(lidx);
		free(oidx);
		return -ENOMEM;
	}
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		lv_wait += snap->lruvecs[i].counters.wait_ns;
		lv_cont += snap->lruvecs[i].counters.contended;
		if (i == 0 || snap->lruvecs[i].memcg_id != snap->lruvecs[i - 1].memcg_id)
			memcgs++;
	}
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		ot_wait += snap->other_locks[i].counters.wait_ns;
		ot_cont += snap->other_locks[i].counters.contended;
	}
	fprintf(f, "%slruscope report%s: %.1f s on Linux %s, %zu node%s, %zu memcgs, %zu lruvecs\n",
		bold, off, (double)snap->interval_ns / 1e9, snap->kernel, snap->nr_nodes,
		snap->nr_nodes == 1 ? "" : "s", memcgs, snap->nr_lruvecs);
	fprintf(f,
		"lruvec locks: %" PRIu64 " contended, %s wait; other locks: %" PRIu64
		" contended, %s wait\n",
		lv_cont, lrs_fmt__ns(a, sizeof(a), (double)lv_wait), ot_cont,
		lrs_fmt__ns(b, sizeof(b), (double)ot_wait));
	fprintf(f, "drops: task %" PRIu64, snap->drops.task);
	if (lrs_drops__task_causes(&snap->drops))
		fprintf(f,
			" (nested %" PRIu64 ", unmatched %" PRIu64 ", no room %" PRIu64
			", lost %" PRIu64 ")",
			snap->drops.task_nested, snap->drops.task_unmatched,
			snap->drops.task_no_room, snap->drops.task_lost);
	fprintf(f,
		", stack %" PRIu64 ", stats_full %" PRIu64 ", insert_failed %" PRIu64
		", negative_time %" PRIu64 "\n",
		snap->drops.stack, snap->drops.stats_full, snap->drops.insert_failed,
		snap->drops.negative_time);
	if (lrs_spin_name__str(snap->spin_source.name))
		fprintf(f, "spinlock waits from: %s%s%s (%s)\n",
			snap->spin_source.name == LRS_SPIN_NONE ? warn : bold,
			lrs_spin_name__str(snap->spin_source.name), off,
			snap->spin_source.first_waiter ? "first waiters included" :
							 "first waiters unseen");
	if (snap->unavailable)
		fprintf(f, "unavailable: %s\n", snap->unavailable);

	fprintf(f, "\n%s%10s %12s %12s %12s %12s   %s%s\n", bold, "contended", "total wait",
		"max wait", "avg wait", "type", "lruvec (memcg@node)", off);
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[lidx[i]];

		if (!lv->counters.contended && !opts->all_lruvecs)
			continue;
		lruvec_name(name, sizeof(name), lv);
		text_row(f, &lv->counters, "spinlock", name, lv->removed ? " (removed)" : "");
		text_causes(f, snap, lv);
		shown++;
	}
	if (!shown)
		fprintf(f, "%10s   (no lruvec lock was contended)\n", "");

	fprintf(f, "\n%s%10s %12s %12s %12s %12s   %s%s\n", bold, "contended", "total wait",
		"max wait", "avg wait", "type", "other locks (top by wait)", off);
	for (size_t i = 0; i < snap->nr_other_locks && i < opts->max_other_locks; i++) {
		const struct lrs_other_lock *ol = &snap->other_locks[oidx[i]];
		char suffix[40];

		snprintf(suffix, sizeof(suffix), "  [0x%" PRIx64 "]", ol->lock_addr);
		text_row(f, &ol->counters, lrs_lock_type_name(ol->flags), ol->name ? ol->name : "?",
			 suffix);
	}
	if (!snap->nr_other_locks)
		fprintf(f, "%10s   (no other lock was contended)\n", "");
	free(lidx);
	free(oidx);
	if (opts->holders) /* ui/holders_view.c */
		return lrs_holders_view__write_text(snap, 10, opts->color, f);
	return ferror(f) ? -EIO : 0;
}

static void csv_field(FILE *f, const char *s)
{
	/* quote always: cgroup names may hold commas */
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_row(FILE *f, const char *kind, const char *name, int node, uint64_t addr,
		    const char *type, const struct lrs_lock_counters *c)
{
	fprintf(f, "%s,", kind);
	csv_field(f, name);
	fprintf(f, ",%d,0x%" PRIx64 ",%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", node,
		addr, type, c->contended, c->wait_ns, c->wait_max_ns,
		c->contended ? c->wait_ns / c->contended : 0);
}

/*
 * After an lruvec's row, one "lruvec-cause" row per cause with sampled wait:
 * the cause's key in the type column, its sampled count and wait; the
 * longest wait is not kept per cause (empty).
 */
static void csv_causes(FILE *f, const struct lrs_snapshot *snap, const struct lrs_lruvec *lv)
{
	enum lrs_cause order[LRS_NR_CAUSES];
	struct lrs_causes c;
	size_t nr;

	lrs_causes__of_lruvec(snap, lv, NULL, &c);
	nr = lrs_causes__ranked(&c, order);
	for (size_t k = 0; k < nr; k++) {
		const struct lrs_cause_share *s = &c.by[order[k]];

		fprintf(f, "lruvec-cause,");
		csv_field(f, lv->memcg ? lv->memcg : "");
		fprintf(f, ",%d,0x%" PRIx64 ",%s,%" PRIu64 ",%" PRIu64 ",,%" PRIu64 "\n", lv->node,
			lv->lock_addr, lrs_cause__key(order[k]), s->contended, s->wait_ns,
			s->contended ? s->wait_ns / s->contended : 0);
	}
}

static int write_csv(const struct lrs_snapshot *snap, FILE *f)
{
	size_t *lidx = sorted_lruvecs(snap), *oidx = sorted_others(snap);

	if (!lidx || !oidx) {
		free(lidx);
		free(oidx);
		return -ENOMEM;
	}
	fprintf(f, "kind,name,node,lock,type,contended,wait_ns,wait_max_ns,avg_wait_ns\n");
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[lidx[i]];

		csv_row(f, lv->removed ? "lruvec-removed" : "lruvec", lv->memcg ? lv->memcg : "",
			lv->node, lv->lock_addr, "spinlock", &lv->counters);
		csv_causes(f, snap, lv);
	}
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		const struct lrs_other_lock *ol = &snap->other_locks[oidx[i]];

		csv_row(f, "other", ol->name ? ol->name : "", -1, ol->lock_addr,
			lrs_lock_type_name(ol->flags), &ol->counters);
	}
	free(lidx);
	free(oidx);
	return ferror(f) ? -EIO : 0;
}

int lrs_report__write(const struct lrs_snapshot *snap, const struct lrs_report_opts *opts, FILE *f)
{
	switch (opts->format) {
	case LRS_REPORT_JSON:
		return lrs_snapshot__write_json_causes(snap, f);
	case LRS_REPORT_CSV:
		return write_csv(snap, f);
	case LRS_REPORT_TEXT:
		return write_text(snap, opts, f);
	case LRS_REPORT_FOLDED:
		return lrs_report__write_folded(snap, f); /* ui/text/report_folded.c */
	default:
		return -EOPNOTSUPP;
	}
}

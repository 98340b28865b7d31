// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "model/causes.h"
#include "ui/holders_view.h"
#include "ui/layout.h"

#define MATRIX_MAX 8

void lrs_holders_view__header(const struct lrs_snapshot *snap, char *buf, size_t len)
{
	const struct lrs_holders *h = snap ? snap->holders : NULL;
	double acc = lrs_holders__accuracy(h);

	if (!h)
		snprintf(buf, len, "holders: off");
	else if (acc >= 0)
		snprintf(buf, len, "holders: %s, estimate %.1f%% on the right memcg",
			 lrs_holders__mode_name(h->mode), acc * 100);
	else
		snprintf(buf, len, "holders: %s", lrs_holders__mode_name(h->mode));
}

/* part of whole, in percent (0 when there is no whole) */
static double share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const struct lrs_snapshot *sort_snap;

static int cmp_wait(const void *a, const void *b)
{
	const struct lrs_lruvec *x = &sort_snap->lruvecs[*(const size_t *)a];
	const struct lrs_lruvec *y = &sort_snap->lruvecs[*(const size_t *)b];

	if (x->counters.wait_ns != y->counters.wait_ns)
		return x->counters.wait_ns < y->counters.wait_ns ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

const char *lrs_holders_view__name(const struct lrs_holders *h, uint64_t id)
{
	if (!id)
		return "(unknown)";
	for (size_t i = 0; i < h->nr_cells; i++) {
		if (h->cells[i].waiter_id == id && h->cells[i].waiter)
			return h->cells[i].waiter;
		if (h->cells[i].owner_id == id && h->cells[i].owner)
			return h->cells[i].owner;
		if (h->cells[i].holder_id == id && h->cells[i].holder)
			return h->cells[i].holder;
	}
	return "?";
}

static int write_matrix(const struct lrs_holders *h, bool by_holder, const char *bold,
			const char *off, FILE *f)
{
	uint64_t rows[MATRIX_MAX], cols[MATRIX_MAX], vals[MATRIX_MAX * MATRIX_MAX];
	size_t nr, nc;
	char buf[16];
	int err = lrs_holders__fold(h, by_holder, MATRIX_MAX, rows, &nr, cols, &nc, vals);

	if (err)
		return err;
	fprintf(f, "\n%smemcg x memcg: wait imposed; rows: waiting memcg, columns: %s%s\n", bold,
		by_holder ? "holder's memcg" : "lruvec owner", off);
	if (!nr) {
		fprintf(f, "  (no holder was seen)\n");
		return 0;
	}
	fprintf(f, "%-24s", "");
	for (size_t k = 0; k < nc; k++)
		fprintf(f, " %12.12s", lrs_holders_view__name(h, cols[k]));
	fputc('\n', f);
	for (size_t r = 0; r < nr; r++) {
		fprintf(f, "%-24.24s", lrs_holders_view__name(h, rows[r]));
		for (size_t k = 0; k < nc; k++)
			fprintf(f, " %12s",
				vals[r * MATRIX_MAX + k] ?
					lrs_fmt__ns(buf, sizeof(buf),
						    (double)vals[r * MATRIX_MAX + k]) :
					"-");
		fputc('\n', f);
	}
	return 0;
}

int lrs_holders_view__write_text(const struct lrs_snapshot *snap, size_t max_lruvecs, bool color,
				 FILE *f)
{
	const struct lrs_holders *h = snap->holders;
	const char *bold = color ? "\033[1m" : "", *off = color ? "\033[0m" : "";
	size_t *idx, shown = 0;
	char head[128];
	int err;

	lrs_holders_view__header(snap, head, sizeof(head));
	fprintf(f, "\n%s%s%s\n", bold, head, off);
	if (!h)
		return ferror(f) ? -EIO : 0;
	fprintf(f,
		"waits charged to a task seen running %" PRIu64 ", to an earlier acquirer %" PRIu64
		", to nobody %" PRIu64 ", map full %" PRIu64 "\n",
		h->counters.running, h->counters.probable, h->counters.unknown,
		h->counters.drop_full);
	if (h->mode == LRS_HOLDERS_EXACT) {
		const struct lrs_holders_counters *c = &h->counters;

		fprintf(f,
			"exact (fentry): %" PRIu64
			" acquisitions; estimated hold on the right memcg "
			"%.1f%%, right task %.1f%%; waits with no exact holder %" PRIu64 "\n",
			c->exact_acquisitions, 100.0 * lrs_holders__accuracy(h),
			share(c->cmp_pid_ns, c->cmp_est_ns), c->cmp_no_exact);
		fprintf(f, "  by rule:");
		for (int b = 0; b < LRS_NR_BASES; b++)
			if (c->cmp_basis_est_ns[b])
				fprintf(f, " %s %.1f%% of %.3f s", lrs_holder_basis__name(b),
					share(c->cmp_basis_memcg_ns[b], c->cmp_basis_est_ns[b]),
					(double)c->cmp_basis_est_ns[b] / 1e9);
		fprintf(f, "\n");
		fprintf(f,
			"  naive guesses, same waits: a task of the lruvec's memcg: right memcg "
			"%.1f%%; the last contended acquirer: right memcg %.1f%%, right task %.1f%%\n",
			share(c->cmp_owner_memcg_ns, c->cmp_est_ns),
			share(c->cmp_last_memcg_ns, c->cmp_est_ns),
			share(c->cmp_last_pid_ns, c->cmp_est_ns));
	}
	idx = calloc(snap->nr_lruvecs ? snap->nr_lruvecs : 1, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		idx[i] = i;
	sort_snap = snap;
	qsort(idx, snap->nr_lruvecs, sizeof(*idx), cmp_wait);
	fprintf(f, "\n%s%12s %12s %8s %8s   %-24s %s%s\n", bold, "imposed", "held", "holds",
		"behind", "holder (pid comm)", "holder memcg, on lruvec", off);
	for (size_t i = 0; i < snap->nr_lruvecs && shown < max_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[idx[i]];
		size_t first, n = lrs_holders__rows_of(h, lv->memcg_id, lv->node, &first);
		struct lrs_causes c;
		char sum[256], name[300];

		if (!n || !lv->counters.contended)
			continue;
		fprintf(f, "%s\n", lrs_lruvec__name(lv, name, sizeof(name)));
		lrs_causes__of_holders(snap, lv, &c);
		fprintf(f, "%12s held for: %s\n", "",
			lrs_causes__summary(&c, LRS_NR_CAUSES, sum, sizeof(sum)));
		for (size_t k = first; k < first + n && k < first + 5; k++) {
			const struct lrs_holder_row *r = &h->rows[k];
			const struct lrs_stack *st = lrs_snapshot__find_stack(snap, r->stack_id);
			char a[16], b[16], who[64];

			snprintf(who, sizeof(who), "%d %s", r->pid, r->comm);
			fprintf(f, "%12s %12s %8" PRIu64 " %8.1f   %-24s %s\n",
				lrs_fmt__ns(a, sizeof(a), (double)r->imposed_ns),
				lrs_fmt__ns(b, sizeof(b), (double)r->hold_ns), r->holds,
				r->holds ? (double)r->waiters / (double)r->holds : 0.0, who,
				r->pid ? (r->memcg ? r->memcg : "?") : "(unknown holder)");
			/* the call path: the holder's own wait, past the lock's frames */
			for (size_t fr = 0, sh = 0; st && fr < st->nr_frames && sh < 3; fr++) {
				if (!strncmp(st->frames[fr], "_raw_spin", 9) ||
				    strstr(st->frames[fr], "queued_spin") ||
				    !strncmp(st->frames[fr], "folio_lruvec_lock", 17))
					continue;
				fprintf(f, "%12s %s%s\n", "", sh ? "  " : "<- ", st->frames[fr]);
				sh++;
			}
		}
		shown++;
	}
	if (!shown)
		fprintf(f, "%10s   (no holder was seen)\n", "");
	free(idx);
	err = write_matrix(h, true, bold, off, f);
	if (!err)
		err = write_matrix(h, false, bold, off, f);
	if (err)
		return err;
	return ferror(f) ? -EIO : 0;
}

int lrs_holders_view__matrix(const struct lrs_holders *h, bool by_holder,
			     struct lrs_holders_matrix *m)
{
	int err;

	memset(m, 0, sizeof(*m));
	m->by_holder = by_holder;
	if (!h)
		return 0;
	err = lrs_holders__fold(h, by_holder, LRS_HOLDERS_MATRIX_MAX, m->row_ids, &m->nr_rows,
				m->col_ids, &m->nr_cols, m->vals);
	if (err)
		return err;
	for (size_t i = 0; i < LRS_HOLDERS_MATRIX_MAX * LRS_HOLDERS_MATRIX_MAX; i++)
		m->max = m->vals[i] > m->max ? m->vals[i] : m->max;
	return 0;
}

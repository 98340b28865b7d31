// SPDX-License-Identifier: GPL-2.0
/*
 * 'lruscope diff': the comparison of two runs (model/compare_run.c), row by
 * row, and the grid of its heatmaps.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"

/* The samples of s over all n intervals of its run (zeros after it went). */
static double *samples_of(const struct lrs_cmp_series *s, const double *rates, size_t n)
{
	double *v = calloc(n ? n : 1, sizeof(*v));

	if (v && s && s->n)
		memcpy(v, rates, (s->n < n ? s->n : n) * sizeof(*v));
	return v;
}

/*
 * A change of at least min_change of a (0.1: 10%) either way; INFINITY (from
 * nothing) is one, NAN (nothing on both sides) is not.
 */
static bool big_enough(double ratio, double min_change)
{
	return !isnan(ratio) && fabs(ratio - 1) >= min_change;
}

static int compare_metric(struct lrs_cmp_metric *m, const struct lrs_cmp_run *a,
			  const struct lrs_cmp_series *sa, const struct lrs_cmp_run *b,
			  const struct lrs_cmp_series *sb, bool wait,
			  const struct lrs_cmp_test *test)
{
	double *va = samples_of(sa, sa ? (wait ? sa->wait : sa->contended) : NULL, a->samples);
	double *vb = samples_of(sb, sb ? (wait ? sb->wait : sb->contended) : NULL, b->samples);

	if (!va || !vb) {
		free(va);
		free(vb);
		return -ENOMEM;
	}
	m->a = sa && a->duration_s > 0 ? (wait ? sa->wait_ns : sa->contended_sum) / a->duration_s :
					 0;
	m->b = sb && b->duration_s > 0 ? (wait ? sb->wait_ns : sb->contended_sum) / b->duration_s :
					 0;
	m->ratio = m->a > 0 ? m->b / m->a : m->b > 0 ? INFINITY : NAN;
	m->p = lrs_stats__mann_whitney_p(va, a->samples, vb, b->samples);
	m->significant = !isnan(m->p) && m->p < test->alpha &&
			 big_enough(m->ratio, test->min_change);
	free(va);
	free(vb);
	return 0;
}

/*
 * The series of each cause of lruvec lv in run (NULL: never sampled) into
 * by; returns their sampled wait in all.
 */
static double causes_of(const struct lrs_cmp_run *run, const struct lrs_cmp_series *lv,
			const struct lrs_cmp_series *by[LRS_NR_CAUSES])
{
	double sum = 0;

	for (int c = 0; c < LRS_NR_CAUSES; c++) {
		struct lrs_cmp_series like = { .kind = LRS_CMP_LRUVEC,
					       .name = lv ? lv->name : NULL,
					       .node = lv ? lv->node : -1,
					       .cause = c };

		by[c] = lv ? lrs_cmp_run__find(run, &like) : NULL;
		sum += by[c] ? by[c]->wait_ns : 0;
	}
	return sum;
}

static bool sampled(const struct lrs_cmp_series *s)
{
	return s && (s->wait_ns > 0 || s->contended_sum > 0);
}

/* significant first, then by the size of the sampled wait/s difference, then the table's order */
static int cmp_causes(const void *x, const void *y)
{
	const struct lrs_cmp_cause *a = x, *b = y;
	double da = fabs(a->wait.b - a->wait.a), db = fabs(b->wait.b - b->wait.a);

	if (a->wait.significant != b->wait.significant)
		return a->wait.significant ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	return (int)a->cause - (int)b->cause;
}

/* The causes of lruvec row from its series sa in a and sb in b (either NULL). */
static int fill_causes(struct lrs_cmp_row *row, const struct lrs_cmp_run *a,
		       const struct lrs_cmp_series *sa, const struct lrs_cmp_run *b,
		       const struct lrs_cmp_series *sb, const struct lrs_cmp_test *test)
{
	const struct lrs_cmp_series *ca[LRS_NR_CAUSES], *cb[LRS_NR_CAUSES];
	double sum_a = causes_of(a, sa, ca), sum_b = causes_of(b, sb, cb);
	/* no stack sampled on a side: its zeros say nothing about the causes */
	bool tested = row->side == LRS_CMP_BOTH && sum_a > 0 && sum_b > 0;

	if (sum_a <= 0 && sum_b <= 0)
		return 0;
	row->causes = calloc(LRS_NR_CAUSES, sizeof(*row->causes));
	if (!row->causes)
		return -ENOMEM;
	for (int c = 0; c < LRS_NR_CAUSES; c++) {
		struct lrs_cmp_cause *k = &row->causes[row->nr_causes];
		bool in_a = sampled(ca[c]), in_b = sampled(cb[c]);

		if (!in_a && !in_b && c != LRS_CAUSE_UNCLASSIFIED)
			continue;
		*k = (struct lrs_cmp_cause){
			.cause = (enum lrs_cause)c,
			.side = in_a == in_b ? LRS_CMP_BOTH :
				in_a	     ? LRS_CMP_ONLY_A :
					       LRS_CMP_ONLY_B,
			.share_a = sum_a > 0 && ca[c] ? ca[c]->wait_ns / sum_a : 0,
			.share_b = sum_b > 0 && cb[c] ? cb[c]->wait_ns / sum_b : 0
		};
		if (compare_metric(&k->wait, a, ca[c], b, cb[c], true, test))
			return -ENOMEM;
		if (!tested) {
			k->wait.p = NAN;
			k->wait.significant = false;
		}
		row->nr_causes++;
	}
	qsort(row->causes, row->nr_causes, sizeof(*row->causes), cmp_causes);
	return 0;
}

static int fill_row(struct lrs_compare *cmp, const struct lrs_cmp_run *a,
		    const struct lrs_cmp_series *sa, const struct lrs_cmp_run *b,
		    const struct lrs_cmp_series *sb, const struct lrs_cmp_test *test)
{
	const struct lrs_cmp_series *s = sa ? sa : sb;
	struct lrs_cmp_row *row = &cmp->rows[cmp->nr_rows];

	*row = (struct lrs_cmp_row){ .kind = s->kind,
				     .node = s->node,
				     .side = sa && sb ? LRS_CMP_BOTH :
					     sa	      ? LRS_CMP_ONLY_A :
							LRS_CMP_ONLY_B };
	if (s->kind != LRS_CMP_TOTAL && !(sa && (sa->wait_ns || sa->contended_sum)) &&
	    !(sb && (sb->wait_ns || sb->contended_sum))) {
		cmp->nr_idle += s->kind == LRS_CMP_LRUVEC || s->kind == LRS_CMP_LOCK;
		return 0;
	}
	row->name = strdup(s->name);
	if (!row->name || compare_metric(&row->wait, a, sa, b, sb, true, test) ||
	    compare_metric(&row->contended, a, sa, b, sb, false, test))
		goto fail;
	if (row->side != LRS_CMP_BOTH) {
		/* a memcg that did not exist is no sample of zeros of the same memcg */
		row->wait.p = row->contended.p = NAN;
		row->wait.significant = row->contended.significant = false;
	}
	if (s->kind == LRS_CMP_LRUVEC && fill_causes(row, a, sa, b, sb, test))
		goto fail;
	cmp->nr_rows++;
	if (s->kind != LRS_CMP_TOTAL && row->side == LRS_CMP_BOTH &&
	    (row->wait.significant || row->contended.significant))
		cmp->nr_significant++;
	return 0;
fail:
	free(row->name);
	free(row->causes);
	return -ENOMEM;
}

/* significant, then one side only, then the rest */
static int row_class(const struct lrs_cmp_row *r)
{
	if (r->side != LRS_CMP_BOTH)
		return 1;
	return r->wait.significant || r->contended.significant ? 0 : 2;
}

static int cmp_rows(const void *x, const void *y)
{
	const struct lrs_cmp_row *a = x, *b = y;
	double da = fabs(a->wait.b - a->wait.a), db = fabs(b->wait.b - b->wait.a);

	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->kind == LRS_CMP_TOTAL)
		return strcmp(a->name, b->name) > 0 ? 1 : -1; /* lruvec before other */
	if (row_class(a) != row_class(b))
		return row_class(a) - row_class(b);
	if (da != db)
		return da > db ? -1 : 1;
	if (a->contended.b - a->contended.a != b->contended.b - b->contended.a)
		return fabs(a->contended.b - a->contended.a) >
				       fabs(b->contended.b - b->contended.a) ?
			       -1 :
			       1;
	if (strcmp(a->name, b->name))
		return strcmp(a->name, b->name);
	return a->node - b->node;
}

/* The nodes of a's and b's lruvecs, each once; n of them. NULL: out of memory. */
static int *nodes_of(const struct lrs_cmp_run *a, const struct lrs_cmp_run *b, size_t *n)
{
	int *nodes = calloc(a->nr_series + b->nr_series + 1, sizeof(*nodes));

	*n = 0;
	for (int side = 0; nodes && side < 2; side++) {
		const struct lrs_cmp_run *run = side ? b : a;

		for (size_t i = 0; i < run->nr_series; i++) {
			size_t k;

			if (run->series[i].kind != LRS_CMP_LRUVEC || run->series[i].cause >= 0)
				continue;
			for (k = 0; k < *n && nodes[k] != run->series[i].node; k++)
				;
			if (k == *n)
				nodes[(*n)++] = run->series[i].node;
		}
	}
	return nodes;
}

/* Whether memcg's lruvecs waited, in a or in b, on more than one of the nodes. */
static bool waited_on_nodes(const struct lrs_cmp_run *a, const struct lrs_cmp_run *b,
			    const char *memcg, const int *nodes, size_t nr_nodes)
{
	size_t waited = 0;

	for (size_t k = 0; k < nr_nodes && waited < 2; k++) {
		struct lrs_cmp_series like = {
			.kind = LRS_CMP_LRUVEC, .name = (char *)memcg, .node = nodes[k], .cause = -1
		};

		waited += sampled(lrs_cmp_run__find(a, &like)) ||
			  sampled(lrs_cmp_run__find(b, &like));
	}
	return waited >= 2;
}

/*
 * Whether series s of a run has a row of its own: the totals are made apart,
 * causes go under their lruvec, and a memcg's sum only where it waited on
 * more than one node (on one, it would repeat its lruvec's row).
 */
static bool has_row(const struct lrs_cmp_series *s, const struct lrs_cmp_run *a,
		    const struct lrs_cmp_run *b, const int *nodes, size_t nr_nodes)
{
	if (s->kind == LRS_CMP_TOTAL || s->cause >= 0)
		return false;
	if (s->kind == LRS_CMP_NODE || s->kind == LRS_CMP_WAITER)
		return a->node_locks || b->node_locks;
	/* the node locks summed over the nodes are the lruvec total: no memcg of their own */
	if (s->kind == LRS_CMP_MEMCG && !strcmp(s->name, LRS_NODE_LOCK_MEMCG))
		return false;
	return s->kind != LRS_CMP_MEMCG || waited_on_nodes(a, b, s->name, nodes, nr_nodes);
}

int lrs_compare(const struct lrs_cmp_run *a, const struct lrs_cmp_run *b,
		const struct lrs_cmp_test *test, struct lrs_compare **out)
{
	size_t nr_nodes;
	int *nodes = nodes_of(a, b, &nr_nodes);
	struct lrs_compare *cmp = calloc(1, sizeof(*cmp));
	int err = -ENOMEM;

	if (!cmp || !nodes) {
		free(cmp);
		free(nodes);
		return -ENOMEM;
	}
	cmp->test = *test;
	cmp->samples_a = a->samples;
	cmp->samples_b = b->samples;
	cmp->duration_a_s = a->duration_s;
	cmp->duration_b_s = b->duration_s;
	cmp->pauses_a = a->pauses;
	cmp->pauses_b = b->pauses;
	cmp->node_locks = a->node_locks || b->node_locks;
	cmp->rows = calloc(a->nr_series + b->nr_series + 2, sizeof(*cmp->rows));
	if (!cmp->rows)
		goto fail;
	/* the totals exist even in a run of one snapshot */
	for (int t = 0; t < 2; t++) {
		struct lrs_cmp_series total = { .kind = LRS_CMP_TOTAL,
						.name = (char *)lrs_cmp_total_names[t],
						.node = -1,
						.cause = -1 };
		const struct lrs_cmp_series *sa = lrs_cmp_run__find(a, &total),
					    *sb = lrs_cmp_run__find(b, &total);

		if (fill_row(cmp, a, sa ? sa : &total, b, sb ? sb : &total, test))
			goto fail;
	}
	for (size_t i = 0; i < a->nr_series; i++) {
		const struct lrs_cmp_series *sa = &a->series[i];

		if (has_row(sa, a, b, nodes, nr_nodes) &&
		    fill_row(cmp, a, sa, b, lrs_cmp_run__find(b, sa), test))
			goto fail;
	}
	for (size_t i = 0; i < b->nr_series; i++) {
		const struct lrs_cmp_series *sb = &b->series[i];

		if (has_row(sb, a, b, nodes, nr_nodes) && !lrs_cmp_run__find(a, sb) &&
		    fill_row(cmp, a, NULL, b, sb, test))
			goto fail;
	}
	qsort(cmp->rows, cmp->nr_rows, sizeof(*cmp->rows), cmp_rows);
	free(nodes);
	*out = cmp;
	return 0;
fail:
	free(nodes);
	lrs_compare__free(cmp);
	return err;
}

void lrs_compare__free(struct lrs_compare *cmp)
{
	if (!cmp)
		return;
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		free(cmp->rows[i].name);
		free(cmp->rows[i].causes);
	}
	free(cmp->rows);
	free(cmp);
}

/* ---- the grid of the heatmaps ------------------------------------------------- */

int lrs_cmp_grid__init(struct lrs_cmp_grid *grid, const struct lrs_compare *cmp)
{
	*grid = (struct lrs_cmp_grid){};
	grid->memcgs = calloc(cmp->nr_rows + 1, sizeof(*grid->memcgs));
	grid->nodes = calloc(cmp->nr_rows + 1, sizeof(*grid->nodes));
	if (!grid->memcgs || !grid->nodes) {
		lrs_cmp_grid__clear(grid);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct lrs_cmp_row *r = &cmp->rows[i];
		size_t k;

		if (r->kind != LRS_CMP_LRUVEC)
			continue;
		for (k = 0; k < grid->nr_memcgs && strcmp(grid->memcgs[k], r->name); k++)
			;
		if (k == grid->nr_memcgs)
			grid->memcgs[grid->nr_memcgs++] = r->name;
		for (k = 0; k < grid->nr_nodes && grid->nodes[k] != r->node; k++)
			;
		if (k < grid->nr_nodes)
			continue;
		/* keep them ascending: insert in place */
		for (k = grid->nr_nodes; k > 0 && grid->nodes[k - 1] > r->node; k--)
			grid->nodes[k] = grid->nodes[k - 1];
		grid->nodes[k] = r->node;
		grid->nr_nodes++;
	}
	grid->nr_columns = grid->nr_nodes + (grid->nr_nodes > 1);
	return 0;
}

void lrs_cmp_grid__clear(struct lrs_cmp_grid *grid)
{
	free(grid->memcgs);
	free(grid->nodes);
	*grid = (struct lrs_cmp_grid){};
}

const struct lrs_cmp_row *lrs_compare__lruvec(const struct lrs_compare *cmp, const char *memcg,
					      int node)
{
	for (size_t i = 0; i < cmp->nr_rows; i++)
		if (cmp->rows[i].kind == LRS_CMP_LRUVEC && cmp->rows[i].node == node &&
		    !strcmp(cmp->rows[i].name, memcg))
			return &cmp->rows[i];
	return NULL;
}

const struct lrs_cmp_row *lrs_compare__memcg(const struct lrs_compare *cmp, const char *memcg)
{
	const struct lrs_cmp_row *one = NULL;

	for (size_t i = 0; i < cmp->nr_rows; i++) {
		const struct lrs_cmp_row *r = &cmp->rows[i];

		if ((r->kind != LRS_CMP_MEMCG && r->kind != LRS_CMP_LRUVEC) ||
		    strcmp(r->name, memcg))
			continue;
		if (r->kind == LRS_CMP_MEMCG)
			return r;
		one = r; /* no sum: it waited on this node only */
	}
	return one;
}

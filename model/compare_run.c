// SPDX-License-Identifier: GPL-2.0
/*
 * 'lruscope diff', one side: a recording's snapshots, pushed in order, become
 * per-interval rates of every lruvec (by memcg path and node), node, waiter
 * memcg, memcg and other lock (by name), and of each cause of an lruvec's
 * sampled stacks. model/compare.c compares two such runs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/causes.h"
#include "model/compare_run.h"
#include "model/snapshot_diff.h"

const char *const lrs_cmp_total_names[2] = { "lruvec locks", "other locks" };

struct lrs_cmp_run *lrs_cmp_run__new(void)
{
	struct lrs_cmp_run *run = calloc(1, sizeof(*run));

	if (run)
		u64map__init(&run->index);
	return run;
}

void lrs_cmp_run__free(struct lrs_cmp_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->nr_series; i++) {
		free(run->series[i].name);
		free(run->series[i].wait);
		free(run->series[i].contended);
	}
	free(run->series);
	u64map__destroy(&run->index);
	lrs_snapshot__free(run->prev);
	free(run);
}

size_t lrs_cmp_run__samples(const struct lrs_cmp_run *run)
{
	return run->samples;
}

double lrs_cmp_run__duration_s(const struct lrs_cmp_run *run)
{
	return run->duration_s;
}

size_t lrs_cmp_run__pauses(const struct lrs_cmp_run *run)
{
	return run->pauses;
}

static uint64_t key_hash(enum lrs_cmp_kind kind, const char *name, int node, int cause)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (const char *c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	h = (h ^ (uint64_t)(cause + 1)) * 0x100000001b3ULL;
	return u64map__key2(h, ((uint64_t)kind << 32) | (uint32_t)node);
}

static bool same_key(const struct lrs_cmp_series *s, enum lrs_cmp_kind kind, const char *name,
		     int node, int cause)
{
	return s->kind == kind && s->node == node && s->cause == cause && !strcmp(s->name, name);
}

/*
 * The index of the series of (kind, name, node, cause) in run, made when new;
 * -1 when out of memory. An index, not a pointer: a new series moves them all.
 */
static long series_of(struct lrs_cmp_run *run, enum lrs_cmp_kind kind, const char *name, int node,
		      int cause)
{
	uint64_t h = key_hash(kind, name, node, cause);
	struct lrs_cmp_series *s;
	size_t i;

	/* distinct keys whose hashes collide probe on to the next hash */
	for (;; h++) {
		if (!u64map__get(&run->index, h, &i))
			break;
		if (same_key(&run->series[i], kind, name, node, cause))
			return (long)i;
	}
	if (run->nr_series == run->cap_series) {
		size_t cap = run->cap_series ? run->cap_series * 2 : 64;
		struct lrs_cmp_series *grown = realloc(run->series, cap * sizeof(*grown));

		if (!grown)
			return -1;
		run->series = grown;
		run->cap_series = cap;
	}
	s = &run->series[run->nr_series];
	*s = (struct lrs_cmp_series){
		.kind = kind, .node = node, .cause = cause, .name = strdup(name)
	};
	if (!s->name || u64map__set(&run->index, h, run->nr_series)) {
		free(s->name);
		return -1;
	}
	return (long)run->nr_series++;
}

/* Add delta (wait ns, contentions) over dt_s to sample k of series si (-1: out of memory). */
static int series_add(struct lrs_cmp_run *run, long si, size_t k, double dt_s, uint64_t wait_ns,
		      uint64_t contended)
{
	struct lrs_cmp_series *s;

	if (si < 0)
		return -ENOMEM;
	s = &run->series[si];
	if (k >= s->cap) {
		/* room for sample k: a series first seen late (a lock, a memcg) starts past 64 */
		size_t cap = s->cap ? s->cap * 2 : 64;
		double *w, *c;

		while (cap <= k)
			cap *= 2;
		w = realloc(s->wait, cap * sizeof(*w));
		if (!w)
			return -ENOMEM;
		s->wait = w;
		c = realloc(s->contended, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		s->contended = c;
		s->cap = cap;
	}
	while (s->n <= k) {
		s->wait[s->n] = 0;
		s->contended[s->n++] = 0;
	}
	s->wait[k] += (double)wait_ns / dt_s;
	s->contended[k] += (double)contended / dt_s;
	s->wait_ns += (double)wait_ns;
	s->contended_sum += (double)contended;
	return 0;
}

static uint64_t increase(uint64_t now, uint64_t before)
{
	return now >= before ? now - before : now; /* went backwards: from zero */
}

/* The causes of lv's stack uses sampled since was (its lruvec before, or NULL). */
static int add_causes(struct lrs_cmp_run *run, const struct lrs_snapshot *snap,
		      const struct lrs_lruvec *lv, const struct lrs_lruvec *was, size_t k,
		      double dt_s)
{
	struct lrs_causes c;

	lrs_causes__of_lruvec(snap, lv, was, &c);
	for (int cause = 0; cause < LRS_NR_CAUSES; cause++) {
		const struct lrs_cause_share *by = &c.by[cause];

		if ((by->wait_ns || by->contended) &&
		    series_add(run,
			       series_of(run, LRS_CMP_LRUVEC, lv->memcg ? lv->memcg : "?", lv->node,
					 cause),
			       k, dt_s, by->wait_ns, by->contended))
			return -ENOMEM;
	}
	return 0;
}

/*
 * lv's waiters since was (its lruvec before, or NULL), each into the series of
 * its own memcg: what that memcg's tasks waited, on whichever lruvec lock.
 */
static int add_waiters(struct lrs_cmp_run *run, const struct lrs_lruvec *lv,
		       const struct lrs_lruvec *was, size_t k, double dt_s)
{
	for (size_t i = 0; i < lv->nr_waiters; i++) {
		const struct lrs_waiter *w = &lv->waiters[i], *before = NULL;

		for (size_t b = 0; was && b < was->nr_waiters && !before; b++)
			if (was->waiters[b].pid == w->pid &&
			    was->waiters[b].memcg_id == w->memcg_id)
				before = &was->waiters[b];
		if (series_add(run,
			       series_of(run, LRS_CMP_WAITER, w->memcg ? w->memcg : "?", -1, -1), k,
			       dt_s, increase(w->wait_ns, before ? before->wait_ns : 0),
			       increase(w->contended, before ? before->contended : 0)))
			return -ENOMEM;
	}
	return 0;
}

/* lv's wait into its node's sum of lruvec locks, and its waiters' into their memcgs'. */
static int add_node_and_waiters(struct lrs_cmp_run *run, const struct lrs_lruvec *lv,
				const struct lrs_lruvec *was, size_t k, double dt_s, uint64_t wait,
				uint64_t cont)
{
	char name[16];

	if (lrs_lruvec__is_node_lock(lv))
		run->node_locks = true;
	snprintf(name, sizeof(name), "N%d", lv->node);
	if (series_add(run, series_of(run, LRS_CMP_NODE, name, lv->node, -1), k, dt_s, wait, cont))
		return -ENOMEM;
	return add_waiters(run, lv, was, k, dt_s);
}

static int add_interval(struct lrs_cmp_run *run, const struct lrs_snapshot *snap, double dt_s)
{
	const struct lrs_snapshot *prev = run->prev;
	struct u64map before;
	long total[2];
	size_t k = run->samples, j;
	int err = -ENOMEM;

	u64map__init(&before);
	total[0] = series_of(run, LRS_CMP_TOTAL, lrs_cmp_total_names[0], -1, -1);
	total[1] = series_of(run, LRS_CMP_TOTAL, lrs_cmp_total_names[1], -1, -1);
	if (series_add(run, total[0], k, dt_s, 0, 0) || series_add(run, total[1], k, dt_s, 0, 0))
		goto out;
	for (size_t i = 0; i < prev->nr_lruvecs; i++)
		if (u64map__set(&before,
				u64map__key2(prev->lruvecs[i].memcg_id,
					     (uint64_t)prev->lruvecs[i].node),
				i))
			goto out;
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[i];
		const struct lrs_lruvec *was = NULL;
		long s;
		uint64_t wait, cont;

		if (u64map__get(&before, u64map__key2(lv->memcg_id, (uint64_t)lv->node), &j))
			was = &prev->lruvecs[j];
		wait = increase(lv->counters.wait_ns, was ? was->counters.wait_ns : 0);
		cont = increase(lv->counters.contended, was ? was->counters.contended : 0);
		/*
		 * A memcg removed before this interval, with no wait in it, is carried by the
		 * collector for its final counts (one process recording two layouts in turn):
		 * it is no part of this run, not a sample of zeros.
		 */
		if (was && was->removed && lv->removed && !wait && !cont)
			continue;
		s = series_of(run, LRS_CMP_LRUVEC, lv->memcg ? lv->memcg : "?", lv->node, -1);
		if (series_add(run, s, k, dt_s, wait, cont) ||
		    series_add(run, total[0], k, dt_s, wait, cont) ||
		    series_add(run,
			       series_of(run, LRS_CMP_MEMCG, lv->memcg ? lv->memcg : "?", -1, -1),
			       k, dt_s, wait, cont) ||
		    add_node_and_waiters(run, lv, was, k, dt_s, wait, cont) ||
		    add_causes(run, snap, lv, was, k, dt_s))
			goto out;
	}
	u64map__clear(&before);
	for (size_t i = 0; i < prev->nr_other_locks; i++)
		if (u64map__set(&before, prev->other_locks[i].lock_addr, i))
			goto out;
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		const struct lrs_other_lock *ol = &snap->other_locks[i];
		const struct lrs_lock_counters *was = NULL;
		long s = series_of(run, LRS_CMP_LOCK, ol->name ? ol->name : "?", -1, -1);
		uint64_t wait, cont;

		if (u64map__get(&before, ol->lock_addr, &j))
			was = &prev->other_locks[j].counters;
		wait = increase(ol->counters.wait_ns, was ? was->wait_ns : 0);
		cont = increase(ol->counters.contended, was ? was->contended : 0);
		if (series_add(run, s, k, dt_s, wait, cont) ||
		    series_add(run, total[1], k, dt_s, wait, cont))
			goto out;
	}
	err = 0;
out:
	u64map__destroy(&before);
	return err;
}

int lrs_cmp_run__push(struct lrs_cmp_run *run, const struct lrs_snapshot *snap)
{
	struct lrs_snapshot *copy;
	int err;

	if (run->prev) {
		uint64_t dt_ns;
		double dt_s;

		if (snap->t_ns <= run->prev->t_ns)
			return -EINVAL;
		dt_ns = snap->t_ns - run->prev->t_ns;
		dt_s = (double)dt_ns / 1e9;
		if (snap->interval_ns && dt_ns > LRS_COMPARE_PAUSE_FACTOR * snap->interval_ns) {
			run->pauses++; /* the next interval starts here */
		} else {
			err = add_interval(run, snap, dt_s);
			if (err)
				return err;
			run->samples++;
			run->duration_s += dt_s;
		}
	}
	copy = lrs_snapshot__clone(snap);
	if (!copy)
		return -ENOMEM;
	lrs_snapshot__free(run->prev);
	run->prev = copy;
	return 0;
}

const struct lrs_cmp_series *lrs_cmp_run__find(const struct lrs_cmp_run *run,
					       const struct lrs_cmp_series *like)
{
	uint64_t h = key_hash(like->kind, like->name, like->node, like->cause);
	size_t i;

	for (;; h++) {
		if (!u64map__get(&run->index, h, &i))
			return NULL;
		if (same_key(&run->series[i], like->kind, like->name, like->node, like->cause))
			return &run->series[i];
	}
}

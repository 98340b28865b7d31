// SPDX-License-Identifier: GPL-2.0
/*
 * A snapshot as a full line of JSON (a delta line: snapshot_json_delta.c;
 * read back: snapshot_json_read.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "model/causes.h"
#include "model/json/holders_json.h"
#include "model/json/json_writer.h"
#include "model/json/snapshot_json.h"
#include "model/json/snapshot_json_internal.h"

void lrs_snapshot_json__write_waiter_id(struct lrs_json *j, const struct lrs_waiter *w)
{
	lrs_json__key(j, "pid");
	lrs_json__i64(j, w->pid);
	lrs_json__key(j, "comm");
	lrs_json__str(j, w->comm);
	lrs_json__key(j, "memcg");
	lrs_json__str(j, w->memcg);
	lrs_json__key(j, "memcg_id");
	lrs_json__u64(j, w->memcg_id);
}

void lrs_snapshot_json__write_lru_pages(struct lrs_json *j, const struct lrs_lruvec *lv)
{
	lrs_json__key(j, "lru_pages");
	lrs_json__obj_begin(j);
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++) {
		lrs_json__key(j, lrs_lru_list_names[l]);
		lrs_json__u64(j, lv->lru_pages[l]);
	}
	lrs_json__obj_end(j);
}

static void write_counters(struct lrs_json *j, const struct lrs_lock_counters *c)
{
	int last = 0;

	lrs_json__key(j, "contended");
	lrs_json__u64(j, c->contended);
	lrs_json__key(j, "wait_ns");
	lrs_json__u64(j, c->wait_ns);
	lrs_json__key(j, "wait_max_ns");
	lrs_json__u64(j, c->wait_max_ns);
	/* trailing empty buckets are left out: readers pad with zeros */
	for (int i = 0; i < LRS_HIST_BUCKETS; i++)
		if (c->hist[i])
			last = i + 1;
	lrs_json__key(j, "hist");
	lrs_json__arr_begin(j);
	for (int i = 0; i < last; i++)
		lrs_json__u64(j, c->hist[i]);
	lrs_json__arr_end(j);
}

static void write_stack_uses(struct lrs_json *j, const struct lrs_stack_use *s, size_t n)
{
	lrs_json__key(j, "stacks");
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		lrs_json__obj_begin(j);
		lrs_json__key(j, "id");
		lrs_json__i64(j, s[i].id);
		lrs_json__key(j, "contended");
		lrs_json__u64(j, s[i].contended);
		lrs_json__key(j, "wait_ns");
		lrs_json__u64(j, s[i].wait_ns);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

/* "causes" (the sampled wait) or "holder_causes" (the imposed wait), largest first: report only. */
static void write_causes(struct lrs_json *j, const char *key, const struct lrs_causes *c)
{
	enum lrs_cause order[LRS_NR_CAUSES];
	size_t nr = lrs_causes__ranked(c, order);

	lrs_json__key(j, key);
	lrs_json__arr_begin(j);
	for (size_t k = 0; k < nr; k++) {
		lrs_json__obj_begin(j);
		lrs_json__key(j, "cause");
		lrs_json__str(j, lrs_cause__key(order[k]));
		lrs_json__key(j, "contended");
		lrs_json__u64(j, c->by[order[k]].contended);
		lrs_json__key(j, "wait_ns");
		lrs_json__u64(j, c->by[order[k]].wait_ns);
		lrs_json__key(j, "share");
		lrs_json__dbl(j, lrs_causes__share(c, order[k]));
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

static void write_lruvec(struct lrs_json *j, const struct lrs_snapshot *snap,
			 const struct lrs_lruvec *lv, bool causes)
{
	lrs_json__obj_begin(j);
	lrs_json__key(j, "memcg");
	lrs_json__str(j, lv->memcg);
	lrs_json__key(j, "memcg_id");
	lrs_json__u64(j, lv->memcg_id);
	lrs_json__key(j, "parent_id");
	lrs_json__u64(j, lv->parent_id);
	lrs_json__key(j, "depth");
	lrs_json__i64(j, lv->depth);
	lrs_json__key(j, "node");
	lrs_json__i64(j, lv->node);
	lrs_json__addr(j, "lock", lv->lock_addr);
	if (lv->removed) {
		lrs_json__key(j, "removed");
		lrs_json__bool(j, true);
	}
	write_counters(j, &lv->counters);
	lrs_json__key(j, "waiters");
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < lv->nr_waiters; i++) {
		const struct lrs_waiter *w = &lv->waiters[i];

		lrs_json__obj_begin(j);
		lrs_snapshot_json__write_waiter_id(j, w);
		lrs_json__key(j, "contended");
		lrs_json__u64(j, w->contended);
		lrs_json__key(j, "wait_ns");
		lrs_json__u64(j, w->wait_ns);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
	write_stack_uses(j, lv->stacks, lv->nr_stacks);
	if (causes) {
		struct lrs_causes c;

		lrs_causes__of_lruvec(snap, lv, NULL, &c);
		write_causes(j, "causes", &c);
		if (snap->holders) {
			lrs_causes__of_holders(snap, lv, &c);
			write_causes(j, "holder_causes", &c);
		}
	}
	lrs_snapshot_json__write_lru_pages(j, lv);
	lrs_json__obj_end(j);
}

void lrs_snapshot_json__write_head_fields(struct lrs_json *j, const struct lrs_snapshot *snap)
{
	lrs_json__key(j, "t_ns");
	lrs_json__u64(j, snap->t_ns);
	lrs_json__key(j, "interval_ns");
	lrs_json__u64(j, snap->interval_ns);
	lrs_json__key(j, "kernel");
	lrs_json__str(j, snap->kernel);
	lrs_json__key(j, "nodes");
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < snap->nr_nodes; i++)
		lrs_json__i64(j, snap->nodes[i]);
	lrs_json__arr_end(j);
	if (lrs_spin_name__str(snap->spin_source.name)) {
		lrs_json__key(j, "spin_source");
		lrs_json__obj_begin(j);
		lrs_json__key(j, "name");
		lrs_json__str(j, lrs_spin_name__str(snap->spin_source.name));
		lrs_json__key(j, "first_waiter");
		lrs_json__bool(j, snap->spin_source.first_waiter);
		lrs_json__key(j, "why");
		lrs_json__str(j, snap->spin_source.why);
		lrs_json__obj_end(j);
	}
}

void lrs_snapshot_json__write_stacks(struct lrs_json *j, const struct lrs_snapshot *snap)
{
	lrs_json__key(j, "stacks");
	lrs_json__obj_begin(j);
	for (size_t i = 0; i < snap->nr_stacks; i++) {
		char id[16];

		snprintf(id, sizeof(id), "%d", snap->stacks[i].id);
		lrs_json__key(j, id);
		lrs_json__arr_begin(j);
		for (size_t k = 0; k < snap->stacks[i].nr_frames; k++)
			lrs_json__str(j, snap->stacks[i].frames[k]);
		lrs_json__arr_end(j);
	}
	lrs_json__obj_end(j);
}

/* The drops object: its counters in order, the task drops' causes where a collector gave them. */
static void write_drops(struct lrs_json *j, const struct lrs_drops *d)
{
	const struct {
		const char *key;
		uint64_t v;
		bool cause; /* left out when no cause is known (recordings made before) */
	} keys[] = {
		{ "task", d->task, false },
		{ "task_nested", d->task_nested, true },
		{ "task_unmatched", d->task_unmatched, true },
		{ "task_no_room", d->task_no_room, true },
		{ "task_lost", d->task_lost, true },
		{ "stack", d->stack, false },
		{ "stats_full", d->stats_full, false },
		{ "insert_failed", d->insert_failed, false },
		{ "negative_time", d->negative_time, false },
	};
	bool causes = lrs_drops__task_causes(d);

	lrs_json__obj_begin(j);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (keys[i].cause && !causes)
			continue;
		lrs_json__key(j, keys[i].key);
		lrs_json__u64(j, keys[i].v);
	}
	lrs_json__obj_end(j);
}

void lrs_snapshot_json__write_tail(struct lrs_json *j, const struct lrs_snapshot *snap)
{
	lrs_json__key(j, "drops");
	write_drops(j, &snap->drops);
	if (snap->unavailable) {
		lrs_json__key(j, "unavailable");
		lrs_json__str(j, snap->unavailable);
	}
	lrs_holders__write_json(j, snap); /* only when holders were tracked */
}

static int write_json(const struct lrs_snapshot *snap, bool causes, FILE *f)
{
	struct lrs_json j;

	lrs_json__init(&j, f);
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "schema");
	lrs_json__i64(&j, snap->schema);
	lrs_snapshot_json__write_head_fields(&j, snap);

	lrs_json__key(&j, "lruvecs");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		write_lruvec(&j, snap, &snap->lruvecs[i], causes);
	lrs_json__arr_end(&j);

	lrs_json__key(&j, "other_locks");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		const struct lrs_other_lock *ol = &snap->other_locks[i];

		lrs_json__obj_begin(&j);
		lrs_json__key(&j, "name");
		lrs_json__str(&j, ol->name);
		lrs_json__addr(&j, "lock", ol->lock_addr);
		lrs_json__key(&j, "flags");
		lrs_json__u64(&j, ol->flags);
		write_counters(&j, &ol->counters);
		write_stack_uses(&j, ol->stacks, ol->nr_stacks);
		lrs_json__obj_end(&j);
	}
	lrs_json__arr_end(&j);

	lrs_snapshot_json__write_stacks(&j, snap);
	lrs_snapshot_json__write_tail(&j, snap);
	lrs_json__obj_end(&j);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

int lrs_snapshot__write_json(const struct lrs_snapshot *snap, FILE *f)
{
	return write_json(snap, false, f);
}

int lrs_snapshot__write_json_causes(const struct lrs_snapshot *snap, FILE *f)
{
	return write_json(snap, true, f);
}

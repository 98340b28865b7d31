// SPDX-License-Identifier: GPL-2.0
/*
 * The snapshot JSON read back: one line, full or a recording's delta over
 * the line before, into the snapshot the live collector built.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json/holders_json.h"
#include "model/json/json_get.h"
#include "model/json/snapshot_json.h"
#include "model/snapshot_diff.h"

/* "spin_source": {"name", "first_waiter", "why"}; absent in older recordings: unknown. */
static int decode_spin_source(struct lrs_jerr *e, const struct lrs_jval *v,
			      struct lrs_spin_source *out)
{
	const char *name, *why;
	int n;

	memset(out, 0, sizeof(*out));
	if (!v)
		return 0;
	name = lrs_jval__str(lrs_jval__get(v, "name"));
	n = lrs_spin_name__parse(name);
	if (v->type != LRS_JOBJ || n < 0) {
		lrs_jerr__set(
			e, "\"spin_source\" names no source (want tracepoint, slowpath or none)");
		return -EINVAL;
	}
	out->name = (enum lrs_spin_name)n;
	if (lrs_jval__get(v, "first_waiter") &&
	    lrs_jval__bool(lrs_jval__get(v, "first_waiter"), &out->first_waiter)) {
		lrs_jerr__set(e, "\"spin_source\".\"first_waiter\" is not true or false");
		return -EINVAL;
	}
	why = lrs_jval__str(lrs_jval__get(v, "why"));
	snprintf(out->why, sizeof(out->why), "%s", why ? why : "");
	return 0;
}

/* Counters; delta: contended, wait_ns and hist are increments over *c. */
static int decode_counters(struct lrs_jerr *e, const struct lrs_jval *obj,
			   struct lrs_lock_counters *c, bool delta)
{
	const struct lrs_jval *h = lrs_jval__get(obj, "hist");
	int err;

	err = delta ? lrs_jval__opt_inc(e, obj, "contended", &c->contended) :
		      lrs_jval__opt_u64(e, obj, "contended", &c->contended);
	if (!err)
		err = delta ? lrs_jval__opt_inc(e, obj, "wait_ns", &c->wait_ns) :
			      lrs_jval__opt_u64(e, obj, "wait_ns", &c->wait_ns);
	if (!err)
		err = lrs_jval__opt_u64(e, obj, "wait_max_ns", &c->wait_max_ns);
	if (err || !h)
		return err;
	if (h->type != LRS_JARR)
		return lrs_jerr__set(e, "\"hist\" is not an array");
	if (h->u.arr.len > LRS_HIST_BUCKETS)
		return lrs_jerr__set(e, "\"hist\" has %zu buckets, at most %d", h->u.arr.len,
				     LRS_HIST_BUCKETS);
	for (size_t i = 0; i < h->u.arr.len; i++) {
		int64_t inc;

		if (delta) {
			if (lrs_jval__i64(h->u.arr.items[i], &inc))
				return lrs_jerr__set(e, "\"hist\" holds a non-integer");
			c->hist[i] += (uint64_t)inc;
		} else if (lrs_jval__u64(h->u.arr.items[i], &c->hist[i])) {
			return lrs_jerr__set(e, "\"hist\" holds a negative or non-integer value");
		}
	}
	/* a full line leaves out trailing empty buckets: they are zero */
	if (!delta)
		for (size_t i = h->u.arr.len; i < LRS_HIST_BUCKETS; i++)
			c->hist[i] = 0;
	return 0;
}

/* Stack uses: a full list; delta counts are increments over prev's same id. */
static int decode_uses(struct lrs_jerr *e, const struct lrs_jval *arr, struct lrs_stack_use **uses,
		       size_t *nr, bool delta)
{
	struct lrs_stack_use *n = NULL;
	size_t len;

	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return lrs_jerr__set(e, "\"stacks\" of a lock is not an array");
	len = arr->u.arr.len;
	if (len && !(n = calloc(len, sizeof(*n))))
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		const struct lrs_jval *o = arr->u.arr.items[i];
		const struct lrs_stack_use *b;
		int err, id;

		if (o->type != LRS_JOBJ) {
			free(n);
			return lrs_jerr__set(e, "a stack use is not an object");
		}
		if (lrs_jval__int(lrs_jval__get(o, "id"), &id)) {
			free(n);
			return lrs_jerr__set(e, "a stack use has no integer \"id\"");
		}
		n[i].id = id;
		b = delta ? lrs_stack_uses__find(*uses, *nr, n[i].id) : NULL;
		if (b) {
			n[i].contended = b->contended;
			n[i].wait_ns = b->wait_ns;
		}
		err = delta ? lrs_jval__opt_inc(e, o, "contended", &n[i].contended) :
			      lrs_jval__opt_u64(e, o, "contended", &n[i].contended);
		if (!err)
			err = delta ? lrs_jval__opt_inc(e, o, "wait_ns", &n[i].wait_ns) :
				      lrs_jval__opt_u64(e, o, "wait_ns", &n[i].wait_ns);
		if (err) {
			free(n);
			return err;
		}
	}
	free(*uses);
	*uses = n;
	*nr = len;
	return 0;
}

static void waiters__free(struct lrs_waiter *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(w[i].memcg);
	free(w);
}

static int decode_waiters(struct lrs_jerr *e, const struct lrs_jval *arr, struct lrs_lruvec *lv,
			  bool delta)
{
	struct lrs_waiter *n = NULL;
	size_t len, done = 0;
	int err = 0;

	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return lrs_jerr__set(e, "\"waiters\" is not an array");
	len = arr->u.arr.len;
	if (len && !(n = calloc(len, sizeof(*n))))
		return -ENOMEM;
	for (; done < len; done++) {
		const struct lrs_jval *o = arr->u.arr.items[done];
		struct lrs_waiter *w = &n[done];
		const struct lrs_waiter *b;
		const char *comm;
		int pid;

		if (o->type != LRS_JOBJ) {
			err = lrs_jerr__set(e, "a waiter is not an object");
			break;
		}
		if (lrs_jval__int(lrs_jval__get(o, "pid"), &pid)) {
			err = lrs_jerr__set(e, "a waiter has no integer \"pid\"");
			break;
		}
		w->pid = pid;
		comm = lrs_jval__str(lrs_jval__get(o, "comm"));
		snprintf(w->comm, sizeof(w->comm), "%s", comm ? comm : "");
		b = delta ? lrs_lruvec__find_waiter(lv, w->pid) : NULL;
		if (b) {
			w->contended = b->contended;
			w->wait_ns = b->wait_ns;
		}
		err = lrs_jval__opt_u64(e, o, "memcg_id", &w->memcg_id);
		if (!err)
			err = lrs_jval__opt_strdup(e, o, "memcg", &w->memcg);
		if (!err)
			err = delta ? lrs_jval__opt_inc(e, o, "contended", &w->contended) :
				      lrs_jval__opt_u64(e, o, "contended", &w->contended);
		if (!err)
			err = delta ? lrs_jval__opt_inc(e, o, "wait_ns", &w->wait_ns) :
				      lrs_jval__opt_u64(e, o, "wait_ns", &w->wait_ns);
		if (err)
			break;
	}
	if (err) {
		waiters__free(n, done + (done < len ? 1 : 0));
		return err;
	}
	waiters__free(lv->waiters, lv->nr_waiters);
	lv->waiters = n;
	lv->nr_waiters = len;
	return 0;
}

static int decode_lru_pages(struct lrs_jerr *e, const struct lrs_jval *obj, uint64_t *pages)
{
	const struct lrs_jval *lp = lrs_jval__get(obj, "lru_pages");

	if (!lp)
		return 0;
	if (lp->type != LRS_JOBJ)
		return lrs_jerr__set(e, "\"lru_pages\" is not an object");
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
		if (lrs_jval__opt_u64(e, lp, lrs_lru_list_names[l], &pages[l]))
			return -EINVAL;
	return 0;
}

/* Fields of one lruvec entry over *lv (zeroed for a full entry). */
static int decode_lruvec(struct lrs_jerr *e, const struct lrs_jval *o, struct lrs_lruvec *lv,
			 bool delta)
{
	int err;

	err = lrs_jval__opt_strdup(e, o, "memcg", &lv->memcg);
	if (!err)
		err = lrs_jval__opt_u64(e, o, "parent_id", &lv->parent_id);
	if (!err)
		err = lrs_jval__opt_int(e, o, "depth", &lv->depth);
	if (!err)
		err = lrs_jval__opt_addr(e, o, "lock", &lv->lock_addr);
	if (!err)
		err = lrs_jval__opt_bool(e, o, "removed", &lv->removed);
	if (!err)
		err = decode_counters(e, o, &lv->counters, delta);
	if (!err)
		err = decode_waiters(e, lrs_jval__get(o, "waiters"), lv, delta);
	if (!err)
		err = decode_uses(e, lrs_jval__get(o, "stacks"), &lv->stacks, &lv->nr_stacks,
				  delta);
	if (!err)
		err = decode_lru_pages(e, o, lv->lru_pages);
	return err;
}

static int decode_other(struct lrs_jerr *e, const struct lrs_jval *o, struct lrs_other_lock *ol,
			bool delta)
{
	uint64_t flags = ol->flags;
	int err;

	err = lrs_jval__opt_strdup(e, o, "name", &ol->name);
	if (!err)
		err = lrs_jval__opt_u64(e, o, "flags", &flags);
	if (!err && flags > UINT32_MAX)
		err = lrs_jerr__set(e, "\"flags\" is over 32 bits");
	ol->flags = (uint32_t)flags;
	if (!err)
		err = decode_counters(e, o, &ol->counters, delta);
	if (!err)
		err = decode_uses(e, lrs_jval__get(o, "stacks"), &ol->stacks, &ol->nr_stacks,
				  delta);
	return err;
}

static int lruvec_key(struct lrs_jerr *e, const struct lrs_jval *o, uint64_t *id, int *node)
{
	if (o->type != LRS_JOBJ)
		return lrs_jerr__set(e, "an lruvec is not an object");
	if (lrs_jval__u64(lrs_jval__get(o, "memcg_id"), id))
		return lrs_jerr__set(e, "an lruvec has no \"memcg_id\"");
	if (lrs_jval__int(lrs_jval__get(o, "node"), node) || *node < 0)
		return lrs_jerr__set(e, "lruvec of memcg_id %" PRIu64 " has no valid \"node\"",
				     *id);
	return 0;
}

/* carry: patch the previous line's entries; incr: counters are increments. */
static int decode_lruvecs(struct lrs_jerr *e, const struct lrs_jval *arr, struct lrs_snapshot *s,
			  bool carry, bool incr)
{
	size_t cursor = 0;

	if (!arr || arr->type != LRS_JARR)
		return lrs_jerr__set(e, "\"lruvecs\" is missing or not an array");
	for (size_t i = 0; i < arr->u.arr.len; i++) {
		const struct lrs_jval *o = arr->u.arr.items[i];
		struct lrs_lruvec *lv;
		uint64_t id;
		int node, err = lruvec_key(e, o, &id, &node);

		if (err)
			return err;
		if (carry) {
			/* patches come in the previous line's order */
			while (cursor < s->nr_lruvecs && (s->lruvecs[cursor].memcg_id != id ||
							  s->lruvecs[cursor].node != node))
				cursor++;
			if (cursor == s->nr_lruvecs)
				return lrs_jerr__set(
					e,
					"delta for lruvec memcg_id %" PRIu64 " node %d, "
					"which the line before does not have (or out of order)",
					id, node);
			lv = &s->lruvecs[cursor++];
		} else {
			lv = lrs_snapshot__add_lruvec(s);
			if (!lv)
				return -ENOMEM;
			lv->memcg_id = id;
			lv->node = node;
		}
		err = decode_lruvec(e, o, lv, incr);
		if (err)
			return err;
	}
	return 0;
}

static int decode_others(struct lrs_jerr *e, const struct lrs_jval *arr, struct lrs_snapshot *s,
			 bool carry, bool incr)
{
	size_t cursor = 0;

	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return lrs_jerr__set(e, "\"other_locks\" is not an array");
	for (size_t i = 0; i < arr->u.arr.len; i++) {
		const struct lrs_jval *o = arr->u.arr.items[i];
		struct lrs_other_lock *ol;
		uint64_t addr = 0;
		int err;

		if (o->type != LRS_JOBJ)
			return lrs_jerr__set(e, "an entry of \"other_locks\" is not an object");
		if (!lrs_jval__get(o, "lock"))
			return lrs_jerr__set(e,
					     "an entry of \"other_locks\" has no \"lock\" address");
		err = lrs_jval__opt_addr(e, o, "lock", &addr);
		if (err)
			return err;
		if (carry) {
			while (cursor < s->nr_other_locks &&
			       s->other_locks[cursor].lock_addr != addr)
				cursor++;
			if (cursor == s->nr_other_locks)
				return lrs_jerr__set(e,
						     "delta for lock 0x%" PRIx64
						     ", which the line before does "
						     "not have (or out of order)",
						     addr);
			ol = &s->other_locks[cursor++];
		} else {
			ol = lrs_snapshot__add_other_lock(s);
			if (!ol)
				return -ENOMEM;
			ol->lock_addr = addr;
		}
		err = decode_other(e, o, ol, incr);
		if (err)
			return err;
	}
	return 0;
}

static int decode_stacks(struct lrs_jerr *e, const struct lrs_jval *obj, struct lrs_snapshot *s)
{
	if (!obj)
		return 0;
	if (obj->type != LRS_JOBJ)
		return lrs_jerr__set(e, "\"stacks\" is not an object of id: [frames]");
	for (size_t i = 0; i < obj->u.obj.len; i++) {
		const struct lrs_jmember *m = &obj->u.obj.members[i];
		struct lrs_stack *st;
		char *end;
		long id;

		errno = 0;
		id = strtol(m->key, &end, 10);
		if (!m->key[0] || *end || errno || id < INT32_MIN || id > INT32_MAX)
			return lrs_jerr__set(e, "stack id \"%.32s\" is not an integer", m->key);
		if (m->val->type != LRS_JARR)
			return lrs_jerr__set(e, "stack %ld is not an array of frames", id);
		st = lrs_snapshot__add_stack(s);
		if (!st)
			return -ENOMEM;
		st->id = (int32_t)id;
		if (m->val->u.arr.len && !(st->frames = calloc(m->val->u.arr.len, sizeof(char *))))
			return -ENOMEM;
		for (size_t k = 0; k < m->val->u.arr.len; k++) {
			const char *f = lrs_jval__str(m->val->u.arr.items[k]);

			if (!f)
				return lrs_jerr__set(
					e, "stack %ld has a frame that is not a string", id);
			st->frames[k] = strdup(f);
			if (!st->frames[k])
				return -ENOMEM;
			st->nr_frames++;
		}
	}
	return 0;
}

static void free_stacks(struct lrs_snapshot *s)
{
	for (size_t i = 0; i < s->nr_stacks; i++) {
		for (size_t f = 0; f < s->stacks[i].nr_frames; f++)
			free(s->stacks[i].frames[f]);
		free(s->stacks[i].frames);
	}
	free(s->stacks);
	s->stacks = NULL;
	s->nr_stacks = 0;
}

static void free_lruvecs(struct lrs_snapshot *s)
{
	for (size_t i = 0; i < s->nr_lruvecs; i++) {
		struct lrs_lruvec *lv = &s->lruvecs[i];

		free(lv->memcg);
		waiters__free(lv->waiters, lv->nr_waiters);
		free(lv->stacks);
	}
	free(s->lruvecs);
	s->lruvecs = NULL;
	s->nr_lruvecs = 0;
}

static void free_others(struct lrs_snapshot *s)
{
	for (size_t i = 0; i < s->nr_other_locks; i++) {
		free(s->other_locks[i].name);
		free(s->other_locks[i].stacks);
	}
	free(s->other_locks);
	s->other_locks = NULL;
	s->nr_other_locks = 0;
}

int lrs_snapshot_json__schema_version(const struct lrs_jval *v, double *ver, char *why,
				      size_t why_len)
{
	if (!lrs_jval__dbl(v, ver))
		return 0;
	if (lrs_jval__is(v, LRS_JSTR))
		snprintf(why, why_len,
			 "\"schema\" is the string \"%.40s\": a version is a number, "
			 "as \"schema\":%d",
			 lrs_jval__str(v), LRS_SCHEMA_VERSION);
	else if (v)
		snprintf(why, why_len,
			 "\"schema\" is not a number: a version is one, as \"schema\":%d",
			 LRS_SCHEMA_VERSION);
	else
		snprintf(why, why_len, "no \"schema\" version");
	return -EINVAL;
}

/* "schema": a major version this reader knows, as a number (1 or 1.2). */
static int check_schema(struct lrs_jerr *e, const struct lrs_jval *v)
{
	char why[120];
	double ver;

	if (lrs_snapshot_json__schema_version(v, &ver, why, sizeof(why)))
		return lrs_jerr__set(e, "%s: not an lruscope snapshot", why);
	/* compared as a double: a huge or NaN version must not reach an int cast */
	if (!(ver >= LRS_SCHEMA_VERSION && ver < LRS_SCHEMA_VERSION + 1)) {
		lrs_jerr__set(
			e,
			"snapshot schema version %g, but this lruscope reads version %d only: "
			"use the lruscope that made the recording, or a newer one",
			ver, LRS_SCHEMA_VERSION);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static bool in_list(const struct lrs_jval *arr, const char *name)
{
	for (size_t i = 0; arr && i < arr->u.arr.len; i++)
		if (!strcmp(lrs_jval__str(arr->u.arr.items[i]) ?: "", name))
			return true;
	return false;
}

static int decode_root(struct lrs_jerr *e, const struct lrs_jval *root,
		       const struct lrs_snapshot *prev, struct lrs_snapshot **out)
{
	const struct lrs_jval *delta = lrs_jval__get(root, "delta"), *nodes, *drops;
	bool d_lruvecs = false, d_others = false, d_stacks = false;
	struct lrs_snapshot *s = NULL;
	const char *kernel;
	int err;

	if (!root || root->type != LRS_JOBJ)
		return lrs_jerr__set(e, "not a JSON object: not an lruscope snapshot");
	err = check_schema(e, lrs_jval__get(root, "schema"));
	if (err)
		return err;
	if (delta) {
		if (delta->type != LRS_JARR)
			return lrs_jerr__set(e, "\"delta\" is not an array of section names");
		if (!prev)
			return lrs_jerr__set(e, "a delta line with no full snapshot before it");
		d_lruvecs = in_list(delta, "lruvecs");
		d_others = in_list(delta, "other_locks");
		d_stacks = in_list(delta, "stacks");
	}
	/* a delta line starts from the line before; the sections it replaces are emptied */
	s = prev && delta ? lrs_snapshot__clone(prev) : lrs_snapshot__new();
	if (!s)
		return -ENOMEM;
	if (!d_lruvecs)
		free_lruvecs(s);
	if (!d_others)
		free_others(s);
	if (!d_stacks)
		free_stacks(s);
	s->schema = LRS_SCHEMA_VERSION;
	free(s->nodes);
	s->nodes = NULL;
	s->nr_nodes = 0;
	free(s->unavailable);
	s->unavailable = NULL;

	err = -EINVAL;
	if (lrs_jval__u64(lrs_jval__get(root, "t_ns"), &s->t_ns)) {
		lrs_jerr__set(e, "no \"t_ns\" timestamp");
		goto fail;
	}
	s->interval_ns = 0;
	if (lrs_jval__opt_u64(e, root, "interval_ns", &s->interval_ns))
		goto fail;
	kernel = lrs_jval__str(lrs_jval__get(root, "kernel"));
	snprintf(s->kernel, sizeof(s->kernel), "%s", kernel ? kernel : "");
	if (decode_spin_source(e, lrs_jval__get(root, "spin_source"), &s->spin_source))
		goto fail;
	nodes = lrs_jval__get(root, "nodes");
	if (nodes && nodes->type != LRS_JARR) {
		lrs_jerr__set(e, "\"nodes\" is not an array");
		goto fail;
	}
	for (size_t i = 0; nodes && i < nodes->u.arr.len; i++) {
		int n;

		if (lrs_jval__int(nodes->u.arr.items[i], &n) || n < 0) {
			lrs_jerr__set(e, "\"nodes\" holds something that is not a node number");
			goto fail;
		}
		if (lrs_snapshot__add_node(s, n))
			goto nomem;
	}
	err = decode_lruvecs(e, lrs_jval__get(root, "lruvecs"), s, d_lruvecs, delta != NULL);
	if (!err)
		err = decode_others(e, lrs_jval__get(root, "other_locks"), s, d_others,
				    delta != NULL);
	if (!err && !d_stacks)
		err = decode_stacks(e, lrs_jval__get(root, "stacks"), s);
	if (err)
		goto fail;
	/* every lruvec's node is listed, as the live collector does */
	for (size_t i = 0; i < s->nr_lruvecs; i++)
		if (lrs_snapshot__add_node(s, s->lruvecs[i].node))
			goto nomem;
	memset(&s->drops, 0, sizeof(s->drops));
	drops = lrs_jval__get(root, "drops");
	err = -EINVAL;
	if (drops && (lrs_jval__opt_u64(e, drops, "task", &s->drops.task) ||
		      lrs_jval__opt_u64(e, drops, "task_nested", &s->drops.task_nested) ||
		      lrs_jval__opt_u64(e, drops, "task_unmatched", &s->drops.task_unmatched) ||
		      lrs_jval__opt_u64(e, drops, "task_no_room", &s->drops.task_no_room) ||
		      lrs_jval__opt_u64(e, drops, "task_lost", &s->drops.task_lost) ||
		      lrs_jval__opt_u64(e, drops, "stack", &s->drops.stack) ||
		      lrs_jval__opt_u64(e, drops, "stats_full", &s->drops.stats_full) ||
		      lrs_jval__opt_u64(e, drops, "insert_failed", &s->drops.insert_failed) ||
		      lrs_jval__opt_u64(e, drops, "negative_time", &s->drops.negative_time)))
		goto fail;
	if (lrs_jval__opt_strdup(e, root, "unavailable", &s->unavailable))
		goto fail;
	/*
	 * holders: every line that has them carries them whole. An array
	 * there is walk.py's drgn holders (collector/walk/ reads those), not ours.
	 */
	lrs_holders__free(s->holders);
	s->holders = NULL;
	if (lrs_jval__is(lrs_jval__get(root, "holders"), LRS_JOBJ)) {
		err = lrs_holders__read_json(lrs_jval__get(root, "holders"), &s->holders, e->buf,
					     e->len);
		if (err)
			goto fail;
	}
	*out = s;
	return 0;
nomem:
	err = -ENOMEM;
fail:
	if (err == -ENOMEM)
		lrs_jerr__set(e, "out of memory");
	lrs_snapshot__free(s);
	return err;
}

int lrs_snapshot__read_json(const char *line, size_t len, const struct lrs_snapshot *prev,
			    struct lrs_snapshot **out, char *err, size_t err_len)
{
	struct lrs_jerr e = { .buf = err, .len = err_len };
	struct lrs_jdoc doc;
	char why[160];
	int ret;

	ret = lrs_jdoc__parse(&doc, line, len, why, sizeof(why));
	if (ret) {
		snprintf(err, err_len, "not valid JSON (%s)", why);
		return ret == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	ret = decode_root(&e, doc.root, prev, out);
	lrs_jdoc__free(&doc);
	return ret;
}

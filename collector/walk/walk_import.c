// SPDX-License-Identifier: GPL-2.0
/* walk.py's JSON: the snapshot through the snapshot JSON reader, the rest here. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/json/json_reader.h"
#include "model/json/snapshot_json.h"
#include "collector/walk/walk_import.h"

static int list_index(const char *name)
{
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
		if (!strcmp(name, lrs_lru_list_names[l]))
			return l;
	return -1;
}

/* "lock_state": {"raw", "locked", "pending", "tail_cpu": CPU or null}. */
static void lock_state__decode(const struct lrs_jval *ls, bool locked_any,
			       struct lrs_lruvec_walk *w)
{
	int cpu;

	w->known = true;
	w->tail_cpu = -1;
	lrs_jval__bool(lrs_jval__get(ls, "locked"), &w->locked);
	lrs_jval__bool(lrs_jval__get(ls, "pending"), &w->pending);
	if (!lrs_jval__int(lrs_jval__get(ls, "tail_cpu"), &cpu) && cpu >= 0)
		w->tail_cpu = cpu;
	/* an older walk.py without lock_state: its "locked" summary still says busy */
	if (!ls && locked_any)
		w->locked = true;
}

/* "walked": {list: {pages, complete}}, "mismatch": {list: {...}}. */
static void lists__decode(const struct lrs_jval *o, struct lrs_walk_lists *wl,
			  struct lrs_lruvec_walk *w)
{
	const struct lrs_jval *walked = lrs_jval__get(o, "walked");
	const struct lrs_jval *mm = lrs_jval__get(o, "mismatch");

	if (lrs_jval__is(walked, LRS_JOBJ)) {
		wl->walked = true;
		wl->skipped = (1u << LRS_NR_LRU_LISTS) - 1; /* until the walk lists them */
		for (size_t i = 0; i < walked->u.obj.len; i++) {
			const struct lrs_jmember *m = &walked->u.obj.members[i];
			int l = list_index(m->key);
			bool complete = false;

			if (l < 0)
				continue;
			lrs_jval__u64(lrs_jval__get(m->val, "pages"), &wl->walked_pages[l]);
			if (!lrs_jval__bool(lrs_jval__get(m->val, "complete"), &complete) &&
			    complete)
				wl->complete |= (uint8_t)(1u << l);
			if (!lrs_jval__get(m->val, "skipped"))
				wl->skipped &= (uint8_t) ~(1u << l);
		}
	}
	for (size_t i = 0; lrs_jval__is(mm, LRS_JOBJ) && i < mm->u.obj.len; i++) {
		int l = list_index(mm->u.obj.members[i].key);

		if (l >= 0)
			w->mismatch |= (uint8_t)(1u << l);
	}
}

/* "lock_scope": "node" before 5.11 (pgdat->lru_lock), "lruvec" after (or absent). */
static bool is_node_scope(const struct lrs_jval *o)
{
	const char *scope = lrs_jval__str(lrs_jval__get(o, "lock_scope"));

	return scope && !strcmp(scope, "node");
}

static int lruvecs__decode(struct lrs_walk *walk, const struct lrs_jval *arr, char *err,
			   size_t err_len)
{
	struct lrs_snapshot *s = walk->snap;

	walk->lists = calloc(s->nr_lruvecs ? s->nr_lruvecs : 1, sizeof(*walk->lists));
	if (!walk->lists)
		return -ENOMEM;
	/* the decoder appends a full line's lruvecs in order: entry i is lruvecs[i] */
	for (size_t i = 0; i < s->nr_lruvecs; i++) {
		const struct lrs_jval *o = arr->u.arr.items[i];
		struct lrs_lruvec *lv = &s->lruvecs[i];
		uint64_t id = 0;
		bool locked = false;

		if (lrs_jval__u64(lrs_jval__get(o, "memcg_id"), &id) || id != lv->memcg_id) {
			snprintf(err, err_len, "lruvec %zu of the walk is out of order", i);
			return -EINVAL;
		}
		lrs_jval__bool(lrs_jval__get(o, "locked"), &locked);
		lock_state__decode(lrs_jval__get(o, "lock_state"), locked, &lv->walk);
		lv->walk.node_lock = is_node_scope(o);
		lists__decode(o, &walk->lists[i], &lv->walk);
	}
	return 0;
}

static int str_dup(char **out, const char *s)
{
	*out = strdup(s ? s : "?");
	return *out ? 0 : -ENOMEM;
}

/* "holders": [{"lruvec", "tasks": [{"pid", "comm"}]}] as one line each. */
static int held__decode(struct lrs_walk *walk, const struct lrs_jval *arr)
{
	if (!lrs_jval__is(arr, LRS_JARR) || !arr->u.arr.len)
		return 0;
	walk->held = calloc(arr->u.arr.len, sizeof(*walk->held));
	if (!walk->held)
		return -ENOMEM;
	for (size_t i = 0; i < arr->u.arr.len; i++) {
		const struct lrs_jval *h = arr->u.arr.items[i], *tasks = lrs_jval__get(h, "tasks");
		struct lrs_walk_held *out = &walk->held[walk->nr_held++];
		char buf[512] = "";
		size_t n = 0;

		out->node_lock = -1;
		if (is_node_scope(h))
			lrs_jval__int(lrs_jval__get(h, "node"), &out->node_lock);
		for (size_t t = 0; lrs_jval__is(tasks, LRS_JARR) && t < tasks->u.arr.len; t++) {
			const struct lrs_jval *task = tasks->u.arr.items[t];
			int pid = 0;

			lrs_jval__int(lrs_jval__get(task, "pid"), &pid);
			n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0,
					      "%s%d %s", t ? ", " : "", pid,
					      lrs_jval__str(lrs_jval__get(task, "comm")) ?: "?");
			if (n >= sizeof(buf))
				n = sizeof(buf) - 1;
			out->nr_tasks++;
		}
		if (str_dup(&out->lruvec, lrs_jval__str(lrs_jval__get(h, "lruvec"))) ||
		    str_dup(&out->tasks, buf))
			return -ENOMEM;
	}
	return 0;
}

static int owners__decode(struct lrs_walk *walk, const struct lrs_jval *po)
{
	const struct lrs_jval *arr = lrs_jval__get(po, "memcgs");

	if (!lrs_jval__is(po, LRS_JOBJ))
		return 0;
	if (str_dup(&walk->owner_method, lrs_jval__str(lrs_jval__get(po, "method"))))
		return -ENOMEM;
	if (!lrs_jval__is(arr, LRS_JARR) || !arr->u.arr.len)
		return 0;
	walk->owners = calloc(arr->u.arr.len, sizeof(*walk->owners));
	if (!walk->owners)
		return -ENOMEM;
	for (size_t i = 0; i < arr->u.arr.len; i++) {
		struct lrs_walk_owner *o = &walk->owners[walk->nr_owners++];

		lrs_jval__u64(lrs_jval__get(arr->u.arr.items[i], "pages"), &o->pages);
		if (str_dup(&o->memcg, lrs_jval__str(lrs_jval__get(arr->u.arr.items[i], "memcg"))))
			return -ENOMEM;
	}
	return 0;
}

static int warnings__decode(struct lrs_walk *walk, const struct lrs_jval *arr)
{
	if (!lrs_jval__is(arr, LRS_JARR) || !arr->u.arr.len)
		return 0;
	walk->warnings = calloc(arr->u.arr.len, sizeof(*walk->warnings));
	if (!walk->warnings)
		return -ENOMEM;
	for (size_t i = 0; i < arr->u.arr.len; i++)
		if (str_dup(&walk->warnings[walk->nr_warnings++],
			    lrs_jval__str(arr->u.arr.items[i])))
			return -ENOMEM;
	return 0;
}

static int extras__decode(struct lrs_walk *walk, const struct lrs_jval *root, char *err,
			  size_t err_len)
{
	const struct lrs_jval *stats = lrs_jval__get(root, "stats");
	const struct lrs_jval *arr = lrs_jval__get(root, "lruvecs");
	int ret;

	if (!lrs_jval__is(arr, LRS_JARR) || arr->u.arr.len != walk->snap->nr_lruvecs) {
		snprintf(err, err_len, "\"lruvecs\" of the walk do not match its snapshot");
		return -EINVAL;
	}
	lrs_jval__u64(lrs_jval__get(stats, "memcgs"), &walk->memcgs);
	lrs_jval__u64(lrs_jval__get(stats, "folios_walked"), &walk->folios_walked);
	lrs_jval__dbl(lrs_jval__get(stats, "total_s"), &walk->total_s);
	walk->checked =
		!lrs_jval__u64(lrs_jval__get(root, "violations_total"), &walk->violations_total);
	ret = lruvecs__decode(walk, arr, err, err_len);
	if (!ret)
		ret = held__decode(walk, lrs_jval__get(root, "holders"));
	if (!ret)
		ret = owners__decode(walk, lrs_jval__get(root, "page_owner"));
	if (!ret)
		ret = warnings__decode(walk, lrs_jval__get(root, "warnings"));
	if (ret == -ENOMEM)
		snprintf(err, err_len, "out of memory");
	return ret;
}

int lrs_walk__import(const char *json, size_t len, struct lrs_walk **out, char *err, size_t err_len)
{
	struct lrs_jdoc doc = { 0 };
	struct lrs_walk *walk;
	const char *source;
	char why[160];
	int ret;

	*out = NULL;
	walk = calloc(1, sizeof(*walk));
	if (!walk)
		return -ENOMEM;
	ret = lrs_snapshot__read_json(json, len, NULL, &walk->snap, err, err_len);
	if (ret)
		goto out;
	/* parsed twice: the snapshot reader keeps to the snapshot schema */
	ret = lrs_jdoc__parse(&doc, json, len, why, sizeof(why));
	if (ret) {
		snprintf(err, err_len, "not valid JSON (%s)", why);
		goto out;
	}
	source = lrs_jval__str(lrs_jval__get(doc.root, "source"));
	if (!source || strcmp(source, "drgn")) {
		snprintf(err, err_len, "not the output of walk.py (\"source\" is %s, not \"drgn\")",
			 source ? source : "missing");
		ret = -EINVAL;
		goto out;
	}
	ret = extras__decode(walk, doc.root, err, err_len);
out:
	lrs_jdoc__free(&doc);
	if (ret) {
		lrs_walk__free(walk);
		return ret;
	}
	*out = walk;
	return 0;
}

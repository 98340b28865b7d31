// SPDX-License-Identifier: GPL-2.0
/* Recordings: header, full and delta lines, the reader and the writer. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "holders.h"
#include "json_reader.h"
#include "json_writer.h"
#include "recording.h"
#include "snapshot_diff.h"
#include "snapshot_json.h"

void lrs_recording_header__clear(struct lrs_recording_header *hdr)
{
	if (!hdr)
		return;
	free(hdr->nodes);
	hdr->nodes = NULL;
	hdr->nr_nodes = 0;
}

/* ---- writing ------------------------------------------------------------------ */

int lrs_recording__write_header(FILE *f, const struct lrs_recording_header *hdr)
{
	struct lrs_json j;

	lrs_json__init(&j, f);
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "lruscope_recording");
	lrs_json__i64(&j, LRS_RECORDING_VERSION);
	lrs_json__key(&j, "schema");
	lrs_json__i64(&j, hdr->schema ? hdr->schema : LRS_SCHEMA_VERSION);
	lrs_json__key(&j, "kernel");
	lrs_json__str(&j, hdr->kernel);
	lrs_json__key(&j, "host");
	lrs_json__str(&j, hdr->host);
	lrs_json__key(&j, "nodes");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < hdr->nr_nodes; i++)
		lrs_json__i64(&j, hdr->nodes[i]);
	lrs_json__arr_end(&j);
	lrs_json__key(&j, "interval_ns");
	lrs_json__u64(&j, hdr->interval_ns);
	lrs_json__key(&j, "started_unix_ns");
	lrs_json__u64(&j, hdr->started_unix_ns);
	lrs_json__obj_end(&j);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}


/* An increment, modulo 2^64: exact whatever the counters did. */
static void write_inc(struct lrs_json *j, const char *key, uint64_t cur, uint64_t prev)
{
	if (key)
		lrs_json__key(j, key);
	lrs_json__i64(j, (int64_t)(cur - prev));
}

/* contended, wait_ns, hist as increments; wait_max_ns as is. Only what changed. */
static void write_counters_delta(struct lrs_json *j, const struct lrs_lock_counters *c,
				 const struct lrs_lock_counters *p)
{
	int last = 0;

	if (c->contended != p->contended)
		write_inc(j, "contended", c->contended, p->contended);
	if (c->wait_ns != p->wait_ns)
		write_inc(j, "wait_ns", c->wait_ns, p->wait_ns);
	if (c->wait_max_ns != p->wait_max_ns) {
		lrs_json__key(j, "wait_max_ns");
		lrs_json__u64(j, c->wait_max_ns);
	}
	for (int i = 0; i < LRS_HIST_BUCKETS; i++)
		if (c->hist[i] != p->hist[i])
			last = i + 1;
	if (!last)
		return;
	lrs_json__key(j, "hist");
	lrs_json__arr_begin(j);
	for (int i = 0; i < last; i++)
		write_inc(j, NULL, c->hist[i], p->hist[i]);
	lrs_json__arr_end(j);
}

/* The base a delta stack use counts from: the previous use of the same id. */
static const struct lrs_stack_use *use_base(const struct lrs_stack_use *prev, size_t n, int32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (prev[i].id == id)
			return &prev[i];
	return NULL;
}

static bool uses_same(const struct lrs_stack_use *a, size_t na, const struct lrs_stack_use *b,
		      size_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na * sizeof(*a)));
}

static void write_uses_delta(struct lrs_json *j, const struct lrs_stack_use *u, size_t n,
			     const struct lrs_stack_use *prev, size_t nprev)
{
	if (uses_same(u, n, prev, nprev))
		return;
	lrs_json__key(j, "stacks");
	lrs_json__arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct lrs_stack_use *b = use_base(prev, nprev, u[i].id);

		lrs_json__obj_begin(j);
		lrs_json__key(j, "id");
		lrs_json__i64(j, u[i].id);
		write_inc(j, "contended", u[i].contended, b ? b->contended : 0);
		write_inc(j, "wait_ns", u[i].wait_ns, b ? b->wait_ns : 0);
		lrs_json__obj_end(j);
	}
	lrs_json__arr_end(j);
}

static const struct lrs_waiter *waiter_base(const struct lrs_lruvec *prev, int32_t pid)
{
	for (size_t i = 0; i < prev->nr_waiters; i++)
		if (prev->waiters[i].pid == pid)
			return &prev->waiters[i];
	return NULL;
}

static bool str_same(const char *a, const char *b)
{
	return (!a || !b) ? a == b : !strcmp(a, b);
}

static bool waiters_same(const struct lrs_lruvec *a, const struct lrs_lruvec *b)
{
	if (a->nr_waiters != b->nr_waiters)
		return false;
	for (size_t i = 0; i < a->nr_waiters; i++) {
		const struct lrs_waiter *x = &a->waiters[i], *y = &b->waiters[i];

		if (x->pid != y->pid || strncmp(x->comm, y->comm, LRS_COMM_LEN) ||
		    x->memcg_id != y->memcg_id || !str_same(x->memcg, y->memcg) ||
		    x->contended != y->contended || x->wait_ns != y->wait_ns)
			return false;
	}
	return true;
}

/* What changed in one lruvec, keyed by memcg_id and node. */
static void write_lruvec_delta(struct lrs_json *j, const struct lrs_lruvec *lv,
			       const struct lrs_lruvec *p, bool full)
{
	lrs_json__obj_begin(j);
	lrs_json__key(j, "memcg_id");
	lrs_json__u64(j, lv->memcg_id);
	lrs_json__key(j, "node");
	lrs_json__i64(j, lv->node);
	if (full || !str_same(lv->memcg, p->memcg)) {
		lrs_json__key(j, "memcg");
		lrs_json__str(j, lv->memcg);
	}
	if (full || lv->parent_id != p->parent_id) {
		lrs_json__key(j, "parent_id");
		lrs_json__u64(j, lv->parent_id);
	}
	if (full || lv->depth != p->depth) {
		lrs_json__key(j, "depth");
		lrs_json__i64(j, lv->depth);
	}
	if (full || lv->lock_addr != p->lock_addr)
		lrs_json__addr(j, "lock", lv->lock_addr);
	if (lv->removed != p->removed) {
		lrs_json__key(j, "removed");
		lrs_json__bool(j, lv->removed);
	}
	write_counters_delta(j, &lv->counters, &p->counters);
	if (!waiters_same(lv, p)) {
		lrs_json__key(j, "waiters");
		lrs_json__arr_begin(j);
		for (size_t i = 0; i < lv->nr_waiters; i++) {
			const struct lrs_waiter *w = &lv->waiters[i];
			const struct lrs_waiter *b = waiter_base(p, w->pid);

			lrs_json__obj_begin(j);
			lrs_json__key(j, "pid");
			lrs_json__i64(j, w->pid);
			lrs_json__key(j, "comm");
			lrs_json__str(j, w->comm);
			lrs_json__key(j, "memcg");
			lrs_json__str(j, w->memcg);
			lrs_json__key(j, "memcg_id");
			lrs_json__u64(j, w->memcg_id);
			write_inc(j, "contended", w->contended, b ? b->contended : 0);
			write_inc(j, "wait_ns", w->wait_ns, b ? b->wait_ns : 0);
			lrs_json__obj_end(j);
		}
		lrs_json__arr_end(j);
	}
	write_uses_delta(j, lv->stacks, lv->nr_stacks, p->stacks, p->nr_stacks);
	if (memcmp(lv->lru_pages, p->lru_pages, sizeof(lv->lru_pages))) {
		lrs_json__key(j, "lru_pages");
		lrs_json__obj_begin(j);
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++) {
			lrs_json__key(j, lrs_lru_list_names[l]);
			lrs_json__u64(j, lv->lru_pages[l]);
		}
		lrs_json__obj_end(j);
	}
	lrs_json__obj_end(j);
}

static void write_other_delta(struct lrs_json *j, const struct lrs_other_lock *ol,
			      const struct lrs_other_lock *p, bool full)
{
	lrs_json__obj_begin(j);
	lrs_json__addr(j, "lock", ol->lock_addr);
	if (full || !str_same(ol->name, p->name)) {
		lrs_json__key(j, "name");
		lrs_json__str(j, ol->name);
	}
	if (full || ol->flags != p->flags) {
		lrs_json__key(j, "flags");
		lrs_json__u64(j, ol->flags);
	}
	write_counters_delta(j, &ol->counters, &p->counters);
	write_uses_delta(j, ol->stacks, ol->nr_stacks, p->stacks, p->nr_stacks);
	lrs_json__obj_end(j);
}

/* A section is a delta when its keys are the previous line's, in the same order. */
static bool lruvec_keys_same(const struct lrs_snapshot *a, const struct lrs_snapshot *b)
{
	if (a->nr_lruvecs != b->nr_lruvecs)
		return false;
	for (size_t i = 0; i < a->nr_lruvecs; i++)
		if (a->lruvecs[i].memcg_id != b->lruvecs[i].memcg_id ||
		    a->lruvecs[i].node != b->lruvecs[i].node)
			return false;
	return true;
}

static bool other_keys_same(const struct lrs_snapshot *a, const struct lrs_snapshot *b)
{
	if (a->nr_other_locks != b->nr_other_locks)
		return false;
	for (size_t i = 0; i < a->nr_other_locks; i++)
		if (a->other_locks[i].lock_addr != b->other_locks[i].lock_addr)
			return false;
	return true;
}

int lrs_recording__write_line(FILE *f, const struct lrs_snapshot *snap,
			      const struct lrs_snapshot *prev)
{
	bool d_lruvecs, d_others, d_stacks;
	struct lrs_json j;

	if (!prev)
		return lrs_snapshot__write_json(snap, f);
	d_lruvecs = lruvec_keys_same(snap, prev);
	d_others = other_keys_same(snap, prev);
	d_stacks = lrs_stacks__equal(snap, prev);

	lrs_json__init(&j, f);
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "schema");
	lrs_json__i64(&j, snap->schema);
	lrs_json__key(&j, "delta");
	lrs_json__arr_begin(&j);
	if (d_lruvecs)
		lrs_json__str(&j, "lruvecs");
	if (d_others)
		lrs_json__str(&j, "other_locks");
	if (d_stacks)
		lrs_json__str(&j, "stacks");
	lrs_json__arr_end(&j);
	lrs_snapshot_json__write_head_fields(&j, snap);

	/*
	 * A section whose keys changed (a memcg came or went) is written whole,
	 * as increments over zero; the others hold only what changed.
	 */
	lrs_json__key(&j, "lruvecs");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		static const struct lrs_lruvec zero_lruvec;

		if (!d_lruvecs)
			write_lruvec_delta(&j, &snap->lruvecs[i], &zero_lruvec, true);
		else if (!lrs_lruvec__equal(&snap->lruvecs[i], &prev->lruvecs[i]))
			write_lruvec_delta(&j, &snap->lruvecs[i], &prev->lruvecs[i], false);
	}
	lrs_json__arr_end(&j);

	lrs_json__key(&j, "other_locks");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		static const struct lrs_other_lock zero_other;

		if (!d_others)
			write_other_delta(&j, &snap->other_locks[i], &zero_other, true);
		else if (!lrs_other_lock__equal(&snap->other_locks[i], &prev->other_locks[i]))
			write_other_delta(&j, &snap->other_locks[i], &prev->other_locks[i], false);
	}
	lrs_json__arr_end(&j);

	if (!d_stacks)
		lrs_snapshot_json__write_stacks(&j, snap);
	lrs_snapshot_json__write_tail(&j, snap);	/* holders: whole on every line, when tracked */
	lrs_json__key(&j, "drops");
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "task");
	lrs_json__u64(&j, snap->drops.task);
	lrs_json__key(&j, "stack");
	lrs_json__u64(&j, snap->drops.stack);
	lrs_json__key(&j, "stats_full");
	lrs_json__u64(&j, snap->drops.stats_full);
	lrs_json__key(&j, "negative_time");
	lrs_json__u64(&j, snap->drops.negative_time);
	lrs_json__obj_end(&j);
	if (snap->unavailable) {
		lrs_json__key(&j, "unavailable");
		lrs_json__str(&j, snap->unavailable);
	}
	lrs_json__obj_end(&j);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* ---- decoding ------------------------------------------------------------------ */

struct decode {
	char *err;
	size_t err_len;
};

static int bad(struct decode *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct decode *d, const char *fmt, ...)
{
	va_list ap;

	if (d->err && d->err_len) {
		va_start(ap, fmt);
		vsnprintf(d->err, d->err_len, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* Optional u64 member: absent leaves *out alone. */
static int opt_u64(struct decode *d, const struct lrs_jval *obj, const char *key, uint64_t *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);

	if (!v)
		return 0;
	if (lrs_jval__u64(v, out))
		return bad(d, "\"%s\" is not a non-negative integer", key);
	return 0;
}

/* Optional increment: *out += value, modulo 2^64. */
static int opt_inc(struct decode *d, const struct lrs_jval *obj, const char *key, uint64_t *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);
	int64_t inc;

	if (!v)
		return 0;
	if (lrs_jval__i64(v, &inc))
		return bad(d, "\"%s\" is not an integer", key);
	*out += (uint64_t)inc;
	return 0;
}

static int opt_int(struct decode *d, const struct lrs_jval *obj, const char *key, int *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);

	if (!v)
		return 0;
	if (lrs_jval__int(v, out))
		return bad(d, "\"%s\" is not an integer", key);
	return 0;
}

/* Optional string or null member into a fresh copy (*out replaced). */
static int opt_strdup(struct decode *d, const struct lrs_jval *obj, const char *key, char **out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);
	char *s = NULL;

	if (!v)
		return 0;
	if (v->type != LRS_JNULL) {
		if (v->type != LRS_JSTR)
			return bad(d, "\"%s\" is not a string", key);
		s = strdup(v->u.str.s);
		if (!s)
			return -ENOMEM;
	}
	free(*out);
	*out = s;
	return 0;
}

static int opt_addr(struct decode *d, const struct lrs_jval *obj, const char *key, uint64_t *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);
	const char *s = lrs_jval__str(v);
	char *end;

	if (!v)
		return 0;
	if (!s || strncmp(s, "0x", 2) || !s[2] || strlen(s) > 18)
		return bad(d, "\"%s\" is not a hex address (\"0x...\")", key);
	errno = 0;
	*out = strtoull(s + 2, &end, 16);
	if (*end || errno)
		return bad(d, "\"%s\" is not a hex address (\"0x...\")", key);
	return 0;
}

static int opt_bool(struct decode *d, const struct lrs_jval *obj, const char *key, bool *out)
{
	const struct lrs_jval *v = lrs_jval__get(obj, key);

	if (!v)
		return 0;
	if (lrs_jval__bool(v, out))
		return bad(d, "\"%s\" is not true or false", key);
	return 0;
}

/* Counters; delta: contended, wait_ns and hist are increments over *c. */
static int decode_counters(struct decode *d, const struct lrs_jval *obj, struct lrs_lock_counters *c,
			   bool delta)
{
	const struct lrs_jval *h = lrs_jval__get(obj, "hist");
	int err;

	err = delta ? opt_inc(d, obj, "contended", &c->contended) :
		      opt_u64(d, obj, "contended", &c->contended);
	if (!err)
		err = delta ? opt_inc(d, obj, "wait_ns", &c->wait_ns) :
			      opt_u64(d, obj, "wait_ns", &c->wait_ns);
	if (!err)
		err = opt_u64(d, obj, "wait_max_ns", &c->wait_max_ns);
	if (err || !h)
		return err;
	if (h->type != LRS_JARR)
		return bad(d, "\"hist\" is not an array");
	if (h->u.arr.len > LRS_HIST_BUCKETS)
		return bad(d, "\"hist\" has %zu buckets, at most %d", h->u.arr.len, LRS_HIST_BUCKETS);
	for (size_t i = 0; i < h->u.arr.len; i++) {
		int64_t inc;

		if (delta) {
			if (lrs_jval__i64(h->u.arr.items[i], &inc))
				return bad(d, "\"hist\" holds a non-integer");
			c->hist[i] += (uint64_t)inc;
		} else if (lrs_jval__u64(h->u.arr.items[i], &c->hist[i])) {
			return bad(d, "\"hist\" holds a negative or non-integer value");
		}
	}
	/* a full line leaves out trailing empty buckets: they are zero */
	if (!delta)
		for (size_t i = h->u.arr.len; i < LRS_HIST_BUCKETS; i++)
			c->hist[i] = 0;
	return 0;
}

/* Stack uses: a full list; delta counts are increments over prev's same id. */
static int decode_uses(struct decode *d, const struct lrs_jval *arr, struct lrs_stack_use **uses,
		       size_t *nr, bool delta)
{
	struct lrs_stack_use *n = NULL;
	size_t len;

	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return bad(d, "\"stacks\" of a lock is not an array");
	len = arr->u.arr.len;
	if (len && !(n = calloc(len, sizeof(*n))))
		return -ENOMEM;
	for (size_t i = 0; i < len; i++) {
		const struct lrs_jval *o = arr->u.arr.items[i];
		const struct lrs_stack_use *b;
		int err, id;

		if (o->type != LRS_JOBJ) {
			free(n);
			return bad(d, "a stack use is not an object");
		}
		if (lrs_jval__int(lrs_jval__get(o, "id"), &id)) {
			free(n);
			return bad(d, "a stack use has no integer \"id\"");
		}
		n[i].id = id;
		b = delta ? use_base(*uses, *nr, n[i].id) : NULL;
		if (b) {
			n[i].contended = b->contended;
			n[i].wait_ns = b->wait_ns;
		}
		err = delta ? opt_inc(d, o, "contended", &n[i].contended) :
			      opt_u64(d, o, "contended", &n[i].contended);
		if (!err)
			err = delta ? opt_inc(d, o, "wait_ns", &n[i].wait_ns) :
				      opt_u64(d, o, "wait_ns", &n[i].wait_ns);
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

static int decode_waiters(struct decode *d, const struct lrs_jval *arr, struct lrs_lruvec *lv,
			  bool delta)
{
	struct lrs_waiter *n = NULL;
	size_t len, done = 0;
	int err = 0;

	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return bad(d, "\"waiters\" is not an array");
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
			err = bad(d, "a waiter is not an object");
			break;
		}
		if (lrs_jval__int(lrs_jval__get(o, "pid"), &pid)) {
			err = bad(d, "a waiter has no integer \"pid\"");
			break;
		}
		w->pid = pid;
		comm = lrs_jval__str(lrs_jval__get(o, "comm"));
		snprintf(w->comm, sizeof(w->comm), "%s", comm ? comm : "");
		b = delta ? waiter_base(lv, w->pid) : NULL;
		if (b) {
			w->contended = b->contended;
			w->wait_ns = b->wait_ns;
		}
		err = opt_u64(d, o, "memcg_id", &w->memcg_id);
		if (!err)
			err = opt_strdup(d, o, "memcg", &w->memcg);
		if (!err)
			err = delta ? opt_inc(d, o, "contended", &w->contended) :
				      opt_u64(d, o, "contended", &w->contended);
		if (!err)
			err = delta ? opt_inc(d, o, "wait_ns", &w->wait_ns) :
				      opt_u64(d, o, "wait_ns", &w->wait_ns);
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

static int decode_lru_pages(struct decode *d, const struct lrs_jval *obj, uint64_t *pages)
{
	const struct lrs_jval *lp = lrs_jval__get(obj, "lru_pages");

	if (!lp)
		return 0;
	if (lp->type != LRS_JOBJ)
		return bad(d, "\"lru_pages\" is not an object");
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
		if (opt_u64(d, lp, lrs_lru_list_names[l], &pages[l]))
			return -EINVAL;
	return 0;
}

/* Fields of one lruvec entry over *lv (zeroed for a full entry). */
static int decode_lruvec(struct decode *d, const struct lrs_jval *o, struct lrs_lruvec *lv, bool delta)
{
	int err;

	err = opt_strdup(d, o, "memcg", &lv->memcg);
	if (!err)
		err = opt_u64(d, o, "parent_id", &lv->parent_id);
	if (!err)
		err = opt_int(d, o, "depth", &lv->depth);
	if (!err)
		err = opt_addr(d, o, "lock", &lv->lock_addr);
	if (!err)
		err = opt_bool(d, o, "removed", &lv->removed);
	if (!err)
		err = decode_counters(d, o, &lv->counters, delta);
	if (!err)
		err = decode_waiters(d, lrs_jval__get(o, "waiters"), lv, delta);
	if (!err)
		err = decode_uses(d, lrs_jval__get(o, "stacks"), &lv->stacks, &lv->nr_stacks, delta);
	if (!err)
		err = decode_lru_pages(d, o, lv->lru_pages);
	return err;
}

static int decode_other(struct decode *d, const struct lrs_jval *o, struct lrs_other_lock *ol, bool delta)
{
	uint64_t flags = ol->flags;
	int err;

	err = opt_strdup(d, o, "name", &ol->name);
	if (!err)
		err = opt_u64(d, o, "flags", &flags);
	if (!err && flags > UINT32_MAX)
		err = bad(d, "\"flags\" is over 32 bits");
	ol->flags = (uint32_t)flags;
	if (!err)
		err = decode_counters(d, o, &ol->counters, delta);
	if (!err)
		err = decode_uses(d, lrs_jval__get(o, "stacks"), &ol->stacks, &ol->nr_stacks, delta);
	return err;
}

static int lruvec_key(struct decode *d, const struct lrs_jval *o, uint64_t *id, int *node)
{
	if (o->type != LRS_JOBJ)
		return bad(d, "an lruvec is not an object");
	if (lrs_jval__u64(lrs_jval__get(o, "memcg_id"), id))
		return bad(d, "an lruvec has no \"memcg_id\"");
	if (lrs_jval__int(lrs_jval__get(o, "node"), node) || *node < 0)
		return bad(d, "lruvec of memcg_id %" PRIu64 " has no valid \"node\"", *id);
	return 0;
}

/* carry: patch the previous line's entries; incr: counters are increments. */
static int decode_lruvecs(struct decode *d, const struct lrs_jval *arr, struct lrs_snapshot *s,
			  bool carry, bool incr)
{
	size_t cursor = 0;

	if (!arr || arr->type != LRS_JARR)
		return bad(d, "\"lruvecs\" is missing or not an array");
	for (size_t i = 0; i < arr->u.arr.len; i++) {
		const struct lrs_jval *o = arr->u.arr.items[i];
		struct lrs_lruvec *lv;
		uint64_t id;
		int node, err = lruvec_key(d, o, &id, &node);

		if (err)
			return err;
		if (carry) {
			/* patches come in the previous line's order */
			while (cursor < s->nr_lruvecs &&
			       (s->lruvecs[cursor].memcg_id != id || s->lruvecs[cursor].node != node))
				cursor++;
			if (cursor == s->nr_lruvecs)
				return bad(d, "delta for lruvec memcg_id %" PRIu64 " node %d, "
					   "which the line before does not have (or out of order)", id, node);
			lv = &s->lruvecs[cursor++];
		} else {
			lv = lrs_snapshot__add_lruvec(s);
			if (!lv)
				return -ENOMEM;
			lv->memcg_id = id;
			lv->node = node;
		}
		err = decode_lruvec(d, o, lv, incr);
		if (err)
			return err;
	}
	return 0;
}

static int decode_others(struct decode *d, const struct lrs_jval *arr, struct lrs_snapshot *s,
			 bool carry, bool incr)
{
	size_t cursor = 0;

	if (!arr)
		return 0;
	if (arr->type != LRS_JARR)
		return bad(d, "\"other_locks\" is not an array");
	for (size_t i = 0; i < arr->u.arr.len; i++) {
		const struct lrs_jval *o = arr->u.arr.items[i];
		struct lrs_other_lock *ol;
		uint64_t addr = 0;
		int err;

		if (o->type != LRS_JOBJ)
			return bad(d, "an other lock is not an object");
		if (!lrs_jval__get(o, "lock"))
			return bad(d, "an other lock has no \"lock\" address");
		err = opt_addr(d, o, "lock", &addr);
		if (err)
			return err;
		if (carry) {
			while (cursor < s->nr_other_locks && s->other_locks[cursor].lock_addr != addr)
				cursor++;
			if (cursor == s->nr_other_locks)
				return bad(d, "delta for lock 0x%" PRIx64 ", which the line before does "
					   "not have (or out of order)", addr);
			ol = &s->other_locks[cursor++];
		} else {
			ol = lrs_snapshot__add_other_lock(s);
			if (!ol)
				return -ENOMEM;
			ol->lock_addr = addr;
		}
		err = decode_other(d, o, ol, incr);
		if (err)
			return err;
	}
	return 0;
}

static int decode_stacks(struct decode *d, const struct lrs_jval *obj, struct lrs_snapshot *s)
{
	if (!obj)
		return 0;
	if (obj->type != LRS_JOBJ)
		return bad(d, "\"stacks\" is not an object of id: [frames]");
	for (size_t i = 0; i < obj->u.obj.len; i++) {
		const struct lrs_jmember *m = &obj->u.obj.members[i];
		struct lrs_stack *st;
		char *end;
		long id;

		errno = 0;
		id = strtol(m->key, &end, 10);
		if (!m->key[0] || *end || errno || id < INT32_MIN || id > INT32_MAX)
			return bad(d, "stack id \"%.32s\" is not an integer", m->key);
		if (m->val->type != LRS_JARR)
			return bad(d, "stack %ld is not an array of frames", id);
		st = lrs_snapshot__add_stack(s);
		if (!st)
			return -ENOMEM;
		st->id = (int32_t)id;
		if (m->val->u.arr.len && !(st->frames = calloc(m->val->u.arr.len, sizeof(char *))))
			return -ENOMEM;
		for (size_t k = 0; k < m->val->u.arr.len; k++) {
			const char *f = lrs_jval__str(m->val->u.arr.items[k]);

			if (!f)
				return bad(d, "stack %ld has a frame that is not a string", id);
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

/* "schema": a major version this reader knows, as a number (1 or 1.2). */
static int check_schema(struct decode *d, const struct lrs_jval *v)
{
	double ver;

	if (lrs_jval__dbl(v, &ver))
		return bad(d, "no \"schema\" version: not an lruscope snapshot");
	/* compared as a double: a huge or NaN version must not reach an int cast */
	if (!(ver >= LRS_SCHEMA_VERSION && ver < LRS_SCHEMA_VERSION + 1)) {
		if (d->err && d->err_len)
			snprintf(d->err, d->err_len,
				 "snapshot schema version %g, but this lruscope reads version %d only: "
				 "use the lruscope that made the recording, or a newer one", ver,
				 LRS_SCHEMA_VERSION);
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

static int decode_root(struct decode *d, const struct lrs_jval *root, const struct lrs_snapshot *prev,
		       struct lrs_snapshot **out)
{
	const struct lrs_jval *delta = lrs_jval__get(root, "delta"), *nodes, *drops;
	bool d_lruvecs = false, d_others = false, d_stacks = false;
	struct lrs_snapshot *s = NULL;
	const char *kernel;
	int err;

	if (!root || root->type != LRS_JOBJ)
		return bad(d, "not a JSON object: not an lruscope snapshot");
	err = check_schema(d, lrs_jval__get(root, "schema"));
	if (err)
		return err;
	if (delta) {
		if (delta->type != LRS_JARR)
			return bad(d, "\"delta\" is not an array of section names");
		if (!prev)
			return bad(d, "a delta line with no full snapshot before it");
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
		bad(d, "no \"t_ns\" timestamp");
		goto fail;
	}
	s->interval_ns = 0;
	if (opt_u64(d, root, "interval_ns", &s->interval_ns))
		goto fail;
	kernel = lrs_jval__str(lrs_jval__get(root, "kernel"));
	snprintf(s->kernel, sizeof(s->kernel), "%s", kernel ? kernel : "");
	nodes = lrs_jval__get(root, "nodes");
	if (nodes && nodes->type != LRS_JARR) {
		bad(d, "\"nodes\" is not an array");
		goto fail;
	}
	for (size_t i = 0; nodes && i < nodes->u.arr.len; i++) {
		int n;

		if (lrs_jval__int(nodes->u.arr.items[i], &n) || n < 0) {
			bad(d, "\"nodes\" holds something that is not a node number");
			goto fail;
		}
		if (lrs_snapshot__add_node(s, n))
			goto nomem;
	}
	err = decode_lruvecs(d, lrs_jval__get(root, "lruvecs"), s, d_lruvecs, delta != NULL);
	if (!err)
		err = decode_others(d, lrs_jval__get(root, "other_locks"), s, d_others, delta != NULL);
	if (!err && !d_stacks)
		err = decode_stacks(d, lrs_jval__get(root, "stacks"), s);
	if (err)
		goto fail;
	/* every lruvec's node is listed, as the live collector does */
	for (size_t i = 0; i < s->nr_lruvecs; i++)
		if (lrs_snapshot__add_node(s, s->lruvecs[i].node))
			goto nomem;
	memset(&s->drops, 0, sizeof(s->drops));
	drops = lrs_jval__get(root, "drops");
	err = -EINVAL;
	if (drops && (opt_u64(d, drops, "task", &s->drops.task) ||
		      opt_u64(d, drops, "stack", &s->drops.stack) ||
		      opt_u64(d, drops, "stats_full", &s->drops.stats_full) ||
		      opt_u64(d, drops, "negative_time", &s->drops.negative_time)))
		goto fail;
	if (opt_strdup(d, root, "unavailable", &s->unavailable))
		goto fail;
	/*
	 * holders (issue 6): every line that has them carries them whole. An array
	 * there is walk.py's drgn holders (walk_import.c reads those), not ours.
	 */
	lrs_holders__free(s->holders);
	s->holders = NULL;
	if (lrs_jval__is(lrs_jval__get(root, "holders"), LRS_JOBJ)) {
		err = lrs_holders__read_json(lrs_jval__get(root, "holders"), &s->holders, d->err,
					     d->err_len);
		if (err)
			goto fail;
	}
	*out = s;
	return 0;
nomem:
	err = -ENOMEM;
fail:
	if (err == -ENOMEM)
		bad(d, "out of memory");
	lrs_snapshot__free(s);
	return err;
}

int lrs_recording__decode_line(const char *line, size_t len, const struct lrs_snapshot *prev,
			       struct lrs_snapshot **out, char *err, size_t err_len)
{
	struct decode d = { .err = err, .err_len = err_len };
	struct lrs_jdoc doc;
	char why[160];
	int ret;

	ret = lrs_jdoc__parse(&doc, line, len, why, sizeof(why));
	if (ret) {
		snprintf(err, err_len, "not valid JSON (%s)", why);
		return ret == -ENOMEM ? -ENOMEM : -EINVAL;
	}
	ret = decode_root(&d, doc.root, prev, out);
	lrs_jdoc__free(&doc);
	return ret;
}

/* ---- reader ------------------------------------------------------------------- */

struct lrs_recording {
	FILE *own;		/* opened here: closed here */
	struct lrs_zreader *zr;
	char *name;
	size_t max_line;
	char *buf;
	size_t cap, start, end;	/* unread text is buf[start, end) */
	bool eof;
	size_t lineno;		/* of the last line returned */
	struct lrs_recording_header hdr;
	struct lrs_snapshot *prev;
	char *pending;		/* headerless: the first snapshot line, read with the header */
	size_t pending_len;
	bool pending_used;
	char err[512];
	char warn[512];
};

static int rec_fail(struct lrs_recording *rec, int err, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rec_fail(struct lrs_recording *rec, int err, size_t line, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(rec->err, sizeof(rec->err), "%s:%zu: %s", rec->name, line, what);
	else
		snprintf(rec->err, sizeof(rec->err), "%s: %s", rec->name, what);
	return err;
}

/* The next raw line; -ENODATA at the end. The last line may lack its newline. */
static int read_line(struct lrs_recording *rec, char **line, size_t *len, bool *unterminated)
{
	size_t scanned = rec->start;

	*unterminated = false;
	for (;;) {
		char *nl = rec->end > scanned ? memchr(rec->buf + scanned, '\n', rec->end - scanned) : NULL;
		long n;

		if (nl) {
			*line = rec->buf + rec->start;
			*len = (size_t)(nl - *line);
			rec->start = (size_t)(nl - rec->buf) + 1;
			rec->lineno++;
			if (*len > rec->max_line)
				return rec_fail(rec, -E2BIG, rec->lineno,
						"a line of %zu bytes, over the limit of %zu: not an lruscope "
						"recording, or a corrupt one", *len, rec->max_line);
			return 0;
		}
		scanned = rec->end;
		if (rec->end - rec->start > rec->max_line)
			return rec_fail(rec, -E2BIG, rec->lineno + 1,
					"a line longer than the limit of %zu bytes: not an lruscope "
					"recording, or a corrupt one", rec->max_line);
		if (rec->eof) {
			if (rec->start == rec->end)
				return -ENODATA;
			*line = rec->buf + rec->start;
			*len = rec->end - rec->start;
			rec->start = rec->end;
			rec->lineno++;
			*unterminated = true;
			return 0;
		}
		/* make room: move the partial line to the front, then grow */
		if (rec->start) {
			memmove(rec->buf, rec->buf + rec->start, rec->end - rec->start);
			rec->end -= rec->start;
			scanned -= rec->start;
			rec->start = 0;
		}
		if (rec->cap - rec->end < 65536) {
			size_t cap = rec->cap ? rec->cap * 2 : 262144;
			char *b = realloc(rec->buf, cap);

			if (!b)
				return rec_fail(rec, -ENOMEM, rec->lineno + 1, "out of memory");
			rec->buf = b;
			rec->cap = cap;
		}
		n = lrs_zreader__read(rec->zr, rec->buf + rec->end, rec->cap - rec->end);
		if (n < 0)
			return rec_fail(rec, (int)n, rec->lineno + 1, "%s",
					n == -EBADMSG ? "corrupt compressed data: the recording is damaged here"
						      : "read error");
		if (n == 0)
			rec->eof = true;
		rec->end += (size_t)n;
	}
}

/*
 * The next line that is not blank. A last line without its newline that is
 * not JSON is what a killed recorder leaves: warn and end there.
 */
static int next_raw(struct lrs_recording *rec, char **line, size_t *len)
{
	bool unterminated;
	int err;

	do {
		err = read_line(rec, line, len, &unterminated);
		if (err)
			break;
	} while (*len == 0 || (*len == 1 && (*line)[0] == '\r'));
	if (err == -ENODATA && lrs_zreader__cut_short(rec->zr) && !rec->warn[0])
		snprintf(rec->warn, sizeof(rec->warn),
			 "%s: the %s stream has no end mark (was the recorder killed?): read up to line %zu",
			 rec->name, lrs_zkind_names[lrs_zreader__kind(rec->zr)], rec->lineno);
	if (!err && unterminated) {
		struct lrs_jdoc doc;
		char why[160];

		if (lrs_jdoc__parse(&doc, *line, *len, why, sizeof(why))) {
			snprintf(rec->warn, sizeof(rec->warn),
				 "%s:%zu: the last line is cut short (was the recorder killed?): "
				 "ignored it, read the lines before", rec->name, rec->lineno);
			return -ENODATA;
		}
		lrs_jdoc__free(&doc);
	}
	return err;
}

static int parse_header(struct lrs_recording *rec)
{
	struct decode d = { .err = NULL };
	const struct lrs_jval *root, *v, *nodes;
	struct lrs_jdoc doc;
	char *line, why[160];
	size_t len;
	double ver;
	int err;

	err = next_raw(rec, &line, &len);
	if (err == -ENODATA)
		return rec_fail(rec, -EINVAL, 0, "empty: not an lruscope recording");
	if (err)
		return err;
	if (len == 0 || line[0] != '{' || memchr(line, '\0', len))
		return rec_fail(rec, -EINVAL, rec->lineno,
				"not an lruscope recording (no JSON header line); make one with "
				"'sudo lruscope record -o FILE'");
	err = lrs_jdoc__parse(&doc, line, len, why, sizeof(why));
	if (err)
		return rec_fail(rec, err == -ENOMEM ? -ENOMEM : -EINVAL, rec->lineno,
				"not an lruscope recording (the first line is not JSON: %s)", why);
	root = doc.root;
	v = lrs_jval__get(root, "lruscope_recording");
	if (!v) {
		if (lrs_jval__get(root, "schema") && lrs_jval__get(root, "lruvecs")) {
			/* bare snapshots, as 'report -f json' prints: the first is the header too */
			rec->hdr.headerless = true;
			rec->pending = malloc(len ? len : 1);
			if (!rec->pending) {
				lrs_jdoc__free(&doc);
				return rec_fail(rec, -ENOMEM, rec->lineno, "out of memory");
			}
			memcpy(rec->pending, line, len);
			rec->pending_len = len;
			rec->hdr.schema = LRS_SCHEMA_VERSION;
			lrs_jdoc__free(&doc);
			return 0;
		}
		lrs_jdoc__free(&doc);
		return rec_fail(rec, -EINVAL, rec->lineno,
				"not an lruscope recording (the header has no \"lruscope_recording\")");
	}
	err = -EINVAL;
	if (lrs_jval__dbl(v, &ver) || ver < 1) {
		rec_fail(rec, err, rec->lineno, "\"lruscope_recording\" is not a version number");
		goto out;
	}
	if (!(ver < LRS_RECORDING_VERSION + 1)) {	/* a double: huge or NaN never reaches a cast */
		err = -EPROTONOSUPPORT;
		rec_fail(rec, err, rec->lineno,
			 "recording format version %g, but this lruscope reads version %d only: "
			 "use a newer lruscope", ver, LRS_RECORDING_VERSION);
		goto out;
	}
	if (lrs_jval__dbl(lrs_jval__get(root, "schema"), &ver)) {
		rec_fail(rec, err, rec->lineno, "the header has no \"schema\" version");
		goto out;
	}
	/* compared as a double: a huge or NaN version must not reach an int cast */
	if (!(ver >= LRS_SCHEMA_VERSION && ver < LRS_SCHEMA_VERSION + 1)) {
		err = -EPROTONOSUPPORT;
		rec_fail(rec, err, rec->lineno,
			 "snapshot schema version %g, but this lruscope reads version %d only: use the "
			 "lruscope that made the recording, or a newer one", ver, LRS_SCHEMA_VERSION);
		goto out;
	}
	rec->hdr.schema = (int)ver;
	snprintf(rec->hdr.kernel, sizeof(rec->hdr.kernel), "%s",
		 lrs_jval__str(lrs_jval__get(root, "kernel")) ?: "");
	snprintf(rec->hdr.host, sizeof(rec->hdr.host), "%s",
		 lrs_jval__str(lrs_jval__get(root, "host")) ?: "");
	if (opt_u64(&d, root, "interval_ns", &rec->hdr.interval_ns) ||
	    opt_u64(&d, root, "started_unix_ns", &rec->hdr.started_unix_ns)) {
		rec_fail(rec, err, rec->lineno, "the header's interval_ns or started_unix_ns is not a number");
		goto out;
	}
	nodes = lrs_jval__get(root, "nodes");
	if (lrs_jval__is(nodes, LRS_JARR) && nodes->u.arr.len) {
		rec->hdr.nodes = calloc(nodes->u.arr.len, sizeof(int));
		if (!rec->hdr.nodes) {
			err = rec_fail(rec, -ENOMEM, rec->lineno, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < nodes->u.arr.len; i++)
			if (!lrs_jval__int(nodes->u.arr.items[i], &rec->hdr.nodes[rec->hdr.nr_nodes]))
				rec->hdr.nr_nodes++;
	}
	err = 0;
out:
	lrs_jdoc__free(&doc);
	return err;
}

int lrs_recording__open_file(struct lrs_recording **out, FILE *f, const char *name,
			     size_t max_line, char *err, size_t err_len)
{
	struct lrs_recording *rec = calloc(1, sizeof(*rec));
	int ret;

	if (!rec || !(rec->name = strdup(name))) {
		free(rec);
		snprintf(err, err_len, "%s: out of memory", name);
		return -ENOMEM;
	}
	rec->max_line = max_line ? max_line : LRS_RECORDING_MAX_LINE;
	ret = lrs_zreader__open(&rec->zr, f);
	if (ret)
		rec_fail(rec, ret, 0, "cannot read: %s", strerror(-ret));
	else
		ret = parse_header(rec);
	if (ret) {
		snprintf(err, err_len, "%s", rec->err);
		lrs_recording__close(rec);
		return ret;
	}
	*out = rec;
	return 0;
}

int lrs_recording__open(struct lrs_recording **out, const char *path, size_t max_line,
			char *err, size_t err_len)
{
	FILE *f;
	int ret;

	if (!strcmp(path, "-"))
		return lrs_recording__open_file(out, stdin, "(stdin)", max_line, err, err_len);
	f = fopen(path, "rb");
	if (!f) {
		ret = -errno;
		snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
		return ret;
	}
	ret = lrs_recording__open_file(out, f, path, max_line, err, err_len);
	if (ret)
		fclose(f);
	else
		(*out)->own = f;
	return ret;
}

const struct lrs_recording_header *lrs_recording__header(const struct lrs_recording *rec)
{
	return &rec->hdr;
}

int lrs_recording__next_line(struct lrs_recording *rec, const char **line, size_t *len,
			     size_t *lineno)
{
	char *l;
	int err;

	if (rec->pending && !rec->pending_used) {
		rec->pending_used = true;
		*line = rec->pending;
		*len = rec->pending_len;
		*lineno = 1;
		return 0;
	}
	err = next_raw(rec, &l, len);
	if (err)
		return err;
	*line = l;
	*lineno = rec->lineno;
	return 0;
}

int lrs_recording__next(struct lrs_recording *rec, struct lrs_snapshot **out)
{
	struct lrs_snapshot *snap, *copy;
	const char *line;
	char why[400];
	size_t len, lineno;
	int err;

	err = lrs_recording__next_line(rec, &line, &len, &lineno);
	if (err)
		return err;
	err = lrs_recording__decode_line(line, len, rec->prev, &snap, why, sizeof(why));
	if (err)
		return rec_fail(rec, err, lineno, "%s", why);
	copy = lrs_snapshot__clone(snap);
	if (!copy) {
		lrs_snapshot__free(snap);
		return rec_fail(rec, -ENOMEM, lineno, "out of memory");
	}
	lrs_snapshot__free(rec->prev);
	rec->prev = copy;
	*out = snap;
	return 0;
}

const char *lrs_recording__error(const struct lrs_recording *rec)
{
	return rec->err;
}

const char *lrs_recording__warning(const struct lrs_recording *rec)
{
	return rec->warn[0] ? rec->warn : NULL;
}

const char *lrs_recording__name(const struct lrs_recording *rec)
{
	return rec->name;
}

void lrs_recording__close(struct lrs_recording *rec)
{
	if (!rec)
		return;
	lrs_zreader__close(rec->zr);
	if (rec->own)
		fclose(rec->own);
	lrs_recording_header__clear(&rec->hdr);
	lrs_snapshot__free(rec->prev);
	free(rec->pending);
	free(rec->buf);
	free(rec->name);
	free(rec);
}

/* ---- writer ------------------------------------------------------------------- */

struct lrs_recording_writer {
	struct lrs_zwriter *zw;
	struct lrs_snapshot *prev;
	uint64_t snapshots;
	int err;
};

/* Render into memory with a stdio writer, then hand the bytes to the compressor. */
static int put_rendered(struct lrs_recording_writer *w, int (*render)(FILE *, const void *, const void *),
			const void *a, const void *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int err;

	if (!m)
		return -ENOMEM;
	err = render(m, a, b);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (!err)
		err = lrs_zwriter__write(w->zw, buf, len);
	free(buf);
	return err;
}

static int render_header(FILE *f, const void *hdr, const void *unused)
{
	return lrs_recording__write_header(f, hdr);
}

static int render_line(FILE *f, const void *snap, const void *prev)
{
	return lrs_recording__write_line(f, snap, prev);
}

int lrs_recording_writer__open(struct lrs_recording_writer **out, FILE *f, enum lrs_zkind kind,
			       const struct lrs_recording_header *hdr)
{
	struct lrs_recording_writer *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	/* zstd 9: a third smaller than 3 on recordings, ~1 ms a line */
	err = lrs_zwriter__open(&w->zw, f, kind, kind == LRS_Z_ZSTD ? 9 : 0);
	if (!err)
		err = put_rendered(w, render_header, hdr, NULL);
	if (!err)
		err = lrs_zwriter__flush(w->zw);
	if (err) {
		lrs_zwriter__close(w->zw, NULL);
		free(w);
		return err;
	}
	*out = w;
	return 0;
}

int lrs_recording_writer__write(struct lrs_recording_writer *w, const struct lrs_snapshot *snap)
{
	struct lrs_snapshot *copy;
	const struct lrs_snapshot *base = w->prev;
	int err;

	if (w->err)
		return w->err;
	/* a full line now and then: tools can start there, a damaged file loses less */
	if (w->snapshots % LRS_RECORDING_KEYFRAME_EVERY == 0)
		base = NULL;
	copy = lrs_snapshot__clone(snap);
	if (!copy)
		return -ENOMEM;
	err = put_rendered(w, render_line, snap, base);
	if (!err)
		err = lrs_zwriter__flush(w->zw);
	if (err) {
		lrs_snapshot__free(copy);
		return w->err = err;
	}
	lrs_snapshot__free(w->prev);
	w->prev = copy;
	w->snapshots++;
	return 0;
}

uint64_t lrs_recording_writer__snapshots(const struct lrs_recording_writer *w)
{
	return w->snapshots;
}

int lrs_recording_writer__close(struct lrs_recording_writer *w, uint64_t *bytes)
{
	int err;

	if (bytes)
		*bytes = 0;
	if (!w)
		return 0;
	err = lrs_zwriter__close(w->zw, bytes);
	if (w->err)
		err = w->err;
	lrs_snapshot__free(w->prev);
	free(w);
	return err;
}

/* ---- report -i --------------------------------------------------------------- */

int lrs_report__from_recording(const char *path, struct lrs_snapshot **out)
{
	struct lrs_recording *rec = NULL;
	struct lrs_snapshot *first = NULL, *last = NULL, *snap;
	char err[600];
	int ret;

	ret = lrs_recording__open(&rec, path, 0, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope: %s\n", err);
		return ret;
	}
	while (!(ret = lrs_recording__next(rec, &snap))) {
		if (!first) {
			first = snap;
		} else {
			lrs_snapshot__free(last);
			last = snap;
		}
	}
	if (ret != -ENODATA) {
		fprintf(stderr, "lruscope: %s\n", lrs_recording__error(rec));
		goto out;
	}
	if (lrs_recording__warning(rec))
		fprintf(stderr, "lruscope: warning: %s\n", lrs_recording__warning(rec));
	if (!first) {
		fprintf(stderr, "lruscope: %s: the recording has a header but no snapshot\n", path);
		ret = -ENODATA;
		goto out;
	}
	if (!last) {
		/* one snapshot: its counters are since the collector started */
		*out = first;
		first = NULL;
		ret = 0;
		goto out;
	}
	ret = lrs_snapshot__diff(first, last, out);
	if (ret)
		fprintf(stderr, "lruscope: %s: %s\n", path, strerror(-ret));
out:
	lrs_snapshot__free(first);
	lrs_snapshot__free(last);
	lrs_recording__close(rec);
	return ret;
}

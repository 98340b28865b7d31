// SPDX-License-Identifier: GPL-2.0
/* Own series or memcg="other": decided at first sight, kept for life (series.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/holders.h"
#include "model/u64map.h"
#include "ui/export/series.h"

struct seen_holder {
	uint64_t memcg_id;
	bool own; /* imposed series of its own, or "other" for life */
};

struct node_state {
	int node;
	bool lock_seen;		       /* its lock was waited on */
	bool lock_own;		       /* ... and got series of its own */
	struct lrs_lock_counters last; /* kept for "other" when a folded memcg goes */
	struct seen_holder *holders;   /* holder memcgs seen on this lruvec */
	size_t nr_holders;
	/* own lock series: sampled wait by cause, summed from the stack uses' growth */
	uint64_t cause_wait_ns[LRS_NR_CAUSES];
	struct lrs_stack_use *stacks; /* the uses of the last update */
	size_t nr_stacks;
};

struct memcg_state {
	uint64_t id;
	bool own;     /* page series of its own */
	bool retired; /* removed: no series any more */
	bool present; /* in the latest snapshot */
	size_t cost;  /* budget its own series take */
	struct node_state *nodes;
	size_t nr_nodes;
};

/* memcg="other" of one node. */
struct other {
	int node;
	struct lrs_lock_counters retained; /* counts of folded memcgs that are gone */
	bool members;			   /* a folded memcg exists now */
	struct lrs_expo_lruvec row;
};

struct lrs_series {
	struct lrs_series_opts opts;
	struct memcg_state *memcgs;
	size_t nr_memcgs;
	struct u64map index; /* memcg id -> memcgs[] */
	size_t used;	     /* budget taken by own series */
	uint64_t folded_total;
	struct other *other;
	size_t nr_other;
	/* the page of the latest update */
	struct lrs_expo_lruvec *rows;
	size_t nr_rows;
	struct lrs_expo_lock *locks;
	size_t nr_locks;
	struct lrs_expo_imposed *imposed;
	size_t nr_imposed;
	char **names; /* strings made for this page */
	size_t nr_names;
	size_t written;
	uint64_t own_now, folded_now;
};

int lrs_series__new(const struct lrs_series_opts *opts, struct lrs_series **out)
{
	struct lrs_series *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->opts = *opts;
	u64map__init(&s->index);
	*out = s;
	return 0;
}

static void free_names(struct lrs_series *s)
{
	for (size_t i = 0; i < s->nr_names; i++)
		free(s->names[i]);
	free(s->names);
	s->names = NULL;
	s->nr_names = 0;
}

static void memcg_state__clear(struct memcg_state *m)
{
	for (size_t i = 0; i < m->nr_nodes; i++) {
		free(m->nodes[i].holders);
		free(m->nodes[i].stacks);
	}
	free(m->nodes);
	m->nodes = NULL;
	m->nr_nodes = 0;
}

void lrs_series__free(struct lrs_series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_memcgs; i++)
		memcg_state__clear(&s->memcgs[i]);
	free(s->memcgs);
	u64map__destroy(&s->index);
	free(s->other);
	free(s->rows);
	free(s->locks);
	free(s->imposed);
	free_names(s);
	free(s);
}

/* A string that lives until the next update; NULL when out of memory. */
static const char *keep_name(struct lrs_series *s, char *str)
{
	char **names;

	if (!str)
		return NULL;
	names = realloc(s->names, (s->nr_names + 1) * sizeof(*names));
	if (!names) {
		free(str);
		return NULL;
	}
	s->names = names;
	s->names[s->nr_names++] = str;
	return str;
}

static const char *memcg_label(struct lrs_series *s, const char *path, uint64_t id)
{
	char *str;

	if (path && *path)
		return path;
	if (asprintf(&str, "cgroup-id:%" PRIu64, id) < 0)
		return NULL;
	return keep_name(s, str);
}

static void counters_add(struct lrs_lock_counters *sum, const struct lrs_lock_counters *c)
{
	sum->contended += c->contended;
	sum->wait_ns += c->wait_ns;
	if (c->wait_max_ns > sum->wait_max_ns)
		sum->wait_max_ns = c->wait_max_ns;
	for (int i = 0; i < LRS_HIST_BUCKETS; i++)
		sum->hist[i] += c->hist[i];
}

static struct other *other_of(struct lrs_series *s, int node)
{
	struct other *o;

	for (size_t i = 0; i < s->nr_other; i++)
		if (s->other[i].node == node)
			return &s->other[i];
	o = realloc(s->other, (s->nr_other + 1) * sizeof(*o));
	if (!o)
		return NULL;
	s->other = o;
	o = &s->other[s->nr_other++];
	memset(o, 0, sizeof(*o));
	o->node = node;
	return o;
}

static struct memcg_state *state_of(struct lrs_series *s, uint64_t id, bool *created)
{
	struct memcg_state *m;
	size_t at;

	*created = false;
	if (u64map__get(&s->index, id, &at))
		return &s->memcgs[at];
	m = realloc(s->memcgs, (s->nr_memcgs + 1) * sizeof(*m));
	if (!m)
		return NULL;
	s->memcgs = m;
	m = &s->memcgs[s->nr_memcgs];
	memset(m, 0, sizeof(*m));
	m->id = id;
	if (u64map__set(&s->index, id, s->nr_memcgs))
		return NULL;
	s->nr_memcgs++;
	*created = true;
	return m;
}

static struct node_state *node_of(struct memcg_state *m, int node)
{
	struct node_state *n;

	for (size_t i = 0; i < m->nr_nodes; i++)
		if (m->nodes[i].node == node)
			return &m->nodes[i];
	n = realloc(m->nodes, (m->nr_nodes + 1) * sizeof(*n));
	if (!n)
		return NULL;
	m->nodes = n;
	n = &m->nodes[m->nr_nodes++];
	memset(n, 0, sizeof(*n));
	n->node = node;
	return n;
}

/* Budget left for own series: "other" of every node, with its lock and imposed, is reserved. */
static size_t budget_left(const struct lrs_series *s, size_t nr_nodes)
{
	size_t reserve = nr_nodes * (LRS_SERIES_PER_PAGES + LRS_SERIES_PER_LOCK);
	size_t avail = s->opts.max_series > reserve ? s->opts.max_series - reserve : 0;

	return avail > s->used ? avail - s->used : 0;
}

static size_t lock_cost(const struct lrs_series *s)
{
	/* with holders: imposed by "unknown" and by "other" holders too */
	return LRS_SERIES_PER_LOCK + LRS_SERIES_PER_CAUSES + (s->opts.holders ? 2 : 0);
}

/* A memcg is gone: its own series leave; a folded one's counts stay in "other". */
static int retire(struct lrs_series *s, struct memcg_state *m)
{
	for (size_t i = 0; i < m->nr_nodes; i++) {
		struct node_state *n = &m->nodes[i];
		struct other *o;

		if (!n->lock_seen || n->lock_own)
			continue;
		o = other_of(s, n->node);
		if (!o)
			return -ENOMEM;
		counters_add(&o->retained, &n->last);
	}
	s->used -= m->cost;
	m->cost = 0;
	m->retired = true;
	memcg_state__clear(m);
	return 0;
}

/* First sight of each memcg: page series of its own if they fit. */
static int admit_memcgs(struct lrs_series *s, const struct lrs_snapshot *snap)
{
	size_t page_cost = snap->nr_nodes * LRS_SERIES_PER_PAGES;

	for (size_t i = 0; i < s->nr_memcgs; i++)
		s->memcgs[i].present = false;
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[i];
		bool created;
		struct memcg_state *m = state_of(s, lv->memcg_id, &created);

		if (!m)
			return -ENOMEM;
		m->present = true;
		if (!created)
			continue;
		if (!lv->removed && page_cost <= budget_left(s, snap->nr_nodes)) {
			m->own = true;
			m->cost = page_cost;
			s->used += page_cost;
		} else {
			s->folded_total++;
		}
	}
	return 0;
}

static int by_wait_down(const void *a, const void *b)
{
	const struct lrs_lruvec *x = *(const struct lrs_lruvec *const *)a;
	const struct lrs_lruvec *y = *(const struct lrs_lruvec *const *)b;

	return x->counters.wait_ns < y->counters.wait_ns ? 1 :
	       x->counters.wait_ns > y->counters.wait_ns ? -1 :
							   0;
}

/* First wait on each lruvec lock: lock series of its own if they fit, hottest first. */
static int admit_locks(struct lrs_series *s, const struct lrs_snapshot *snap)
{
	const struct lrs_lruvec **fresh = calloc(snap->nr_lruvecs + 1, sizeof(*fresh));
	size_t nr = 0;

	if (!fresh)
		return -ENOMEM;
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[i];
		size_t at;
		struct node_state *n;

		if (!lv->counters.contended || !u64map__get(&s->index, lv->memcg_id, &at) ||
		    s->memcgs[at].retired)
			continue;
		n = node_of(&s->memcgs[at], lv->node);
		if (!n) {
			free(fresh);
			return -ENOMEM;
		}
		if (!n->lock_seen)
			fresh[nr++] = lv;
	}
	qsort(fresh, nr, sizeof(*fresh), by_wait_down);
	for (size_t i = 0; i < nr; i++) {
		size_t at;
		struct memcg_state *m;
		struct node_state *n;

		u64map__get(&s->index, fresh[i]->memcg_id, &at);
		m = &s->memcgs[at];
		n = node_of(m, fresh[i]->node);
		n->lock_seen = true;
		if (m->own && !fresh[i]->removed &&
		    lock_cost(s) <= budget_left(s, snap->nr_nodes)) {
			n->lock_own = true;
			m->cost += lock_cost(s);
			s->used += lock_cost(s);
		}
	}
	free(fresh);
	return 0;
}

/* Memcgs removed since the last update, or gone from the snapshot. */
static int retire_gone(struct lrs_series *s, const struct lrs_snapshot *snap)
{
	size_t kept = 0;
	int err;

	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[i];
		size_t at;
		struct memcg_state *m;
		struct node_state *n;

		if (!lv->removed || !u64map__get(&s->index, lv->memcg_id, &at))
			continue;
		m = &s->memcgs[at];
		if (m->retired)
			continue;
		/* its last counts are these */
		n = lv->counters.contended ? node_of(m, lv->node) : NULL;
		if (n) {
			n->lock_seen = true;
			n->last = lv->counters;
		}
		err = retire(s, m);
		if (err)
			return err;
	}
	for (size_t i = 0; i < s->nr_memcgs; i++) {
		struct memcg_state *m = &s->memcgs[i];

		if (!m->present && !m->retired) {
			err = retire(s, m);
			if (err)
				return err;
		}
		if (!m->present) {
			memcg_state__clear(m);
			continue; /* forgotten: ids are never reused */
		}
		s->memcgs[kept++] = *m;
	}
	s->nr_memcgs = kept;
	u64map__clear(&s->index);
	for (size_t i = 0; i < kept; i++)
		if (u64map__set(&s->index, s->memcgs[i].id, i))
			return -ENOMEM;
	return 0;
}

/*
 * Add what lv's stack uses grew by since the last update to n's causes (a
 * use that went back restarted), and keep the uses for the next. Summing the
 * growth keeps each cause's counter monotonic even when a stack id is reused.
 */
static int add_causes(struct node_state *n, const struct lrs_snapshot *snap,
		      const struct lrs_lruvec *lv)
{
	const struct lrs_lruvec last = { .stacks = n->stacks, .nr_stacks = n->nr_stacks };
	struct lrs_stack_use *copy = NULL;
	struct lrs_causes c;

	if (lv->nr_stacks) {
		copy = malloc(lv->nr_stacks * sizeof(*copy));
		if (!copy)
			return -ENOMEM;
		memcpy(copy, lv->stacks, lv->nr_stacks * sizeof(*copy));
	}
	lrs_causes__of_lruvec(snap, lv, &last, &c);
	for (int k = 0; k < LRS_NR_CAUSES; k++)
		n->cause_wait_ns[k] += c.by[k].wait_ns;
	free(n->stacks);
	n->stacks = copy;
	n->nr_stacks = lv->nr_stacks;
	return 0;
}

static int build_rows(struct lrs_series *s, const struct lrs_snapshot *snap)
{
	struct lrs_expo_lruvec *rows = realloc(s->rows, (snap->nr_lruvecs + 1) * sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	s->rows = rows;
	s->nr_rows = 0;
	s->written = 0;
	for (size_t i = 0; i < s->nr_other; i++) {
		struct other *o = &s->other[i];

		memset(&o->row, 0, sizeof(o->row));
		o->row.counters = o->retained;
		o->members = false;
	}
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[i];
		size_t at;
		struct memcg_state *m;
		struct node_state *n;
		struct other *o;

		if (!u64map__get(&s->index, lv->memcg_id, &at) || s->memcgs[at].retired)
			continue;
		m = &s->memcgs[at];
		n = node_of(m, lv->node);
		o = other_of(s, lv->node);
		if (!n || !o)
			return -ENOMEM;
		if (n->lock_seen)
			n->last = lv->counters;
		if (m->own) {
			struct lrs_expo_lruvec *r = &s->rows[s->nr_rows++];

			r->memcg = memcg_label(s, lv->memcg, lv->memcg_id);
			if (!r->memcg)
				return -ENOMEM;
			r->node = lv->node;
			r->contended = n->lock_own;
			r->counters = lv->counters;
			memcpy(r->lru_pages, lv->lru_pages, sizeof(r->lru_pages));
			s->written +=
				LRS_SERIES_PER_PAGES + (r->contended ? LRS_SERIES_PER_LOCK : 0);
			r->causes = n->lock_own;
			memset(r->cause_wait_ns, 0, sizeof(r->cause_wait_ns));
			if (r->causes && add_causes(n, snap, lv))
				return -ENOMEM;
			for (int k = 0; r->causes && k < LRS_NR_CAUSES; k++) {
				r->cause_wait_ns[k] = n->cause_wait_ns[k];
				s->written += n->cause_wait_ns[k] > 0;
			}
		} else {
			o->members = true;
			for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
				o->row.lru_pages[l] += lv->lru_pages[l];
		}
		if (n->lock_seen && !n->lock_own)
			counters_add(&o->row.counters, &lv->counters);
	}
	for (size_t i = 0; i < s->nr_other; i++) {
		struct other *o = &s->other[i];
		struct lrs_expo_lruvec *r;

		if (!o->members && !o->row.counters.contended)
			continue;
		rows = realloc(s->rows, (s->nr_rows + 1) * sizeof(*rows));
		if (!rows)
			return -ENOMEM;
		s->rows = rows;
		r = &s->rows[s->nr_rows++];
		*r = o->row;
		r->memcg = "other";
		r->node = o->node;
		r->contended = o->row.counters.contended > 0;
		s->written += LRS_SERIES_PER_PAGES + (r->contended ? LRS_SERIES_PER_LOCK : 0);
	}
	s->own_now = s->folded_now = 0;
	for (size_t i = 0; i < s->nr_memcgs; i++) {
		if (s->memcgs[i].retired)
			continue;
		if (s->memcgs[i].own)
			s->own_now++;
		else
			s->folded_now++;
	}
	return 0;
}

/* A lock's label: never a kernel address (an unnamed lock becomes "TYPE (no symbol)"). */
static const char *lock_label(struct lrs_series *s, const char *name)
{
	const char *hex = name ? strstr(name, "0x") : NULL;
	char *str;

	if (!name)
		return "unknown";
	if (!hex)
		return name;
	if (asprintf(&str, "%.*s(no symbol)", (int)(hex - name), name) < 0)
		return NULL;
	return keep_name(s, str);
}

static int lock_by_wait_down(const void *a, const void *b)
{
	const struct lrs_expo_lock *x = a, *y = b;

	if (x->wait_ns != y->wait_ns)
		return x->wait_ns < y->wait_ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Other locks summed by label, the top N by wait. */
static int build_locks(struct lrs_series *s, const struct lrs_snapshot *snap)
{
	struct lrs_expo_lock *locks =
		realloc(s->locks, (snap->nr_other_locks + 1) * sizeof(*locks));
	size_t nr = 0;

	if (!locks)
		return -ENOMEM;
	s->locks = locks;
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		const struct lrs_other_lock *ol = &snap->other_locks[i];
		const char *label = lock_label(s, ol->name);
		size_t j;

		if (!label)
			return -ENOMEM;
		for (j = 0; j < nr && strcmp(locks[j].name, label); j++)
			;
		if (j == nr)
			locks[nr++] = (struct lrs_expo_lock){ .name = label };
		locks[j].wait_ns += ol->counters.wait_ns;
		locks[j].contended += ol->counters.contended;
	}
	qsort(locks, nr, sizeof(*locks), lock_by_wait_down);
	s->nr_locks = nr < s->opts.top_locks ? nr : s->opts.top_locks;
	return 0;
}

/* The holder's label for one lruvec: its memcg's path once given a series, else "other". */
static const char *holder_label(struct lrs_series *s, const struct lrs_snapshot *snap,
				struct memcg_state *m, struct node_state *n,
				const struct lrs_holder_row *row)
{
	struct seen_holder *h;
	size_t at;

	if (!row->pid || !row->memcg_id)
		return "unknown";
	if (!u64map__get(&s->index, row->memcg_id, &at) || !s->memcgs[at].own ||
	    s->memcgs[at].retired)
		return "other";
	for (size_t i = 0; i < n->nr_holders; i++)
		if (n->holders[i].memcg_id == row->memcg_id)
			return n->holders[i].own ? memcg_label(s, row->memcg, row->memcg_id) :
						   "other";
	/* first sight of this holder on this lruvec: a series of its own if one fits */
	h = realloc(n->holders, (n->nr_holders + 1) * sizeof(*h));
	if (!h)
		return NULL;
	n->holders = h;
	h = &n->holders[n->nr_holders++];
	h->memcg_id = row->memcg_id;
	h->own = budget_left(s, snap->nr_nodes) >= 1;
	if (!h->own)
		return "other";
	m->cost++; /* the lruvec's memcg pays: freed when it goes */
	s->used++;
	return memcg_label(s, row->memcg, row->memcg_id);
}

/* Imposed wait by (lruvec, holder memcg): the estimate's rows summed. */
static int build_imposed(struct lrs_series *s, const struct lrs_snapshot *snap)
{
	const struct lrs_holders *h = snap->holders;
	struct lrs_expo_imposed *out;
	size_t nr = 0;

	s->nr_imposed = 0;
	if (!s->opts.holders || !h || !h->nr_rows)
		return 0;
	out = realloc(s->imposed, h->nr_rows * sizeof(*out));
	if (!out)
		return -ENOMEM;
	s->imposed = out;
	for (size_t i = 0; i < h->nr_rows; i++) {
		const struct lrs_holder_row *row = &h->rows[i];
		struct memcg_state *m;
		struct node_state *n;
		const char *memcg, *holder;
		const struct lrs_lruvec *lv;
		size_t at, j;

		/*
		 * Only lruvecs with lock series of their own: a folded memcg's rows
		 * leave with it, and an "other" sum would step back.
		 */
		if (!u64map__get(&s->index, row->lruvec_memcg_id, &at) || s->memcgs[at].retired)
			continue;
		m = &s->memcgs[at];
		n = node_of(m, row->node);
		if (!n)
			return -ENOMEM;
		if (!n->lock_own)
			continue;
		lv = lrs_snapshot__find_lruvec(snap, row->lruvec_memcg_id, row->node);
		memcg = memcg_label(s, lv ? lv->memcg : NULL, row->lruvec_memcg_id);
		holder = holder_label(s, snap, m, n, row);
		if (!memcg || !holder)
			return -ENOMEM;
		for (j = 0; j < nr; j++)
			if (out[j].node == row->node && !strcmp(out[j].memcg, memcg) &&
			    !strcmp(out[j].holder_memcg, holder))
				break;
		if (j == nr)
			out[nr++] = (struct lrs_expo_imposed){ .memcg = memcg,
							       .node = row->node,
							       .holder_memcg = holder };
		out[j].imposed_ns += row->imposed_ns;
	}
	s->nr_imposed = nr;
	s->written += nr;
	return 0;
}

int lrs_series__update(struct lrs_series *s, const struct lrs_snapshot *snap,
		       struct lrs_exposition *e)
{
	int err;

	free_names(s);
	err = admit_memcgs(s, snap);
	if (!err)
		err = retire_gone(s, snap);
	if (!err)
		err = admit_locks(s, snap);
	if (!err)
		err = build_rows(s, snap);
	if (!err)
		err = build_locks(s, snap);
	if (!err)
		err = build_imposed(s, snap);
	if (err)
		return err;
	e->lruvecs = s->rows;
	e->nr_lruvecs = s->nr_rows;
	e->locks = s->locks;
	e->nr_locks = s->nr_locks;
	e->holders = s->opts.holders;
	e->imposed = s->imposed;
	e->nr_imposed = s->nr_imposed;
	e->drops = snap->drops;
	e->kernel = snap->kernel;
	e->spin = &snap->spin_source;
	return 0;
}

void lrs_series__memcgs(const struct lrs_series *s, uint64_t *own, uint64_t *folded,
			uint64_t *folded_total)
{
	*own = s->own_now;
	*folded = s->folded_now;
	*folded_total = s->folded_total;
}

size_t lrs_series__count(const struct lrs_series *s)
{
	return s->written;
}

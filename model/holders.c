// SPDX-License-Identifier: GPL-2.0
/* Lock holders: the C model of the estimator rule, and holders in a snapshot. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/holders.h"
#include "model/u64map.h"

const char *lrs_holder_basis__name(enum lrs_holder_basis b)
{
	static const char *const names[LRS_NR_BASES] = { "chain", "running", "probable", "unknown" };

	return b < LRS_NR_BASES ? names[b] : "?";
}

/* ---- the model ---------------------------------------------------------------- */

#define CPU_DEPTH 4	/* as bpf/lockstat.bpf.c */

struct pending {
	uint64_t lock_addr, owner_cgid, memcg, start_ns;
	int32_t stack_id;
};

struct cpu_state {
	uint32_t cpu;
	uint32_t depth;
	struct pending slot[CPU_DEPTH];
	uint32_t curr_pid;	/* from LRS_HOLDER_SWITCH; 0: idle */
	uint64_t curr_memcg;
};

struct last {
	uint64_t lock_addr, owner_cgid;
	uint64_t end_ns, cgid, queued;
	int64_t waiting;
	uint32_t pid, cpu;
	int32_t stack_id;
};

struct lrs_holder_est {
	struct cpu_state *cpus;
	size_t nr_cpus;
	struct last *lasts;
	size_t nr_lasts;
	struct lrs_holder_tally *tallies;
	size_t nr_tallies;
	struct lrs_matrix_tally *cells;
	size_t nr_cells;
	struct lrs_holder_est_counters counters;
};

/* Grow *arr by one zeroed element; NULL when out of memory. */
static void *grow(void **arr, size_t *nr, size_t size)
{
	void *p = realloc(*arr, (*nr + 1) * size);

	if (!p)
		return NULL;
	*arr = p;
	p = (char *)p + *nr * size;
	memset(p, 0, size);
	(*nr)++;
	return p;
}

int lrs_holder_est__new(struct lrs_holder_est **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void lrs_holder_est__free(struct lrs_holder_est *est)
{
	if (!est)
		return;
	free(est->cpus);
	free(est->lasts);
	free(est->tallies);
	free(est->cells);
	free(est);
}

static struct cpu_state *find_cpu(struct lrs_holder_est *est, uint32_t cpu)
{
	for (size_t i = 0; i < est->nr_cpus; i++)
		if (est->cpus[i].cpu == cpu)
			return &est->cpus[i];
	return NULL;
}

static struct cpu_state *cpu_of(struct lrs_holder_est *est, uint32_t cpu)
{
	struct cpu_state *c = find_cpu(est, cpu);

	if (c)
		return c;
	c = grow((void **)&est->cpus, &est->nr_cpus, sizeof(*c));
	if (c)
		c->cpu = cpu;
	return c;
}

static struct last *last_of(struct lrs_holder_est *est, uint64_t lock, uint64_t owner)
{
	struct last *l;

	for (size_t i = 0; i < est->nr_lasts; i++)
		if (est->lasts[i].lock_addr == lock && est->lasts[i].owner_cgid == owner)
			return &est->lasts[i];
	l = grow((void **)&est->lasts, &est->nr_lasts, sizeof(*l));
	if (l) {
		l->lock_addr = lock;
		l->owner_cgid = owner;
		l->stack_id = -1;
	}
	return l;
}

static int charge(struct lrs_holder_est *est, const struct pending *p, uint32_t holder_pid,
		  uint64_t holder_cgid, uint64_t hold, uint64_t queued, int32_t stack_id,
		  bool probable)
{
	struct lrs_holder_tally *t = NULL;
	struct lrs_matrix_tally *m = NULL;

	for (size_t i = 0; i < est->nr_tallies && !t; i++)
		if (est->tallies[i].lock_addr == p->lock_addr &&
		    est->tallies[i].owner_cgid == p->owner_cgid && est->tallies[i].pid == holder_pid)
			t = &est->tallies[i];
	if (!t) {
		t = grow((void **)&est->tallies, &est->nr_tallies, sizeof(*t));
		if (!t)
			return -ENOMEM;
		t->lock_addr = p->lock_addr;
		t->owner_cgid = p->owner_cgid;
		t->pid = holder_pid;
		t->cgid = holder_cgid;
		t->stack_id = -1;
	}
	t->holds++;
	t->hold_ns += hold;
	t->imposed_ns += hold * queued;
	t->waiters += queued;
	if (probable)
		t->probable_ns += hold;	/* rules 2 and 3: not from the FIFO chain */
	if (stack_id >= 0)
		t->stack_id = stack_id;

	for (size_t i = 0; i < est->nr_cells && !m; i++)
		if (est->cells[i].waiter_cgid == p->memcg && est->cells[i].owner_cgid == p->owner_cgid &&
		    est->cells[i].holder_cgid == holder_cgid)
			m = &est->cells[i];
	if (!m) {
		m = grow((void **)&est->cells, &est->nr_cells, sizeof(*m));
		if (!m)
			return -ENOMEM;
		m->waiter_cgid = p->memcg;
		m->owner_cgid = p->owner_cgid;
		m->holder_cgid = holder_cgid;
	}
	m->holds++;
	m->hold_ns += hold;
	m->imposed_ns += hold * queued;
	return 0;
}

/* Rule 2's scan, as scan_cpu() in bpf/lockstat.bpf.c (CPUs in ascending order). */
static const struct cpu_state *running_holder(const struct lrs_holder_est *est,
					      const struct pending *p, uint32_t self_cpu,
					      uint32_t last_pid)
{
	const struct cpu_state *best = NULL;
	int best_score = -1;

	for (size_t i = 0; i < est->nr_cpus; i++) {
		const struct cpu_state *c = &est->cpus[i];
		int score;

		if (c->cpu == self_cpu || !c->curr_pid)
			continue;
		if (c->depth && c->slot[c->depth - 1].start_ns < p->start_ns)
			continue;	/* spinning since before our wait */
		score = (c->curr_memcg == p->owner_cgid ? 2 : 0) + (c->curr_pid == last_pid ? 1 : 0);
		if (score > best_score || (score == best_score && c->cpu < best->cpu)) {
			best = c;
			best_score = score;
		}
	}
	return best;
}

/* The rule of holders.h, step by step as holders_end() in bpf/lockstat.bpf.c. */
static int end_wait(struct lrs_holder_est *est, const struct pending *p, uint32_t pid,
		    uint32_t cpu, uint64_t now)
{
	struct last *last = last_of(est, p->lock_addr, p->owner_cgid);
	uint64_t queued = 1, holder_cgid = 0, from;
	const struct cpu_state *last_cpu, *run;
	uint32_t holder_pid = 0;
	int32_t stack_id = -1;
	bool probable = false, in_wait;
	int64_t waiting;

	if (!last)
		return -ENOMEM;
	if (now < p->start_ns)
		return 0;
	waiting = --last->waiting;
	if (waiting < 0)
		waiting = 0;
	in_wait = last->pid && last->pid != pid && last->end_ns >= p->start_ns &&
		  last->end_ns <= now;
	from = in_wait ? last->end_ns : p->start_ns;
	last_cpu = in_wait ? find_cpu(est, last->cpu) : NULL;
	if (last_cpu && last_cpu->curr_pid == last->pid) {
		/* rule 1: the FIFO chain */
		holder_pid = last->pid;
		holder_cgid = last->cgid;
		stack_id = last->stack_id;
		queued = last->queued ? last->queued : 1;
	} else if ((run = running_holder(est, p, cpu, last->pid))) {
		/* rule 2: a task running on another CPU */
		holder_pid = run->curr_pid;
		holder_cgid = run->curr_memcg;
		if (holder_pid == last->pid)
			stack_id = last->stack_id;
		if (in_wait)
			queued = last->queued ? last->queued : 1;
		probable = true;
		est->counters.running++;
	} else if (last->pid && last->pid != pid) {
		/* rule 3: the last contended acquirer, from before */
		holder_pid = last->pid;
		holder_cgid = last->cgid;
		stack_id = last->stack_id;
		probable = true;
		est->counters.probable++;
	} else {
		est->counters.unknown++;
	}
	last->end_ns = now;
	last->cgid = p->memcg;
	last->pid = pid;
	last->cpu = cpu;
	last->stack_id = p->stack_id;
	last->queued = (uint64_t)waiting;
	return charge(est, p, holder_pid, holder_cgid, now - from, queued, stack_id, probable);
}

int lrs_holder_est__feed(struct lrs_holder_est *est, const struct lrs_holder_event *ev)
{
	struct cpu_state *c = cpu_of(est, ev->cpu);
	struct pending *p;

	if (!c)
		return -ENOMEM;
	if (ev->type == LRS_HOLDER_SWITCH) {
		c->curr_pid = ev->pid;
		c->curr_memcg = ev->memcg;
		return 0;
	}
	if (ev->type == LRS_HOLDER_BEGIN) {
		struct last *last;

		if (c->depth >= CPU_DEPTH) {
			est->counters.drop_task++;
			return 0;
		}
		last = last_of(est, ev->lock_addr, ev->owner_cgid);
		if (!last)
			return -ENOMEM;
		last->waiting++;
		p = &c->slot[c->depth++];
		p->lock_addr = ev->lock_addr;
		p->owner_cgid = ev->owner_cgid;
		p->memcg = ev->memcg;
		p->start_ns = ev->t_ns;
		p->stack_id = ev->stack_id;
		return 0;
	}
	/* an end matches the innermost wait of its CPU, or is a lost begin */
	if (!c->depth || c->slot[c->depth - 1].lock_addr != ev->lock_addr) {
		est->counters.drop_task++;
		return 0;
	}
	p = &c->slot[--c->depth];
	return end_wait(est, p, ev->pid, ev->cpu, ev->t_ns);
}

const struct lrs_matrix_tally *lrs_holder_est__matrix(const struct lrs_holder_est *est, size_t *nr)
{
	*nr = est->nr_cells;
	return est->cells;
}

const struct lrs_holder_tally *lrs_holder_est__find(const struct lrs_holder_est *est,
						    uint64_t lock_addr, uint32_t pid)
{
	for (size_t i = 0; i < est->nr_tallies; i++)
		if (est->tallies[i].lock_addr == lock_addr && est->tallies[i].pid == pid)
			return &est->tallies[i];
	return NULL;
}

void lrs_holder_est__counters(const struct lrs_holder_est *est, struct lrs_holder_est_counters *out)
{
	*out = est->counters;
}

/* ---- in a snapshot ------------------------------------------------------------ */

static void rows__free(struct lrs_holder_row *rows, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(rows[i].memcg);
	free(rows);
}

static void cells__free(struct lrs_matrix_cell *cells, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(cells[i].waiter);
		free(cells[i].owner);
		free(cells[i].holder);
	}
	free(cells);
}

void lrs_holders__free(struct lrs_holders *h)
{
	if (!h)
		return;
	rows__free(h->rows, h->nr_rows);
	cells__free(h->cells, h->nr_cells);
	rows__free(h->exact_rows, h->nr_exact_rows);
	cells__free(h->exact_cells, h->nr_exact_cells);
	free(h);
}

void lrs_holders_read__clear(struct lrs_holders_read *rd)
{
	free(rd->holders);
	free(rd->exact);
	free(rd->matrix);
	free(rd->exact_matrix);
	memset(rd, 0, sizeof(*rd));
}

const char *lrs_holders__mode_name(enum lrs_holders_mode mode)
{
	switch (mode) {
	case LRS_HOLDERS_ESTIMATED:
		return "estimated";
	case LRS_HOLDERS_EXACT:
		return "exact (fentry)";
	default:
		return "off";
	}
}

double lrs_holders__accuracy(const struct lrs_holders *h)
{
	if (!h || h->mode != LRS_HOLDERS_EXACT || !h->counters.cmp_est_ns)
		return -1;
	return (double)h->counters.cmp_memcg_ns / (double)h->counters.cmp_est_ns;
}

static int cmp_row(const void *a, const void *b)
{
	const struct lrs_holder_row *x = a, *y = b;


	if (x->lruvec_memcg_id != y->lruvec_memcg_id)
		return x->lruvec_memcg_id < y->lruvec_memcg_id ? -1 : 1;
	if (x->node != y->node)
		return x->node - y->node;
	if (x->imposed_ns != y->imposed_ns)
		return x->imposed_ns < y->imposed_ns ? 1 : -1;
	return x->pid - y->pid;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct lrs_matrix_cell *x = a, *y = b;

	if (x->imposed_ns != y->imposed_ns)
		return x->imposed_ns < y->imposed_ns ? 1 : -1;
	return x->hold_ns < y->hold_ns ? 1 : x->hold_ns > y->hold_ns ? -1 : 0;
}

static int dup_name(char **dst, const struct lrs_holders_names *names, uint64_t cgid)
{
	const char *s = names && names->memcg && cgid ? names->memcg(names->ctx, cgid) : NULL;

	*dst = NULL;
	if (!s)
		return 0;
	*dst = strdup(s);
	return *dst ? 0 : -ENOMEM;
}

static int rows_from(struct lrs_holder_row **out, size_t *nr_out, const struct lrs_snapshot *snap,
		     const struct u64map *lruvec_index, const struct lrs_holder_tally *t, size_t nr,
		     const struct lrs_holders_names *names)
{
	struct lrs_holder_row *rows = calloc(nr ? nr : 1, sizeof(*rows));
	size_t n = 0;

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct lrs_holder_row *r = &rows[n];
		const struct lrs_lruvec *lv;
		const char *comm;
		size_t li;

		if (!u64map__get(lruvec_index, u64map__key2(t[i].lock_addr, t[i].owner_cgid), &li))
			continue;	/* an lruvec the snapshot has no row for */
		lv = &snap->lruvecs[li];
		r->lruvec_memcg_id = lv->memcg_id;
		r->node = lv->node;
		r->pid = (int32_t)t[i].pid;
		r->memcg_id = t[i].cgid;
		r->holds = t[i].holds;
		r->hold_ns = t[i].hold_ns;
		r->imposed_ns = t[i].imposed_ns;
		r->waiters = t[i].waiters;
		r->probable_ns = t[i].probable_ns;
		r->stack_id = t[i].stack_id;
		comm = t[i].pid && names && names->comm ?
			names->comm(names->ctx, t[i].lock_addr, t[i].owner_cgid, t[i].pid) : NULL;
		strncpy(r->comm, comm ? comm : (t[i].pid ? "?" : "(unknown)"), sizeof(r->comm) - 1);
		n++;
		if (dup_name(&r->memcg, names, t[i].cgid)) {
			rows__free(rows, n);
			return -ENOMEM;
		}
	}
	qsort(rows, n, sizeof(*rows), cmp_row);
	*out = rows;
	*nr_out = n;
	return 0;
}

static int cells_from(struct lrs_matrix_cell **out, size_t *nr_out, const struct lrs_matrix_tally *m,
		      size_t nr, const struct lrs_holders_names *names)
{
	struct lrs_matrix_cell *cells = calloc(nr ? nr : 1, sizeof(*cells));

	if (!cells)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct lrs_matrix_cell *c = &cells[i];

		c->waiter_id = m[i].waiter_cgid;
		c->owner_id = m[i].owner_cgid;
		c->holder_id = m[i].holder_cgid;
		c->holds = m[i].holds;
		c->hold_ns = m[i].hold_ns;
		c->imposed_ns = m[i].imposed_ns;
		if (dup_name(&c->waiter, names, c->waiter_id) || dup_name(&c->owner, names, c->owner_id) ||
		    dup_name(&c->holder, names, c->holder_id)) {
			cells__free(cells, i + 1);
			return -ENOMEM;
		}
	}
	qsort(cells, nr, sizeof(*cells), cmp_cell);
	*out = cells;
	*nr_out = nr;
	return 0;
}

int lrs_holders__attach(struct lrs_snapshot *snap, const struct lrs_holders_read *rd,
			enum lrs_holders_mode mode, const struct lrs_holders_names *names)
{
	struct lrs_holders *h = calloc(1, sizeof(*h));
	struct u64map index;
	int err = -ENOMEM;

	u64map__init(&index);
	if (!h)
		goto out;
	h->mode = mode;
	h->counters = rd->counters;
	for (size_t i = 0; i < snap->nr_lruvecs; i++)
		if (u64map__set(&index, u64map__key2(snap->lruvecs[i].lock_addr,
						     snap->lruvecs[i].memcg_id), i))
			goto out;
	if (rows_from(&h->rows, &h->nr_rows, snap, &index, rd->holders, rd->nr_holders, names) ||
	    cells_from(&h->cells, &h->nr_cells, rd->matrix, rd->nr_matrix, names) ||
	    rows_from(&h->exact_rows, &h->nr_exact_rows, snap, &index, rd->exact, rd->nr_exact,
		      names) ||
	    cells_from(&h->exact_cells, &h->nr_exact_cells, rd->exact_matrix, rd->nr_exact_matrix,
		       names))
		goto out;
	lrs_holders__free(snap->holders);
	snap->holders = h;
	h = NULL;
	err = 0;
out:
	lrs_holders__free(h);
	u64map__destroy(&index);
	return err;
}

size_t lrs_holders__rows_of(const struct lrs_holders *h, uint64_t memcg_id, int node, size_t *first)
{
	size_t i = 0, n = 0;

	*first = 0;
	if (!h)
		return 0;
	while (i < h->nr_rows &&
	       (h->rows[i].lruvec_memcg_id != memcg_id || h->rows[i].node != node))
		i++;
	*first = i;
	while (i + n < h->nr_rows && h->rows[i + n].lruvec_memcg_id == memcg_id &&
	       h->rows[i + n].node == node)
		n++;
	return n;
}

struct id_total {
	uint64_t id, total;
};

static int cmp_total(const void *a, const void *b)
{
	const struct id_total *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Distinct ids by total imposed, the top max into ids. */
static int top_ids(const struct lrs_holders *h, bool rows, bool by_holder, size_t max,
		   uint64_t *ids, size_t *nr)
{
	struct id_total *t = calloc(h->nr_cells ? h->nr_cells : 1, sizeof(*t));
	struct u64map seen;
	size_t n = 0, at;

	if (!t)
		return -ENOMEM;
	u64map__init(&seen);
	for (size_t i = 0; i < h->nr_cells; i++) {
		const struct lrs_matrix_cell *c = &h->cells[i];
		uint64_t id = rows ? c->waiter_id : by_holder ? c->holder_id : c->owner_id;

		if (!u64map__get(&seen, id, &at)) {
			at = n++;
			t[at].id = id;
			if (u64map__set(&seen, id, at)) {
				free(t);
				u64map__destroy(&seen);
				return -ENOMEM;
			}
		}
		t[at].total += c->imposed_ns;
	}
	qsort(t, n, sizeof(*t), cmp_total);
	*nr = n < max ? n : max;
	for (size_t i = 0; i < *nr; i++)
		ids[i] = t[i].id;
	free(t);
	u64map__destroy(&seen);
	return 0;
}

int lrs_holders__fold(const struct lrs_holders *h, bool by_holder, size_t max,
		      uint64_t *row_ids, size_t *nr_rows, uint64_t *col_ids, size_t *nr_cols,
		      uint64_t *vals)
{
	int err;

	*nr_rows = *nr_cols = 0;
	if (!h)
		return 0;
	err = top_ids(h, true, by_holder, max, row_ids, nr_rows);
	if (!err)
		err = top_ids(h, false, by_holder, max, col_ids, nr_cols);
	if (err)
		return err;
	memset(vals, 0, max * max * sizeof(*vals));
	for (size_t i = 0; i < h->nr_cells; i++) {
		const struct lrs_matrix_cell *c = &h->cells[i];
		uint64_t col = by_holder ? c->holder_id : c->owner_id;
		size_t r = 0, k = 0;

		while (r < *nr_rows && row_ids[r] != c->waiter_id)
			r++;
		while (k < *nr_cols && col_ids[k] != col)
			k++;
		if (r < *nr_rows && k < *nr_cols)
			vals[r * max + k] += c->imposed_ns;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/* Lock holders: the C model of the estimator rule (see model/holders.h), fed synthetic or
 * recorded event streams. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/holders.h"
#include "model/u64map.h"

const char *lrs_holder_basis__name(enum lrs_holder_basis b)
{
	static const char *const names[LRS_NR_BASES] = { "chain", "running", "probable",
							 "unknown" };

	return b < LRS_NR_BASES ? names[b] : "?";
}

/* ---- the model ---------------------------------------------------------------- */

#define CPU_DEPTH 4 /* as bpf/lockstat.bpf.c */

struct pending {
	uint64_t lock_addr, owner_cgid, memcg, start_ns;
	int32_t stack_id;
};

struct cpu_state {
	uint32_t cpu;
	uint32_t depth;
	struct pending slot[CPU_DEPTH];
	uint32_t curr_pid; /* from LRS_HOLDER_SWITCH; 0: idle */
	uint64_t curr_memcg;
	uint32_t prev_pid;  /* the task the last switch took off this CPU */
	uint64_t switch_ns; /* when */
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
		    est->tallies[i].owner_cgid == p->owner_cgid &&
		    est->tallies[i].pid == holder_pid)
			t = &est->tallies[i];
	if (!t) {
		t = grow((void **)&est->tallies, &est->nr_tallies, sizeof(*t));
		if (!t)
			return -ENOMEM;
		t->lock_addr = p->lock_addr;
		t->owner_cgid = p->owner_cgid;
		t->pid = holder_pid;
		t->stack_id = -1;
	}
	t->cgid = holder_cgid; /* the latest, as holders_charge() on each CPU's copy */
	t->holds++;
	t->hold_ns += hold;
	t->imposed_ns += hold * queued;
	t->waiters += queued;
	if (probable)
		t->probable_ns += hold; /* rules 2 and 3: not from the FIFO chain */
	if (stack_id >= 0)
		t->stack_id = stack_id;

	for (size_t i = 0; i < est->nr_cells && !m; i++)
		if (est->cells[i].waiter_cgid == p->memcg &&
		    est->cells[i].owner_cgid == p->owner_cgid &&
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

/* Rule 2's scan, as scan_cpu() in bpf/lockstat_holders.bpf.h (CPUs in ascending order). */
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
			continue; /* spinning since before our wait */
		score = (c->curr_memcg == p->owner_cgid ? 2 : 0) +
			(c->curr_pid == last_pid ? 1 : 0);
		if (score > best_score || (score == best_score && c->cpu < best->cpu)) {
			best = c;
			best_score = score;
		}
	}
	return best;
}

/* The rule of holders.h, step by step as holders_end() in bpf/lockstat_holders.bpf.h. */
static int end_wait(struct lrs_holder_est *est, const struct pending *p, uint32_t pid, uint32_t cpu,
		    uint64_t now)
{
	struct last *last = last_of(est, p->lock_addr, p->owner_cgid);
	uint64_t queued = 1, holder_cgid = 0, from;
	const struct cpu_state *last_cpu, *run;
	uint32_t holder_pid = 0;
	int32_t stack_id = -1;
	bool probable = false, by_last = false, in_wait, ran_into;
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
	last_cpu = !in_wait && last->pid && last->pid != pid ? find_cpu(est, last->cpu) : NULL;
	ran_into = last_cpu &&
		   (last_cpu->curr_pid == last->pid ||
		    (last_cpu->prev_pid == last->pid && last_cpu->switch_ns >= p->start_ns));
	if (in_wait) {
		/* rule 1: the FIFO chain */
		by_last = true;
		queued = last->queued ? last->queued : 1;
	} else if (ran_into) {
		/* rule 2a: the last contended acquirer ran on into our wait */
		by_last = true;
		probable = true;
		est->counters.running++;
	} else if ((run = running_holder(est, p, cpu, last->pid))) {
		/* rule 2b: a task running on another CPU */
		holder_pid = run->curr_pid;
		holder_cgid = run->curr_memcg;
		if (holder_pid == last->pid)
			stack_id = last->stack_id;
		probable = true;
		est->counters.running++;
	} else if (last->pid && last->pid != pid) {
		/* rule 3: the last contended acquirer, from before */
		by_last = true;
		probable = true;
		est->counters.probable++;
	} else {
		est->counters.unknown++;
	}
	if (by_last) {
		holder_pid = last->pid;
		holder_cgid = last->cgid;
		stack_id = last->stack_id;
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
		c->prev_pid = c->curr_pid;
		c->switch_ns = ev->t_ns;
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

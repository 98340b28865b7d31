/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Lock holders: who held an lruvec lock while others waited.
 *
 * Spinlocks record no owner and this kernel offers no fentry or kprobes, so
 * holders are inferred from lock:contention_begin/end and sched_switch. THE
 * RULE (the BPF side, bpf/lockstat_holders.bpf.h, and the C model below
 * implement exactly this; change both or neither):
 *
 *   Per lruvec lock L keep `last` = the most recent contention_end on L:
 *   {pid, its memcg, its CPU, end_ns, its sampled wait stack, queued}, and
 *   `waiting`, the number of tasks between contention_begin and
 *   contention_end on L. Per CPU keep the task sched_switch put there.
 *   When waiter B (wait began at start_ns) ends its wait on L at now:
 *     1. chain: last.pid != B and last.end_ns >= start_ns: B was already
 *        queued when last took L. Queued spinlocks hand over in FIFO order
 *        (with a queue, nobody takes L by the fast path), so last held L from
 *        last.end_ns until B's turn: hold = now - last.end_ns, charged to
 *        last, even if last has left its CPU since (it released L; B's end
 *        can be seen late, e.g. when B's vCPU did not run at the hand-over);
 *        every task queued when last took L (last.queued, at least 1)
 *        waited through that hold: imposed = hold x queued.
 *     2. running: last.pid != B took L before B's wait began, and was still
 *        on last.cpu after it began (it runs there now, or the last switch
 *        there took it off at or after start_ns): it held L into B's wait.
 *        hold = now - start_ns, charged to last, marked probable.
 *        Otherwise someone took L unseen (uncontended, or by the pending-bit
 *        path that 6.1 does not trace). A spinlock holder runs until it
 *        releases, so it runs now, on another CPU: of the tasks current on
 *        the other CPUs, not idle and not spinning in a traced wait that
 *        began before B's (lruvec locks are innermost: such a spinner held no
 *        L in B's wait; one that began later may have released L and queued
 *        again), the one in L's memcg (+2) and/or the last contended acquirer
 *        (+1) scores best; lowest CPU among equals. hold = now - start_ns;
 *        marked probable.
 *     3. probable: no such task (or no sched_switch seen yet): last, if it is
 *        not B: hold = now - start_ns, marked probable.
 *     4. otherwise holder unknown (pid 0): hold = now - start_ns.
 *   Then B becomes last: {B, B's memcg, B's CPU, now, B's stack, queued =
 *   waiting after B left}.
 *
 * The matrix adds each charge to the cell (B's memcg, L's owner memcg,
 * holder's memcg). Where the estimate can be wrong: an unseen acquirer that
 * took L after last released it, while last still ran, is charged to last;
 * rule 2's scan picks among several running tasks by memcg, so a holder
 * from another memcg that runs next to a task of L's memcg loses to it; an
 * unseen acquirer that released L before B ended is invisible (the hold is
 * charged to its successor); a lost begin or end breaks the chain; unfair
 * locks (paravirt test-and-set spinning under some hypervisors) break FIFO;
 * and the BPF record is updated without a lock (a torn read misattributes
 * one wait).
 */
#ifndef LRS_HOLDERS_H
#define LRS_HOLDERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/limits.h"

/* ---- the model of the rule, for tests on synthetic event streams ---------- */

/* SWITCH: pid (memcg) now runs on cpu, as sched_switch; pid 0 is idle */
enum lrs_holder_ev { LRS_HOLDER_BEGIN, LRS_HOLDER_END, LRS_HOLDER_SWITCH };

struct lrs_holder_event {
	enum lrs_holder_ev type;
	uint64_t t_ns;
	uint32_t cpu; /* spinning waits stay on their CPU; irqs nest */
	uint32_t pid;
	uint64_t memcg; /* the task's memcg (cgroup id) */
	uint64_t lock_addr;
	uint64_t owner_cgid; /* the lruvec's memcg */
	int32_t stack_id;    /* -1: not sampled */
};

/* One holder's tally on one lock, as bpf/lockstat.h's holder_stat. */
struct lrs_holder_tally {
	uint64_t lock_addr;
	uint64_t owner_cgid;
	uint32_t pid;  /* 0: unknown */
	uint64_t cgid; /* the holder's memcg */
	uint64_t holds, hold_ns, imposed_ns, waiters, probable_ns;
	int32_t stack_id;
};

struct lrs_matrix_tally {
	uint64_t waiter_cgid, owner_cgid, holder_cgid;
	uint64_t holds, hold_ns, imposed_ns;
};

struct lrs_holder_est;

int lrs_holder_est__new(struct lrs_holder_est **out);
void lrs_holder_est__free(struct lrs_holder_est *est); /* accepts NULL */
/* Feed one event in time order; 0 or -ENOMEM. */
int lrs_holder_est__feed(struct lrs_holder_est *est, const struct lrs_holder_event *ev);
const struct lrs_matrix_tally *lrs_holder_est__matrix(const struct lrs_holder_est *est, size_t *nr);
/* The tally of pid on lock, or NULL. */
const struct lrs_holder_tally *lrs_holder_est__find(const struct lrs_holder_est *est,
						    uint64_t lock_addr, uint32_t pid);

struct lrs_holder_est_counters {
	uint64_t unknown;   /* rule 4 */
	uint64_t probable;  /* rule 3 */
	uint64_t running;   /* rule 2 */
	uint64_t drop_task; /* an end without its begin, or nesting deeper than kept */
};
void lrs_holder_est__counters(const struct lrs_holder_est *est,
			      struct lrs_holder_est_counters *out);

/* ---- in a snapshot ---------------------------------------------------------- */

enum lrs_holders_mode {
	LRS_HOLDERS_OFF = 0,
	LRS_HOLDERS_ESTIMATED = 1,
	LRS_HOLDERS_EXACT = 2, /* the estimate, plus the fentry truth to compare */
};

struct lrs_holder_row {
	uint64_t lruvec_memcg_id; /* the lruvec: its memcg and node */
	int node;
	int32_t pid; /* 0: unknown holder */
	char comm[LRS_COMM_LEN];
	uint64_t memcg_id; /* the holder's memcg */
	char *memcg;	   /* its path, or NULL */
	uint64_t holds, hold_ns, imposed_ns, waiters, probable_ns;
	int32_t stack_id; /* into snapshot->stacks, or -1 */
};

struct lrs_matrix_cell {
	uint64_t waiter_id, owner_id, holder_id; /* memcg cgroup ids; holder 0: unknown */
	char *waiter, *owner, *holder;		 /* paths, or NULL */
	uint64_t holds, hold_ns, imposed_ns;
};

/* How a wait's holder was found: the rules of THE RULE, as bpf/lockstat.h's holder_basis. */
enum lrs_holder_basis {
	LRS_BASIS_CHAIN,
	LRS_BASIS_RUNNING,
	LRS_BASIS_PROBABLE,
	LRS_BASIS_UNKNOWN,
	LRS_NR_BASES,
};
const char *lrs_holder_basis__name(enum lrs_holder_basis b); /* "chain", ... */

struct lrs_holders_counters {
	uint64_t unknown, probable, running, drop_full;
	/* exact mode: estimated hold ns compared, of which on the right memcg / task */
	uint64_t cmp_est_ns, cmp_memcg_ns, cmp_pid_ns, cmp_exact_ns, cmp_no_exact;
	/* the same per basis: which rule errs */
	uint64_t cmp_basis_est_ns[LRS_NR_BASES], cmp_basis_memcg_ns[LRS_NR_BASES];
	/*
	 * Naive guesses on the same waits, weighted alike: "a task of the lruvec's memcg"
	 * (right memcg) and "the last contended acquirer" (right memcg, right task).
	 */
	uint64_t cmp_owner_memcg_ns, cmp_last_memcg_ns, cmp_last_pid_ns;
	uint64_t exact_acquisitions, exact_drop_full;
};

struct lrs_holders {
	enum lrs_holders_mode mode;
	struct lrs_holder_row *rows; /* estimated; by lruvec, then imposed_ns down */
	size_t nr_rows;
	struct lrs_matrix_cell *cells; /* estimated; imposed_ns down */
	size_t nr_cells;
	struct lrs_holder_row *exact_rows; /* exact mode only */
	size_t nr_exact_rows;
	struct lrs_matrix_cell *exact_cells;
	size_t nr_exact_cells;
	struct lrs_holders_counters counters;
};

void lrs_holders__free(struct lrs_holders *h); /* accepts NULL */
/* Free nr rows or cells and their names (for builders that fail half way). */
void lrs_holder_rows__free(struct lrs_holder_row *rows, size_t nr);
void lrs_matrix_cells__free(struct lrs_matrix_cell *cells, size_t nr);
const char *lrs_holders__mode_name(enum lrs_holders_mode mode);
/* Share of estimated hold time on the right memcg (exact mode), or -1. */
double lrs_holders__accuracy(const struct lrs_holders *h);

/* Raw rows from the BPF maps (collector/live/lock_collector.c fills it). */
struct lrs_holders_read {
	struct lrs_holder_tally *holders, *exact;
	size_t nr_holders, nr_exact;
	struct lrs_matrix_tally *matrix, *exact_matrix;
	size_t nr_matrix, nr_exact_matrix;
	struct lrs_holders_counters counters;
};

void lrs_holders_read__clear(struct lrs_holders_read *rd);

/* Resolve a memcg id to its path (NULL if unknown); comm of (lock, pid) or NULL. */
struct lrs_holders_names {
	const char *(*memcg)(void *ctx, uint64_t cgid);
	const char *(*comm)(void *ctx, uint64_t lock_addr, uint64_t owner_cgid, uint32_t pid);
	void *ctx;
};

/* The rows of one lruvec: index of the first and the count (rows are grouped). */
size_t lrs_holders__rows_of(const struct lrs_holders *h, uint64_t memcg_id, int node,
			    size_t *first);

/*
 * The matrix folded to rows x columns of memcg ids: by_holder picks the
 * holder's memcg as the column, else the lruvec owner's. Writes up to max
 * distinct rows/cols ids sorted by their total, and cell values
 * (imposed_ns) row-major into vals[max*max]. Returns 0 or -ENOMEM.
 */
int lrs_holders__fold(const struct lrs_holders *h, bool by_holder, size_t max, uint64_t *row_ids,
		      size_t *nr_rows, uint64_t *col_ids, size_t *nr_cols, uint64_t *vals);

/* A deep copy, or NULL (h NULL, or out of memory). */
struct lrs_holders *lrs_holders__clone(const struct lrs_holders *h);

#endif

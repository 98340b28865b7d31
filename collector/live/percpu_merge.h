/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU counter maps of bpf/lockstat.bpf.c read back as one value:
 * a lookup of a per-CPU map gives one copy per possible CPU, each rounded up
 * to 8 bytes. Merged, they hold what one counter shared by all CPUs would:
 * counters and histogram buckets summed, the largest wait_max_ns, and the
 * identity fields from the copy of the CPU that created the entry (the
 * others start zeroed). Pure functions: unit-tested in tests/unit.
 */
#ifndef LRS_PERCPU_MERGE_H
#define LRS_PERCPU_MERGE_H

#include <stddef.h>

#include "bpf/lockstat.h"

/* Bytes between two CPUs' copies of a value of value_size bytes. */
size_t lrs_percpu__stride(size_t value_size);

/*
 * Locks that get per-CPU counters (lock_stats' size), of max_locks: as many as
 * LRS_PERCPU_LOCK_BUDGET holds at a copy per CPU, at least LRS_PERCPU_LOCK_MIN.
 * The locks contended after those are counted in the shared map
 * (lock_stats_shared, the rest of max_locks): kernel memory stays bounded as
 * CPUs grow. lock_stats is preallocated, so the budget is what it costs from
 * the start, whatever the load.
 */
#define LRS_PERCPU_LOCK_BUDGET (4u << 20)
#define LRS_PERCPU_LOCK_MIN 128u
unsigned int lrs_percpu__lock_room(unsigned int max_locks, int nr_cpus);

/*
 * Waiter rows that get per-CPU counters (waiter_counts' size), of max_waiters:
 * as many as LRS_PERCPU_WAITER_BUDGET holds at a copy per CPU, between
 * LRS_PERCPU_WAITER_MIN and LRS_PERCPU_WAITER_MAX (their slots' table is
 * preallocated: the most rows a report shows is far below it). The rows after
 * those are counted in the shared table (waiter_stats).
 */
#define LRS_PERCPU_WAITER_BUDGET (1u << 20)
#define LRS_PERCPU_WAITER_MIN 64u
#define LRS_PERCPU_WAITER_MAX 4096u
unsigned int lrs_percpu__waiter_room(unsigned int max_waiters, int nr_cpus);

/*
 * Entries of a per-CPU map with values of value_size bytes that budget bytes
 * hold at a copy per CPU: at least min, at most max_entries.
 */
unsigned int lrs_percpu__room(size_t value_size, size_t budget, unsigned int min,
			      unsigned int max_entries, int nr_cpus);

/*
 * The holder estimate's per-CPU tables (--holders: holder_stats and
 * matrix_stats, and exact mode's copies of them) are bounded the same way.
 * They have no shared table behind them: a row past the room is counted in
 * holders.drop_full, and the rows kept are the first ones charged, which on
 * a hot lock are its hot holders. 2 MiB: with the lock counters' 4 MiB and
 * the matrix's 1 MiB, a report with --holders stays within 16 MB of kernel
 * memory at 104 CPUs (about 360 holder rows there, all 16,384 up to 2 CPUs).
 */
#define LRS_PERCPU_HOLDER_BUDGET (2u << 20)
#define LRS_PERCPU_HOLDER_MIN 128u
#define LRS_PERCPU_MATRIX_BUDGET (1u << 20)
#define LRS_PERCPU_MATRIX_MIN 32u

/* copies: nr_cpus values stride bytes apart, as a per-CPU map lookup returns them. */
void lrs_percpu__merge_lock(const void *copies, size_t stride, int nr_cpus, struct lock_stat *out);
void lrs_percpu__merge_waiter(const void *copies, size_t stride, int nr_cpus,
			      struct waiter_stat *out);
void lrs_percpu__merge_stack(const void *copies, size_t stride, int nr_cpus,
			     struct stack_stat *out);

void lrs_percpu__merge_waiter_count(const void *copies, size_t stride, int nr_cpus,
				    struct waiter_count *out);

/* A waiter's row read back: its key and its counters, merged. */
struct lrs_waiter_read {
	struct waiter_key key;
	struct waiter_stat stat;
};

/*
 * Add the shared table's nsh rows (keys, and waiter_stat values stride bytes
 * apart) to the n per-CPU ones in rows, which has room for n + nsh. A row
 * whose first waits on two CPUs met the last free per-CPU slot can be in both
 * tables: its shared counters are added to its per-CPU ones (found by key: the
 * first n are sorted for it), and its identity kept from the per-CPU one.
 * Returns how many rows there are.
 */
size_t lrs_percpu__add_shared_waiters(struct lrs_waiter_read *rows, size_t n,
				      const struct waiter_key *keys, const char *values,
				      size_t stride, size_t nsh);

/* A lock read back: its key and its copies merged. */
struct lrs_lock_read {
	struct lock_key key;
	struct lock_stat stat;
};

/*
 * Add the shared table's nsh locks (keys, and values stride bytes apart) to
 * the n per-CPU ones in locks, which has room for n + nsh. A lock whose first
 * waits on two CPUs met the last free per-CPU slot can be in both tables: its
 * shared counters are added to its per-CPU ones (found by key: the first n
 * are sorted for it). Returns how many locks there are.
 */
size_t lrs_percpu__add_shared_locks(struct lrs_lock_read *locks, size_t n,
				    const struct lock_key *keys, const char *values, size_t stride,
				    size_t nsh);
/*
 * A holder's counters summed; its memcg and stack from the copy with the
 * most holds that has them (copies with no hold say nothing).
 */
void lrs_percpu__merge_holder(const void *copies, size_t stride, int nr_cpus,
			      struct holder_stat *out);
void lrs_percpu__merge_matrix(const void *copies, size_t stride, int nr_cpus,
			      struct matrix_stat *out);
void lrs_percpu__merge_holder_counts(const void *copies, size_t stride, int nr_cpus,
				     struct holder_counts *out);

#endif

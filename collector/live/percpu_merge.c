// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "collector/live/percpu_merge.h"

size_t lrs_percpu__stride(size_t value_size)
{
	return (value_size + 7) & ~(size_t)7;
}

unsigned int lrs_percpu__room(size_t value_size, size_t budget, unsigned int min,
			      unsigned int max_entries, int nr_cpus)
{
	size_t per_entry = lrs_percpu__stride(value_size) * (size_t)(nr_cpus > 0 ? nr_cpus : 1);
	size_t room = budget / per_entry;

	if (room < min)
		room = min;
	return room < max_entries ? (unsigned int)room : max_entries;
}

unsigned int lrs_percpu__lock_room(unsigned int max_locks, int nr_cpus)
{
	return lrs_percpu__room(sizeof(struct lock_stat), LRS_PERCPU_LOCK_BUDGET,
				LRS_PERCPU_LOCK_MIN, max_locks, nr_cpus);
}

unsigned int lrs_percpu__waiter_room(unsigned int max_waiters, int nr_cpus)
{
	unsigned int most = max_waiters < LRS_PERCPU_WAITER_MAX ? max_waiters :
								  LRS_PERCPU_WAITER_MAX;

	return lrs_percpu__room(sizeof(struct waiter_count), LRS_PERCPU_WAITER_BUDGET,
				LRS_PERCPU_WAITER_MIN < most ? LRS_PERCPU_WAITER_MIN : most, most,
				nr_cpus);
}

static const void *copy_of(const void *copies, size_t stride, int cpu)
{
	return (const char *)copies + (size_t)cpu * stride;
}

void lrs_percpu__merge_lock(const void *copies, size_t stride, int nr_cpus, struct lock_stat *out)
{
	bool have_identity = false;

	memset(out, 0, sizeof(*out));
	out->owner_node = -1; /* no copy says: not an lruvec */
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		const struct lock_stat *c = copy_of(copies, stride, cpu);

		out->contended += c->contended;
		out->wait_ns += c->wait_ns;
		if (c->wait_max_ns > out->wait_max_ns)
			out->wait_max_ns = c->wait_max_ns;
		for (int b = 0; b < LOCKSTAT_HIST_BUCKETS; b++)
			out->hist[b] += c->hist[b];
		if (c->identity && !have_identity) {
			have_identity = true;
			out->flags = c->flags;
			out->kind = c->kind;
			out->owner_node = c->owner_node;
			out->identity = 1;
		}
	}
}

void lrs_percpu__merge_waiter(const void *copies, size_t stride, int nr_cpus,
			      struct waiter_stat *out)
{
	bool have_identity = false;

	memset(out, 0, sizeof(*out));
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		const struct waiter_stat *c = copy_of(copies, stride, cpu);

		out->contended += c->contended;
		out->wait_ns += c->wait_ns;
		/* only the creating CPU's copy has them; zeros elsewhere */
		if (!have_identity && (c->waiter_cgid || c->comm[0])) {
			have_identity = true;
			out->waiter_cgid = c->waiter_cgid;
			memcpy(out->comm, c->comm, sizeof(out->comm));
		}
	}
}

/*
 * Values made of counters only (__u64 each, every one summed): stack_stat,
 * matrix_stat, holder_counts, waiter_count.
 */
_Static_assert(sizeof(struct stack_stat) == 2 * sizeof(__u64), "stack_stat: counters only");
_Static_assert(sizeof(struct waiter_count) == 2 * sizeof(__u64), "waiter_count: counters only");
_Static_assert(sizeof(struct matrix_stat) == 3 * sizeof(__u64), "matrix_stat: counters only");
_Static_assert(sizeof(struct holder_counts) == 3 * sizeof(__u64), "holder_counts: counters only");

static void sum_counters(const void *copies, size_t stride, int nr_cpus, void *out, size_t size)
{
	__u64 *sum = out;

	memset(out, 0, size);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		const __u64 *c = copy_of(copies, stride, cpu);

		for (size_t k = 0; k < size / sizeof(__u64); k++)
			sum[k] += c[k];
	}
}

void lrs_percpu__merge_stack(const void *copies, size_t stride, int nr_cpus, struct stack_stat *out)
{
	sum_counters(copies, stride, nr_cpus, out, sizeof(*out));
}

void lrs_percpu__merge_holder(const void *copies, size_t stride, int nr_cpus,
			      struct holder_stat *out)
{
	__u64 most = 0, most_with_stack = 0;

	memset(out, 0, sizeof(*out));
	out->stack_id = -1;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		const struct holder_stat *c = copy_of(copies, stride, cpu);

		if (!c->holds)
			continue;
		out->holds += c->holds;
		out->hold_ns += c->hold_ns;
		out->imposed_ns += c->imposed_ns;
		out->waiters += c->waiters;
		out->probable_ns += c->probable_ns;
		if (c->holds > most) {
			most = c->holds;
			out->cgid = c->cgid;
		}
		if (c->stack_id >= 0 && c->holds > most_with_stack) {
			most_with_stack = c->holds;
			out->stack_id = c->stack_id;
		}
	}
}

void lrs_percpu__merge_matrix(const void *copies, size_t stride, int nr_cpus,
			      struct matrix_stat *out)
{
	sum_counters(copies, stride, nr_cpus, out, sizeof(*out));
}

void lrs_percpu__merge_holder_counts(const void *copies, size_t stride, int nr_cpus,
				     struct holder_counts *out)
{
	sum_counters(copies, stride, nr_cpus, out, sizeof(*out));
}

static int cmp_lock_read(const void *a, const void *b)
{
	const struct lock_key *x = &((const struct lrs_lock_read *)a)->key,
			      *y = &((const struct lrs_lock_read *)b)->key;

	if (x->lock_addr != y->lock_addr)
		return x->lock_addr < y->lock_addr ? -1 : 1;
	if (x->owner_cgid != y->owner_cgid)
		return x->owner_cgid < y->owner_cgid ? -1 : 1;
	return 0;
}

size_t lrs_percpu__add_shared_locks(struct lrs_lock_read *locks, size_t n,
				    const struct lock_key *keys, const char *values, size_t stride,
				    size_t nsh)
{
	size_t total = n;

	if (nsh)
		qsort(locks, n, sizeof(*locks), cmp_lock_read);
	for (size_t i = 0; i < nsh; i++) {
		struct lrs_lock_read *twin, shared = { .key = keys[i] };

		lrs_percpu__merge_lock(values + i * stride, stride, 1, &shared.stat);
		twin = bsearch(&shared, locks, n, sizeof(*locks), cmp_lock_read);
		if (twin) {
			struct lock_stat both[2] = { twin->stat, shared.stat };

			lrs_percpu__merge_lock(both, sizeof(both[0]), 2, &twin->stat);
		} else {
			locks[total++] = shared;
		}
	}
	return total;
}

void lrs_percpu__merge_waiter_count(const void *copies, size_t stride, int nr_cpus,
				    struct waiter_count *out)
{
	sum_counters(copies, stride, nr_cpus, out, sizeof(*out));
}

static int cmp_waiter_read(const void *a, const void *b)
{
	const struct waiter_key *x = &((const struct lrs_waiter_read *)a)->key,
				*y = &((const struct lrs_waiter_read *)b)->key;

	if (x->lock_addr != y->lock_addr)
		return x->lock_addr < y->lock_addr ? -1 : 1;
	if (x->owner_cgid != y->owner_cgid)
		return x->owner_cgid < y->owner_cgid ? -1 : 1;
	if (x->waiter_cgid != y->waiter_cgid)
		return x->waiter_cgid < y->waiter_cgid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return 0;
}

size_t lrs_percpu__add_shared_waiters(struct lrs_waiter_read *rows, size_t n,
				      const struct waiter_key *keys, const char *values,
				      size_t stride, size_t nsh)
{
	size_t total = n;

	if (nsh)
		qsort(rows, n, sizeof(*rows), cmp_waiter_read);
	for (size_t i = 0; i < nsh; i++) {
		struct lrs_waiter_read *twin, shared = { .key = keys[i] };

		lrs_percpu__merge_waiter(values + i * stride, stride, 1, &shared.stat);
		twin = bsearch(&shared, rows, n, sizeof(*rows), cmp_waiter_read);
		if (twin) {
			twin->stat.contended += shared.stat.contended;
			twin->stat.wait_ns += shared.stat.wait_ns;
		} else {
			rows[total++] = shared;
		}
	}
	return total;
}

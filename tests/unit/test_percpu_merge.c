// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU counter maps merged in user space give the totals one counter
 * shared by all CPUs gave: the same stream of waits is counted both ways (the
 * shared way as lockstat.bpf.c's account() did with atomics, the per-CPU way
 * as it does now, with the kernel's rule for an entry a program creates: the
 * init value in the creating CPU's copy, zeros in the others).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collector/live/percpu_merge.h"

#define NR_CPUS 4
#define NR_WAITS 5000

_Static_assert(offsetof(struct waiter_stat, wait_ns) == 8 &&
		       offsetof(struct stack_stat, wait_ns) == 8,
	       "count_sums expects contended and wait_ns first");

struct wait {
	int cpu;
	uint64_t ns;
};

/* A reproducible stream: every CPU waits, over many histogram buckets. */
static void make_waits(struct wait *w, int first_cpu)
{
	uint64_t x = 88172645463325252ULL;

	for (int i = 0; i < NR_WAITS; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i].cpu = i == 0 ? first_cpu : (int)(x % NR_CPUS);
		w[i].ns = (x >> 8) & ((1ULL << (x % 34)) - 1);
	}
	/* the longest wait on a CPU that did not create the entry */
	w[NR_WAITS / 2].cpu = (first_cpu + 1) % NR_CPUS;
	w[NR_WAITS / 2].ns = 1ULL << 40;
}

static int bucket(uint64_t v)
{
	int b = 0;

	while (v >>= 1)
		b++;
	return b < LOCKSTAT_HIST_BUCKETS ? b : LOCKSTAT_HIST_BUCKETS - 1;
}

/* The kernel's insert of a per-CPU hash entry from a BPF program on cpu. */
static void *percpu_create(size_t stride, int cpu, const void *init, size_t size)
{
	char *copies = calloc(NR_CPUS, stride);

	assert_non_null(copies);
	memset(copies, 0xa5, NR_CPUS * stride); /* padding is never read */
	for (int c = 0; c < NR_CPUS; c++) {
		memset(copies + c * stride, 0, size);
		if (c == cpu)
			memcpy(copies + c * stride, init, size);
	}
	return copies;
}

static void count_lock(struct lock_stat *st, uint64_t wait)
{
	st->contended++;
	st->wait_ns += wait;
	st->hist[bucket(wait)]++;
	if (wait > st->wait_max_ns)
		st->wait_max_ns = wait;
}

static void check_lock(const struct lock_stat *init, int first_cpu, size_t stride)
{
	struct wait *w = calloc(NR_WAITS, sizeof(*w));
	struct lock_stat shared = *init, merged;
	char *copies = percpu_create(stride, first_cpu, init, sizeof(*init));

	make_waits(w, first_cpu);
	for (int i = 0; i < NR_WAITS; i++) {
		count_lock(&shared, w[i].ns);
		count_lock((struct lock_stat *)(copies + w[i].cpu * stride), w[i].ns);
	}
	lrs_percpu__merge_lock(copies, stride, NR_CPUS, &merged);
	assert_int_equal(merged.contended, NR_WAITS);
	assert_int_equal(merged.wait_max_ns, 1ULL << 40);
	assert_int_equal(merged.kind, init->kind);
	assert_int_equal(merged.flags, init->flags);
	assert_int_equal(merged.owner_node, init->owner_node);
	assert_int_equal(merged.wait_ns, shared.wait_ns);
	for (int b = 0; b < LOCKSTAT_HIST_BUCKETS; b++)
		assert_int_equal(merged.hist[b], shared.hist[b]);
	assert_memory_equal(&merged, &shared, sizeof(shared));
	free(copies);
	free(w);
}

static void test_lruvec_lock_created_on_a_later_cpu(void **state)
{
	struct lock_stat init = {
		.flags = LCB_F_SPIN,
		.kind = LOCK_KIND_LRUVEC,
		.owner_node = 1,
		.identity = 1,
	};

	(void)state;
	check_lock(&init, 2, lrs_percpu__stride(sizeof(init)));
}

static void test_other_lock_created_on_cpu0_wider_stride(void **state)
{
	/* kind OTHER, flags 0: only the marker tells the creating copy from a zeroed one */
	struct lock_stat init = {
		.flags = 0, .kind = LOCK_KIND_OTHER, .owner_node = -1, .identity = 1
	};

	(void)state;
	check_lock(&init, 3, sizeof(init) + 16);
	check_lock(&init, 0, sizeof(init) + 16);
}

/* waiter_stat and stack_stat both start with contended and wait_ns (asserted above) */
static void count_sums(char *copies, size_t stride, const struct wait *w, __u64 *contended,
		       __u64 *wait_ns)
{
	for (int i = 0; i < NR_WAITS; i++) {
		__u64 *c = (__u64 *)(copies + w[i].cpu * stride);

		(*contended)++;
		*wait_ns += w[i].ns;
		c[0]++;
		c[1] += w[i].ns;
	}
}

static void test_waiter_identity_and_sums(void **state)
{
	struct waiter_stat init = { .waiter_cgid = 4242 }, shared, merged;
	size_t stride = lrs_percpu__stride(sizeof(init));
	struct wait *w = calloc(NR_WAITS, sizeof(*w));
	char *copies;

	(void)state;
	strcpy(init.comm, "readtwice-3");
	shared = init;
	copies = percpu_create(stride, 3, &init, sizeof(init));
	make_waits(w, 3);
	count_sums(copies, stride, w, &shared.contended, &shared.wait_ns);
	lrs_percpu__merge_waiter(copies, stride, NR_CPUS, &merged);
	assert_int_equal(merged.waiter_cgid, 4242);
	assert_string_equal(merged.comm, "readtwice-3");
	assert_int_equal(merged.contended, NR_WAITS);
	assert_memory_equal(&merged, &shared, sizeof(shared));
	free(copies);
	free(w);
}

/*
 * The shared table's locks after the per-CPU ones; one lock in both (two CPUs
 * met the last free slot) becomes one row with both tables' counts.
 */
static void test_shared_locks_added_twin_merged(void **state)
{
	struct lrs_lock_read locks[4] = {
		{ .key = { 0x3000, 7 },
		  .stat = { .contended = 5, .wait_ns = 50, .wait_max_ns = 20 } },
		{ .key = { 0x1000, 0 },
		  .stat = { .contended = 1, .wait_ns = 9, .wait_max_ns = 9 } },
	};
	struct lock_key keys[2] = { { 0x2000, 0 }, { 0x3000, 7 } };
	struct lock_stat shared[2] = {
		{ .contended = 2, .wait_ns = 4, .identity = 1, .kind = LOCK_KIND_OTHER },
		{ .contended = 3,
		  .wait_ns = 300,
		  .wait_max_ns = 250,
		  .identity = 1,
		  .kind = LOCK_KIND_LRUVEC,
		  .owner_node = 1 },
	};
	size_t n;

	(void)state;
	locks[0].stat.hist[3] = 5;
	shared[1].hist[3] = 1;
	shared[1].hist[7] = 2;
	n = lrs_percpu__add_shared_locks(locks, 2, keys, (const char *)shared, sizeof(shared[0]),
					 2);
	assert_int_equal(n, 3);
	/* the per-CPU ones, sorted by key, then the shared one of its own */
	assert_int_equal(locks[0].key.lock_addr, 0x1000);
	assert_int_equal(locks[0].stat.contended, 1);
	assert_int_equal(locks[1].key.lock_addr, 0x3000);
	assert_int_equal(locks[1].key.owner_cgid, 7);
	assert_int_equal(locks[1].stat.contended, 8);
	assert_int_equal(locks[1].stat.wait_ns, 350);
	assert_int_equal(locks[1].stat.wait_max_ns, 250);
	assert_int_equal(locks[1].stat.hist[3], 6);
	assert_int_equal(locks[1].stat.hist[7], 2);
	/* the per-CPU copy had no identity: the shared one's */
	assert_int_equal(locks[1].stat.kind, LOCK_KIND_LRUVEC);
	assert_int_equal(locks[1].stat.owner_node, 1);
	assert_int_equal(locks[2].key.lock_addr, 0x2000);
	assert_int_equal(locks[2].stat.contended, 2);
	/* no shared lock: nothing moves */
	assert_int_equal(lrs_percpu__add_shared_locks(locks, 3, keys, NULL, 0, 0), 3);
}

/*
 * A waiter row in both tables (its first waits on two CPUs met the last free
 * per-CPU slot) becomes one row with both counts and the per-CPU identity; a
 * row only in the shared table keeps its own.
 */
static void test_shared_waiters_added_twin_merged(void **state)
{
	struct lrs_waiter_read rows[4] = {
		{ .key = { 0x3000, 7, 9, 42 },
		  .stat = { .contended = 5, .wait_ns = 50, .waiter_cgid = 9, .comm = "reader" } },
		{ .key = { 0x3000, 7, 9, 41 }, .stat = { .contended = 1, .wait_ns = 9 } },
	};
	struct waiter_key keys[2] = { { 0x3000, 7, 8, 42 }, { 0x3000, 7, 9, 42 } };
	struct waiter_stat shared[2] = {
		{ .contended = 2, .wait_ns = 4, .waiter_cgid = 8, .comm = "mover" },
		{ .contended = 3, .wait_ns = 300, .waiter_cgid = 9 },
	};
	size_t n;

	(void)state;
	n = lrs_percpu__add_shared_waiters(rows, 2, keys, (const char *)shared, sizeof(shared[0]),
					   2);
	assert_int_equal(n, 3);
	/* sorted by key: pid 41 before 42 */
	assert_int_equal(rows[0].key.pid, 41);
	assert_int_equal(rows[0].stat.contended, 1);
	assert_int_equal(rows[1].key.pid, 42);
	assert_int_equal(rows[1].stat.contended, 8);
	assert_int_equal(rows[1].stat.wait_ns, 350);
	assert_int_equal(rows[1].stat.waiter_cgid, 9);
	assert_string_equal(rows[1].stat.comm, "reader");
	/* the same task from another memcg is a row of its own */
	assert_int_equal(rows[2].key.waiter_cgid, 8);
	assert_int_equal(rows[2].stat.contended, 2);
	assert_string_equal(rows[2].stat.comm, "mover");
	assert_int_equal(lrs_percpu__add_shared_waiters(rows, 3, keys, NULL, 0, 0), 3);
}

/*
 * A value of two counters (contended, wait_ns) created on first_cpu, merged by merge:
 * the sums of the stream's waits.
 */
static void check_two_counter_sums(int first_cpu, void (*merge)(const void *, size_t, int, void *))
{
	struct stack_stat init = { 0 }, shared = { 0 }, merged;
	size_t stride = lrs_percpu__stride(sizeof(init));
	struct wait *w = calloc(NR_WAITS, sizeof(*w));
	char *copies = percpu_create(stride, first_cpu, &init, sizeof(init));

	make_waits(w, first_cpu);
	count_sums(copies, stride, w, &shared.contended, &shared.wait_ns);
	merge(copies, stride, NR_CPUS, &merged);
	assert_memory_equal(&merged, &shared, sizeof(shared));
	free(copies);
	free(w);
}

_Static_assert(sizeof(struct waiter_count) == sizeof(struct stack_stat),
	       "waiter_count and stack_stat: the same two counters");

static void merge_waiter_count(const void *copies, size_t stride, int nr_cpus, void *out)
{
	lrs_percpu__merge_waiter_count(copies, stride, nr_cpus, out);
}

static void merge_stack(const void *copies, size_t stride, int nr_cpus, void *out)
{
	lrs_percpu__merge_stack(copies, stride, nr_cpus, out);
}

static void test_waiter_count_sums(void **state)
{
	(void)state;
	check_two_counter_sums(2, merge_waiter_count);
}

static void test_stack_sums(void **state)
{
	(void)state;
	check_two_counter_sums(1, merge_stack);
}

/*
 * holders_charge() in lockstat_holders.bpf.h, on one CPU's copy: its first hold there
 * marks "no stack" (the copy of an entry another CPU made starts zeroed).
 */
static void charge_holder(struct holder_stat *hs, uint64_t hold, uint64_t queued, bool probable,
			  uint64_t cgid, int stack_id)
{
	if (!hs->holds)
		hs->stack_id = -1;
	hs->holds++;
	hs->hold_ns += hold;
	hs->imposed_ns += hold * queued;
	hs->waiters += queued;
	if (probable)
		hs->probable_ns += hold;
	hs->cgid = cgid;
	if (stack_id >= 0)
		hs->stack_id = stack_id;
}

static void test_holder_sums_memcg_and_stack(void **state)
{
	struct holder_stat init = { 0 }, shared = { .stack_id = -1 }, merged;
	struct matrix_stat minit = { 0 }, mshared = { 0 }, mmerged;
	struct holder_counts cshared = { 0 }, cmerged, ccopies[NR_CPUS] = { 0 };
	size_t stride = lrs_percpu__stride(sizeof(init)),
	       mstride = lrs_percpu__stride(sizeof(minit));
	struct wait *w = calloc(NR_WAITS, sizeof(*w));
	char *copies = percpu_create(stride, 2, &init, sizeof(init));
	char *mcopies = percpu_create(mstride, 2, &minit, sizeof(minit));

	(void)state;
	make_waits(w, 2);
	for (int i = 0; i < NR_WAITS; i++) {
		uint64_t queued = 1 + w[i].ns % 5, hold = w[i].ns & 0xffffff;
		bool probable = w[i].ns % 3 == 0;
		/* a stack only on CPU 1's waits, and only early: the one it saw stays */
		int stack = w[i].cpu == 1 && i < 100 ? 7 : -1;
		struct matrix_stat *m = (struct matrix_stat *)(mcopies + w[i].cpu * mstride);
		__u64 *rule = &ccopies[w[i].cpu].unknown + i % 3,
		      *rule_shared = &cshared.unknown + i % 3;

		charge_holder(&shared, hold, queued, probable, 9001, stack);
		charge_holder((struct holder_stat *)(copies + w[i].cpu * stride), hold, queued,
			      probable, 9001, stack);
		mshared.holds++;
		mshared.hold_ns += hold;
		mshared.imposed_ns += hold * queued;
		m->holds++;
		m->hold_ns += hold;
		m->imposed_ns += hold * queued;
		(*rule)++;
		(*rule_shared)++;
	}
	lrs_percpu__merge_holder(copies, stride, NR_CPUS, &merged);
	assert_int_equal(merged.holds, NR_WAITS);
	assert_int_equal(merged.cgid, 9001);
	assert_int_equal(merged.stack_id, 7);
	assert_memory_equal(&merged, &shared, sizeof(shared));
	lrs_percpu__merge_matrix(mcopies, mstride, NR_CPUS, &mmerged);
	assert_memory_equal(&mmerged, &mshared, sizeof(mshared));
	lrs_percpu__merge_holder_counts(ccopies, sizeof(ccopies[0]), NR_CPUS, &cmerged);
	assert_int_equal(cmerged.unknown + cmerged.probable + cmerged.running, NR_WAITS);
	assert_memory_equal(&cmerged, &cshared, sizeof(cshared));
	free(copies);
	free(mcopies);
	free(w);
}

static void test_holder_without_stack_or_holds(void **state)
{
	/* CPU 0 made the entry and charged one hold, no stack; CPU 3's copy is zeroed */
	struct holder_stat c[NR_CPUS] = { 0 }, merged;

	(void)state;
	c[0] = (struct holder_stat){ .holds = 1, .hold_ns = 500, .cgid = 77, .stack_id = -1 };
	c[3].stack_id = 0; /* a zeroed copy: stack 0 here means nothing */
	lrs_percpu__merge_holder(c, sizeof(c[0]), NR_CPUS, &merged);
	assert_int_equal(merged.holds, 1);
	assert_int_equal(merged.cgid, 77);
	assert_int_equal(merged.stack_id, -1);
	/* two CPUs with other memcgs for the same pid (it moved): the one with more holds */
	c[1] = (struct holder_stat){ .holds = 5, .cgid = 78, .stack_id = 4 };
	lrs_percpu__merge_holder(c, sizeof(c[0]), NR_CPUS, &merged);
	assert_int_equal(merged.holds, 6);
	assert_int_equal(merged.cgid, 78);
	assert_int_equal(merged.stack_id, 4);
}

static void test_no_identity_is_not_an_lruvec(void **state)
{
	struct lock_stat zero[NR_CPUS] = { 0 }, merged;

	(void)state;
	zero[1].contended = 3;
	lrs_percpu__merge_lock(zero, sizeof(zero[0]), NR_CPUS, &merged);
	assert_int_equal(merged.contended, 3);
	assert_int_equal(merged.kind, LOCK_KIND_OTHER);
	assert_int_equal(merged.owner_node, -1);
}

static void test_stride_rounds_up_to_8(void **state)
{
	(void)state;
	assert_int_equal(lrs_percpu__stride(4), 8);
	assert_int_equal(lrs_percpu__stride(40), 40);
	assert_int_equal(lrs_percpu__stride(41), 48);
	assert_int_equal(lrs_percpu__stride(sizeof(struct lock_stat)), 296);
}

static void test_lock_room_bounded_by_budget(void **state)
{
	size_t copy = lrs_percpu__stride(sizeof(struct lock_stat));

	(void)state;
	/* a small machine keeps thousands of locks per CPU, within the budget */
	unsigned int small = lrs_percpu__lock_room(16384, 2);

	assert_true(small >= 4096);
	assert_true((size_t)small * copy * 2 <= LRS_PERCPU_LOCK_BUDGET);
	/* a large one as many as the budget holds: within it, and one more would not be */
	unsigned int room = lrs_percpu__lock_room(16384, 104);

	assert_true(room < 16384);
	assert_true((size_t)room * copy * 104 <= LRS_PERCPU_LOCK_BUDGET);
	assert_true((size_t)(room + 1) * copy * 104 > LRS_PERCPU_LOCK_BUDGET);
	/* preallocated, the copies are paid at load: half the 16 MB a 104-CPU box may take */
	assert_true((size_t)room * copy * 104 <= (size_t)8 << 20);
	/* never fewer than the floor, never more than asked */
	assert_int_equal(lrs_percpu__lock_room(16384, 8192), LRS_PERCPU_LOCK_MIN);
	assert_int_equal(lrs_percpu__lock_room(2, 104), 2);
	assert_int_equal(lrs_percpu__lock_room(2, 0), 2);
}

static void test_waiter_room_bounded_by_budget(void **state)
{
	size_t copy = lrs_percpu__stride(sizeof(struct waiter_count));
	unsigned int room = lrs_percpu__waiter_room(16384, 104);

	(void)state;
	/* a small machine: the cap, whatever the budget would hold */
	assert_int_equal(lrs_percpu__waiter_room(16384, 2), LRS_PERCPU_WAITER_MAX);
	/* a large one: within the budget, and one more would not be */
	assert_true(room < LRS_PERCPU_WAITER_MAX);
	assert_true((size_t)room * copy * 104 <= LRS_PERCPU_WAITER_BUDGET);
	assert_true((size_t)(room + 1) * copy * 104 > LRS_PERCPU_WAITER_BUDGET);
	/* never fewer than the floor, never more than asked */
	assert_int_equal(lrs_percpu__waiter_room(16384, 8192), LRS_PERCPU_WAITER_MIN);
	assert_int_equal(lrs_percpu__waiter_room(10, 104), 10);
}

static void test_holder_rooms_bounded_by_budget(void **state)
{
	size_t holder = lrs_percpu__stride(sizeof(struct holder_stat));
	size_t cell = lrs_percpu__stride(sizeof(struct matrix_stat));

	(void)state;
	/* the map's own size on a small machine */
	assert_int_equal(lrs_percpu__room(sizeof(struct holder_stat), LRS_PERCPU_HOLDER_BUDGET,
					  LRS_PERCPU_HOLDER_MIN, 16384, 2),
			 16384);
	/* at 104 CPUs within the budget, and one more row would not be */
	unsigned int rows = lrs_percpu__room(sizeof(struct holder_stat), LRS_PERCPU_HOLDER_BUDGET,
					     LRS_PERCPU_HOLDER_MIN, 16384, 104);

	assert_true(rows < 16384);
	assert_true((size_t)rows * holder * 104 <= LRS_PERCPU_HOLDER_BUDGET);
	assert_true((size_t)(rows + 1) * holder * 104 > LRS_PERCPU_HOLDER_BUDGET);
	unsigned int cells = lrs_percpu__room(sizeof(struct matrix_stat), LRS_PERCPU_MATRIX_BUDGET,
					      LRS_PERCPU_MATRIX_MIN, 4096, 104);

	assert_true(cells < 4096);
	assert_true((size_t)cells * cell * 104 <= LRS_PERCPU_MATRIX_BUDGET);
	assert_true((size_t)(cells + 1) * cell * 104 > LRS_PERCPU_MATRIX_BUDGET);
	/* the floor on a huge machine */
	assert_int_equal(lrs_percpu__room(sizeof(struct matrix_stat), LRS_PERCPU_MATRIX_BUDGET,
					  LRS_PERCPU_MATRIX_MIN, 4096, 100000),
			 LRS_PERCPU_MATRIX_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_holder_sums_memcg_and_stack),
		cmocka_unit_test(test_holder_without_stack_or_holds),
		cmocka_unit_test(test_lruvec_lock_created_on_a_later_cpu),
		cmocka_unit_test(test_other_lock_created_on_cpu0_wider_stride),
		cmocka_unit_test(test_waiter_identity_and_sums),
		cmocka_unit_test(test_stack_sums),
		cmocka_unit_test(test_shared_locks_added_twin_merged),
		cmocka_unit_test(test_shared_waiters_added_twin_merged),
		cmocka_unit_test(test_waiter_count_sums),
		cmocka_unit_test(test_waiter_room_bounded_by_budget),
		cmocka_unit_test(test_no_identity_is_not_an_lruvec),
		cmocka_unit_test(test_stride_rounds_up_to_8),
		cmocka_unit_test(test_lock_room_bounded_by_budget),
		cmocka_unit_test(test_holder_rooms_bounded_by_budget),
	};

	return cmocka_run_group_tests_name("percpu_merge", tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
/* Causes: synthetic lruvec-lock stacks, page and folio spellings, the innermost rule. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "model/causes.h"
#include "model/holders.h"

/* Frames innermost first, as BPF samples them, NULL-terminated. */
#define STACK(...) ((char *const[]){ "_raw_spin_lock_irq+0x2a", __VA_ARGS__, NULL })

static enum lrs_cause classify(char *const *frames)
{
	size_t n = 0;

	while (frames[n])
		n++;
	return lrs_cause__classify(frames, n);
}

/*
 * Every spelling on its own, between a lock frame and a caller that names
 * nothing: removing any one table entry fails its cause's test.
 */
static void assert_each(enum lrs_cause cause, const char *const *names)
{
	for (; *names; names++) {
		char frame[96];
		char *frames[] = { "_raw_spin_lock_irq+0x2a", "folio_lruvec_lock_irq+0x3d", frame,
				   "do_syscall_64+0x5b" };

		snprintf(frame, sizeof(frame), "%s+0x1a", *names);
		if (lrs_cause__classify(frames, 4) != cause)
			fail_msg("%s: not classified as %s", *names, lrs_cause__key(cause));
	}
}

static void test_lru_add_drain(void **state)
{
	static const char *const names[] = { "lru_add_drain",
					     "lru_add_drain_cpu",
					     "lru_add_drain_all",
					     "lru_add_drain_per_cpu",
					     "lru_add_and_bh_lrus_drain",
					     "__pagevec_lru_add",
					     "lru_cache_add",
					     "folio_add_lru",
					     "folio_add_lru_vma",
					     "__folio_batch_add_and_move",
					     "rotate_reclaimable_page",
					     "folio_rotate_reclaimable",
					     "deactivate_file_page",
					     "deactivate_file_folio",
					     "deactivate_page",
					     "folio_deactivate",
					     "mark_page_lazyfree",
					     "folio_mark_lazyfree",
					     NULL };

	(void)state;
	assert_each(LRS_CAUSE_LRU_ADD_DRAIN, names);
	/* the batch mover is named by its caller, page (5.11) and folio spelling */
	assert_int_equal(classify(STACK("pagevec_lru_move_fn+0x1b0", "__pagevec_lru_add+0x1e")),
			 LRS_CAUSE_LRU_ADD_DRAIN);
	assert_int_equal(classify(STACK("folio_lruvec_lock_irqsave+0x4f",
					"folio_batch_move_lru+0x7c", "lru_add_drain_cpu+0x9e",
					"exit_mmap+0x9c")),
			 LRS_CAUSE_LRU_ADD_DRAIN);
}

static void test_activation(void **state)
{
	static const char *const names[] = { "activate_page", "folio_activate",
					     "mark_page_accessed", "folio_mark_accessed", NULL };

	(void)state;
	assert_each(LRS_CAUSE_ACTIVATION, names);
	/* the same batch mover, asked by an activation */
	assert_int_equal(classify(STACK("pagevec_lru_move_fn+0x1b0", "activate_page+0x10d",
					"generic_file_buffered_read+0x3c1")),
			 LRS_CAUSE_ACTIVATION);
	assert_int_equal(classify(STACK("folio_batch_move_lru+0x7c", "folio_activate+0x6f",
					"filemap_read+0x1c1")),
			 LRS_CAUSE_ACTIVATION);
}

static void test_reclaim(void **state)
{
	static const char *const names[] = { "shrink_active_list",
					     "shrink_inactive_list",
					     "isolate_lru_pages",
					     "isolate_lru_folios",
					     "move_pages_to_lru",
					     "move_folios_to_lru",
					     "evict_folios",
					     "inc_max_seq",
					     "try_to_inc_max_seq",
					     "walk_mm",
					     "shrink_lruvec",
					     "shrink_node",
					     NULL };

	(void)state;
	assert_each(LRS_CAUSE_RECLAIM, names);
	assert_int_equal(classify(STACK("shrink_active_list+0x9c", "shrink_lruvec+0x3f0",
					"shrink_node+0x2b1", "try_to_free_mem_cgroup_pages+0xf8")),
			 LRS_CAUSE_RECLAIM);
	/* Debian's 6.1 inlines the list shrinkers: the lock is shrink_node's own */
	assert_int_equal(classify(STACK("_raw_spin_lock_irq+0x2b", "shrink_node+0x104",
					"do_try_to_free_pages+0xde")),
			 LRS_CAUSE_RECLAIM);
	/* a path named nearer the lock still wins over the shrinker around it */
	assert_int_equal(
		classify(STACK("lru_note_cost+0x4c", "shrink_lruvec+0x3f0", "shrink_node+0x2b1")),
		LRS_CAUSE_NOTE_COST);
}

static void test_isolation(void **state)
{
	static const char *const names[] = { "isolate_lru_page", "folio_isolate_lru",
					     "isolate_migratepages_block", "compact_lock_irqsave",
					     NULL };

	(void)state;
	assert_each(LRS_CAUSE_ISOLATION, names);
	/* a compiler clone keeps its name before the dot */
	assert_int_equal(classify(STACK("isolate_migratepages_block.isra.0+0x5ea",
					"isolate_migratepages+0x1c0", "compact_zone+0x6b9")),
			 LRS_CAUSE_ISOLATION);
}

static void test_memcg_move(void **state)
{
	static const char *const names[] = { "mem_cgroup_move_account",
					     "memcg_reparent_objcgs",
					     "__memcg_reparent_objcgs",
					     "reparent_locks",
					     "lru_reparent_memcg",
					     "lru_gen_reparent_memcg",
					     NULL };

	(void)state;
	assert_each(LRS_CAUSE_MEMCG_MOVE, names);
}

static void test_mlock(void **state)
{
	static const char *const names[] = { "munlock_vma_page",
					     "__munlock_pagevec",
					     "mlock_pagevec",
					     "__mlock_page",
					     "__mlock_new_page",
					     "__munlock_page",
					     "mlock_folio_batch",
					     "__mlock_folio",
					     "__mlock_new_folio",
					     "__munlock_folio",
					     "mlock_folio",
					     "munlock_folio",
					     "mlock_drain_local",
					     "mlock_drain_remote",
					     "check_move_unevictable_pages",
					     "check_move_unevictable_folios",
					     NULL };

	(void)state;
	assert_each(LRS_CAUSE_MLOCK, names);
}

static void test_lru_note_cost(void **state)
{
	static const char *const names[] = { "lru_note_cost", "lru_note_cost_refault", NULL };

	(void)state;
	assert_each(LRS_CAUSE_NOTE_COST, names);
	/* nearer the lock than the reclaim that calls it: the innermost rule */
	assert_int_equal(classify(STACK("lru_note_cost+0x4c", "shrink_inactive_list+0x2a1",
					"shrink_lruvec+0x3f0")),
			 LRS_CAUSE_NOTE_COST);
}

static void test_thp_split(void **state)
{
	static const char *const names[] = { "__split_huge_page",
					     "split_huge_page_to_list",
					     "split_huge_page_to_list_to_order",
					     "__folio_split",
					     "__split_unmapped_folio",
					     "__folio_freeze_and_split_unmapped",
					     NULL };

	(void)state;
	assert_each(LRS_CAUSE_THP_SPLIT, names);
}

static void test_folio_free(void **state)
{
	static const char *const names[] = { "release_pages",
					     "folios_put_refs",
					     "__page_cache_release",
					     "page_cache_release",
					     "__put_single_page",
					     "__folio_put",
					     NULL };

	(void)state;
	assert_each(LRS_CAUSE_FOLIO_FREE, names);
	/* dead folios freed inside an LRU add drain: the freeing is innermost */
	assert_int_equal(classify(STACK("folio_lruvec_lock_irqsave+0x4f",
					"__page_cache_release+0x6d", "folios_put_refs+0xe2",
					"folio_batch_move_lru+0x10b", "lru_add_drain_cpu+0x9e")),
			 LRS_CAUSE_FOLIO_FREE);
}

static void test_unclassified_and_edges(void **state)
{
	char *const none[] = { "_raw_spin_lock_irq+0x2a", "some_new_path+0x10",
			       "0xffffffffc0a01234", "[unknown]" };
	/* a prefix of a table name is not that name */
	char *const near[] = { "shrink_active_list_x+0x1", "folio_activatex+0x2" };

	(void)state;
	assert_int_equal(lrs_cause__classify(none, 4), LRS_CAUSE_UNCLASSIFIED);
	assert_int_equal(lrs_cause__classify(near, 2), LRS_CAUSE_UNCLASSIFIED);
	assert_int_equal(lrs_cause__classify(NULL, 0), LRS_CAUSE_UNCLASSIFIED);
	assert_string_equal(lrs_cause__key(LRS_CAUSE_UNCLASSIFIED), "unclassified");
	for (int k = 0; k < LRS_NR_CAUSES; k++)
		assert_non_null(strchr("abcdefghijklmnopqrstuvwxyz", lrs_cause__key(k)[0]));
}

/* A snapshot with three stacks on one lruvec, counted against an earlier one. */
static void test_breakdown_of_lruvec(void **state)
{
	char *reclaim[] = { "shrink_active_list+0x9c" }, *drain[] = { "lru_add_drain_cpu+0x9e" },
	     *other[] = { "mystery+0x1" };
	struct lrs_stack stacks[] = { { 1, reclaim, 1 }, { 2, drain, 1 }, { 3, other, 1 } };
	struct lrs_stack_use now[] = {
		{ 1, 70, 6200 }, { 2, 30, 3000 }, { 3, 9, 900 }, { 4, 1, 100 }
	};
	struct lrs_stack_use before[] = { { 1, 10, 200 }, { 2, 0, 0 } };
	struct lrs_snapshot snap = { .stacks = stacks, .nr_stacks = 3 };
	struct lrs_lruvec lv = { .stacks = now, .nr_stacks = 4 };
	struct lrs_lruvec prev = { .stacks = before, .nr_stacks = 2 };
	struct lrs_causes c;
	enum lrs_cause order[LRS_NR_CAUSES];
	char buf[128];

	(void)state;
	lrs_causes__of_lruvec(&snap, &lv, &prev, &c);
	assert_int_equal(c.wait_ns, 6000 + 3000 + 900 + 100);
	assert_int_equal(c.by[LRS_CAUSE_RECLAIM].wait_ns, 6000);
	assert_int_equal(c.by[LRS_CAUSE_RECLAIM].contended, 60);
	/* stack 3 has frames that match nothing, stack 4 has no frames at all */
	assert_int_equal(c.by[LRS_CAUSE_UNCLASSIFIED].wait_ns, 1000);
	assert_int_equal(lrs_causes__ranked(&c, order), 3);
	assert_int_equal(order[0], LRS_CAUSE_RECLAIM);
	assert_int_equal(order[1], LRS_CAUSE_LRU_ADD_DRAIN);
	assert_int_equal(order[2], LRS_CAUSE_UNCLASSIFIED);
	assert_string_equal(lrs_causes__summary(&c, 4, buf, sizeof(buf)),
			    "60% reclaim, 30% lru-add drain, 10% unclassified");
	assert_string_equal(lrs_causes__summary(&c, 1, buf, sizeof(buf)), "60% reclaim, +2 more");

	lrs_causes__of_lruvec(&snap, &lv, NULL, &c);
	assert_int_equal(c.by[LRS_CAUSE_RECLAIM].wait_ns, 6200);
	lrs_causes__of_lruvec(&snap, NULL, NULL, &c);
	assert_string_equal(lrs_causes__summary(&c, 4, buf, sizeof(buf)), "no sampled stacks");
}

/* Holders: the imposed wait by the holder's own stack; one without a stack is unclassified. */
static void test_holder_causes(void **state)
{
	char *reclaim[] = { "shrink_inactive_list+0xe1" };
	struct lrs_stack stacks[] = { { 5, reclaim, 1 } };
	struct lrs_holder_row rows[] = {
		{ .lruvec_memcg_id = 7,
		  .node = 0,
		  .pid = 10,
		  .holds = 4,
		  .imposed_ns = 9000,
		  .stack_id = 5 },
		{ .lruvec_memcg_id = 7,
		  .node = 0,
		  .pid = 0,
		  .holds = 1,
		  .imposed_ns = 1000,
		  .stack_id = -1 },
		{ .lruvec_memcg_id = 8,
		  .node = 0,
		  .pid = 11,
		  .holds = 1,
		  .imposed_ns = 5000,
		  .stack_id = 5 },
	};
	struct lrs_holders hs = { .mode = LRS_HOLDERS_ESTIMATED, .rows = rows, .nr_rows = 3 };
	struct lrs_snapshot snap = { .stacks = stacks, .nr_stacks = 1, .holders = &hs };
	struct lrs_lruvec lv = { .memcg_id = 7, .node = 0 };
	struct lrs_causes c;
	char buf[128];

	(void)state;
	lrs_causes__of_holders(&snap, &lv, &c);
	assert_int_equal(c.wait_ns, 10000);
	assert_int_equal(c.by[LRS_CAUSE_RECLAIM].contended, 4);
	assert_string_equal(lrs_causes__summary(&c, 4, buf, sizeof(buf)),
			    "90% reclaim, 10% unclassified");
	snap.holders = NULL;
	lrs_causes__of_holders(&snap, &lv, &c);
	assert_int_equal(c.wait_ns, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lru_add_drain),
		cmocka_unit_test(test_activation),
		cmocka_unit_test(test_reclaim),
		cmocka_unit_test(test_isolation),
		cmocka_unit_test(test_memcg_move),
		cmocka_unit_test(test_mlock),
		cmocka_unit_test(test_lru_note_cost),
		cmocka_unit_test(test_thp_split),
		cmocka_unit_test(test_folio_free),
		cmocka_unit_test(test_unclassified_and_edges),
		cmocka_unit_test(test_breakdown_of_lruvec),
		cmocka_unit_test(test_holder_causes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

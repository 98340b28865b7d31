// SPDX-License-Identifier: GPL-2.0
/* Attribution of lock addresses to memcg@node, and the iterator's record stream. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collector/live/attribute.h"
#include "bpf/lruvec_iter.h"
#include "bpf/lockstat.h"
#include "model/lock_names.h"

/* One walk's map entries: root, /a, /a/b, /c (dying) on two nodes. */
struct walk {
	uint64_t ids[8];
	struct memcg_rec memcgs[8];
	struct lruvec_key lkeys[16];
	struct lruvec_rec lruvecs[16];
	struct node_rec nodes[2];
	size_t nr_memcgs, nr_lruvecs;
};

static void add_memcg(struct walk *w, uint64_t cgid, uint64_t parent, unsigned level,
		      const char *name, uint64_t lock_base, bool dying, uint64_t gen)
{
	struct memcg_rec *m = &w->memcgs[w->nr_memcgs];

	w->ids[w->nr_memcgs] = cgid;
	memset(m, 0, sizeof(*m));
	m->gen = gen;
	m->order = w->nr_memcgs;
	m->parent_cgid = parent;
	m->level = level;
	m->flags = dying ? MEMCG_REC_DYING : 0;
	snprintf(m->name, sizeof(m->name), "%s", name);
	w->nr_memcgs++;
	for (uint32_t node = 0; node < 2; node++) {
		struct lruvec_rec *r = &w->lruvecs[w->nr_lruvecs];

		w->lkeys[w->nr_lruvecs] = (struct lruvec_key){ .cgid = cgid, .node = node };
		memset(r, 0, sizeof(*r));
		r->gen = gen;
		r->lock_addr = lock_base + (uint64_t)node * 0x1000;
		r->lru_pages[LRS_INACTIVE_FILE] = cgid * 10 + node;
		w->nr_lruvecs++;
	}
}

static int build(struct walk *w, uint64_t gen, struct lrs_lruvec_table *t)
{
	struct lrs_lruvec_raw raw = {
		.memcg_ids = w->ids,
		.memcgs = w->memcgs,
		.nr_memcgs = w->nr_memcgs,
		.lruvec_keys = w->lkeys,
		.lruvecs = w->lruvecs,
		.nr_lruvecs = w->nr_lruvecs,
		.nodes = w->nodes,
		.nr_nodes = 2,
		.gen = gen,
	};

	for (int node = 0; node < 2; node++) {
		struct node_rec *nr = &w->nodes[node];

		memset(nr, 0, sizeof(*nr));
		nr->gen = gen;
		nr->nr_zones = 2;
		nr->node_lruvec_lock = 0xffff900000000000ULL + (uint64_t)node;
		nr->zone_lock[0] = 0xffff910000000000ULL + (uint64_t)node;
		nr->zone_lock[1] = 0xffff920000000000ULL + (uint64_t)node;
		strcpy(nr->zone_name[0], "DMA32");
		strcpy(nr->zone_name[1], "Normal");
	}
	return lrs_lruvec_table__build(&raw, t);
}

static void make_table(struct lrs_lruvec_table *t)
{
	struct walk w = { .nr_memcgs = 0 };

	/* the map hands entries back in hash order: the walk's order restores the tree */
	add_memcg(&w, 12, 1, 1, "c", 0xffff800000040000ULL, true, 5);
	add_memcg(&w, 1, 0, 0, "", 0xffff800000010000ULL, false, 5);
	add_memcg(&w, 11, 10, 2, "b", 0xffff800000030000ULL, false, 5);
	add_memcg(&w, 10, 1, 1, "a", 0xffff800000020000ULL, false, 5);
	w.memcgs[0].order = 3, w.memcgs[1].order = 0, w.memcgs[2].order = 2, w.memcgs[3].order = 1;
	assert_int_equal(build(&w, 5, t), 0);
}

static void test_build_puts_paths_in_tree_order(void **state)
{
	struct lrs_lruvec_table t;

	make_table(&t);
	assert_int_equal(t.nr_memcgs, 4);
	assert_int_equal(t.nr_lruvecs, 8);
	assert_int_equal(t.nr_nodes, 2);
	assert_string_equal(t.memcgs[0].path, "/");
	assert_string_equal(t.memcgs[1].path, "/a");
	assert_string_equal(t.memcgs[2].path, "/a/b");
	assert_string_equal(t.memcgs[3].path, "/c");
	assert_true(t.memcgs[3].dying);
	assert_int_equal(t.memcgs[2].level, 2);
	assert_string_equal(t.nodes[1].zone_name[1], "Normal");
	/* lruvecs follow the memcgs' order, node by node */
	assert_int_equal(t.lruvecs[5].memcg, 2);
	assert_int_equal(t.lruvecs[5].node, 1);
	assert_int_equal(t.lruvecs[5].lru_pages[LRS_INACTIVE_FILE], 111);
	lrs_lruvec_table__clear(&t);
}

static void test_build_drops_entries_of_older_walks(void **state)
{
	struct walk w = { .nr_memcgs = 0 };
	struct lrs_lruvec_table t;

	add_memcg(&w, 1, 0, 0, "", 0x1000, false, 7);
	add_memcg(&w, 20, 1, 1, "gone", 0x2000, false, 6);    /* removed since walk 6 */
	add_memcg(&w, 21, 20, 2, "orphan", 0x3000, false, 7); /* its parent was not walked */
	assert_int_equal(build(&w, 7, &t), 0);
	assert_int_equal(t.nr_memcgs, 2);
	assert_int_equal(t.nr_lruvecs, 4);
	assert_string_equal(t.memcgs[1].path, "/?/orphan");
	lrs_lruvec_table__clear(&t);
}

static struct lrs_lock_row lock_row(uint64_t addr, uint64_t owner, int node, uint32_t kind,
				    uint64_t contended, uint64_t wait_ns)
{
	struct lrs_lock_row r = {
		.lock_addr = addr,
		.owner_cgid = owner,
		.owner_node = node,
		.kind = kind,
		.flags = LCB_F_SPIN,
	};

	r.counters.contended = contended;
	r.counters.wait_ns = wait_ns;
	r.counters.wait_max_ns = wait_ns;
	r.counters.hist[10] = contended;
	return r;
}

static int fake_ips(void *ctx, int32_t id, uint64_t *ips)
{
	/* frame 0 is the BPF program, as on a real kernel; then the lock, then the caller */
	ips[0] = 0xffffffffa0000010ULL;
	ips[1] = 0xffffffff81000020ULL;
	ips[2] = id == 7 ? 0xffffffff81100030ULL : 0xffffffff81200040ULL;
	return 3;
}

static const char ksyms_text[] = "ffffffffa0000000 t bpf_prog_6deef7357e7b4530_contention_begin\n"
				 "ffffffff81000000 T queued_spin_lock_slowpath\n"
				 "ffffffff81100000 T __remove_mapping\n"
				 "ffffffff81200000 T folio_batch_move_lru\n"
				 "ffffffff83000000 D static_named_lock\n";

static void test_attribution(void **state)
{
	struct lrs_lruvec_table t;
	struct lrs_lock_row locks[6];
	struct lrs_waiter_row waiters[3] = {
		{ .lock_addr = 0xffff800000030000ULL,
		  .owner_cgid = 11,
		  .pid = 100,
		  .waiter_cgid = 11,
		  .contended = 5,
		  .wait_ns = 500,
		  .comm = "reader" },
		{ .lock_addr = 0xffff800000030000ULL,
		  .owner_cgid = 11,
		  .pid = 50,
		  .waiter_cgid = 10,
		  .contended = 9,
		  .wait_ns = 900,
		  .comm = "kswapd0" },
		{ .lock_addr = 0xffff800000099000ULL,
		  .owner_cgid = 99,
		  .pid = 7,
		  .waiter_cgid = 99,
		  .contended = 1,
		  .wait_ns = 10,
		  .comm = "gone" },
	};
	struct lrs_stack_row stacks[2] = {
		{ .lock_addr = 0xdead0000ULL,
		  .owner_cgid = 0,
		  .stack_id = 7,
		  .contended = 3,
		  .wait_ns = 300 },
		{ .lock_addr = 0xffff800000030000ULL,
		  .owner_cgid = 11,
		  .stack_id = 8,
		  .contended = 2,
		  .wait_ns = 200 },
	};
	struct lrs_lockstat_read rd = {
		.locks = locks,
		.nr_locks = 6,
		.waiters = waiters,
		.nr_waiters = 3,
		.stacks = stacks,
		.nr_stacks = 2,
		.drops = { .task = 4, .stats_full = 1 },
	};
	struct lrs_stack_source src = { .ips = fake_ips };
	struct lrs_ksyms *ks = lrs_ksyms__parse(ksyms_text);
	struct lrs_path_memory pm;
	struct lrs_snapshot *snap = lrs_snapshot__new();
	const struct lrs_lruvec *lv;

	make_table(&t);
	lrs_path_memory__init(&pm);
	/* /a/b on node 0, a removed memcg's lruvec, and four other locks */
	locks[0] = lock_row(0xffff800000030000ULL, 11, 0, LRS_LOCK_LRUVEC, 14, 1400);
	locks[1] = lock_row(0xffff800000099000ULL, 99, 1, LRS_LOCK_LRUVEC, 1, 10);
	locks[2] = lock_row(0xdead0000ULL, 0, -1, LRS_LOCK_OTHER, 3, 300);
	locks[3] = lock_row(0xffff920000000001ULL, 0, -1, LRS_LOCK_OTHER, 2, 20);
	locks[4] = lock_row(0xffff83000000ULL, 0, 1, LRS_LOCK_NODE_LRUVEC, 1, 1);
	locks[5] = lock_row(0xffffffff83000000ULL, 0, -1, LRS_LOCK_OTHER, 1, 1);
	locks[5].flags = LCB_F_MUTEX;

	assert_int_equal(lrs_attribute(&t, &rd, ks, &src, &pm, snap), 0);

	/* every table lruvec is a row, plus the removed memcg's */
	assert_int_equal(snap->nr_lruvecs, 9);
	assert_int_equal(snap->nr_nodes, 2);
	lv = lrs_snapshot__find_lruvec(snap, 11, 0);
	assert_non_null(lv);
	assert_string_equal(lv->memcg, "/a/b");
	assert_int_equal(lv->counters.contended, 14);
	assert_int_equal(lv->counters.wait_ns, 1400);
	assert_false(lv->removed);
	/* the same memcg's other node did not wait */
	assert_int_equal(lrs_snapshot__find_lruvec(snap, 11, 1)->counters.contended, 0);
	/* waiters sorted by wait, with their own memcg (kswapd from /a on /a/b's lock) */
	assert_int_equal(lv->nr_waiters, 2);
	assert_string_equal(lv->waiters[0].comm, "kswapd0");
	assert_string_equal(lv->waiters[0].memcg, "/a");
	assert_string_equal(lv->waiters[1].memcg, "/a/b");
	assert_int_equal(lv->nr_stacks, 1);
	assert_int_equal(lv->stacks[0].id, 8);

	/* an unknown owner id is removed, named by id, never as another memcg */
	lv = lrs_snapshot__find_lruvec(snap, 99, 1);
	assert_non_null(lv);
	assert_true(lv->removed);
	assert_string_equal(lv->memcg, "cgroup-id:99");
	/* a dying memcg still in the table is shown removed under its own path */
	assert_true(lrs_snapshot__find_lruvec(snap, 12, 0)->removed);
	assert_string_equal(lrs_snapshot__find_lruvec(snap, 12, 0)->memcg, "/c");

	/* other locks: named by caller, zone, node lruvec, data symbol */
	assert_int_equal(snap->nr_other_locks, 4);
	assert_string_equal(snap->other_locks[0].name, "spinlock @ __remove_mapping");
	assert_string_equal(snap->other_locks[1].name, "zone N1/Normal");
	assert_string_equal(snap->other_locks[2].name, "N1 pgdat->__lruvec");
	assert_string_equal(snap->other_locks[3].name, "static_named_lock");

	/* stacks are symbolized, the BPF program's own frame dropped */
	const struct lrs_stack *st = lrs_snapshot__find_stack(snap, 7);
	assert_non_null(st);
	assert_int_equal(st->nr_frames, 2);
	assert_string_equal(st->frames[0], "queued_spin_lock_slowpath+0x20");
	assert_string_equal(st->frames[1], "__remove_mapping+0x30");
	assert_int_equal(snap->drops.task, 4);
	assert_int_equal(snap->drops.stats_full, 1);

	lrs_snapshot__free(snap);
	lrs_path_memory__destroy(&pm);
	lrs_ksyms__free(ks);
	lrs_lruvec_table__clear(&t);
}

static void test_removed_memcg_keeps_its_old_path(void **state)
{
	struct lrs_lruvec_table t;
	struct lrs_path_memory pm;
	struct lrs_lockstat_read empty = { 0 };
	struct lrs_lock_row row = lock_row(0xffff800000020000ULL, 10, 0, LRS_LOCK_LRUVEC, 2, 20);
	struct lrs_lockstat_read rd = { .locks = &row, .nr_locks = 1 };
	struct lrs_snapshot *s1 = lrs_snapshot__new(), *s2 = lrs_snapshot__new();
	struct walk w = { .nr_memcgs = 0 };

	lrs_path_memory__init(&pm);
	make_table(&t);
	assert_int_equal(lrs_attribute(&t, &empty, NULL, NULL, &pm, s1), 0);
	lrs_lruvec_table__clear(&t);
	/* /a (id 10) is gone; a new memcg /d reuses its lruvec's address */
	add_memcg(&w, 1, 0, 0, "", 0xffff800000010000ULL, false, 9);
	add_memcg(&w, 13, 1, 1, "d", 0xffff800000020000ULL, false, 9);
	assert_int_equal(build(&w, 9, &t), 0);
	assert_int_equal(lrs_attribute(&t, &rd, NULL, NULL, &pm, s2), 0);
	const struct lrs_lruvec *old = lrs_snapshot__find_lruvec(s2, 10, 0);
	assert_non_null(old);
	assert_string_equal(old->memcg, "/a");
	assert_true(old->removed);
	assert_int_equal(old->counters.contended, 2);
	assert_int_equal(lrs_snapshot__find_lruvec(s2, 13, 0)->counters.contended, 0);
	lrs_snapshot__free(s1);
	lrs_snapshot__free(s2);
	lrs_path_memory__destroy(&pm);
	lrs_lruvec_table__clear(&t);
}

/* A memcg_names entry: created (or renamed) since the last read. */
static void add_born(struct memcg_rec *recs, uint64_t *ids, size_t *nr, uint64_t cgid,
		     uint64_t parent, unsigned level, const char *name)
{
	memset(&recs[*nr], 0, sizeof(recs[*nr]));
	recs[*nr].parent_cgid = parent;
	recs[*nr].level = level;
	snprintf(recs[*nr].name, sizeof(recs[*nr].name), "%s", name);
	ids[(*nr)++] = cgid;
}

/*
 * Memcgs that lived between two walks: known only from memcg_names. Their
 * waits are read after they are gone, and still carry their paths.
 */
static void test_memcg_born_between_walks_keeps_its_path(void **state)
{
	struct walk w = { .nr_memcgs = 0 };
	struct memcg_rec born[5];
	uint64_t born_ids[5];
	size_t nr_born = 0;
	struct lrs_lruvec_raw raw;
	struct lrs_lruvec_table t;
	struct lrs_path_memory pm;
	struct lrs_lock_row row = lock_row(0xffff800000077000ULL, 31, 1, LRS_LOCK_LRUVEC, 3, 30);
	struct lrs_waiter_row wt = { .lock_addr = 0xffff800000077000ULL,
				     .owner_cgid = 31,
				     .pid = 9,
				     .waiter_cgid = 32,
				     .contended = 3,
				     .wait_ns = 30,
				     .comm = "short" };
	struct lrs_lockstat_read rd = {
		.locks = &row, .nr_locks = 1, .waiters = &wt, .nr_waiters = 1
	};
	struct lrs_snapshot *snap = lrs_snapshot__new();
	const struct lrs_lruvec *lv;

	add_memcg(&w, 1, 0, 0, "", 0xffff800000010000ULL, false, 4);
	add_memcg(&w, 10, 1, 1, "a", 0xffff800000020000ULL, false, 4);
	/* hash order: a child before its parent, born in the same interval */
	add_born(born, born_ids, &nr_born, 32, 30, 2, "kid");
	add_born(born, born_ids, &nr_born, 30, 1, 1, "short");
	add_born(born, born_ids, &nr_born, 31, 10, 2, "b");	  /* under a walked memcg */
	add_born(born, born_ids, &nr_born, 40, 777, 3, "orphan"); /* parent never known */
	add_born(born, born_ids, &nr_born, 10, 1, 1, "a2");	  /* /a renamed after the walk */
	raw = (struct lrs_lruvec_raw){
		.memcg_ids = w.ids,
		.memcgs = w.memcgs,
		.nr_memcgs = w.nr_memcgs,
		.lruvec_keys = w.lkeys,
		.lruvecs = w.lruvecs,
		.nr_lruvecs = w.nr_lruvecs,
		.nodes = w.nodes,
		.nr_nodes = 0,
		.gen = 4,
		.born_ids = born_ids,
		.born = born,
		.nr_born = nr_born,
	};
	assert_int_equal(lrs_lruvec_table__build(&raw, &t), 0);
	assert_int_equal(t.nr_born, 5);
	/* parents first */
	for (size_t i = 1; i < t.nr_born; i++)
		assert_true(t.born[i - 1].level <= t.born[i].level);

	lrs_path_memory__init(&pm);
	assert_int_equal(lrs_attribute(&t, &rd, NULL, NULL, &pm, snap), 0);
	assert_string_equal(lrs_path_memory__get(&pm, 30), "/short");
	assert_string_equal(lrs_path_memory__get(&pm, 32), "/short/kid");
	assert_string_equal(lrs_path_memory__get(&pm, 40), "/?/orphan");
	assert_string_equal(lrs_path_memory__get(&pm, 10), "/a2");
	/* b was born under /a, renamed /a2 since: a rename moves the children with it */
	lv = lrs_snapshot__find_lruvec(snap, 31, 1);
	assert_non_null(lv);
	assert_true(lv->removed);
	assert_string_equal(lv->memcg, "/a2/b");
	assert_int_equal(lv->nr_waiters, 1);
	assert_string_equal(lv->waiters[0].memcg, "/short/kid");
	lrs_snapshot__free(snap);
	lrs_path_memory__destroy(&pm);
	lrs_lruvec_table__clear(&t);
}

static void test_lock_type_names(void **state)
{
	assert_string_equal(lrs_lock_type_name(LCB_F_SPIN), "spinlock");
	assert_string_equal(lrs_lock_type_name(LCB_F_SPIN | LCB_F_READ), "rwlock:R");
	assert_string_equal(lrs_lock_type_name(LCB_F_MUTEX | LCB_F_SPIN), "mutex");
	assert_string_equal(lrs_lock_type_name(LCB_F_WRITE), "rwsem:W");
	assert_string_equal(lrs_lock_type_name(LCB_F_PERCPU | LCB_F_READ), "pcpu-sem:R");
	assert_true(lrs_frame_is_lock_internal("_raw_spin_lock_irq+0x2b"));
	assert_true(lrs_frame_is_lock_internal("bpf_trace_run2+0x70"));
	assert_false(lrs_frame_is_lock_internal("shrink_active_list+0x9e"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_puts_paths_in_tree_order),
		cmocka_unit_test(test_build_drops_entries_of_older_walks),
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_removed_memcg_keeps_its_old_path),
		cmocka_unit_test(test_memcg_born_between_walks_keeps_its_path),
		cmocka_unit_test(test_lock_type_names),
	};

	return cmocka_run_group_tests_name("attribute", tests, NULL, NULL);
}

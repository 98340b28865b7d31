// SPDX-License-Identifier: GPL-2.0
/* The holder estimator (model/holders.c) on synthetic contention streams. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/holders.h"
#include "model/json/snapshot_json.h"
#include "model/snapshot_diff.h"

#define L1 0x1000
#define L2 0x2000
#define OWNER 7

static void ev(struct lrs_holder_est *e, enum lrs_holder_ev type, uint64_t t, uint32_t cpu,
	       uint32_t pid, uint64_t memcg, uint64_t lock)
{
	struct lrs_holder_event x = {
		.type = type,
		.t_ns = t,
		.cpu = cpu,
		.pid = pid,
		.memcg = memcg,
		.lock_addr = lock,
		.owner_cgid = OWNER,
		.stack_id = (int32_t)pid,
	};

	assert_int_equal(lrs_holder_est__feed(e, &x), 0);
}

#define B(t, cpu, pid, memcg, lock) ev(e, LRS_HOLDER_BEGIN, t, cpu, pid, memcg, lock)
#define E(t, cpu, pid, memcg, lock) ev(e, LRS_HOLDER_END, t, cpu, pid, memcg, lock)
/* sched_switch: pid (of memcg) now runs on cpu; pid 0 is idle */
#define S(t, cpu, pid, memcg) ev(e, LRS_HOLDER_SWITCH, t, cpu, pid, memcg, 0)

/* A queue of three on one lock: each hold goes to the one before, FIFO. */
static void test_fifo_chain(void **state)
{
	struct lrs_holder_est *e;
	const struct lrs_holder_tally *a, *b, *h;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	S(0, 0, 10, 1);
	S(0, 1, 20, 2);
	S(0, 2, 30, 2);
	S(0, 3, 5, OWNER);    /* 5 took L1 unseen (uncontended) and runs on cpu 3 */
	B(100, 0, 10, 1, L1); /* A waits */
	B(110, 1, 20, 2, L1); /* B waits */
	B(120, 2, 30, 2, L1); /* C waits */
	E(200, 0, 10, 1, L1); /* A gets it: 5 held it (rule 2: running, in L1's memcg) */
	E(500, 1, 20, 2, L1); /* B gets it: A held 300 ns, C queued too */
	E(650, 2, 30, 2, L1); /* C gets it: B held 150 ns */
	a = lrs_holder_est__find(e, L1, 10);
	b = lrs_holder_est__find(e, L1, 20);
	h = lrs_holder_est__find(e, L1, 5);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(h);
	assert_int_equal(a->hold_ns, 300);
	assert_int_equal(a->holds, 1);
	assert_int_equal(a->waiters, 2); /* B and C queued when A took it */
	assert_int_equal(a->imposed_ns, 600);
	assert_int_equal(a->cgid, 1);
	assert_int_equal(a->stack_id, 10); /* A's own wait stack */
	assert_int_equal(a->probable_ns, 0);
	assert_int_equal(b->hold_ns, 150);
	assert_int_equal(b->waiters, 1);
	assert_int_equal(h->hold_ns, 100); /* A's own wait */
	assert_int_equal(h->probable_ns, 100);
	assert_int_equal(h->cgid, OWNER);
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.unknown, 0);
	assert_int_equal(c.probable, 0);
	assert_int_equal(c.running, 1);
	assert_int_equal(c.drop_task, 0);
	lrs_holder_est__free(e);
}

/* Interleaved locks: each lock has its own chain. */
static void test_interleaved_locks(void **state)
{
	struct lrs_holder_est *e;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	for (uint32_t cpu = 0; cpu < 4; cpu++)
		S(0, cpu, cpu + 1, cpu + 1);
	B(0, 0, 1, 1, L1);
	B(5, 1, 2, 2, L2);
	B(10, 2, 3, 3, L1);
	B(15, 3, 4, 4, L2);
	E(20, 0, 1, 1, L1);
	E(25, 1, 2, 2, L2);
	E(70, 2, 3, 3, L1); /* behind 1 on L1: 50 */
	E(95, 3, 4, 4, L2); /* behind 2 on L2: 70 */
	/* the chains: each lock's holds go to its own predecessor, nothing else */
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->hold_ns, 50);
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->probable_ns, 0);
	assert_int_equal(lrs_holder_est__find(e, L2, 2)->hold_ns, 70);
	assert_int_equal(lrs_holder_est__find(e, L2, 2)->probable_ns, 0);
	/* the first waits have no chain: a running task is charged by rule 2 (which
	 * cannot know that 1 holds L1, nor that a task holds one lruvec lock at a time) */
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->hold_ns, 20);
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->probable_ns, 20);
	assert_int_equal(lrs_holder_est__find(e, L2, 1)->hold_ns, 20);
	assert_int_equal(lrs_holder_est__find(e, L2, 1)->probable_ns, 20);
	lrs_holder_est__free(e);
}

/* An interrupt on a CPU already spinning on L1 contends on L2: both waits stay whole. */
static void test_nested_on_one_cpu(void **state)
{
	struct lrs_holder_est *e;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	S(0, 0, 1, 1);
	S(0, 1, 9, 9);
	B(0, 1, 9, 9, L2);  /* 9 waits on L2 on cpu 1 */
	E(10, 1, 9, 9, L2); /* 9 holds L2 from 10 (1, running on cpu 0, is charged) */
	B(20, 0, 1, 1, L1); /* task 1 spins on L1 on cpu 0 */
	B(30, 0, 1, 1, L2); /* an irq on cpu 0 spins on L2 */
	E(60, 0, 1, 1, L2); /* irq got L2: 9, running on cpu 1, held it */
	S(70, 1, 0, 0);	    /* cpu 1 goes idle */
	E(90, 0, 1, 1, L1); /* task 1 got L1: nobody else runs: no holder known */
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.drop_task, 0);
	assert_int_equal(lrs_holder_est__find(e, L2, 9)->hold_ns, 30);
	assert_int_equal(lrs_holder_est__find(e, L2, 9)->probable_ns, 30);
	assert_int_equal(lrs_holder_est__find(e, L1, 0)->hold_ns, 70);
	assert_int_equal(c.running, 2);
	assert_int_equal(c.probable, 0);
	assert_int_equal(c.unknown, 1);
	lrs_holder_est__free(e);
}

/* Missed events: an end without begin is dropped; a lost end charges the older holder. */
static void test_missed_events(void **state)
{
	struct lrs_holder_est *e;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	for (uint32_t cpu = 0; cpu < 3; cpu++)
		S(0, cpu, cpu + 1, cpu + 1);
	E(5, 0, 1, 1, L1); /* begin lost */
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.drop_task, 1);
	B(10, 0, 1, 1, L1);
	B(11, 1, 2, 2, L1);
	B(12, 2, 3, 3, L1);
	E(20, 0, 1, 1, L1);
	/* task 2's end is lost (its CPU's slot stays): 3 is charged to 1, for 1's and 2's holds */
	E(80, 2, 3, 3, L1);
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->hold_ns, 60);
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->probable_ns, 0);
	/* 2 is charged only for 1's wait (rule 2: it began to spin after 1), never by the chain */
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->hold_ns, 10);
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->probable_ns, 10);
	lrs_holder_est__free(e);
}

/*
 * Unseen acquirers (uncontended, or 6.1's untraced pending-bit waiter): the
 * hold goes to a task running on another CPU, not waiting on the lock, best
 * one in the lruvec's memcg; the last contended acquirer only when nobody runs.
 */
static void test_running_holder(void **state)
{
	struct lrs_holder_est *e;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	S(0, 0, 1, 60);
	S(0, 1, 2, 60);
	S(0, 2, 3, 60);
	S(0, 3, 4, 60);
	B(10, 0, 1, 60, L1);
	E(20, 0, 1, 60, L1); /* 1 took L1 (cpus 1-3 run, none in L1's memcg: cpu 1's task) */
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->hold_ns, 10);
	S(30, 3, 5, OWNER);  /* 5, of L1's memcg, runs on cpu 3: takes L1 unseen */
	S(35, 0, 0, 0);	     /* 1 left cpu 0 before the next wait: it had released L1 */
	B(40, 1, 2, 60, L1); /* 2 waits; 3 waits too (cpu 2), after it */
	B(45, 2, 3, 60, L1);
	E(100, 1, 2, 60, L1); /* 3 and 5 run: 5 is in L1's memcg */
	assert_int_equal(lrs_holder_est__find(e, L1, 5)->hold_ns, 60);
	assert_int_equal(lrs_holder_est__find(e, L1, 5)->probable_ns, 60);
	assert_int_equal(lrs_holder_est__find(e, L1, 5)->cgid, OWNER);
	E(130, 2, 3, 60, L1); /* the chain: 2 took it at 100 and runs on cpu 1 */
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->hold_ns, 10 + 30);
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->probable_ns, 10);
	/* last left its CPU before the next wait began: not it */
	S(140, 2, 0, 0); /* 3 (last) leaves cpu 2 */
	S(140, 3, 0, 0);
	B(150, 0, 1, 60, L1);
	E(190, 0, 1, 60, L1); /* cpu 1 runs 2, last but one */
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->hold_ns, 10 + 30 + 40);
	S(200, 0, 0, 0); /* nobody runs: the last contended acquirer, 1, is the guess */
	S(200, 1, 0, 0);
	B(210, 2, 6, 60, L1);
	E(260, 2, 6, 60, L1);
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->hold_ns, 50);
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.running, 3);
	assert_int_equal(c.probable, 1);
	assert_int_equal(c.unknown, 0);
	lrs_holder_est__free(e);
}

/*
 * Rule 2a: the last contended acquirer took the lock before the wait began and
 * was still on its CPU after (running, or switched out during the wait): it is
 * the holder, even next to a running task of the lruvec's memcg. A chain stays
 * a chain when its acquirer leaves the CPU before the waiter's end is seen (a
 * waiter's vCPU may run late after the hand-over).
 */
static void test_last_ran_into_wait(void **state)
{
	struct lrs_holder_est *e;
	struct lrs_holder_est_counters c;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	S(0, 0, 1, 60);
	S(0, 1, 2, 60);
	S(0, 2, 5, OWNER); /* a task of L1's memcg runs on cpu 2 all along */
	B(10, 0, 1, 60, L1);
	E(20, 0, 1, 60, L1);  /* 1 takes L1 (its hold charged to 5: running, memcg) */
	B(40, 1, 2, 60, L1);  /* 2 waits; 1 still runs on cpu 0 */
	E(100, 1, 2, 60, L1); /* 1 ran into the wait: 1, not 5 */
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->hold_ns, 60);
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->probable_ns, 60);
	B(110, 0, 1, 60, L1); /* 1 waits; 2 (last, from 100) is switched out during it */
	S(150, 1, 0, 0);
	E(200, 0, 1, 60, L1); /* 2 left its CPU at 150, after 110: 2 */
	assert_int_equal(lrs_holder_est__find(e, L1, 2)->hold_ns, 90);
	S(210, 1, 2, 60);     /* 2 is back on cpu 1, 1 (last) on cpu 0 */
	B(220, 1, 2, 60, L1); /* 2 queues; 1 switched out at 230; 1 took it at 200, */
	S(230, 0, 0, 0);      /* before the wait: it ran into it (until 230) */
	E(300, 1, 2, 60, L1);
	assert_int_equal(lrs_holder_est__find(e, L1, 1)->hold_ns, 60 + 80);
	/* the chain: 3 takes L1 while 4 queues, then leaves its CPU before 4's end */
	S(300, 3, 3, 60);
	S(300, 0, 4, 60);
	B(310, 3, 3, 60, L1);
	B(320, 0, 4, 60, L1);
	E(330, 3, 3, 60, L1); /* 3 takes it at 330 (2, the last, ran into 3's wait) */
	S(340, 3, 0, 0);      /* 3 is off its CPU (it released) */
	E(400, 0, 4, 60, L1); /* 4's end seen late: 3 held it from 330 */
	assert_int_equal(lrs_holder_est__find(e, L1, 3)->hold_ns, 70);
	assert_int_equal(lrs_holder_est__find(e, L1, 3)->probable_ns, 0);
	lrs_holder_est__counters(e, &c);
	assert_int_equal(c.running, 5); /* the first end (scan), and four times rule 2a */
	lrs_holder_est__free(e);
}

/* The matrix: cells (waiter memcg, owner memcg, holder memcg), imposed = hold x queued. */
static void test_matrix(void **state)
{
	struct lrs_holder_est *e;
	const struct lrs_matrix_tally *m;
	size_t n, found = 0;

	assert_int_equal(lrs_holder_est__new(&e), 0);
	S(0, 0, 100, 50);
	S(0, 1, 200, 60);
	for (int i = 0; i < 10; i++) {
		uint64_t t = (uint64_t)i * 1000;

		B(t, 0, 100, 50, L1);	  /* the heavy memcg 50 */
		B(t + 1, 1, 200, 60, L1); /* the light one, 60, queues behind it */
		E(t + 10, 0, 100, 50, L1);
		E(t + 410, 1, 200, 60, L1); /* 50 held it 400 ns */
	}
	m = lrs_holder_est__matrix(e, &n);
	for (size_t i = 0; i < n; i++)
		if (m[i].waiter_cgid == 60 && m[i].holder_cgid == 50) {
			assert_int_equal(m[i].owner_cgid, OWNER);
			assert_int_equal(m[i].holds, 10);
			assert_int_equal(m[i].hold_ns, 4000);
			assert_int_equal(m[i].imposed_ns, 4000);
			found++;
		}
	assert_int_equal(found, 1);
	lrs_holder_est__free(e);
}

/* A snapshot's holders fold into a matrix ordered by total. */
static void test_fold(void **state)
{
	struct lrs_matrix_cell cells[] = {
		{ .waiter_id = 2, .owner_id = 2, .holder_id = 1, .imposed_ns = 900 },
		{ .waiter_id = 1, .owner_id = 1, .holder_id = 1, .imposed_ns = 100 },
		{ .waiter_id = 2, .owner_id = 2, .holder_id = 2, .imposed_ns = 50 },
	};
	struct lrs_holders h = { .mode = LRS_HOLDERS_ESTIMATED, .cells = cells, .nr_cells = 3 };
	uint64_t rows[4], cols[4], vals[16];
	size_t nr, nc;

	assert_int_equal(lrs_holders__fold(&h, true, 4, rows, &nr, cols, &nc, vals), 0);
	assert_int_equal(nr, 2);
	assert_int_equal(nc, 2);
	assert_int_equal(rows[0], 2);
	assert_int_equal(cols[0], 1); /* memcg 1 holds the most */
	assert_int_equal(vals[0 * 4 + 0], 900);
	assert_int_equal(vals[0 * 4 + 1], 50);
	assert_int_equal(vals[1 * 4 + 0], 100);
	assert_int_equal(lrs_holders__fold(&h, false, 4, rows, &nr, cols, &nc, vals), 0);
	assert_int_equal(cols[0], 2); /* by owner: memcg 2's lruvec */
	assert_int_equal(vals[0 * 4 + 0], 950);
}

/* A snapshot with holders (exact mode) for the recording round trip. */
static struct lrs_snapshot *holders_snapshot(uint64_t t_ns, uint64_t heavy_imposed)
{
	struct lrs_snapshot *s = lrs_snapshot__new();
	struct lrs_holders *h = calloc(1, sizeof(*h));
	struct lrs_lruvec *lv;

	assert_non_null(s);
	assert_non_null(h);
	s->t_ns = t_ns;
	s->interval_ns = 1000000000;
	assert_int_equal(lrs_snapshot__add_node(s, 0), 0);
	assert_int_equal(lrs_snapshot__add_node(s, 1), 0);
	for (int n = 0; n < 2; n++) {
		lv = lrs_snapshot__add_lruvec(s);
		assert_non_null(lv);
		lv->memcg = strdup("/heavy");
		lv->memcg_id = 40;
		lv->node = n;
		lv->lock_addr = 0x1000 + (uint64_t)n;
		lv->counters.contended = 10;
		lv->counters.wait_ns = 5000;
	}
	h->mode = LRS_HOLDERS_EXACT;
	h->nr_rows = 2;
	h->rows = calloc(2, sizeof(*h->rows));
	h->rows[0] = (struct lrs_holder_row){ .lruvec_memcg_id = 40,
					      .node = 1,
					      .pid = 123,
					      .memcg_id = 40,
					      .holds = 3,
					      .hold_ns = 900,
					      .imposed_ns = heavy_imposed,
					      .waiters = 4,
					      .probable_ns = 100,
					      .stack_id = 7 };
	strcpy(h->rows[0].comm, "reader");
	h->rows[0].memcg = strdup("/heavy");
	h->rows[1] = (struct lrs_holder_row){
		.lruvec_memcg_id = 40, .node = 0, .pid = 0, .stack_id = -1, .holds = 1, .hold_ns = 5
	};
	strcpy(h->rows[1].comm, "(unknown)");
	h->nr_cells = 1;
	h->cells = calloc(1, sizeof(*h->cells));
	h->cells[0] = (struct lrs_matrix_cell){ .waiter_id = 41,
						.owner_id = 40,
						.holder_id = 40,
						.holds = 3,
						.hold_ns = 900,
						.imposed_ns = heavy_imposed };
	h->cells[0].waiter = strdup("/light");
	h->cells[0].owner = strdup("/heavy");
	h->cells[0].holder = strdup("/heavy");
	h->nr_exact_rows = 1;
	h->exact_rows = calloc(1, sizeof(*h->exact_rows));
	h->exact_rows[0] = h->rows[0];
	h->exact_rows[0].memcg = strdup("/heavy");
	h->counters = (struct lrs_holders_counters){ .unknown = 1,
						     .probable = 2,
						     .drop_full = 3,
						     .cmp_est_ns = 1000,
						     .cmp_memcg_ns = 930,
						     .cmp_pid_ns = 800,
						     .cmp_exact_ns = 990,
						     .cmp_no_exact = 4,
						     .exact_acquisitions = 1550,
						     .exact_drop_full = 0,
						     .running = 5,
						     .cmp_basis_est_ns = { 600, 300, 60, 40 },
						     .cmp_basis_memcg_ns = { 600, 290, 40, 0 },
						     .cmp_owner_memcg_ns = 700,
						     .cmp_last_memcg_ns = 650,
						     .cmp_last_pid_ns = 520 };
	s->holders = h;
	return s;
}

static struct lrs_snapshot *round_trip(const struct lrs_snapshot *snap,
				       const struct lrs_snapshot *prev_written,
				       const struct lrs_snapshot *prev_read)
{
	char *buf = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct lrs_snapshot *back = NULL;

	assert_non_null(f);
	assert_int_equal(lrs_snapshot__write_json_delta(snap, prev_written, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\"holders\""));
	if (lrs_snapshot__read_json(buf, len, prev_read, &back, err, sizeof(err)))
		fail_msg("decode: %s", err);
	free(buf);
	return back;
}

/* Holders survive a recording: a full line, a delta line after it, and report -i's diff. */
static void test_recording_round_trip(void **state)
{
	struct lrs_snapshot *a = holders_snapshot(1000, 5000), *b = holders_snapshot(2000, 7000);
	struct lrs_snapshot *ra, *rb, *diff;
	const struct lrs_holders *h;

	(void)state;
	ra = round_trip(a, NULL, NULL);
	rb = round_trip(b, a, ra);
	for (int k = 0; k < 2; k++) {
		h = (k ? rb : ra)->holders;
		assert_non_null(h);
		assert_int_equal(h->mode, LRS_HOLDERS_EXACT);
		assert_int_equal(h->nr_rows, 2);
		assert_int_equal(h->rows[0].pid, 123);
		assert_string_equal(h->rows[0].comm, "reader");
		assert_string_equal(h->rows[0].memcg, "/heavy");
		assert_int_equal(h->rows[0].node, 1);
		assert_int_equal(h->rows[0].imposed_ns, k ? 7000 : 5000);
		assert_int_equal(h->rows[0].waiters, 4);
		assert_int_equal(h->rows[0].probable_ns, 100);
		assert_int_equal(h->rows[0].stack_id, 7);
		assert_int_equal(h->rows[1].pid, 0);
		assert_null(h->rows[1].memcg);
		assert_int_equal(h->rows[1].stack_id, -1);
		assert_int_equal(h->nr_cells, 1);
		assert_string_equal(h->cells[0].waiter, "/light");
		assert_int_equal(h->cells[0].owner_id, 40);
		assert_int_equal(h->cells[0].imposed_ns, k ? 7000 : 5000);
		assert_int_equal(h->nr_exact_rows, 1);
		assert_int_equal(h->nr_exact_cells, 0);
		assert_int_equal(h->counters.probable, 2);
		assert_int_equal(h->counters.exact_acquisitions, 1550);
		assert_int_equal(h->counters.running, 5);
		assert_int_equal(h->counters.cmp_basis_est_ns[LRS_BASIS_RUNNING], 300);
		assert_int_equal(h->counters.cmp_basis_memcg_ns[LRS_BASIS_PROBABLE], 40);
		assert_int_equal(h->counters.cmp_basis_est_ns[LRS_BASIS_UNKNOWN], 40);
		assert_true(lrs_holders__accuracy(h) > 0.929 && lrs_holders__accuracy(h) < 0.931);
		assert_int_equal(h->counters.cmp_owner_memcg_ns, 700);
		assert_int_equal(h->counters.cmp_last_memcg_ns, 650);
		assert_int_equal(h->counters.cmp_last_pid_ns, 520);
	}
	/* report -i: the run's diff keeps the last line's holders (cumulative since start) */
	assert_int_equal(lrs_snapshot__diff(ra, rb, &diff), 0);
	assert_non_null(diff->holders);
	assert_int_equal(diff->holders->rows[0].imposed_ns, 7000);
	lrs_snapshot__free(diff);
	lrs_snapshot__free(ra);
	lrs_snapshot__free(rb);
	lrs_snapshot__free(a);
	lrs_snapshot__free(b);
}

/* A malformed "holders" object is an error that names it; null is no holders. */
static void test_recording_bad_holders(void **state)
{
	static const char bad[] =
		"{\"schema\": 1, \"t_ns\": 1, \"lruvecs\": [], \"holders\": {\"mode\": \"x\"}}";
	static const char none[] =
		"{\"schema\": 1, \"t_ns\": 1, \"lruvecs\": [], \"holders\": null}";
	struct lrs_snapshot *s = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(lrs_snapshot__read_json(bad, sizeof(bad) - 1, NULL, &s, err, sizeof(err)),
			 -EINVAL);
	if (!strstr(err, "holders"))
		fail_msg("error without the section: %s", err);
	assert_int_equal(
		lrs_snapshot__read_json(none, sizeof(none) - 1, NULL, &s, err, sizeof(err)), 0);
	assert_null(s->holders);
	lrs_snapshot__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fifo_chain),
		cmocka_unit_test(test_interleaved_locks),
		cmocka_unit_test(test_nested_on_one_cpu),
		cmocka_unit_test(test_missed_events),
		cmocka_unit_test(test_running_holder),
		cmocka_unit_test(test_last_ran_into_wait),
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_recording_round_trip),
		cmocka_unit_test(test_recording_bad_holders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

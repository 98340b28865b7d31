// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope walk without drgn: the cell metrics of the model, walk.py's JSON
 * (real output captured from the lab vmcore: tests/fixtures/walk-lab-v2*.json,
 * the second with /lrs-a@N0's lock taken and CPU 1 queued) into a snapshot,
 * the table, and the TUI drawing it (newterm over /dev/null).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <curses.h>

#include "model/model.h"
#include "ui/tui/tui.h"
#include "collector/walk/walk_import.h"
#include "ui/action.h"
#include "ui/text/walk_report.h"

static char *slurp(const char *name, size_t *len)
{
	const char *root = getenv("LRS_ROOT");
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", root ? root : ".", name);
	f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s (run from the repository or set LRS_ROOT)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static struct lrs_walk *import_fixture(const char *name)
{
	struct lrs_walk *w = NULL;
	char err[256] = "";
	size_t len;
	char *json = slurp(name, &len);
	int ret = lrs_walk__import(json, len, &w, err, sizeof(err));

	if (ret)
		fail_msg("import %s: %d %s", name, ret, err);
	free(json);
	return w;
}

static const struct lrs_lruvec *find_lv(const struct lrs_snapshot *s, const char *memcg, int node)
{
	for (size_t i = 0; i < s->nr_lruvecs; i++)
		if (!strcmp(s->lruvecs[i].memcg, memcg) && s->lruvecs[i].node == node)
			return &s->lruvecs[i];
	fail_msg("no lruvec %s@N%d", memcg, node);
	return NULL;
}

/* ---- the model's metrics ---------------------------------------------------- */

static struct lrs_snapshot *snap_pages(uint64_t t_ns, uint64_t a_wait)
{
	struct lrs_snapshot *s = lrs_snapshot__new();
	struct lrs_lruvec *lv;

	s->t_ns = t_ns;
	lrs_snapshot__add_node(s, 0);
	lrs_snapshot__add_node(s, 1);
	lv = lrs_snapshot__add_lruvec(s);
	lv->memcg = strdup("/lrs-a");
	lv->memcg_id = 10;
	lv->node = 0;
	lv->counters.wait_ns = a_wait;
	lv->lru_pages[LRS_INACTIVE_FILE] = 700;
	lv->lru_pages[LRS_ACTIVE_ANON] = 30;
	lv = lrs_snapshot__add_lruvec(s);
	lv->memcg = strdup("/lrs-b");
	lv->memcg_id = 11;
	lv->node = 1;
	lv->counters.wait_ns = 0;
	lv->lru_pages[LRS_UNEVICTABLE] = 5;
	lv->lru_pages[LRS_ACTIVE_FILE] = 4000;
	return s;
}

static void test_metric_values(void **state)
{
	struct lrs_model *m = lrs_model__new(4);
	const struct lrs_cell *a, *b;
	struct lrs_view_state vs;

	lrs_view_state__init(&vs);
	assert_int_equal(lrs_lruvec__lru_total(NULL), 0);
	assert_int_equal(lrs_model__push(m, snap_pages(1000000000, 0)), 0);
	/* one snapshot: no rates, but pages are known at once */
	assert_int_equal(m->metric, LRS_METRIC_WAIT);
	assert_true(lrs_model__metric_max(m) == 0);
	assert_int_equal(m->max_cell_lru_pages, 4005);
	assert_int_equal(lrs_model__push(m, snap_pages(3000000000, 4000000)), 0);
	a = &m->rows[0].cells[0];
	b = &m->rows[1].cells[1];
	assert_true(lrs_cell__value(a, LRS_METRIC_WAIT) == 2000000.0); /* 4 ms over 2 s */
	assert_true(lrs_cell__value(a, LRS_METRIC_LRU_PAGES) == 730.0);
	assert_true(lrs_cell__value(b, LRS_METRIC_LRU_PAGES) == 4005.0);
	assert_true(lrs_cell__value(b, LRS_METRIC_WAIT) == 0.0);
	/* a memcg without a lruvec on a node: 0 under both */
	assert_null(m->rows[0].cells[1].lruvec);
	assert_true(lrs_cell__value(&m->rows[0].cells[1], LRS_METRIC_LRU_PAGES) == 0.0);
	assert_true(lrs_cell__value(NULL, LRS_METRIC_WAIT) == 0.0);
	assert_true(lrs_model__metric_max(m) == 2000000.0);
	assert_true(lrs_action__apply(LRS_ACT_METRIC_NEXT, m, &vs, 1) & LRS_REACT_REDRAW);
	assert_int_equal(m->metric, LRS_METRIC_LRU_PAGES);
	assert_true(lrs_model__metric_max(m) == 4005.0);
	assert_string_equal(lrs_metric_names[m->metric], "LRU pages");
	lrs_action__apply(LRS_ACT_METRIC_NEXT, m, &vs, 1);
	assert_int_equal(m->metric, LRS_METRIC_WAIT);
	lrs_model__free(m);
}

/* ---- import ------------------------------------------------------------------ */

static void test_import_lab(void **state)
{
	struct lrs_walk *w = import_fixture("walk-lab-v2.json");
	const struct lrs_snapshot *s = w->snap;
	const struct lrs_lruvec *a0 = find_lv(s, "/lrs-a", 0), *c2 = find_lv(s, "/lrs-n/c2", 1);
	size_t ai = (size_t)(a0 - s->lruvecs);

	assert_string_equal(s->kernel, "6.1.0-57-cloud-amd64");
	assert_int_equal(s->nr_nodes, 2);
	assert_int_equal(s->nr_lruvecs, 12);
	assert_int_equal(w->memcgs, 6);
	assert_int_equal(w->folios_walked, 10787);
	assert_true(w->checked);
	assert_int_equal(w->violations_total, 0);
	assert_int_equal(w->nr_held, 0);
	assert_int_equal(w->nr_warnings, 0);
	/* what lruvecs.py printed for the same vmcore */
	assert_int_equal(a0->memcg_id, 23);
	assert_int_equal(a0->depth, 1);
	assert_int_equal(a0->lock_addr, 0xffff8d0201ef8050ULL);
	assert_int_equal(a0->lru_pages[LRS_INACTIVE_ANON], 259);
	assert_int_equal(a0->lru_pages[LRS_ACTIVE_FILE], 1537);
	assert_int_equal(lrs_lruvec__lru_total(a0), 1796);
	assert_int_equal(lrs_lruvec__lru_total(c2), 2262);
	assert_int_equal(c2->depth, 2);
	/* the contention fields are absent: zero */
	assert_int_equal(a0->counters.contended, 0);
	assert_int_equal(a0->nr_waiters, 0);
	/* lock words and the walk */
	for (size_t i = 0; i < s->nr_lruvecs; i++) {
		assert_true(s->lruvecs[i].walk.known);
		assert_false(s->lruvecs[i].walk.locked);
		assert_int_equal(s->lruvecs[i].walk.tail_cpu, -1);
		assert_int_equal(s->lruvecs[i].walk.mismatch, 0);
		assert_true(w->lists[i].walked);
	}
	assert_int_equal(w->lists[ai].walked_pages[LRS_ACTIVE_FILE], 1537);
	/* the unevictable head is poisoned on 6.1: not walked */
	assert_int_equal(w->lists[ai].complete, 0x0f);
	assert_int_equal(w->lists[ai].skipped, 1u << LRS_UNEVICTABLE);
	lrs_walk__free(w);
}

static void test_import_held(void **state)
{
	struct lrs_walk *w = import_fixture("walk-lab-v2-held.json");
	const struct lrs_lruvec *a0 = find_lv(w->snap, "/lrs-a", 0),
				*a1 = find_lv(w->snap, "/lrs-a", 1);
	char buf[64];

	assert_true(a0->walk.locked);
	assert_false(a0->walk.pending);
	assert_int_equal(a0->walk.tail_cpu, 1);
	assert_false(a1->walk.locked);
	assert_string_equal(lrs_lock_state__format(buf, sizeof(buf), &a0->walk),
			    "locked, queue tail cpu1");
	assert_string_equal(lrs_lock_state__format(buf, sizeof(buf), &a1->walk), "free");
	assert_int_equal(w->nr_held, 1);
	assert_string_equal(w->held[0].lruvec, "/lrs-a@N0");
	assert_int_equal(w->held[0].nr_tasks, 1);
	assert_string_equal(w->held[0].tasks, "1 init");
	lrs_walk__free(w);
}

static void test_lock_state_format(void **state)
{
	struct lrs_lruvec_walk w = { .known = true, .pending = true, .tail_cpu = -1 };
	char buf[64];

	assert_string_equal(lrs_lock_state__format(buf, sizeof(buf), &w), "unlocked, pending");
	w.locked = true;
	w.tail_cpu = 7;
	assert_string_equal(lrs_lock_state__format(buf, sizeof(buf), &w),
			    "locked, pending, queue tail cpu7");
	assert_string_equal(lrs_lock_state__format(buf, 8, &w), "locked,");
	w.known = false;
	assert_string_equal(lrs_lock_state__format(buf, sizeof(buf), &w), "?");
	assert_string_equal(lrs_lock_state__format(buf, sizeof(buf), NULL), "?");
}

static void test_import_rejects(void **state)
{
	static const char *const bad[] = {
		"", "{\"schema\": 1, \"t_ns\": 1, \"lruvecs\": []}",  /* not from walk.py */
		"{\"schema\": 1, \"source\": \"drgn\", \"t_ns\": 1",  /* cut short */
		"{\"schema\": 1, \"source\": \"drgn\", \"t_ns\": 1}", /* no lruvecs */
	};
	struct lrs_walk *w = (void *)1;
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_equal(lrs_walk__import(bad[i], strlen(bad[i]), &w, err, sizeof(err)),
				 -EINVAL);
		assert_null(w);
		assert_true(err[0]);
	}
	{
		static const char v2[] = "{\"schema\": 2, \"source\": \"drgn\", \"t_ns\": 1}";

		assert_int_equal(lrs_walk__import(v2, sizeof(v2) - 1, &w, err, sizeof(err)),
				 -EPROTONOSUPPORT);
	}
	lrs_walk__free(NULL);
}

/* A walk whose list disagrees with the counter: the mismatch bit and the table say so. */
static void test_mismatch_table(void **state)
{
	static const char json[] =
		"{\"schema\": 1, \"source\": \"drgn\", \"t_ns\": 5, \"interval_ns\": 0, "
		"\"kernel\": \"6.1\", \"nodes\": [0], \"lruvecs\": [{\"memcg\": \"/x\", "
		"\"memcg_id\": 9, \"node\": 0, \"lock\": \"0x10\", \"lock_state\": {\"raw\": 0, "
		"\"locked\": false, \"pending\": false, \"tail_cpu\": null}, \"locked\": false, "
		"\"lru_pages\": {\"inactive_file\": 5, \"active_file\": 2}, \"walked\": "
		"{\"inactive_file\": {\"folios\": 3, \"pages\": 3, \"complete\": true}, "
		"\"active_file\": {\"folios\": 1, \"pages\": 1, \"complete\": false}, "
		"\"unevictable\": {\"folios\": 0, \"pages\": 0, \"complete\": false, "
		"\"skipped\": \"poisoned\"}}, "
		"\"mismatch\": {\"inactive_file\": {\"walked\": 3, \"counted\": 5}}}], "
		"\"other_locks\": [], \"stacks\": {}, \"stats\": {\"memcgs\": 1, "
		"\"folios_walked\": 3, \"total_s\": 0.01}, \"holders\": [], "
		"\"page_owner\": {\"method\": \"memcg_data\", \"memcgs\": [{\"memcg\": \"/x\", "
		"\"pages\": 9}]}, \"warnings\": [\"memcg /y: fault at 0x0\"]}";
	struct lrs_walk *w;
	char err[256], *text = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(lrs_walk__import(json, sizeof(json) - 1, &w, err, sizeof(err)), 0);
	assert_int_equal(w->snap->lruvecs[0].walk.mismatch, 1u << LRS_INACTIVE_FILE);
	assert_false(w->checked);
	f = open_memstream(&text, &len);
	assert_int_equal(lrs_walk_report__print(f, w, "core"), 0);
	fclose(f);
	assert_non_null(strstr(text, "/x@N0"));
	assert_non_null(strstr(text, "inactive_file walked 3 counted 5, active_file cut at 1\n"));
	assert_non_null(strstr(text, "1 lruvec(s) whose walk differs"));
	assert_non_null(strstr(text, "page owner (memcg_data):"));
	assert_non_null(strstr(text, "warning: memcg /y: fault at 0x0"));
	assert_null(strstr(text, "lru_check")); /* --no-walk style: no verdict */
	free(text);
	lrs_walk__free(w);
}

static void test_table_lab(void **state)
{
	struct lrs_walk *w = import_fixture("walk-lab-v2-held.json");
	char *text = NULL, *row;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_int_equal(lrs_walk_report__print(f, w, "vmcore"), 0);
	fclose(f);
	row = strstr(text, "\n/lrs-a@N0 ");
	assert_non_null(row);
	assert_non_null(strstr(row, "locked, queue tail cpu1"));
	assert_non_null(strstr(text, "held: /lrs-a@N0, 1 task(s) reference it: 1 init"));
	assert_non_null(strstr(text, "lru_check: 0 violation(s)"));
	assert_non_null(strstr(text, "1 lruvec lock(s) held or waited on; 0 lruvec(s)"));
	free(text);
	lrs_walk__free(w);
}

/* ---- the TUI over a walk ------------------------------------------------------ */

static const char *screen_line(int y)
{
	static char buf[512];
	int n = mvinnstr(y, 0, buf, getmaxx(stdscr) < 511 ? getmaxx(stdscr) : 511);

	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static int screen_find(const char *s)
{
	for (int y = 0; y < getmaxy(stdscr); y++)
		if (strstr(screen_line(y), s))
			return y;
	return -1;
}

/* Before 5.11 every memcg on a node shares the node's lock: a busy one counts once. */
static void test_node_locks_counted_once(void **state)
{
	struct lrs_lruvec lv[6] = { 0 };
	struct lrs_snapshot s = { .lruvecs = lv, .nr_lruvecs = 6 };

	(void)state;
	for (int i = 0; i < 6; i++) {
		lv[i].node = i % 2;
		lv[i].walk.known = lv[i].walk.node_lock = true;
		lv[i].walk.tail_cpu = -1;
		lv[i].walk.locked = lv[i].node == 0; /* node 0's lock, seen by 3 memcgs */
	}
	assert_int_equal(lrs_snapshot__walk_locks_busy(&s), 1);
	lv[5].walk.pending = true; /* node 1's too */
	assert_int_equal(lrs_snapshot__walk_locks_busy(&s), 2);
	for (int i = 0; i < 6; i++)
		lv[i].walk.node_lock = false; /* 5.11+: each lruvec's own lock */
	assert_int_equal(lrs_snapshot__walk_locks_busy(&s), 4);
	assert_int_equal(lrs_snapshot__walk_locks_busy(NULL), 0);
}

static void test_tui_draws_walk(void **state)
{
	struct lrs_walk *w = import_fixture("walk-lab-v2-held.json");
	struct lrs_model *m = lrs_model__new(1);
	struct lrs_tui_opts opts = { 0 };
	struct lrs_tui *tui;
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	int y;

	setenv("LC_ALL", "C", 1);
	unsetenv("NO_COLOR");
	m->sort = LRS_SORT_NAME;
	m->metric = LRS_METRIC_LRU_PAGES;
	assert_int_equal(lrs_model__push(m, w->snap), 0);
	w->snap = NULL;
	m->sel_memcg_id = 23; /* /lrs-a, node 0: the taken lock */
	m->sel_node_idx = 0;
	assert_int_equal(lrs_tui__open(&tui, &opts, "xterm-256color", out, in), 0);
	lrs_tui__resize(tui, 30, 120);
	lrs_tui__set_source(tui, "drgn walk", 0);
	lrs_tui__draw(tui, m);
	if (getenv("LRS_DUMP"))
		for (y = 0; y < 30; y++)
			print_message("%2d|%s\n", y, screen_line(y));
	assert_true(screen_find("one instant") >= 0);
	assert_true(screen_find("1 lock held or waited on") >= 0);
	assert_true(screen_find("LRU pages ") >= 0);
	assert_true(screen_find("max 2.7k") >= 0);
	y = screen_find("  lrs-a ");
	assert_true(y >= 0);
	assert_non_null(strstr(screen_line(y), "1796 held"));
	assert_non_null(strstr(screen_line(y), "1127"));
	assert_non_null(strstr(screen_line(y), "2923")); /* all nodes */
	assert_true(screen_find("lock word: locked, queue tail cpu1") >= 0);
	y = screen_find(" active_file ");
	assert_true(y >= 0);
	assert_non_null(strstr(screen_line(y), " 1537 #"));
	assert_true(screen_find("other locks") < 0); /* a walk reads no contention */
	/* m: back to wait/s, where a walk has nothing */
	lrs_action__apply(LRS_ACT_METRIC_NEXT, m, lrs_tui__view_state(tui), 1);
	lrs_tui__draw(tui, m);
	assert_true(screen_find("no lruvec lock contention") >= 0);
	assert_true(screen_find("1796") < 0);
	lrs_tui__close(tui);
	fclose(out);
	fclose(in);
	lrs_model__free(m);
	lrs_walk__free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_values),
		cmocka_unit_test(test_import_lab),
		cmocka_unit_test(test_import_held),
		cmocka_unit_test(test_lock_state_format),
		cmocka_unit_test(test_import_rejects),
		cmocka_unit_test(test_mismatch_table),
		cmocka_unit_test(test_table_lab),
		cmocka_unit_test(test_node_locks_counted_once),
		cmocka_unit_test(test_tui_draws_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

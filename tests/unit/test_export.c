// SPDX-License-Identifier: GPL-2.0
/*
 * The exporter's series: --max-series bounds them, memcg="other" never steps
 * back (members removed, memcgs that lived between two snapshots), removed
 * memcgs leave, and the page in both formats (families, histogram, escaping,
 * no kernel address in a lock label).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ui/export/series.h"
#include "ui/text/exposition.h"

static struct lrs_lruvec *add_lv(struct lrs_snapshot *s, const char *path, uint64_t id, int node,
				 uint64_t contended, uint64_t wait_ns, uint64_t pages)
{
	struct lrs_lruvec *lv = lrs_snapshot__add_lruvec(s);

	lv->memcg = path ? strdup(path) : NULL;
	lv->memcg_id = id;
	lv->node = node;
	lv->counters.contended = contended;
	lv->counters.wait_ns = wait_ns;
	lv->counters.wait_max_ns = contended ? wait_ns / contended : 0;
	if (contended)
		lv->counters.hist[lrs_hist__bucket(wait_ns / contended)] = contended;
	lv->lru_pages[LRS_INACTIVE_FILE] = pages;
	return lv;
}

/* n memcgs /lrs-NNN (ids 100+i) on one node, memcg i waited (i+1)*k times, 1 us each. */
static struct lrs_snapshot *snap_of(size_t n, uint64_t k, const int *removed)
{
	struct lrs_snapshot *s = lrs_snapshot__new();
	char path[32];

	lrs_snapshot__add_node(s, 0);
	add_lv(s, "/", 1, 0, 0, 0, 5);
	for (size_t i = 0; i < n; i++) {
		struct lrs_lruvec *lv;

		if (removed && removed[i] == 2)
			continue; /* gone from the snapshot altogether */
		snprintf(path, sizeof(path), "/lrs-%03zu", i);
		lv = add_lv(s, path, 100 + i, 0, (i + 1) * k, (i + 1) * k * 1000, 10 * (i + 1));
		lv->removed = removed && removed[i] == 1;
	}
	return s;
}

static char *render(const struct lrs_exposition *e, enum lrs_expo_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(lrs_expo__write(f, e, fmt), 0);
	fclose(f);
	return buf;
}

/* The value of the sample line that starts with key, or -1. */
static double value_of(const char *page, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = page; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, klen) && p[klen] == ' ')
			return strtod(p + klen + 1, NULL);
	return -1;
}

static size_t count_lines_with(const char *page, const char *needle)
{
	size_t n = 0;

	for (const char *p = page; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *eol = strchr(p, '\n');
		const char *hit = strstr(p, needle);

		if (*p != '#' && hit && (!eol || hit < eol))
			n++;
	}
	return n;
}

static void test_budget_bounds_series(void **state)
{
	struct lrs_series_opts o = { .max_series = 100, .top_locks = 5 };
	struct lrs_series *s;
	struct lrs_exposition e = { 0 };
	struct lrs_snapshot *snap = snap_of(40, 1, NULL);
	uint64_t own, folded, total;
	char *page;

	assert_int_equal(lrs_series__new(&o, &s), 0);
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	/* every sample with a memcg label counts, "other" included */
	assert_true(count_lines_with(page, "memcg=\"") <= 100);
	assert_int_equal(count_lines_with(page, "memcg=\""), lrs_series__count(s));
	lrs_series__memcgs(s, &own, &folded, &total);
	assert_true(own >= 1 && folded > 0 && total == folded && own + folded == 41);
	assert_true(
		value_of(
			page,
			"lruscope_lru_pages{memcg=\"other\",numa_node=\"0\",lru=\"inactive_file\"}") >
		0);
	free(page);
	lrs_snapshot__free(snap);
	lrs_series__free(s);
}

/* Sum of a family over every memcg label, "other" included. */
static double family_sum(const char *page, const char *family)
{
	double sum = 0;
	size_t flen = strlen(family);

	for (const char *p = page; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *sp;

		if (strncmp(p, family, flen) || p[flen] != '{')
			continue;
		sp = strchr(p, ' ');
		sum += strtod(sp + 1, NULL);
	}
	return sum;
}

static void test_other_never_steps_back(void **state)
{
	struct lrs_series_opts o = { .max_series = 100, .top_locks = 5 };
	struct lrs_series *s;
	struct lrs_exposition e = { 0 };
	int removed[40] = { 0 };
	double before, after, all_before;
	char *page;
	struct lrs_snapshot *snap;

	assert_int_equal(lrs_series__new(&o, &s), 0);
	snap = snap_of(40, 1, NULL);
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	before = value_of(
		page, "lruscope_lruvec_lock_contentions_total{memcg=\"other\",numa_node=\"0\"}");
	all_before = family_sum(page, "lruscope_lruvec_lock_contentions_total");
	assert_true(before > 0);
	/* the whole tree's waits are on the page: own series plus "other" */
	assert_true(all_before == 40 * 41 / 2);
	free(page);
	lrs_snapshot__free(snap);

	/* folded members go: one marked removed, one gone from the snapshot */
	removed[39] = 1;
	removed[38] = 2;
	snap = snap_of(40, 1, removed);
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	after = value_of(page,
			 "lruscope_lruvec_lock_contentions_total{memcg=\"other\",numa_node=\"0\"}");
	assert_true(after >= before);
	free(page);
	lrs_snapshot__free(snap);

	/* a memcg that lived between two snapshots, seen only as removed: its waits stay in "other" */
	snap = snap_of(40, 1, removed);
	add_lv(snap, NULL, 999, 0, 7, 7000, 0)->removed = true;
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	assert_true(
		value_of(page,
			 "lruscope_lruvec_lock_contentions_total{memcg=\"other\",numa_node=\"0\"}") ==
		after + 7);
	assert_null(strstr(page, "cgroup-id:999"));
	free(page);
	lrs_snapshot__free(snap);
	lrs_series__free(s);
}

static void test_removed_own_memcg_leaves(void **state)
{
	struct lrs_series_opts o = { .max_series = 10000, .top_locks = 5 };
	struct lrs_series *s;
	struct lrs_exposition e = { 0 };
	int removed[3] = { 0, 1, 0 };
	struct lrs_snapshot *snap = snap_of(3, 2, NULL);
	char *page;

	assert_int_equal(lrs_series__new(&o, &s), 0);
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	assert_non_null(strstr(page, "memcg=\"/lrs-001\""));
	assert_null(strstr(page, "memcg=\"other\"")); /* nothing folded: no "other" */
	free(page);
	lrs_snapshot__free(snap);
	snap = snap_of(3, 3, removed);
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	assert_null(strstr(page, "memcg=\"/lrs-001\""));
	assert_true(
		value_of(
			page,
			"lruscope_lruvec_lock_contentions_total{memcg=\"/lrs-002\",numa_node=\"0\"}") ==
		9);
	free(page);
	lrs_snapshot__free(snap);
	lrs_series__free(s);
}

/* A stack of one frame on lv (uses) and in the snapshot's table. */
static void add_stack(struct lrs_snapshot *snap, struct lrs_lruvec *lv, int32_t id,
		      const char *frame, uint64_t wait_ns)
{
	struct lrs_stack *st = lrs_snapshot__add_stack(snap);

	st->id = id;
	st->frames = calloc(1, sizeof(*st->frames));
	st->frames[0] = strdup(frame);
	st->nr_frames = 1;
	lv->stacks = realloc(lv->stacks, (lv->nr_stacks + 1) * sizeof(*lv->stacks));
	lv->stacks[lv->nr_stacks++] = (struct lrs_stack_use){ id, wait_ns / 1000, wait_ns };
}

/* reclaim and drain wait on /lrs-c; at the second snapshot id 2 is reused by a smaller stack. */
static struct lrs_snapshot *cause_snap(int second)
{
	struct lrs_snapshot *snap = lrs_snapshot__new();
	struct lrs_lruvec *lv;

	lrs_snapshot__add_node(snap, 0);
	add_lv(snap, "/", 1, 0, 0, 0, 5);
	lv = add_lv(snap, "/lrs-c", 7, 0, 100, 100000, 5);
	add_stack(snap, lv, 1, "shrink_active_list+0x9c", second ? 90000 : 60000);
	add_stack(snap, lv, 2, second ? "mystery+0x1" : "lru_add_drain_cpu+0x9e",
		  second ? 5000 : 30000);
	return snap;
}

static void test_sampled_wait_by_cause(void **state)
{
	struct lrs_series_opts o = { .max_series = 10000, .top_locks = 1 };
	struct lrs_series *s;
	struct lrs_exposition e = { 0 };
	struct lrs_snapshot *a = cause_snap(0), *b = cause_snap(1);
	const char *key =
		"lruscope_lruvec_lock_sampled_wait_seconds_total{memcg=\"/lrs-c\",numa_node=\"0\",cause=";
	char name[160], *page;

	(void)state;
	assert_int_equal(lrs_series__new(&o, &s), 0);
	assert_int_equal(lrs_series__update(s, a, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	snprintf(name, sizeof(name), "%s\"reclaim\"}", key);
	assert_true(value_of(page, name) == 60e-6);
	snprintf(name, sizeof(name), "%s\"lru_add_drain\"}", key);
	assert_true(value_of(page, name) == 30e-6);
	/* causes without wait have no series; the count stays exact */
	snprintf(name, sizeof(name), "%s\"mlock\"}", key);
	assert_null(strstr(page, name));
	assert_int_equal(count_lines_with(page, "memcg=\""), lrs_series__count(s));
	free(page);

	/* id 2 reused: its 5 us are new unclassified wait; drain keeps its 30 us */
	assert_int_equal(lrs_series__update(s, b, &e), 0);
	page = render(&e, LRS_EXPO_PROMETHEUS);
	snprintf(name, sizeof(name), "%s\"reclaim\"}", key);
	assert_true(value_of(page, name) == 90e-6);
	snprintf(name, sizeof(name), "%s\"lru_add_drain\"}", key);
	assert_true(value_of(page, name) == 30e-6);
	snprintf(name, sizeof(name), "%s\"unclassified\"}", key);
	assert_true(value_of(page, name) == 5e-6);
	assert_int_equal(count_lines_with(page, "memcg=\""), lrs_series__count(s));
	free(page);
	lrs_snapshot__free(a);
	lrs_snapshot__free(b);
	lrs_series__free(s);
}

static void test_histogram_and_formats(void **state)
{
	struct lrs_series_opts o = { .max_series = 10000, .top_locks = 1 };
	struct lrs_series *s;
	struct lrs_exposition e = { 0 };
	struct lrs_snapshot *snap = lrs_snapshot__new();
	struct lrs_lruvec *lv;
	struct lrs_other_lock *ol;
	char *prom, *om;

	lrs_snapshot__add_node(snap, 0);
	lv = add_lv(snap, "/a\"b\\c", 5, 0, 0, 0, 1);
	lv->counters.contended = 3;
	lv->counters.wait_ns = 2000 + 5000 + 3000000;
	lv->counters.hist[lrs_hist__bucket(2000)]++;	/* 2 us: below the 4.096 us bound */
	lv->counters.hist[lrs_hist__bucket(5000)]++;	/* 5 us: below 16.384 us */
	lv->counters.hist[lrs_hist__bucket(3000000)]++; /* 3 ms: below 4.19 ms */
	ol = lrs_snapshot__add_other_lock(snap);
	ol->name = strdup("spinlock 0xffff888012345678");
	ol->counters.contended = 4;
	ol->counters.wait_ns = 10;
	ol = lrs_snapshot__add_other_lock(snap);
	ol->name = strdup("mutex @ pipe_read");
	ol->counters.contended = 1;
	ol->counters.wait_ns = 5;
	assert_int_equal(lrs_series__new(&o, &s), 0);
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	prom = render(&e, LRS_EXPO_PROMETHEUS);
	om = render(&e, LRS_EXPO_OPENMETRICS);

	/* label escaping */
	assert_non_null(strstr(prom, "memcg=\"/a\\\"b\\\\c\""));
	/* cumulative buckets */
	assert_true(
		value_of(
			prom,
			"lruscope_lruvec_lock_wait_duration_seconds_bucket{memcg=\"/a\\\"b\\\\c\",numa_node=\"0\",le=\"1.024e-06\"}") ==
		0);
	assert_true(
		value_of(
			prom,
			"lruscope_lruvec_lock_wait_duration_seconds_bucket{memcg=\"/a\\\"b\\\\c\",numa_node=\"0\",le=\"4.096e-06\"}") ==
		1);
	assert_true(
		value_of(
			prom,
			"lruscope_lruvec_lock_wait_duration_seconds_bucket{memcg=\"/a\\\"b\\\\c\",numa_node=\"0\",le=\"1.6384e-05\"}") ==
		2);
	assert_true(
		value_of(
			prom,
			"lruscope_lruvec_lock_wait_duration_seconds_bucket{memcg=\"/a\\\"b\\\\c\",numa_node=\"0\",le=\"+Inf\"}") ==
		3);
	assert_true(
		value_of(
			prom,
			"lruscope_lruvec_lock_wait_duration_seconds_count{memcg=\"/a\\\"b\\\\c\",numa_node=\"0\"}") ==
		3);
	assert_non_null(strstr(
		prom,
		"lruscope_lruvec_lock_wait_seconds_total{memcg=\"/a\\\"b\\\\c\",numa_node=\"0\"} 0.003007000\n"));
	/* the top 1 other lock, with no address in its label */
	assert_non_null(strstr(
		prom,
		"lruscope_lock_wait_seconds_total{lock=\"spinlock (no symbol)\"} 0.000000010"));
	assert_null(strstr(prom, "pipe_read"));
	assert_null(strstr(prom, "0xffff"));
	/* the formats: 0.0.4 names counters with _total, OpenMetrics without, and ends in # EOF */
	assert_non_null(strstr(prom, "# TYPE lruscope_lruvec_lock_wait_seconds_total counter\n"));
	assert_non_null(strstr(
		om,
		"# TYPE lruscope_lruvec_lock_wait_seconds counter\n# UNIT lruscope_lruvec_lock_wait_seconds seconds\n"));
	assert_null(strstr(prom, "# EOF"));
	assert_string_equal(om + strlen(om) - 6, "# EOF\n");
	assert_int_equal(
		lrs_expo__negotiate("application/openmetrics-text;version=1.0.0,text/plain;q=0.5"),
		LRS_EXPO_OPENMETRICS);
	assert_int_equal(lrs_expo__negotiate("*/*"), LRS_EXPO_PROMETHEUS);
	assert_int_equal(lrs_expo__negotiate(NULL), LRS_EXPO_PROMETHEUS);
	free(prom);
	free(om);
	lrs_snapshot__free(snap);
	lrs_series__free(s);
}

/* Lost task waits are a series per cause, summing to the whole; the whole (drops.task) is no
 * series of its own, which a sum over the label would count twice. */
static void test_lost_events_by_cause(void **state)
{
	struct lrs_series_opts o = { .max_series = 10000, .top_locks = 1 };
	struct lrs_series *s;
	struct lrs_exposition e = { 0 };
	struct lrs_snapshot *snap = lrs_snapshot__new();
	char *prom;

	(void)state;
	lrs_snapshot__add_node(snap, 0);
	snap->drops = (struct lrs_drops){ .task = 10,
					  .task_nested = 1,
					  .task_unmatched = 2,
					  .task_no_room = 3,
					  .task_lost = 4,
					  .stack = 5 };
	assert_int_equal(lrs_series__new(&o, &s), 0);
	assert_int_equal(lrs_series__update(s, snap, &e), 0);
	prom = render(&e, LRS_EXPO_PROMETHEUS);
	assert_true(value_of(prom, "lruscope_lost_events_total{reason=\"task_nested\"}") == 1);
	assert_true(value_of(prom, "lruscope_lost_events_total{reason=\"task_unmatched\"}") == 2);
	assert_true(value_of(prom, "lruscope_lost_events_total{reason=\"task_no_room\"}") == 3);
	assert_true(value_of(prom, "lruscope_lost_events_total{reason=\"task_lost\"}") == 4);
	assert_true(value_of(prom, "lruscope_lost_events_total{reason=\"stack\"}") == 5);
	assert_true(value_of(prom, "lruscope_lost_events_total{reason=\"negative_time\"}") == 0);
	assert_null(strstr(prom, "reason=\"task\""));
	free(prom);
	lrs_snapshot__free(snap);
	lrs_series__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_bounds_series),
		cmocka_unit_test(test_other_never_steps_back),
		cmocka_unit_test(test_removed_own_memcg_leaves),
		cmocka_unit_test(test_histogram_and_formats),
		cmocka_unit_test(test_sampled_wait_by_cause),
		cmocka_unit_test(test_lost_events_by_cause),
	};

	return cmocka_run_group_tests_name("export", tests, NULL, NULL);
}

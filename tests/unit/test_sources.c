// SPDX-License-Identifier: GPL-2.0
/* cgroup hierarchy discovery, kallsyms, the JSON writer, the report's formats. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "collector/live/cgroup_fs.h"
#include "collector/live/live.h"
#include "model/json/json_writer.h"
#include "collector/live/ksyms.h"
#include "model/json/snapshot_json.h"
#include "ui/text/report.h"

static const char mountinfo_v1[] =
	"25 30 0:22 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"26 25 0:23 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"29 25 0:26 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"34 25 0:31 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

static const char mountinfo_v2[] =
	"25 30 0:22 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";

static const char mountinfo_escaped[] =
	"29 25 0:26 / /mnt/my\\040cgroups rw,relatime - cgroup cgroup rw,nosuid,memory,blkio\n";

/* two unified mounts, the second with memory; a v1 mount whose name only contains "memory" */
static const char mountinfo_two_v2[] =
	"30 25 0:40 / /run/cg2a rw,relatime - cgroup2 cgroup2 rw\n"
	"31 25 0:41 / /run/cg2b rw,relatime - cgroup2 cgroup2 rw,memory_recursiveprot\n"
	"32 25 0:42 / /run/memoryx rw,relatime - cgroup cgroup rw,name=memoryx\n";

static int no_memory(const char *mount_point)
{
	return 0;
}
static int has_memory(const char *mount_point)
{
	return 1;
}
static int memory_in_cg2b(const char *mount_point)
{
	return !strcmp(mount_point, "/run/cg2b");
}

static void test_cgroup_root_parse(void **state)
{
	struct lrs_cgroup_root root;

	/* v2 mounted but without the memory controller: v1's memory mount wins */
	assert_int_equal(lrs_cgroup_root__parse(mountinfo_v1, no_memory, &root), 0);
	assert_int_equal(root.version, 1);
	assert_string_equal(root.path, "/sys/fs/cgroup/memory");
	assert_int_equal(lrs_cgroup_root__parse(mountinfo_v1, has_memory, &root), 0);
	assert_int_equal(root.version, 2);
	assert_string_equal(root.path, "/sys/fs/cgroup/unified");
	assert_int_equal(lrs_cgroup_root__parse(mountinfo_v2, has_memory, &root), 0);
	assert_string_equal(root.path, "/sys/fs/cgroup");
	assert_int_equal(lrs_cgroup_root__parse(mountinfo_escaped, no_memory, &root), 0);
	assert_string_equal(root.path, "/mnt/my cgroups");
	assert_int_equal(lrs_cgroup_root__parse(mountinfo_v2, no_memory, &root), -ENOENT);
	assert_int_equal(lrs_cgroup_root__parse("", NULL, &root), -ENOENT);
}

/* The first unified mount that has memory, not the first one; v1 options are whole words. */
static void test_cgroup_root_parse_picks(void **state)
{
	struct lrs_cgroup_root root;

	assert_int_equal(lrs_cgroup_root__parse(mountinfo_two_v2, memory_in_cg2b, &root), 0);
	assert_int_equal(root.version, 2);
	assert_string_equal(root.path, "/run/cg2b");
	assert_int_equal(lrs_cgroup_root__parse(mountinfo_two_v2, no_memory, &root), -ENOENT);
}

/* /sys/devices/system/node/possible: "0-1" is two nodes (the lab guest's). */
static void test_node_list(void **state)
{
	(void)state;
	assert_int_equal(lrs_node_list__nr("0\n"), 1);
	assert_int_equal(lrs_node_list__nr("0-1\n"), 2);
	assert_int_equal(lrs_node_list__nr("0-3,8\n"), 9);
	assert_int_equal(lrs_node_list__nr("2,0"), 3);
	assert_int_equal(lrs_node_list__nr(""), 1);
	assert_int_equal(lrs_node_list__nr(NULL), 1);
}

/* This machine's own hierarchy: whatever it is, detection must agree with statfs. */
static void test_cgroup_root_detect_on_this_machine(void **state)
{
	struct lrs_cgroup_root root, again;
	char path[4200];
	struct stat st;

	if (lrs_cgroup_root__detect(&root)) {
		skip(); /* no memory cgroup mounted at all */
		return;
	}
	assert_int_equal(lrs_cgroup_root__from_path(root.path, &again), 0);
	assert_int_equal(again.version, root.version);
	snprintf(path, sizeof(path), "%s/%s", root.path,
		 root.version == 2 ? "memory.stat" : "memory.numa_stat");
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(lrs_cgroup_root__from_path("/proc", &again), -ENOTDIR);
}

static void test_ksyms(void **state)
{
	struct lrs_ksyms *ks = lrs_ksyms__parse("ffffffff81000100 T b_func\n"
						"ffffffff81000000 T a_func\n"
						"ffffffff82000000 D a_lock\n"
						"0000000000000000 T hidden\n");
	char buf[64];

	assert_int_equal(ks->nr, 3);
	assert_string_equal(lrs_ksyms__format(ks, 0xffffffff81000010ULL, buf, sizeof(buf)),
			    "a_func+0x10");
	assert_string_equal(lrs_ksyms__format(ks, 0xffffffff81000100ULL, buf, sizeof(buf)),
			    "b_func+0x0");
	assert_string_equal(lrs_ksyms__format(ks, 0x1000, buf, sizeof(buf)), "0x1000");
	assert_string_equal(lrs_ksyms__data_name(ks, 0xffffffff82000000ULL), "a_lock");
	assert_null(lrs_ksyms__data_name(ks, 0xffffffff82000008ULL));
	assert_null(lrs_ksyms__data_name(ks, 0xffffffff81000000ULL)); /* text is not a lock */
	lrs_ksyms__free(ks);
}

/* The real /proc/kallsyms: a known function resolves to itself. */
static void test_ksyms_on_this_kernel(void **state)
{
	struct lrs_ksyms *ks = lrs_ksyms__load();
	const struct lrs_ksym *sched = NULL;
	char buf[128];

	assert_non_null(ks);
	if (!ks->nr) {
		lrs_ksyms__free(ks);
		skip(); /* addresses hidden (kptr_restrict): not root */
		return;
	}
	for (size_t i = 0; i < ks->nr && !sched; i++)
		if (!strcmp(ks->syms[i].name, "schedule"))
			sched = &ks->syms[i];
	assert_non_null(sched);
	assert_string_equal(lrs_ksyms__format(ks, sched->addr + 4, buf, sizeof(buf)),
			    "schedule+0x4");
	lrs_ksyms__free(ks);
}

static char *capture(void (*fn)(FILE *f, void *arg), void *arg)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	fn(f, arg);
	fclose(f);
	return out;
}

static void write_escapes(FILE *f, void *arg)
{
	struct lrs_json j;

	lrs_json__init(&j, f);
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "s");
	lrs_json__str(&j, "a\"b\\c\nd\x01");
	lrs_json__key(&j, "a");
	lrs_json__arr_begin(&j);
	lrs_json__u64(&j, 1);
	lrs_json__i64(&j, -2);
	lrs_json__dbl(&j, 1.0 / 0.0);
	lrs_json__obj_begin(&j);
	lrs_json__obj_end(&j);
	lrs_json__arr_end(&j);
	lrs_json__key(&j, "n");
	lrs_json__str(&j, NULL);
	lrs_json__obj_end(&j);
}

static void test_json_writer(void **state)
{
	char *out = capture(write_escapes, NULL);

	assert_string_equal(out,
			    "{\"s\":\"a\\\"b\\\\c\\nd\\u0001\",\"a\":[1,-2,null,{}],\"n\":null}");
	free(out);
}

static struct lrs_snapshot *small_snapshot(void)
{
	struct lrs_snapshot *s = lrs_snapshot__new();
	struct lrs_lruvec *lv;
	struct lrs_other_lock *ol;

	s->t_ns = 5000000000ULL;
	s->interval_ns = 2000000000ULL;
	strcpy(s->kernel, "6.18.0");
	lrs_snapshot__add_node(s, 0);
	lv = lrs_snapshot__add_lruvec(s);
	lv->memcg = strdup("/lrs,\"odd\"");
	lv->memcg_id = 12;
	lv->lock_addr = 0xffff888100229298ULL;
	lv->counters.contended = 120;
	lv->counters.wait_ns = 4512000;
	lv->counters.wait_max_ns = 90000;
	lv->counters.hist[12] = 120;
	lv->lru_pages[LRS_ACTIVE_FILE] = 77;
	ol = lrs_snapshot__add_other_lock(s);
	ol->name = strdup("zone N0/Normal");
	ol->lock_addr = 0xffff88863ffd6b08ULL;
	ol->flags = 1;
	ol->counters.contended = 3;
	ol->counters.wait_ns = 9000;
	return s;
}

static void write_snapshot(FILE *f, void *arg)
{
	lrs_snapshot__write_json(arg, f);
}

static void test_snapshot_json_schema_fields(void **state)
{
	struct lrs_snapshot *s = small_snapshot();
	char *out = capture(write_snapshot, s);

	assert_non_null(strstr(out, "{\"schema\":1,\"t_ns\":5000000000,\"interval_ns\":2000000000,"
				    "\"kernel\":\"6.18.0\",\"nodes\":[0],\"lruvecs\":[{"));
	assert_non_null(strstr(out, "\"memcg\":\"/lrs,\\\"odd\\\"\",\"memcg_id\":12"));
	assert_non_null(strstr(out, "\"lock\":\"0xffff888100229298\""));
	assert_non_null(strstr(out, "\"contended\":120,\"wait_ns\":4512000,\"wait_max_ns\":90000,"
				    "\"hist\":[0,0,0,0,0,0,0,0,0,0,0,0,120]"));
	assert_non_null(strstr(out, "\"lru_pages\":{\"inactive_anon\":0,\"active_anon\":0,"
				    "\"inactive_file\":0,\"active_file\":77,\"unevictable\":0}"));
	assert_non_null(strstr(out, "\"other_locks\":[{\"name\":\"zone N0/Normal\""));
	assert_non_null(strstr(
		out,
		"\"drops\":{\"task\":0,\"stack\":0,\"stats_full\":0,\"insert_failed\":0,\"negative_time\":0}"));
	free(out);
	/* the task drops' causes, where the collector gave them, after their sum */
	s->drops = (struct lrs_drops){ .task = 3, .task_unmatched = 2, .task_lost = 1 };
	out = capture(write_snapshot, s);
	assert_non_null(strstr(out, "\"drops\":{\"task\":3,\"task_nested\":0,\"task_unmatched\":2,"
				    "\"task_no_room\":0,\"task_lost\":1,\"stack\":0,"));
	/* one snapshot, one line: the recording format */
	assert_ptr_equal(strchr(out, '\n'), out + strlen(out) - 1);
	free(out);
	lrs_snapshot__free(s);
}

struct report_arg {
	struct lrs_snapshot *snap;
	enum lrs_report_format format;
};

static void write_report(FILE *f, void *arg)
{
	struct report_arg *ra = arg;
	struct lrs_report_opts o = { .format = ra->format, .max_other_locks = 5 };

	lrs_report__write(ra->snap, &o, f);
}

static void test_report_text_and_csv(void **state)
{
	struct report_arg ra = { .snap = small_snapshot(), .format = LRS_REPORT_TEXT };
	char *text = capture(write_report, &ra), *csv;

	assert_non_null(strstr(text, "2.0 s on Linux 6.18.0, 1 node, 1 memcgs, 1 lruvecs"));
	if (!strstr(text, "lruvec locks: 120 contended, 4.5ms wait") ||
	    !strstr(text, "       120        4.5ms       90.0us       37.6us     spinlock   "
			  "/lrs,\"odd\"@N0\n"))
		fail_msg("report text:\n%s", text);
	assert_non_null(strstr(text, "zone N0/Normal  [0xffff88863ffd6b08]"));
	assert_non_null(strstr(text, "\ndrops: task 0, stack 0, stats_full 0, insert_failed 0, "
				     "negative_time 0\n"));
	/* a collector that says why its task drops were: the causes beside their sum */
	ra.snap->drops = (struct lrs_drops){ .task = 10,
					     .task_nested = 1,
					     .task_unmatched = 6,
					     .task_no_room = 2,
					     .task_lost = 1,
					     .stack = 4 };
	free(text);
	text = capture(write_report, &ra);
	assert_non_null(strstr(text, "\ndrops: task 10 (nested 1, unmatched 6, no room 2, lost 1), "
				     "stack 4, stats_full 0, insert_failed 0, negative_time 0\n"));
	ra.format = LRS_REPORT_CSV;
	csv = capture(write_report, &ra);
	assert_non_null(strstr(
		csv,
		"lruvec,\"/lrs,\"\"odd\"\"\",0,0xffff888100229298,spinlock,120,4512000,90000,37600\n"));
	assert_non_null(strstr(
		csv, "other,\"zone N0/Normal\",-1,0xffff88863ffd6b08,spinlock,3,9000,0,3000\n"));
	free(text);
	free(csv);
	lrs_snapshot__free(ra.snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cgroup_root_parse),
		cmocka_unit_test(test_cgroup_root_parse_picks),
		cmocka_unit_test(test_cgroup_root_detect_on_this_machine),
		cmocka_unit_test(test_ksyms),
		cmocka_unit_test(test_ksyms_on_this_kernel),
		cmocka_unit_test(test_node_list),
		cmocka_unit_test(test_json_writer),
		cmocka_unit_test(test_snapshot_json_schema_fields),
		cmocka_unit_test(test_report_text_and_csv),
	};

	return cmocka_run_group_tests_name("sources", tests, NULL, NULL);
}

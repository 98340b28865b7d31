// SPDX-License-Identifier: GPL-2.0
/*
 * The lruvec table from the cgroup file system (collector/live/memcg_table_fs.c)
 * against fake hierarchies the test makes under /tmp: memory.numa_stat as 5.10
 * writes it on v2 (bytes per LRU list) and on v1 (pages of file, anon and
 * unevictable, split by memory.stat), tree order, paths, ids.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "collector/live/memcg_table_fs.h"

#define NODES 3

/* 5.10's v2 memory.numa_stat (two nodes with memory: 0 and 2), in 4 KiB pages times mul */
static void v2_numa_stat(char *buf, size_t len, size_t page, uint64_t mul)
{
	snprintf(buf, len,
		 "anon N0=%zu N2=0\nfile N0=%zu N2=%zu\nkernel_stack N0=0 N2=0\n"
		 "inactive_anon N0=%zu N2=0\nactive_anon N0=%zu N2=0\n"
		 "inactive_file N0=%zu N2=%zu\nactive_file N0=%zu N2=%zu\n"
		 "unevictable N0=0 N2=%zu\nworkingset_refault_file N0=999 N2=999\n",
		 (size_t)(3 * mul * page), (size_t)(7 * mul * page), (size_t)(11 * mul * page),
		 (size_t)(1 * mul * page), (size_t)(2 * mul * page), (size_t)(4 * mul * page),
		 (size_t)(5 * mul * page), (size_t)(3 * mul * page), (size_t)(6 * mul * page),
		 (size_t)(9 * mul * page));
}

struct tree {
	char root[64];
};

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const struct tree *t, const char *rel, char *out, size_t len)
{
	snprintf(out, len, "%s%s", t->root, rel);
	if (rel[0])
		assert_int_equal(mkdir(out, 0755), 0);
}

/* a v2 memcg directory rel with its memory.numa_stat, the pattern times mul */
static void v2_memcg(const struct tree *t, const char *rel, size_t page, uint64_t mul)
{
	char d[512], text[1024];

	dir(t, rel, d, sizeof(d));
	v2_numa_stat(text, sizeof(text), page, mul);
	put(d, "memory.numa_stat", text);
}

static void rm_tree(const char *path)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	assert_int_equal(system(cmd), 0);
}

static uint64_t ino(const struct tree *t, const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", t->root, rel);
	assert_int_equal(stat(path, &st), 0);
	return st.st_ino;
}

static const struct lrs_lruvec_info *lruvec(const struct lrs_lruvec_table *t, size_t memcg,
					    int node)
{
	for (size_t i = 0; i < t->nr_lruvecs; i++)
		if (t->lruvecs[i].memcg == memcg && t->lruvecs[i].node == node)
			return &t->lruvecs[i];
	return NULL;
}

/*
 * v2: /, /b, /b/x, /a (no numa_stat: removed under the walk), /c, /c/y, a file that is no
 * memcg. v2 counts descendants in a memcg's numa_stat: / 100 times the pattern, /b 3, /b/x 2
 * (/b's own: 1), /c 1 and /c/y 2 (read moments apart: /c's own is 0, not below).
 */
static void test_v2_tree(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct tree t;
	struct lrs_cgroup_root root = { .version = 2 };
	struct lrs_lruvec_table table;
	const struct lrs_lruvec_info *li;
	char d[512];

	snprintf(t.root, sizeof(t.root), "/tmp/lrs-test-memcgfs.XXXXXX");
	assert_non_null(mkdtemp(t.root));
	v2_memcg(&t, "", page, 100);
	put(t.root, "cgroup.procs", "1\n");
	v2_memcg(&t, "/b", page, 3);
	v2_memcg(&t, "/b/x", page, 2);
	dir(&t, "/a", d, sizeof(d));
	v2_memcg(&t, "/c", page, 1);
	v2_memcg(&t, "/c/y", page, 2);
	snprintf(root.path, sizeof(root.path), "%s", t.root);

	assert_int_equal(lrs_memcg_table_fs__read(&root, NODES, &table), 0);
	assert_int_equal(table.nr_memcgs, 6);
	/* pre-order, children by name */
	assert_string_equal(table.memcgs[0].path, "/");
	assert_string_equal(table.memcgs[1].path, "/a");
	assert_string_equal(table.memcgs[2].path, "/b");
	assert_string_equal(table.memcgs[3].path, "/b/x");
	assert_string_equal(table.memcgs[4].path, "/c");
	assert_string_equal(table.memcgs[5].path, "/c/y");
	assert_int_equal(table.memcgs[0].level, 0);
	assert_int_equal(table.memcgs[3].level, 2);
	assert_int_equal(table.memcgs[0].cgid, ino(&t, ""));
	assert_int_equal(table.memcgs[0].parent_cgid, 0);
	assert_int_equal(table.memcgs[3].cgid, ino(&t, "/b/x"));
	assert_int_equal(table.memcgs[3].parent_cgid, ino(&t, "/b"));
	assert_false(table.memcgs[1].dying);

	/* nodes 0 and 2 for all but /a; node 1 has no memory */
	assert_int_equal(table.nr_lruvecs, 10);
	assert_null(lruvec(&table, 1, 0));
	assert_null(lruvec(&table, 2, 1));
	li = lruvec(&table, 2, 0);
	assert_non_null(li);
	assert_int_equal(li->lru_pages[LRS_INACTIVE_ANON], 1);
	assert_int_equal(li->lru_pages[LRS_ACTIVE_ANON], 2);
	assert_int_equal(li->lru_pages[LRS_INACTIVE_FILE], 4);
	assert_int_equal(li->lru_pages[LRS_ACTIVE_FILE], 3);
	assert_int_equal(li->lru_pages[LRS_UNEVICTABLE], 0);
	assert_int_equal(li->lock_addr, 0);
	li = lruvec(&table, 3, 2);
	assert_non_null(li);
	assert_int_equal(li->lru_pages[LRS_INACTIVE_FILE], 10);
	assert_int_equal(li->lru_pages[LRS_ACTIVE_FILE], 12);
	assert_int_equal(li->lru_pages[LRS_UNEVICTABLE], 18);
	assert_int_equal(lruvec(&table, 0, 0)->lru_pages[LRS_ACTIVE_ANON], (100 - 3 - 1) * 2);
	assert_int_equal(lruvec(&table, 0, 2)->lru_pages[LRS_UNEVICTABLE], (100 - 3 - 1) * 9);
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
		assert_int_equal(lruvec(&table, 4, 2)->lru_pages[l], 0);
	assert_int_equal(lruvec(&table, 5, 2)->lru_pages[LRS_UNEVICTABLE], 18);
	/* lruvecs by memcg, then node, as the iterator's table has them */
	for (size_t i = 1; i < table.nr_lruvecs; i++)
		assert_true(table.lruvecs[i - 1].memcg < table.lruvecs[i].memcg ||
			    (table.lruvecs[i - 1].memcg == table.lruvecs[i].memcg &&
			     table.lruvecs[i - 1].node < table.lruvecs[i].node));
	assert_int_equal(table.nr_nodes, 2);
	assert_int_equal(table.nodes[0].node, 0);
	assert_int_equal(table.nodes[1].node, 2);
	assert_int_equal(table.nodes[1].node_lruvec_lock, 0);
	assert_int_equal(table.nr_born, 0);
	lrs_lruvec_table__clear(&table);

	/* with one possible node, node 2 is out of range: left out */
	assert_int_equal(lrs_memcg_table_fs__read(&root, 1, &table), 0);
	assert_int_equal(table.nr_lruvecs, 5);
	assert_int_equal(table.nr_nodes, 1);
	lrs_lruvec_table__clear(&table);
	rm_tree(t.root);
}

/* 5.10's v1: pages per node of file, anon, unevictable; memory.stat splits them. */
static void test_v1_tree(void **state)
{
	struct tree t;
	struct lrs_cgroup_root root = { .version = 1 };
	struct lrs_lruvec_table table;
	const struct lrs_lruvec_info *li;
	char d[512];

	snprintf(t.root, sizeof(t.root), "/tmp/lrs-test-memcgfs.XXXXXX");
	assert_non_null(mkdtemp(t.root));
	dir(&t, "", d, sizeof(d));
	put(d, "memory.numa_stat",
	    "total=8778 N0=4407 N1=4421\nfile=0 N0=21 N1=9\n"
	    "anon=8778 N0=4386 N1=4412\nunevictable=0 N0=0 N1=0\nhierarchical_total=1 N0=1 N1=0\n"
	    "hierarchical_file=5 N0=5 N1=0\nhierarchical_anon=0 N0=0 N1=0\n"
	    "hierarchical_unevictable=0 N0=0 N1=0\n");
	put(d, "memory.stat", "cache 0\nrss 0\n"); /* no LRU lines: all inactive */
	dir(&t, "/lrs-test-shared", d, sizeof(d));
	put(d, "memory.numa_stat",
	    "total=1980 N0=545 N1=1463\nfile=1977 N0=544 N1=1461\n"
	    "anon=3 N0=1 N1=2\nunevictable=4 N0=0 N1=4\nhierarchical_total=1977 N0=541 N1=1443\n"
	    "hierarchical_file=1977 N0=541 N1=1443\nhierarchical_anon=0 N0=0 N1=0\n"
	    "hierarchical_unevictable=0 N0=0 N1=0\n");
	/* file: 1 inactive for 3 active; anon: all active */
	put(d, "memory.stat",
	    "cache 8097792\nrss 0\ninactive_anon 0\nactive_anon 12288\n"
	    "inactive_file 2024448\nactive_file 6073344\nunevictable 16384\n"
	    "total_inactive_file 99999999\ntotal_active_file 1\n");
	snprintf(root.path, sizeof(root.path), "%s", t.root);

	assert_int_equal(lrs_memcg_table_fs__read(&root, 2, &table), 0);
	assert_int_equal(table.nr_memcgs, 2);
	assert_string_equal(table.memcgs[1].path, "/lrs-test-shared");
	assert_int_equal(table.memcgs[1].cgid, ino(&t, "/lrs-test-shared"));
	assert_int_equal(table.nr_lruvecs, 4);
	li = lruvec(&table, 0, 0);
	assert_int_equal(li->lru_pages[LRS_INACTIVE_ANON], 4386);
	assert_int_equal(li->lru_pages[LRS_ACTIVE_ANON], 0);
	assert_int_equal(li->lru_pages[LRS_INACTIVE_FILE], 21);
	li = lruvec(&table, 1, 1);
	assert_int_equal(li->lru_pages[LRS_INACTIVE_FILE], 1461 / 4);
	assert_int_equal(li->lru_pages[LRS_ACTIVE_FILE], 1461 - 1461 / 4);
	assert_int_equal(li->lru_pages[LRS_INACTIVE_ANON], 0);
	assert_int_equal(li->lru_pages[LRS_ACTIVE_ANON], 2);
	assert_int_equal(li->lru_pages[LRS_UNEVICTABLE], 4);
	lrs_lruvec_table__clear(&table);
	rm_tree(t.root);
}

static void test_parse_edges(void **state)
{
	uint64_t pages[2 * LRS_NR_LRU_LISTS];
	bool present[2];

	/* nothing about any node */
	assert_int_equal(lrs_numa_stat__parse("", NULL, 2, 4096, 2, pages, present), -EINVAL);
	assert_int_equal(lrs_numa_stat__parse("anon N0=4096\n", NULL, 2, 4096, 2, pages, present),
			 -EINVAL); /* not an LRU list */
	/* no newline at the end; a key that only starts like a list's is not it */
	assert_int_equal(lrs_numa_stat__parse("inactive_filex N0=4096\ninactive_file N1=8192", NULL,
					      2, 4096, 2, pages, present),
			 0);
	assert_false(present[0]);
	assert_true(present[1]);
	assert_int_equal(pages[LRS_NR_LRU_LISTS + LRS_INACTIVE_FILE], 2);
	assert_int_equal(pages[LRS_INACTIVE_FILE], 0);
	/* v1: hierarchical_ lines are not the memcg's own */
	assert_int_equal(lrs_numa_stat__parse("hierarchical_file=9 N0=9\n", "", 1, 4096, 2, pages,
					      present),
			 -EINVAL);
}

static void test_errors(void **state)
{
	struct lrs_cgroup_root root = { .version = 2, .path = "/tmp/lrs-test-memcgfs-none" };
	struct lrs_lruvec_table table;

	assert_int_equal(lrs_memcg_table_fs__read(&root, 2, &table), -ENOENT);
	assert_int_equal(table.nr_memcgs, 0);
	root.version = 3;
	assert_int_equal(lrs_memcg_table_fs__read(&root, 2, &table), -EINVAL);
}

/* This machine's own hierarchy, read only: the root first, ids its directories' inodes. */
static void test_this_machine(void **state)
{
	struct lrs_cgroup_root root;
	struct lrs_lruvec_table table;
	struct stat st;

	if (lrs_cgroup_root__detect(&root)) {
		skip(); /* no memory cgroup mounted at all */
		return;
	}
	assert_int_equal(lrs_memcg_table_fs__read(&root, 1, &table), 0);
	assert_true(table.nr_memcgs >= 1);
	assert_string_equal(table.memcgs[0].path, "/");
	assert_int_equal(stat(root.path, &st), 0);
	assert_int_equal(table.memcgs[0].cgid, st.st_ino);
	for (size_t i = 1; i < table.nr_memcgs; i++)
		assert_true(table.memcgs[i].level >= 1 && table.memcgs[i].cgid != 0);
	lrs_lruvec_table__clear(&table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2_tree),	     cmocka_unit_test(test_v1_tree),
		cmocka_unit_test(test_parse_edges),  cmocka_unit_test(test_errors),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector/live/memcg_table_fs.h"

/* v2's memory.numa_stat names each LRU list as the kernel's enum lru_list does. */
static const char *const v2_lists[LRS_NR_LRU_LISTS] = {
	[LRS_INACTIVE_ANON] = "inactive_anon", [LRS_ACTIVE_ANON] = "active_anon",
	[LRS_INACTIVE_FILE] = "inactive_file", [LRS_ACTIVE_FILE] = "active_file",
	[LRS_UNEVICTABLE] = "unevictable",
};

/* v1's per-node lines: the sums of the lists of one kind, in pages. */
enum v1_kind { V1_FILE, V1_ANON, V1_UNEVICTABLE, V1_NR_KINDS };
static const char *const v1_kinds[V1_NR_KINDS] = { "file", "anon", "unevictable" };

/* Does line start with key, followed by end (' ' on v2, '=' on v1)? */
static bool line_is(const char *line, const char *key, char end)
{
	size_t n = strlen(key);

	return !strncmp(line, key, n) && line[n] == end;
}

/* The "N<node>=<value>" words of one line into vals[node] for nodes below nr_nodes. */
static void node_values(const char *p, const char *eol, unsigned int nr_nodes, uint64_t *vals,
			bool *present)
{
	while (p < eol) {
		char *end;
		unsigned long node;
		unsigned long long v;

		p = strstr(p, " N");
		if (!p || p >= eol)
			return;
		p += 2;
		node = strtoul(p, &end, 10);
		if (end == p || *end != '=')
			continue;
		p = end + 1;
		v = strtoull(p, &end, 10);
		if (end == p)
			continue;
		p = end;
		if (node < nr_nodes) {
			vals[node] = v;
			present[node] = true;
		}
	}
}

/* memory.stat's "key value" line, or 0 when absent. */
static uint64_t stat_value(const char *text, const char *key)
{
	for (const char *line = text; line && *line;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (line_is(line, key, ' '))
			return strtoull(line + strlen(key) + 1, NULL, 10);
	return 0;
}

/* total pages split as inactive : active is in memory.stat (bytes or pages: a ratio). */
static void split(uint64_t total, uint64_t inactive, uint64_t active, uint64_t *out_inactive,
		  uint64_t *out_active)
{
	unsigned __int128 part = inactive + active ?
					 (unsigned __int128)total * inactive / (inactive + active) :
					 total;

	*out_inactive = (uint64_t)part;
	*out_active = total - (uint64_t)part;
}

int lrs_numa_stat__parse(const char *numa_stat, const char *stat_text, int version,
			 size_t page_size, unsigned int nr_nodes, uint64_t *pages, bool *present)
{
	uint64_t *vals = calloc(nr_nodes ? nr_nodes : 1, sizeof(*vals) * V1_NR_KINDS);
	bool any = false;

	if (!vals)
		return -ENOMEM;
	memset(pages, 0, sizeof(*pages) * nr_nodes * LRS_NR_LRU_LISTS);
	memset(present, 0, sizeof(*present) * nr_nodes);
	for (const char *line = numa_stat; line && *line;) {
		const char *eol = strchr(line, '\n');

		if (!eol)
			eol = line + strlen(line);
		for (int l = 0; version == 2 && l < LRS_NR_LRU_LISTS; l++) {
			if (!line_is(line, v2_lists[l], ' '))
				continue;
			node_values(line, eol, nr_nodes, vals, present);
			for (unsigned int n = 0; n < nr_nodes; n++)
				pages[n * LRS_NR_LRU_LISTS + l] = page_size ? vals[n] / page_size :
									      0;
			memset(vals, 0, sizeof(*vals) * nr_nodes);
		}
		for (int k = 0; version == 1 && k < V1_NR_KINDS; k++)
			if (line_is(line, v1_kinds[k], '='))
				node_values(line, eol, nr_nodes, vals + (size_t)k * nr_nodes,
					    present);
		line = *eol ? eol + 1 : NULL;
	}
	if (version == 1) {
		const char *s = stat_text ? stat_text : "";
		uint64_t ia = stat_value(s, "inactive_anon"), aa = stat_value(s, "active_anon");
		uint64_t ifl = stat_value(s, "inactive_file"), af = stat_value(s, "active_file");

		for (unsigned int n = 0; n < nr_nodes; n++) {
			uint64_t *p = pages + (size_t)n * LRS_NR_LRU_LISTS;

			split(vals[V1_ANON * nr_nodes + n], ia, aa, &p[LRS_INACTIVE_ANON],
			      &p[LRS_ACTIVE_ANON]);
			split(vals[V1_FILE * nr_nodes + n], ifl, af, &p[LRS_INACTIVE_FILE],
			      &p[LRS_ACTIVE_FILE]);
			p[LRS_UNEVICTABLE] = vals[V1_UNEVICTABLE * nr_nodes + n];
		}
	}
	free(vals);
	for (unsigned int n = 0; n < nr_nodes; n++)
		any |= present[n];
	return any ? 0 : -EINVAL;
}

/* A whole cgroup file, NUL-terminated (their size is not known before reading). */
static int read_at(int dirfd, const char *name, char **out)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	size_t len = 0, cap = 4096;
	char *buf;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	while (buf) {
		ssize_t n = read(fd, buf + len, cap - len - 1);

		if (n < 0) {
			int err = -errno;

			free(buf);
			close(fd);
			return err;
		}
		if (!n)
			break;
		len += (size_t)n;
		if (len + 1 == cap) {
			char *bigger = realloc(buf, cap *= 2);

			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	close(fd);
	if (!buf)
		return -ENOMEM;
	buf[len] = 0;
	*out = buf;
	return 0;
}

struct fs_walk {
	struct lrs_lruvec_table *t;
	size_t cap_memcgs, cap_lruvecs;
	int version;
	size_t page_size;
	unsigned int nr_nodes;
	uint64_t *pages; /* one memcg's: nr_nodes x LRS_NR_LRU_LISTS */
	bool *present;
	bool *node_seen; /* any memcg's */
	size_t *parent;	 /* by memcg: its parent's index, SIZE_MAX for the root */
	size_t cap_parent;
};

static int grow(void **arr, size_t *cap, size_t nr, size_t size)
{
	void *bigger;

	if (nr < *cap)
		return 0;
	bigger = realloc(*arr, (*cap ? *cap * 2 : 64) * size);
	if (!bigger)
		return -ENOMEM;
	*arr = bigger;
	*cap = *cap ? *cap * 2 : 64;
	return 0;
}

/* A memcg removed under the walk: its files read as missing (or gone, ENODEV). */
static bool gone(int err)
{
	return err == -ENOENT || err == -ENODEV;
}

static int add_lruvecs(struct fs_walk *w, int dirfd, size_t memcg)
{
	char *numa = NULL, *stat = NULL;
	int err = read_at(dirfd, "memory.numa_stat", &numa);

	if (!err && w->version == 1)
		err = read_at(dirfd, "memory.stat", &stat);
	if (!err)
		err = lrs_numa_stat__parse(numa, stat, w->version, w->page_size, w->nr_nodes,
					   w->pages, w->present);
	free(numa);
	free(stat);
	if (gone(err) || err == -EINVAL)
		return 0; /* no lruvecs known: none listed, never zeros */
	for (unsigned int n = 0; !err && n < w->nr_nodes; n++) {
		struct lrs_lruvec_info *li;

		if (!w->present[n])
			continue;
		err = grow((void **)&w->t->lruvecs, &w->cap_lruvecs, w->t->nr_lruvecs, sizeof(*li));
		if (err)
			break;
		li = &w->t->lruvecs[w->t->nr_lruvecs++];
		memset(li, 0, sizeof(*li));
		li->memcg = memcg;
		li->node = (int)n;
		memcpy(li->lru_pages, w->pages + (size_t)n * LRS_NR_LRU_LISTS,
		       sizeof(li->lru_pages));
		w->node_seen[n] = true;
	}
	return err;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of dirfd's subdirectories, sorted (a stable order from one read to the next). */
static int subdirs(int dirfd, char ***out, size_t *nr)
{
	int fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	size_t cap = 0;
	struct dirent *e;
	int err = 0;

	*out = NULL;
	*nr = 0;
	if (!d) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return err;
	}
	while (!err && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type != DT_DIR &&
		    (e->d_type != DT_UNKNOWN ||
		     fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode)))
			continue;
		err = grow((void **)out, &cap, *nr, sizeof(**out));
		if (!err && !((*out)[*nr] = strdup(e->d_name)))
			err = -ENOMEM;
		if (!err)
			(*nr)++;
	}
	closedir(d);
	if (*nr > 1) /* *out is NULL when there are none */
		qsort(*out, *nr, sizeof(**out), cmp_name);
	return err;
}

static int add_memcg(struct fs_walk *w, int dirfd, const char *name, size_t parent, int level);

static int walk_children(struct fs_walk *w, int dirfd, size_t self, int level)
{
	char **names;
	size_t nr;
	int err = subdirs(dirfd, &names, &nr);

	for (size_t i = 0; !err && i < nr; i++) {
		int fd = openat(dirfd, names[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (fd < 0) {
			err = gone(-errno) ? 0 : -errno;
			continue;
		}
		err = add_memcg(w, fd, names[i], self, level);
		close(fd);
	}
	for (size_t i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return gone(err) ? 0 : err;
}

/* parent: index of the parent memcg, SIZE_MAX for the root. */
static int add_memcg(struct fs_walk *w, int dirfd, const char *name, size_t parent, int level)
{
	struct lrs_lruvec_table *t = w->t;
	struct lrs_memcg_info *mi;
	struct stat st;
	size_t self;
	int err;

	if (fstat(dirfd, &st))
		return -errno;
	err = grow((void **)&t->memcgs, &w->cap_memcgs, t->nr_memcgs, sizeof(*mi));
	if (err)
		return err;
	mi = &t->memcgs[t->nr_memcgs];
	memset(mi, 0, sizeof(*mi));
	mi->cgid = st.st_ino; /* kn->id: see the header */
	mi->parent_cgid = parent == SIZE_MAX ? 0 : t->memcgs[parent].cgid;
	mi->level = level;
	mi->path = lrs_memcg_child_path(parent == SIZE_MAX ? NULL : t->memcgs[parent].path, name);
	if (!mi->path)
		return -ENOMEM;
	err = grow((void **)&w->parent, &w->cap_parent, t->nr_memcgs, sizeof(*w->parent));
	if (err) {
		free(mi->path);
		return err;
	}
	w->parent[t->nr_memcgs] = parent;
	self = t->nr_memcgs++;
	err = add_lruvecs(w, dirfd, self);
	return err ? err : walk_children(w, dirfd, self, level + 1);
}

/*
 * v2's memory.numa_stat counts a memcg's descendants' pages too (5.10 as today; v1's plain
 * lines are the memcg's own): subtract each child's from its parent, as the iterator reads
 * a lruvec's own lists. Reads of parent and child are moments apart: a difference below 0
 * is 0.
 */
static int own_pages(struct fs_walk *w)
{
	struct lrs_lruvec_table *t = w->t;
	size_t *index = malloc(sizeof(*index) * (t->nr_memcgs ? t->nr_memcgs : 1) * w->nr_nodes);
	int64_t *own = calloc(t->nr_lruvecs ? t->nr_lruvecs : 1, sizeof(*own) * LRS_NR_LRU_LISTS);
	int err = index && own ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < t->nr_memcgs * w->nr_nodes; i++)
		index[i] = SIZE_MAX;
	for (size_t i = 0; !err && i < t->nr_lruvecs; i++) {
		index[t->lruvecs[i].memcg * w->nr_nodes + (size_t)t->lruvecs[i].node] = i;
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
			own[i * LRS_NR_LRU_LISTS + l] = (int64_t)t->lruvecs[i].lru_pages[l];
	}
	for (size_t i = 0; !err && i < t->nr_lruvecs; i++) {
		const struct lrs_lruvec_info *li = &t->lruvecs[i];
		size_t p = w->parent[li->memcg], pi;

		if (p == SIZE_MAX || (pi = index[p * w->nr_nodes + (size_t)li->node]) == SIZE_MAX)
			continue;
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
			own[pi * LRS_NR_LRU_LISTS + l] -= (int64_t)li->lru_pages[l];
	}
	for (size_t i = 0; !err && i < t->nr_lruvecs; i++)
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++) {
			int64_t v = own[i * LRS_NR_LRU_LISTS + l];

			t->lruvecs[i].lru_pages[l] = v > 0 ? (uint64_t)v : 0;
		}
	free(index);
	free(own);
	return err;
}

int lrs_memcg_table_fs__read(const struct lrs_cgroup_root *root, unsigned int nr_nodes,
			     struct lrs_lruvec_table *out)
{
	struct fs_walk w = {
		.t = out,
		.version = root->version,
		.page_size = (size_t)sysconf(_SC_PAGESIZE),
		.nr_nodes = nr_nodes,
	};
	int fd, err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!nr_nodes || (root->version != 1 && root->version != 2))
		return -EINVAL;
	fd = open(root->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w.pages = calloc(nr_nodes, sizeof(*w.pages) * LRS_NR_LRU_LISTS);
	w.present = calloc(nr_nodes, sizeof(*w.present));
	w.node_seen = calloc(nr_nodes, sizeof(*w.node_seen));
	if (w.pages && w.present && w.node_seen)
		err = add_memcg(&w, fd, "", SIZE_MAX, 0);
	close(fd);
	if (!err && root->version == 2)
		err = own_pages(&w);
	if (!err && !(out->nodes = calloc(nr_nodes, sizeof(*out->nodes))))
		err = -ENOMEM;
	for (unsigned int n = 0; !err && n < nr_nodes; n++)
		if (w.node_seen[n])
			out->nodes[out->nr_nodes++].node = (int)n; /* locks unknown: 0 */
	free(w.pages);
	free(w.present);
	free(w.node_seen);
	free(w.parent);
	if (err)
		lrs_lruvec_table__clear(out);
	return err;
}

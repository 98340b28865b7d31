// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collector/live/memcg_paths.h"

void lrs_path_memory__init(struct lrs_path_memory *pm)
{
	memset(pm, 0, sizeof(*pm));
	u64map__init(&pm->index);
}

void lrs_path_memory__destroy(struct lrs_path_memory *pm)
{
	for (size_t i = 0; i < pm->nr; i++)
		free(pm->paths[i]);
	free(pm->paths);
	u64map__destroy(&pm->index);
	memset(pm, 0, sizeof(*pm));
}

/* A cgroup id names one cgroup for its whole life; its path changes only by a rename. */
static int remember(struct lrs_path_memory *pm, uint64_t cgid, const char *path)
{
	size_t i;
	char *copy;

	if (u64map__get(&pm->index, cgid, &i) && !strcmp(pm->paths[i], path))
		return 0;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	if (u64map__get(&pm->index, cgid, &i)) {
		free(pm->paths[i]);
		pm->paths[i] = copy;
		return 0;
	}
	if ((pm->nr & (pm->nr - 1)) == 0) {
		void *p = realloc(pm->paths, (pm->nr ? pm->nr * 2 : 16) * sizeof(*pm->paths));

		if (!p) {
			free(copy);
			return -ENOMEM;
		}
		pm->paths = p;
	}
	pm->paths[pm->nr] = copy;
	if (u64map__set(&pm->index, cgid, pm->nr)) {
		free(copy);
		return -ENOMEM;
	}
	pm->nr++;
	return 0;
}

const char *lrs_path_memory__get(const struct lrs_path_memory *pm, uint64_t cgid)
{
	size_t i;

	return u64map__get(&pm->index, cgid, &i) ? pm->paths[i] : NULL;
}

int lrs_path_memory__learn(struct lrs_path_memory *pm, const struct lrs_lruvec_table *table)
{
	for (size_t i = 0; i < table->nr_memcgs; i++)
		if (remember(pm, table->memcgs[i].cgid, table->memcgs[i].path))
			return -ENOMEM;
	/* born parents first (the table sorts them by level): a child finds its parent's path */
	for (size_t i = 0; i < table->nr_born; i++) {
		const struct lrs_memcg_born *b = &table->born[i];
		const char *parent = b->level > 0 ? lrs_path_memory__get(pm, b->parent_cgid) : NULL;
		char *path;
		int err;

		path = lrs_memcg_child_path(b->level > 0 ? (parent ? parent : "/?") : NULL,
					    b->name);
		if (!path)
			return -ENOMEM;
		err = remember(pm, b->cgid, path);
		free(path);
		if (err)
			return err;
	}
	return 0;
}

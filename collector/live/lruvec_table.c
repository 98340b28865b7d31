// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collector/live/bpf_map_read.h"
#include "collector/live/lruvec_table.h"
#include "model/u64map.h"
#include "bpf/lruvec_iter.h"
#include "lruvec_iter.skel.h"

void lrs_lruvec_table__clear(struct lrs_lruvec_table *t)
{
	for (size_t i = 0; i < t->nr_memcgs; i++)
		free(t->memcgs[i].path);
	for (size_t i = 0; i < t->nr_born; i++)
		free(t->born[i].name);
	free(t->memcgs);
	free(t->born);
	free(t->lruvecs);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

char *lrs_memcg_child_path(const char *parent, const char *name)
{
	char *p;

	if (!parent)
		return strdup("/");
	if (asprintf(&p, "%s%s%s", parent, strcmp(parent, "/") ? "/" : "", name) < 0)
		return NULL;
	return p;
}

static const struct lrs_lruvec_raw *sort_raw; /* qsort has no context argument */

static int cmp_order(const void *a, const void *b)
{
	uint64_t x = sort_raw->memcgs[*(const size_t *)a].order;
	uint64_t y = sort_raw->memcgs[*(const size_t *)b].order;

	return x < y ? -1 : x > y;
}

static int cmp_born(const void *a, const void *b)
{
	const struct lrs_memcg_born *x = a, *y = b;

	if (x->level != y->level)
		return x->level - y->level;
	return x->cgid < y->cgid ? -1 : x->cgid > y->cgid;
}

/* Memcgs born since the last read, parents first: a child's path needs its parent's. */
static int build_born(const struct lrs_lruvec_raw *raw, struct lrs_lruvec_table *t)
{
	t->born = calloc(raw->nr_born ? raw->nr_born : 1, sizeof(*t->born));
	if (!t->born)
		return -ENOMEM;
	for (size_t i = 0; i < raw->nr_born; i++) {
		const struct memcg_rec *rec = &raw->born[i];
		struct lrs_memcg_born *b = &t->born[t->nr_born];

		b->name = strndup(rec->name, sizeof(rec->name));
		if (!b->name)
			return -ENOMEM;
		b->cgid = raw->born_ids[i];
		b->parent_cgid = rec->parent_cgid;
		b->level = (int)rec->level;
		t->nr_born++;
	}
	qsort(t->born, t->nr_born, sizeof(*t->born), cmp_born);
	return 0;
}

static int cmp_lruvec(const void *a, const void *b)
{
	const struct lrs_lruvec_info *x = a, *y = b;

	if (x->memcg != y->memcg)
		return x->memcg < y->memcg ? -1 : 1;
	return x->node - y->node;
}

int lrs_lruvec_table__build(const struct lrs_lruvec_raw *raw, struct lrs_lruvec_table *t)
{
	size_t *order = calloc(raw->nr_memcgs ? raw->nr_memcgs : 1, sizeof(*order)), n = 0;
	struct u64map index;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	u64map__init(&index);
	if (!order)
		goto out;
	for (size_t i = 0; i < raw->nr_memcgs; i++)
		if (raw->memcgs[i].gen == raw->gen)
			order[n++] = i;
	/* the walk's order is pre-order: every parent before its children */
	sort_raw = raw;
	qsort(order, n, sizeof(*order), cmp_order);
	t->memcgs = calloc(n ? n : 1, sizeof(*t->memcgs));
	t->lruvecs = calloc(raw->nr_lruvecs ? raw->nr_lruvecs : 1, sizeof(*t->lruvecs));
	t->nodes = calloc(raw->nr_nodes ? raw->nr_nodes : 1, sizeof(*t->nodes));
	if (!t->memcgs || !t->lruvecs || !t->nodes)
		goto out;
	for (size_t k = 0; k < n; k++) {
		const struct memcg_rec *rec = &raw->memcgs[order[k]];
		struct lrs_memcg_info *mi = &t->memcgs[t->nr_memcgs];
		char name[LRUVEC_ITER_NAME_LEN];
		const char *ppath = NULL;
		size_t parent;

		memcpy(name, rec->name, sizeof(name));
		name[sizeof(name) - 1] = 0;
		if (rec->level > 0 && u64map__get(&index, rec->parent_cgid, &parent))
			ppath = t->memcgs[parent].path;
		else if (rec->level > 0)
			ppath = "/?"; /* parent not walked: shown, never misnamed */
		mi->cgid = raw->memcg_ids[order[k]];
		mi->parent_cgid = rec->level > 0 ? rec->parent_cgid : 0;
		mi->level = (int)rec->level;
		mi->dying = rec->flags & MEMCG_REC_DYING;
		mi->path = lrs_memcg_child_path(rec->level > 0 ? ppath : NULL, name);
		if (!mi->path || u64map__set(&index, mi->cgid, t->nr_memcgs))
			goto out;
		t->nr_memcgs++;
	}
	for (size_t i = 0; i < raw->nr_lruvecs; i++) {
		const struct lruvec_rec *rec = &raw->lruvecs[i];
		struct lrs_lruvec_info *li = &t->lruvecs[t->nr_lruvecs];
		size_t m;

		if (rec->gen != raw->gen || !u64map__get(&index, raw->lruvec_keys[i].cgid, &m))
			continue;
		li->memcg = m;
		li->node = (int)raw->lruvec_keys[i].node;
		li->lock_addr = rec->lock_addr;
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
			li->lru_pages[l] = rec->lru_pages[l];
		t->nr_lruvecs++;
	}
	qsort(t->lruvecs, t->nr_lruvecs, sizeof(*t->lruvecs), cmp_lruvec);
	for (size_t node = 0; node < raw->nr_nodes; node++) {
		const struct node_rec *rec = &raw->nodes[node];
		struct lrs_node_info *ni = &t->nodes[t->nr_nodes];

		if (rec->gen != raw->gen)
			continue; /* a node without memory, or not walked */
		ni->node = (int)node;
		ni->node_lruvec_lock = rec->node_lruvec_lock;
		ni->nr_zones = rec->nr_zones < LRS_MAX_ZONES ? rec->nr_zones : LRS_MAX_ZONES;
		for (size_t z = 0; z < ni->nr_zones; z++) {
			ni->zone_lock[z] = rec->zone_lock[z];
			memcpy(ni->zone_name[z], rec->zone_name[z], sizeof(ni->zone_name[z]));
			ni->zone_name[z][sizeof(ni->zone_name[z]) - 1] = 0;
		}
		t->nr_nodes++;
	}
	err = build_born(raw, t);
out:
	free(order);
	u64map__destroy(&index);
	if (err)
		lrs_lruvec_table__clear(t);
	return err;
}

struct lrs_lruvec_iter {
	struct lruvec_iter_bpf *skel;
	struct bpf_link *link;
	struct bpf_link *mkdir_link, *rename_link;
	char *names_unavailable;
	int root_fd;
	unsigned int nr_nodes;
};

/*
 * The mkdir and rename hooks, attached before the first walk: every memcg is
 * then either walked or recorded when created. Without them lruscope still
 * runs, and says that a short-lived memcg may be shown by id.
 */
static void attach_names(struct lrs_lruvec_iter *it)
{
	char buf[256];

	it->mkdir_link = bpf_program__attach(it->skel->progs.cgroup_mkdir);
	if (it->mkdir_link)
		it->rename_link = bpf_program__attach(it->skel->progs.cgroup_rename);
	if (it->mkdir_link && it->rename_link)
		return;
	snprintf(buf, sizeof(buf),
		 "memcg names: tp_btf/cgroup_%s did not attach (%s): a memcg "
		 "removed within an interval may be shown as cgroup-id:N",
		 it->mkdir_link ? "rename" : "mkdir", strerror(errno));
	it->names_unavailable = strdup(buf);
}

int lrs_lruvec_iter__prepare(const char *memcg_root, unsigned int nr_nodes, unsigned int max_memcgs,
			     struct lrs_lruvec_iter **out, char *err, size_t err_len)
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};
	struct lrs_lruvec_iter *it = calloc(1, sizeof(*it));
	int ret;

	if (!it)
		return -ENOMEM;
	it->root_fd = -1;
	it->nr_nodes = nr_nodes < LRUVEC_ITER_MAX_NODES ? nr_nodes : LRUVEC_ITER_MAX_NODES;
	it->root_fd = open(memcg_root, O_RDONLY | O_DIRECTORY);
	if (it->root_fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "lruvec iterator: cannot open the memory cgroup root %s: %s",
			 memcg_root, strerror(errno));
		goto fail;
	}
	it->skel = lruvec_iter_bpf__open();
	if (!it->skel) {
		ret = -errno;
		snprintf(err, err_len, "lruvec iterator: cannot open the BPF object: %s",
			 strerror(errno));
		goto fail;
	}
	it->skel->rodata->nr_nodes = it->nr_nodes;
	bpf_map__set_max_entries(it->skel->maps.memcgs, max_memcgs);
	bpf_map__set_max_entries(it->skel->maps.lruvecs, max_memcgs * it->nr_nodes);
	bpf_map__set_max_entries(it->skel->maps.memcg_names, max_memcgs);
	ret = lruvec_iter_bpf__load(it->skel);
	if (ret) {
		snprintf(
			err, err_len,
			"lruvec iterator: loading failed (%s): the kernel needs BPF cgroup iterators (6.1+) and memcg",
			strerror(-ret));
		goto fail;
	}
	linfo.cgroup.cgroup_fd = it->root_fd;
	linfo.cgroup.order = BPF_CGROUP_ITER_DESCENDANTS_PRE;
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	it->link = bpf_program__attach_iter(it->skel->progs.dump_lruvecs, &opts);
	if (!it->link) {
		ret = -errno;
		snprintf(err, err_len, "lruvec iterator: attaching to %s failed: %s", memcg_root,
			 strerror(errno));
		goto fail;
	}
	attach_names(it);
	*out = it;
	return 0;
fail:
	lrs_lruvec_iter__destroy(it);
	return ret;
}

/* Run one walk: the program fills the maps; its seq_file output is empty. */
static int walk(struct lrs_lruvec_iter *it)
{
	char buf[64];
	int fd = bpf_iter_create(bpf_link__fd(it->link)), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
	}
	close(fd);
	return ret;
}

/* Entries of an older walk are memcgs that are gone: drop them from the map. */
static void delete_stale(int fd, const void *keys, size_t key_size, const uint64_t *gens,
			 size_t stride, size_t nr, uint64_t gen)
{
	for (size_t i = 0; i < nr; i++)
		if (*(const uint64_t *)((const char *)gens + i * stride) != gen)
			bpf_map_delete_elem(fd, (const char *)keys + i * key_size);
}

int lrs_lruvec_iter__read(struct lrs_lruvec_iter *it, struct lrs_lruvec_table *table)
{
	struct lrs_lruvec_raw raw = { .nr_nodes = it->nr_nodes };
	void *mkeys = NULL, *mvals = NULL, *lkeys = NULL, *lvals = NULL, *bkeys = NULL,
	     *bvals = NULL;
	struct node_rec *nodes = calloc(it->nr_nodes, sizeof(*nodes));
	int ret;

	if (!nodes)
		return -ENOMEM;
	it->skel->bss->gen++;
	it->skel->bss->visited = 0;
	raw.gen = it->skel->bss->gen;
	ret = walk(it);
	if (!ret)
		ret = lrs_bpf_map__read_all(bpf_map__fd(it->skel->maps.memcgs), sizeof(uint64_t),
					    sizeof(struct memcg_rec), &mkeys, &mvals,
					    &raw.nr_memcgs);
	if (!ret)
		ret = lrs_bpf_map__read_all(bpf_map__fd(it->skel->maps.lruvecs),
					    sizeof(struct lruvec_key), sizeof(struct lruvec_rec),
					    &lkeys, &lvals, &raw.nr_lruvecs);
	/* after the walk: a memcg created during it is in one or the other, or both */
	if (!ret)
		ret = lrs_bpf_map__drain(bpf_map__fd(it->skel->maps.memcg_names), sizeof(uint64_t),
					 sizeof(struct memcg_rec), &bkeys, &bvals, &raw.nr_born);
	for (uint32_t node = 0; !ret && node < it->nr_nodes; node++)
		if (bpf_map_lookup_elem(bpf_map__fd(it->skel->maps.nodes), &node, &nodes[node]))
			ret = -errno;
	if (!ret) {
		raw.memcg_ids = mkeys;
		raw.memcgs = mvals;
		raw.lruvec_keys = lkeys;
		raw.lruvecs = lvals;
		raw.nodes = nodes;
		raw.born_ids = bkeys;
		raw.born = bvals;
		ret = lrs_lruvec_table__build(&raw, table);
		delete_stale(bpf_map__fd(it->skel->maps.memcgs), mkeys, sizeof(uint64_t), mvals,
			     sizeof(struct memcg_rec), raw.nr_memcgs, raw.gen);
		delete_stale(bpf_map__fd(it->skel->maps.lruvecs), lkeys, sizeof(struct lruvec_key),
			     lvals, sizeof(struct lruvec_rec), raw.nr_lruvecs, raw.gen);
	}
	free(mkeys);
	free(mvals);
	free(lkeys);
	free(lvals);
	free(bkeys);
	free(bvals);
	free(nodes);
	return ret;
}

const char *lrs_lruvec_iter__names_unavailable(const struct lrs_lruvec_iter *it)
{
	if (!it) /* no iterator (before 6.1): memcgs are read from cgroupfs at each interval */
		return "memcg names: one created and removed between two intervals goes unnamed (no cgroup iterator before 6.1)";
	return it->names_unavailable;
}

uint64_t lrs_lruvec_iter__read_faults(const struct lrs_lruvec_iter *it)
{
	return it ? it->skel->bss->read_faults : 0;
}

uint64_t lrs_lruvec_iter__map_full(const struct lrs_lruvec_iter *it)
{
	return it ? it->skel->bss->map_full : 0;
}

const struct bpf_object *lrs_lruvec_iter__object(const struct lrs_lruvec_iter *it)
{
	return it && it->skel ? it->skel->obj : NULL;
}

void lrs_lruvec_iter__destroy(struct lrs_lruvec_iter *it)
{
	if (!it)
		return;
	bpf_link__destroy(it->link);
	bpf_link__destroy(it->mkdir_link);
	bpf_link__destroy(it->rename_link);
	free(it->names_unavailable);
	lruvec_iter_bpf__destroy(it->skel);
	if (it->root_fd >= 0)
		close(it->root_fd);
	free(it);
}

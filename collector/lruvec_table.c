// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "lruvec_table.h"
#include "u64map.h"
#include "../bpf/lruvec_iter.h"
#include "lruvec_iter.skel.h"

void lrs_lruvec_table__clear(struct lrs_lruvec_table *t)
{
	for (size_t i = 0; i < t->nr_memcgs; i++)
		free(t->memcgs[i].path);
	free(t->memcgs);
	free(t->lruvecs);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

static char *child_path(const char *parent, const char *name)
{
	char *p;

	if (!parent)
		return strdup("/");
	if (asprintf(&p, "%s%s%s", parent, strcmp(parent, "/") ? "/" : "", name) < 0)
		return NULL;
	return p;
}

int lrs_lruvec_table__parse(const void *buf, size_t len, struct lrs_lruvec_table *t)
{
	const char *p = buf, *end = p + len;
	size_t cap_m = 0, cap_l = 0, cap_n = 0;
	struct u64map index;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	u64map__init(&index);
	while (p < end) {
		uint64_t first;

		if ((size_t)(end - p) < sizeof(first))
			goto bad;
		memcpy(&first, p, sizeof(first));
		if (first == NODE_REC_MAGIC) {
			struct node_rec nr;
			struct lrs_node_info *ni;

			if ((size_t)(end - p) < sizeof(nr))
				goto bad;
			memcpy(&nr, p, sizeof(nr));
			p += sizeof(nr);
			if (t->nr_nodes == cap_n) {
				cap_n = cap_n ? cap_n * 2 : 4;
				void *q = realloc(t->nodes, cap_n * sizeof(*t->nodes));
				if (!q)
					goto out;
				t->nodes = q;
			}
			ni = &t->nodes[t->nr_nodes++];
			memset(ni, 0, sizeof(*ni));
			ni->node = nr.node;
			ni->node_lruvec_lock = nr.node_lruvec_lock;
			ni->nr_zones = nr.nr_zones < LRS_MAX_ZONES ? nr.nr_zones : LRS_MAX_ZONES;
			for (size_t z = 0; z < ni->nr_zones; z++) {
				ni->zone_lock[z] = nr.zone_lock[z];
				memcpy(ni->zone_name[z], nr.zone_name[z], sizeof(ni->zone_name[z]));
				ni->zone_name[z][sizeof(ni->zone_name[z]) - 1] = 0;
			}
			continue;
		}

		struct lruvec_rec rec;
		size_t m;

		if ((size_t)(end - p) < sizeof(rec))
			goto bad;
		memcpy(&rec, p, sizeof(rec));
		p += sizeof(rec);
		rec.name[sizeof(rec.name) - 1] = 0;
		if (!u64map__get(&index, rec.cgid, &m)) {
			struct lrs_memcg_info *mi;
			size_t parent;
			const char *ppath = NULL;

			if (t->nr_memcgs == cap_m) {
				cap_m = cap_m ? cap_m * 2 : 64;
				void *q = realloc(t->memcgs, cap_m * sizeof(*t->memcgs));
				if (!q)
					goto out;
				t->memcgs = q;
			}
			/* pre-order: a parent always comes before its children */
			if (rec.level > 0 && u64map__get(&index, rec.parent_cgid, &parent))
				ppath = t->memcgs[parent].path;
			else if (rec.level > 0)
				ppath = "/?";	/* parent not walked: shown, never misnamed */
			m = t->nr_memcgs;
			mi = &t->memcgs[m];
			memset(mi, 0, sizeof(*mi));
			mi->cgid = rec.cgid;
			mi->parent_cgid = rec.level > 0 ? rec.parent_cgid : 0;
			mi->level = (int)rec.level;
			mi->dying = rec.flags & LRUVEC_REC_DYING;
			mi->path = child_path(rec.level > 0 ? ppath : NULL, rec.name);
			if (!mi->path || u64map__set(&index, rec.cgid, m))
				goto out;
			t->nr_memcgs++;
		}
		if (t->nr_lruvecs == cap_l) {
			cap_l = cap_l ? cap_l * 2 : 128;
			void *q = realloc(t->lruvecs, cap_l * sizeof(*t->lruvecs));
			if (!q)
				goto out;
			t->lruvecs = q;
		}
		struct lrs_lruvec_info *li = &t->lruvecs[t->nr_lruvecs++];

		li->memcg = m;
		li->node = rec.node;
		li->lock_addr = rec.lock_addr;
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
			li->lru_pages[l] = rec.lru_pages[l];
	}
	err = 0;
	goto out;
bad:
	err = -EBADMSG;
out:
	u64map__destroy(&index);
	if (err)
		lrs_lruvec_table__clear(t);
	return err;
}

const struct lrs_memcg_info *lrs_lruvec_table__memcg(const struct lrs_lruvec_table *t, uint64_t cgid)
{
	/* callers that look up many ids build their own index */
	for (size_t i = 0; i < t->nr_memcgs; i++)
		if (t->memcgs[i].cgid == cgid)
			return &t->memcgs[i];
	return NULL;
}

struct lrs_lruvec_iter {
	struct lruvec_iter_bpf *skel;
	struct bpf_link *link;
	int root_fd;
	char *buf;
	size_t cap;
};

int lrs_lruvec_iter__prepare(const char *memcg_root, unsigned int nr_nodes,
			     struct lrs_lruvec_iter **out, char *err, size_t err_len)
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};
	struct lrs_lruvec_iter *it = calloc(1, sizeof(*it));
	int ret;

	if (!it)
		return -ENOMEM;
	it->root_fd = -1;
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
		snprintf(err, err_len, "lruvec iterator: cannot open the BPF object: %s", strerror(errno));
		goto fail;
	}
	it->skel->rodata->nr_nodes = nr_nodes;
	ret = lruvec_iter_bpf__load(it->skel);
	if (ret) {
		snprintf(err, err_len,
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
	*out = it;
	return 0;
fail:
	lrs_lruvec_iter__destroy(it);
	return ret;
}

int lrs_lruvec_iter__read(struct lrs_lruvec_iter *it, struct lrs_lruvec_table *table)
{
	size_t len = 0;
	int fd = bpf_iter_create(bpf_link__fd(it->link)), ret = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (it->cap - len < 65536) {
			size_t ncap = it->cap ? it->cap * 2 : 262144;
			char *q = realloc(it->buf, ncap);

			if (!q) {
				ret = -ENOMEM;
				break;
			}
			it->buf = q;
			it->cap = ncap;
		}
		n = read(fd, it->buf + len, it->cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (ret)
		return ret;
	return lrs_lruvec_table__parse(it->buf, len, table);
}

uint64_t lrs_lruvec_iter__read_faults(const struct lrs_lruvec_iter *it)
{
	return it->skel->bss->read_faults;
}

void lrs_lruvec_iter__destroy(struct lrs_lruvec_iter *it)
{
	if (!it)
		return;
	bpf_link__destroy(it->link);
	lruvec_iter_bpf__destroy(it->skel);
	if (it->root_fd >= 0)
		close(it->root_fd);
	free(it->buf);
	free(it);
}

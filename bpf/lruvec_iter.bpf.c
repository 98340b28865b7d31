// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup iterator over the memory hierarchy (started at its root with
 * BPF_CGROUP_ITER_DESCENDANTS_PRE): for every memcg and node, the lruvec's
 * lock address and LRU sizes; for the root, each node's zone locks too.
 * Results go to maps (see lruvec_iter.h for why not to the seq_file).
 * And the names of memcgs created or renamed between two walks
 * (tp_btf/cgroup_mkdir, tp_btf/cgroup_rename), which a walk may never see.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "lruvec_iter.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nr_nodes = 1;

__u64 gen = 0;	       /* set by user space before each walk */
__u64 visited = 0;     /* memcgs this walk: the order of the next one */
__u64 read_faults = 0; /* nodeinfo, name or size reads that failed */
__u64 map_full = 0;    /* a memcg or lruvec that did not fit in its map */

/* Sizes are set from user space (bpf_map__set_max_entries). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct memcg_rec);
} memcgs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 65536);
	__type(key, struct lruvec_key);
	__type(value, struct lruvec_rec);
} lruvecs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, LRUVEC_ITER_MAX_NODES);
	__type(key, __u32);
	__type(value, struct node_rec);
} nodes SEC(".maps");

/*
 * Memcgs created or renamed since the collector last drained this map. The
 * iterator sees live cgroups only: one created and removed between two walks
 * is never walked, and its lruvec lock or its tasks can still be seen waiting
 * (its pages outlive it). Recorded at mkdir, its name is kept. Same records
 * as memcgs (gen and order unused); sized from user space.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 8192);
	__type(key, __u64);
	__type(value, struct memcg_rec);
} memcg_names SEC(".maps");

/*
 * memcg_rec is too big for the 512-byte stack next to the rest: slot 0 for
 * the iterator, slot 1 for the mkdir and rename hooks.
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct memcg_rec);
} scratch SEC(".maps");

static __always_inline void record_node(struct mem_cgroup_per_node *pn, __u32 node)
{
	struct pglist_data *pgdat = BPF_CORE_READ(pn, lruvec.pgdat);
	struct node_rec *rec = bpf_map_lookup_elem(&nodes, &node);
	__u32 nr_zones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES);
	__u64 zone_size = bpf_core_type_size(struct zone);

	if (!pgdat || !rec)
		return;
	rec->gen = gen;
	rec->nr_zones = nr_zones < LRUVEC_ITER_MAX_ZONES ? nr_zones : LRUVEC_ITER_MAX_ZONES;
	rec->node_lruvec_lock = (__u64)pgdat + bpf_core_field_offset(struct pglist_data, __lruvec) +
				bpf_core_field_offset(struct lruvec, lru_lock);
	for (int z = 0; z < LRUVEC_ITER_MAX_ZONES; z++) {
		struct zone *zone;
		const char *name;

		if ((__u32)z >= rec->nr_zones)
			break;
		zone = (void *)((char *)pgdat +
				bpf_core_field_offset(struct pglist_data, node_zones) +
				z * zone_size);
		rec->zone_lock[z] = (__u64)zone + bpf_core_field_offset(struct zone, lock);
		name = BPF_CORE_READ(zone, name);
		if (!name || bpf_probe_read_kernel_str(rec->zone_name[z], LRUVEC_ITER_ZONE_NAME_LEN,
						       name) < 0)
			rec->zone_name[z][0] = 0;
	}
}

/* The cgroup's directory name and its place in the tree, into mrec. */
static __always_inline void read_name(struct memcg_rec *mrec, struct cgroup *cgrp)
{
	struct cgroup_subsys_state *parent = BPF_CORE_READ(cgrp, self.parent);
	const char *name;

	mrec->parent_cgid = parent ? BPF_CORE_READ(parent, cgroup, kn, id) : 0;
	mrec->level = BPF_CORE_READ(cgrp, level);
	name = BPF_CORE_READ(cgrp, kn, name);
	if (!name || bpf_probe_read_kernel_str(mrec->name, sizeof(mrec->name), name) < 0) {
		__sync_fetch_and_add(&read_faults, 1);
		mrec->name[0] = 0;
	} else if (mrec->name[sizeof(mrec->name) - 2]) {
		mrec->flags |= MEMCG_REC_NAME_TRUNC;
	}
}

SEC("iter/cgroup")
int dump_lruvecs(struct bpf_iter__cgroup *ctx)
{
	struct cgroup *cgrp = ctx->cgroup;
	struct cgroup_subsys_state *css;
	__u32 nr_zones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES), zero = 0;
	struct memcg_rec *mrec = bpf_map_lookup_elem(&scratch, &zero);
	struct mem_cgroup *memcg;
	__u64 cgid;
	int level;

	if (!cgrp || !mrec)
		return 0; /* the end of the walk */
	css = BPF_CORE_READ(cgrp,
			    subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)]);
	if (!css)
		return 0; /* cgroup v2 with memory off here: its parent's memcg counts */
	memcg = (void *)((char *)css - bpf_core_field_offset(struct mem_cgroup, css));
	level = BPF_CORE_READ(cgrp, level);
	cgid = BPF_CORE_READ(cgrp, kn, id);

	mrec->gen = gen;
	mrec->order = visited++;
	mrec->flags = 0;
	/* the flags enum is anonymous (no CO-RE); CSS_ONLINE = 2 since 3.x */
	if (!(BPF_CORE_READ(css, flags) & CSS_ONLINE))
		mrec->flags |= MEMCG_REC_DYING;
	read_name(mrec, cgrp);
	if (bpf_map_update_elem(&memcgs, &cgid, mrec, BPF_ANY)) {
		__sync_fetch_and_add(&map_full, 1);
		return 0;
	}

	for (int node = 0; node < LRUVEC_ITER_MAX_NODES; node++) {
		struct mem_cgroup_per_node *pn = NULL;
		struct lruvec_key key = { .cgid = cgid, .node = node };
		struct lruvec_rec rec = { .gen = gen };
		__u64 row[LRUVEC_ITER_NR_LRU];
		char *sizes;

		if ((__u32)node >= nr_nodes)
			break;
		if (bpf_core_read(&pn, sizeof(pn), &memcg->nodeinfo[node]) || !pn) {
			__sync_fetch_and_add(&read_faults, 1);
			continue;
		}
		if (level == 0)
			record_node(pn, node);
		rec.lock_addr = (__u64)pn +
				bpf_core_field_offset(struct mem_cgroup_per_node, lruvec) +
				bpf_core_field_offset(struct lruvec, lru_lock);
		/* lru_zone_size[MAX_NR_ZONES][NR_LRU_LISTS] counts pages: sum the zones */
		sizes = (char *)pn +
			bpf_core_field_offset(struct mem_cgroup_per_node, lru_zone_size);
		for (int z = 0; z < LRUVEC_ITER_MAX_ZONES; z++) {
			if ((__u32)z >= nr_zones)
				break;
			if (bpf_probe_read_kernel(row, sizeof(row), sizes + z * sizeof(row))) {
				__sync_fetch_and_add(&read_faults, 1);
				break;
			}
#pragma unroll
			for (int l = 0; l < LRUVEC_ITER_NR_LRU; l++)
				rec.lru_pages[l] += row[l];
		}
		if (bpf_map_update_elem(&lruvecs, &key, &rec, BPF_ANY))
			__sync_fetch_and_add(&map_full, 1);
	}
	return 0;
}

/*
 * A cgroup created or renamed in the memory hierarchy: its name into
 * memcg_names. Only that hierarchy's: under v1 each hierarchy numbers its
 * cgroups on its own, so an id of another one may equal a memcg's. Runs at
 * mkdir and rename only, never on a lock's path.
 */
static __always_inline int record_name(struct cgroup *cgrp)
{
	__u32 memory = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id), slot = 1;
	struct memcg_rec *mrec = bpf_map_lookup_elem(&scratch, &slot);
	__u64 cgid;

	if (!mrec || !(BPF_CORE_READ(cgrp, root, subsys_mask) & (1U << memory)))
		return 0;
	cgid = BPF_CORE_READ(cgrp, kn, id);
	mrec->gen = 0;
	mrec->order = 0;
	mrec->flags = 0;
	read_name(mrec, cgrp);
	if (bpf_map_update_elem(&memcg_names, &cgid, mrec, BPF_ANY))
		__sync_fetch_and_add(&map_full, 1);
	return 0;
}

SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(cgroup_mkdir, struct cgroup *cgrp, const char *path)
{
	return record_name(cgrp);
}

SEC("tp_btf/cgroup_rename")
int BPF_PROG(cgroup_rename, struct cgroup *cgrp, const char *path)
{
	return record_name(cgrp);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup iterator over the memory hierarchy (started at its root with
 * BPF_CGROUP_ITER_DESCENDANTS_PRE): for every memcg and node, the lruvec's
 * lock address and LRU sizes; for the root, each node's zone locks too.
 * Results go to maps (see lruvec_iter.h for why not to the seq_file).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "lruvec_iter.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nr_nodes = 1;

__u64 gen = 0;		/* set by user space before each walk */
__u64 visited = 0;	/* memcgs this walk: the order of the next one */
__u64 read_faults = 0;	/* nodeinfo, name or size reads that failed */
__u64 map_full = 0;	/* a memcg or lruvec that did not fit in its map */

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

/* memcg_rec is too big for the 512-byte stack next to the rest */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
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
		zone = (void *)((char *)pgdat + bpf_core_field_offset(struct pglist_data, node_zones) +
				z * zone_size);
		rec->zone_lock[z] = (__u64)zone + bpf_core_field_offset(struct zone, lock);
		name = BPF_CORE_READ(zone, name);
		if (!name || bpf_probe_read_kernel_str(rec->zone_name[z], LRUVEC_ITER_ZONE_NAME_LEN, name) < 0)
			rec->zone_name[z][0] = 0;
	}
}

SEC("iter/cgroup")
int dump_lruvecs(struct bpf_iter__cgroup *ctx)
{
	struct cgroup *cgrp = ctx->cgroup;
	struct cgroup_subsys_state *css, *parent;
	__u32 nr_zones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES), zero = 0;
	struct memcg_rec *mrec = bpf_map_lookup_elem(&scratch, &zero);
	struct mem_cgroup *memcg;
	const char *name;
	__u64 cgid;
	int level;

	if (!cgrp || !mrec)
		return 0;	/* the end of the walk */
	css = BPF_CORE_READ(cgrp, subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)]);
	if (!css)
		return 0;	/* cgroup v2 with memory off here: its parent's memcg counts */
	memcg = (void *)((char *)css - bpf_core_field_offset(struct mem_cgroup, css));
	level = BPF_CORE_READ(cgrp, level);
	cgid = BPF_CORE_READ(cgrp, kn, id);

	mrec->gen = gen;
	mrec->order = visited++;
	parent = BPF_CORE_READ(cgrp, self.parent);
	mrec->parent_cgid = parent ? BPF_CORE_READ(parent, cgroup, kn, id) : 0;
	mrec->level = level;
	mrec->flags = 0;
	/* the flags enum is anonymous (no CO-RE); CSS_ONLINE = 2 since 3.x */
	if (!(BPF_CORE_READ(css, flags) & CSS_ONLINE))
		mrec->flags |= MEMCG_REC_DYING;
	name = BPF_CORE_READ(cgrp, kn, name);
	if (!name || bpf_probe_read_kernel_str(mrec->name, sizeof(mrec->name), name) < 0) {
		__sync_fetch_and_add(&read_faults, 1);
		mrec->name[0] = 0;
	} else if (mrec->name[sizeof(mrec->name) - 2]) {
		mrec->flags |= MEMCG_REC_NAME_TRUNC;
	}
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
		rec.lock_addr = (__u64)pn + bpf_core_field_offset(struct mem_cgroup_per_node, lruvec) +
				bpf_core_field_offset(struct lruvec, lru_lock);
		/* lru_zone_size[MAX_NR_ZONES][NR_LRU_LISTS] counts pages: sum the zones */
		sizes = (char *)pn + bpf_core_field_offset(struct mem_cgroup_per_node, lru_zone_size);
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

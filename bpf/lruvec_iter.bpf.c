// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup iterator over the memory hierarchy (started at its root with
 * BPF_CGROUP_ITER_DESCENDANTS_PRE): for every memcg and node, the lruvec's
 * lock address and LRU sizes; for the root, each node's zone locks too.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "lruvec_iter.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nr_nodes = 1;

__u64 records = 0;
__u64 read_faults = 0;	/* nodeinfo or name reads that failed */

static __always_inline void emit_nodes(struct seq_file *seq, struct mem_cgroup_per_node *pn, int node)
{
	struct pglist_data *pgdat = BPF_CORE_READ(pn, lruvec.pgdat);
	struct node_rec rec = {};
	__u32 nr_zones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES);
	__u64 zone_size = bpf_core_type_size(struct zone);

	if (!pgdat)
		return;
	rec.magic = NODE_REC_MAGIC;
	rec.node = node;
	rec.nr_zones = nr_zones < LRUVEC_ITER_MAX_ZONES ? nr_zones : LRUVEC_ITER_MAX_ZONES;
	rec.node_lruvec_lock = (__u64)pgdat + bpf_core_field_offset(struct pglist_data, __lruvec) +
			       bpf_core_field_offset(struct lruvec, lru_lock);
	for (int z = 0; z < LRUVEC_ITER_MAX_ZONES; z++) {
		struct zone *zone;
		const char *name;

		if (z >= rec.nr_zones)
			break;
		zone = (void *)((char *)pgdat + bpf_core_field_offset(struct pglist_data, node_zones) +
				z * zone_size);
		rec.zone_lock[z] = (__u64)zone + bpf_core_field_offset(struct zone, lock);
		name = BPF_CORE_READ(zone, name);
		if (!name || bpf_probe_read_kernel_str(rec.zone_name[z], LRUVEC_ITER_ZONE_NAME_LEN, name) < 0)
			rec.zone_name[z][0] = 0;
	}
	bpf_seq_write(seq, &rec, sizeof(rec));
}

SEC("iter/cgroup")
int dump_lruvecs(struct bpf_iter__cgroup *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct cgroup *cgrp = ctx->cgroup;
	struct cgroup_subsys_state *css, *parent;
	struct mem_cgroup *memcg;
	struct lruvec_rec rec = {};
	const char *name;
	__u32 nr_zones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES);
	int level;

	if (!cgrp)
		return 0;	/* the end of the walk */
	css = BPF_CORE_READ(cgrp, subsys[bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id)]);
	if (!css)
		return 0;	/* cgroup v2 with memory off here: its parent's memcg counts */
	memcg = (void *)((char *)css - bpf_core_field_offset(struct mem_cgroup, css));
	level = BPF_CORE_READ(cgrp, level);

	rec.cgid = BPF_CORE_READ(cgrp, kn, id);
	parent = BPF_CORE_READ(cgrp, self.parent);
	rec.parent_cgid = parent ? BPF_CORE_READ(parent, cgroup, kn, id) : 0;
	rec.level = level;
	/* the flags enum is anonymous (no CO-RE); CSS_ONLINE = 2 since 3.x */
	if (!(BPF_CORE_READ(css, flags) & CSS_ONLINE))
		rec.flags |= LRUVEC_REC_DYING;
	name = BPF_CORE_READ(cgrp, kn, name);
	if (!name || bpf_probe_read_kernel_str(rec.name, sizeof(rec.name), name) < 0) {
		__sync_fetch_and_add(&read_faults, 1);
		rec.name[0] = 0;
	} else if (rec.name[sizeof(rec.name) - 2]) {
		rec.flags |= LRUVEC_REC_NAME_TRUNC;
	}

	for (int node = 0; node < 64; node++) {
		struct mem_cgroup_per_node *pn = NULL;
		__u64 row[LRUVEC_ITER_NR_LRU];
		char *sizes;

		if ((__u32)node >= nr_nodes)
			break;
		if (bpf_core_read(&pn, sizeof(pn), &memcg->nodeinfo[node]) || !pn) {
			__sync_fetch_and_add(&read_faults, 1);
			continue;
		}
		if (level == 0)
			emit_nodes(seq, pn, node);
		rec.node = node;
		rec.lock_addr = (__u64)pn + bpf_core_field_offset(struct mem_cgroup_per_node, lruvec) +
				bpf_core_field_offset(struct lruvec, lru_lock);
		rec.pgdat_addr = (__u64)BPF_CORE_READ(pn, lruvec.pgdat);
		/* lru_zone_size[MAX_NR_ZONES][NR_LRU_LISTS] counts pages: sum the zones */
		sizes = (char *)pn + bpf_core_field_offset(struct mem_cgroup_per_node, lru_zone_size);
#pragma unroll
		for (int l = 0; l < LRUVEC_ITER_NR_LRU; l++)
			rec.lru_pages[l] = 0;
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
		bpf_seq_write(seq, &rec, sizeof(rec));
		__sync_fetch_and_add(&records, 1);
	}
	return 0;
}

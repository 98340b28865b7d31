// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "collector/live/kernel_features.h"
#include "collector/live/ksyms.h"

unsigned int lrs_kernel_version(const char *release)
{
	unsigned int major = 0, minor = 0;

	sscanf(release, "%u.%u", &major, &minor);
	return major << 8 | minor;
}

/* Whether BTF type struct_name has a member named member. */
static bool has_member(const struct btf *btf, const char *struct_name, const char *member)
{
	int id = btf ? btf__find_by_name_kind(btf, struct_name, BTF_KIND_STRUCT) : -1;
	const struct btf_type *t;
	const struct btf_member *m;

	if (id <= 0)
		return false;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, m[i].name_off), member))
			return true;
	return false;
}

void lrs_kernel_features__probe(const char *release, struct lrs_kernel_features *f)
{
	unsigned int v = lrs_kernel_version(release);
	struct btf *btf = btf__load_vmlinux_btf();

	memset(f, 0, sizeof(*f));
	/* helpers by release (a verifier that lacks one refuses the program); types by BTF */
	f->lruvec_lock = btf ? has_member(btf, "lruvec", "lru_lock") : v >= 0x050b;
	f->task_btf = v >= 0x050b;
	f->bpf_loop = v >= 0x0513;
	f->mem_alloc = v >= 0x0601;
	f->cgroup_iter = btf ? btf__find_by_name_kind(btf, "bpf_iter__cgroup", BTF_KIND_STRUCT) >
					 0 :
			       v >= 0x0601;
	if (btf) {
		f->contention_tp = btf__find_by_name_kind(btf, "btf_trace_contention_begin",
							  BTF_KIND_TYPEDEF) > 0;
		f->slowpath_native = btf__find_by_name_kind(btf, "native_queued_spin_lock_slowpath",
							    BTF_KIND_FUNC) > 0;
		f->slowpath_pv = btf__find_by_name_kind(btf, "__pv_queued_spin_lock_slowpath",
							BTF_KIND_FUNC) > 0;
	}
	if (!f->lruvec_lock) {
		static const char *const name[] = { "node_data" };

		lrs_ksyms__find_names(name, &f->node_data, 1);
	}
	btf__free(btf);
}

// SPDX-License-Identifier: GPL-2.0
/* The run time of our BPF programs, from the kernel's per-program stats. */
#include <errno.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collector/live/bpf_cost.h"

int lrs_bpf_stats__enable(void)
{
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	return fd < 0 ? -errno : fd;
}

void lrs_bpf_cost__add(const struct bpf_object *obj, uint64_t *ns, uint64_t *runs)
{
	struct bpf_program *prog;

	if (!obj)
		return;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0)
			continue; /* not loaded: autoload off on this kernel */
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		*ns += info.run_time_ns;
		*runs += info.run_cnt;
	}
}

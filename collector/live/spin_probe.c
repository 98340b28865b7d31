// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collector/live/kernel_features.h"
#include "collector/live/ksyms.h"
#include "collector/live/spin_probe.h"
#include "spin_probe.skel.h"

#define SYSLOG_READ_ALL 3
#define SYSLOG_SIZE_BUFFER 10

/* 1 if /proc/cpuinfo lists the hypervisor flag, 0 if not, -1 if unreadable. */
static int has_hypervisor_flag(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		found = strstr(line, " hypervisor") ? 1 : 0;
		break;
	}
	fclose(f);
	return found;
}

/* The kernel log ring (root: CAP_SYSLOG), or NULL. */
static char *read_klog(void)
{
	int size = klogctl(SYSLOG_SIZE_BUFFER, NULL, 0), n;
	char *buf;

	if (size <= 0)
		return NULL;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return NULL;
	n = klogctl(SYSLOG_READ_ALL, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = 0;
	return buf;
}

/* Read the static key and pv_ops' slow path through the iterator program. */
static void read_data_symbols(uint64_t key_addr, uint64_t pv_ops_addr, uint64_t pv_fn,
			      struct lrs_spin_evidence *e)
{
	struct spin_probe_bpf *skel;
	struct bpf_link *link = NULL;
	char buf[64];
	int fd;

	if (!key_addr)
		return;
	skel = spin_probe_bpf__open();
	if (!skel)
		return;
	skel->rodata->key_addr = key_addr;
	skel->rodata->pv_ops_addr = pv_ops_addr;
	if (spin_probe_bpf__load(skel))
		goto out;
	link = bpf_program__attach_iter(skel->progs.read_spin_state, NULL);
	if (!link)
		goto out;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0)
		goto out;
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
	if (skel->data->key_enabled >= 0)
		e->key_on = skel->data->key_enabled > 0;
	if (skel->bss->pv_slowpath && pv_fn)
		e->pv_slowpath = skel->bss->pv_slowpath == pv_fn;
	else if (skel->data->key_enabled >= 0 && !pv_fn)
		e->pv_slowpath = 0; /* no paravirt slow path in this kernel */
out:
	bpf_link__destroy(link);
	spin_probe_bpf__destroy(skel);
}

void lrs_spin_probe__facts(const struct lrs_kernel_features *feat, struct lrs_spin_facts *f)
{
	static const char *const names[] = {
		"virt_spin_lock_key",
		"pv_ops",
		"__pv_queued_spin_lock_slowpath",
	};
	struct lrs_spin_evidence e = { .key_on = -1, .pv_slowpath = -1 };
	uint64_t addrs[3];
	char *klog;

	memset(f, 0, sizeof(*f));
	f->tracepoint = feat->contention_tp;
	lrs_ksyms__find_names(names, addrs, 3);
	read_data_symbols(addrs[0], addrs[1], addrs[2], &e);
	e.hypervisor = has_hypervisor_flag();
	klog = read_klog();
	e.klog = klog;
	lrs_spin__judge_kind(&e, f);
	free(klog);
	snprintf(f->slowpath_why, sizeof(f->slowpath_why), "%s",
		 feat->slowpath_native || feat->slowpath_pv ?
			 "not tried" :
			 "no queued-spinlock slow path in the kernel's BTF");
}

/* SPDX-License-Identifier: GPL-2.0 */
/* Where the memory cgroup hierarchy is mounted, v1 or v2. */
#ifndef LRS_CGROUP_FS_H
#define LRS_CGROUP_FS_H

#include <stddef.h>

struct lrs_cgroup_root {
	int version;	 /* 1 or 2 */
	char path[4096]; /* mount point of the memory hierarchy */
};

/*
 * Find the memory hierarchy in a mountinfo text: cgroup2 whose
 * cgroup.controllers (read through controllers_of, which may be NULL to mean
 * "has memory") lists memory, else the v1 mount with the memory option.
 * Returns 0 or -ENOENT.
 */
int lrs_cgroup_root__parse(const char *mountinfo, int (*has_memory_v2)(const char *mount_point),
			   struct lrs_cgroup_root *out);

/* The same on this machine: /proc/self/mountinfo and the real files. */
int lrs_cgroup_root__detect(struct lrs_cgroup_root *out);

/* Version of a hierarchy given by path (--cgroup-root): 1, 2, or -errno. */
int lrs_cgroup_root__from_path(const char *path, struct lrs_cgroup_root *out);

#endif

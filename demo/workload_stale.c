// SPDX-License-Identifier: GPL-2.0
/* What a killed run left behind (memcgs, cpu cgroups, temp dirs of our prefix), removed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "demo/workload_files.h"
#include "demo/workload_internal.h"

static bool is_our_cgroup_name(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);
	const char *rest = name + pl;

	if (strncmp(name, prefix, pl))
		return false;
	if (!strcmp(rest, "shared") || !strcmp(rest, "parent") || !strcmp(rest, "cpu"))
		return true;
	if (rest[0] != 'c' || !rest[1])
		return false;
	for (rest++; *rest; rest++)
		if (*rest < '0' || *rest > '9')
			return false;
	return true;
}

/* NAME is PREFIX + the 6 characters mkdtemp makes. */
static bool is_our_tmpdir_name(const char *name, const char *prefix)
{
	size_t pl = strlen(prefix);

	if (strncmp(name, prefix, pl) || strlen(name + pl) != 6)
		return false;
	for (const char *p = name + pl; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return false;
	return true;
}

/*
 * rmdir dir/NAME for our exact names only (another program may use a longer
 * prefix, e.g. lrs-demo-rd-): cgroups (children first), or temp dirs with
 * their c<N> files.
 */
static int remove_prefixed_dirs(const char *dir, const char *prefix, bool cgroup)
{
	struct dirent *de;
	char path[PATH_MAX];
	int removed = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR)
			continue;
		if (cgroup ? !is_our_cgroup_name(de->d_name, prefix) :
			     !is_our_tmpdir_name(de->d_name, prefix))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (cgroup) {
			/* a nest parent holds our memcgs: children first */
			removed += remove_prefixed_dirs(path, prefix, true);
			if (!rmdir(path))
				removed++;
		} else {
			DIR *t = opendir(path);
			struct dirent *fe;
			char fp[PATH_MAX + 300];

			while (t && (fe = readdir(t))) {
				if (fe->d_name[0] != 'c')
					continue;
				snprintf(fp, sizeof(fp), "%s/%s", path, fe->d_name);
				unlink(fp);
			}
			if (t)
				closedir(t);
			if (!rmdir(path))
				removed++;
		}
	}
	closedir(d);
	return removed;
}

/* v1: our PREFIXcpu in the cpu hierarchy, if empty. */
static int remove_stale_cpu(const char *prefix)
{
	char dev[256], mnt[256], type[64], optbuf[512], path[600];
	int removed = 0;
	FILE *f = fopen("/proc/mounts", "re");

	while (f && fscanf(f, "%255s %255s %63s %511s %*d %*d", dev, mnt, type, optbuf) == 4)
		if (!strcmp(type, "cgroup") && lrs_wl__has_word(optbuf, "cpu")) {
			snprintf(path, sizeof(path), "%s/%scpu", mnt, prefix);
			if (!rmdir(path))
				removed++;
			break;
		}
	if (f)
		fclose(f);
	return removed;
}

int lrs_workload__remove_stale(const struct lrs_workload_opts *opts)
{
	struct lrs_cgroup_root root;
	char err[256];
	int removed;

	if (!opts->prefix || strncmp(opts->prefix, "lrs-", 4) || strlen(opts->prefix) < 5)
		return -EINVAL;
	/* files first, so the stale memcgs hold no page cache */
	removed = remove_prefixed_dirs(lrs_wl__work_dir(opts), opts->prefix, false);
	removed += remove_stale_cpu(opts->prefix);
	if (lrs_wl__check_root(opts, &root, err, sizeof(err)))
		return removed;
	return removed + remove_prefixed_dirs(root.path, opts->prefix, true);
}

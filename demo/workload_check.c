// SPDX-License-Identifier: GPL-2.0
/* The workload: what the machine allows (memcg root, memory, disk), checked before anything is made. */
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

void lrs_workload_opts__defaults(struct lrs_workload_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->layout = LRS_LAYOUT_ISOLATED;
	opts->read = LRS_READ_4K;
	opts->readers = 4;
	opts->file_bytes = 1ULL << 30;
	opts->limit_bytes = 256ULL << 20;
	opts->prefix = "lrs-test-";
}

unsigned int lrs_workload__containers(unsigned int readers)
{
	return (readers + 1) / 2;
}

size_t lrs_wl__nr_memcgs_for(const struct lrs_workload_opts *opts)
{
	return opts->layout == LRS_LAYOUT_SHARED ? 1 : lrs_workload__containers(opts->readers);
}

/* Name of memcg i: PREFIXshared or PREFIXcN, under PREFIXparent/ with nest. */
void lrs_wl__memcg_rel_name(const struct lrs_workload_opts *opts, size_t i, char *buf, size_t len)
{
	char leaf[128];

	if (opts->layout == LRS_LAYOUT_SHARED)
		snprintf(leaf, sizeof(leaf), "%sshared", opts->prefix);
	else
		snprintf(leaf, sizeof(leaf), "%sc%zu", opts->prefix, i);
	if (opts->nest)
		snprintf(buf, len, "%sparent/%s", opts->prefix, leaf);
	else
		snprintf(buf, len, "%s", leaf);
}

const char *lrs_wl__work_dir(const struct lrs_workload_opts *opts)
{
	const char *d = opts->dir;

	if (!d || !*d)
		d = getenv("LRS_WORKDIR");
	return d && *d ? d : "/var/tmp";
}

static int meminfo_kb(const char *key, uint64_t *out)
{
	char line[256];
	size_t kl = strlen(key);
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, kl) && line[kl] == ':') {
			*out = strtoull(line + kl + 1, NULL, 10);
			fclose(f);
			return 0;
		}
	fclose(f);
	return -ENOENT;
}

int lrs_wl__check_root(const struct lrs_workload_opts *opts, struct lrs_cgroup_root *root,
		       char *err, size_t err_len)
{
	char path[WL_PATH_BYTES], buf[512];
	int ret;

	if (opts->cgroup_root) {
		ret = lrs_cgroup_root__from_path(opts->cgroup_root, root);
		if (ret == -ENOTDIR)
			lrs_wl__set_err(err, err_len,
					"cgroup root %s is not a cgroup mount: pass the "
					"memory hierarchy's mount point",
					opts->cgroup_root);
		else if (ret)
			lrs_wl__set_err(err, err_len, "cgroup root %s: %s", opts->cgroup_root,
					strerror(-ret));
	} else {
		ret = lrs_cgroup_root__detect(root);
		if (ret == -ENOENT)
			lrs_wl__set_err(
				err, err_len,
				"no cgroup hierarchy has the memory controller "
				"(neither a cgroup2 mount listing it in cgroup.controllers nor a v1 "
				"'memory' mount): boot with memcg enabled (cgroup_enable=memory, not "
				"cgroup_disable=memory)");
		else if (ret)
			lrs_wl__set_err(err, err_len, "cannot read /proc/self/mountinfo: %s",
					strerror(-ret));
	}
	if (ret)
		return ret;
	if (root->version == 1) {
		snprintf(path, sizeof(path), "%s/memory.limit_in_bytes", root->path);
		if (access(path, F_OK)) {
			lrs_wl__set_err(err, err_len,
					"%s has no memory controller (no %s): pass the memory "
					"hierarchy's mount point",
					root->path, path);
			return -ENOENT;
		}
		return 0;
	}
	/* v2: children of the root get memory.max only if the root delegates it */
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", root->path);
	if (lrs_wl__read_file(path, buf, sizeof(buf)) || !lrs_wl__has_word(buf, "memory")) {
		lrs_wl__set_err(
			err, err_len,
			"the memory controller is not enabled for children of %s: "
			"run 'echo +memory > %s' (lruscope only changes cgroups it created)",
			root->path, path);
		return -ENOENT;
	}
	return 0;
}

int lrs_workload__check(const struct lrs_workload_opts *opts, char *err, size_t err_len)
{
	struct lrs_cgroup_root root;
	uint64_t total_kb = 0, avail_kb = 0, need_bytes;
	unsigned int containers;
	char name[256], path[WL_PATH_BYTES];
	struct statfs sfs;
	struct statvfs svfs;
	const char *dir;
	int ret;

	if (opts->readers == 0) {
		lrs_wl__set_err(err, err_len,
				"--readers must be at least 1 (2 per container, as readtwice)");
		return -EINVAL;
	}
	if (opts->readers > 4096) {
		lrs_wl__set_err(err, err_len, "--readers %u: at most 4096", opts->readers);
		return -EINVAL;
	}
	if (opts->file_bytes < LRS_WORKLOAD_MIN_FILE_BYTES) {
		lrs_wl__set_err(err, err_len, "--size %" PRIu64 ": at least %d bytes",
				opts->file_bytes, (int)LRS_WORKLOAD_MIN_FILE_BYTES);
		return -EINVAL;
	}
	if (opts->limit_bytes < LRS_WORKLOAD_MIN_LIMIT_BYTES) {
		lrs_wl__set_err(err, err_len,
				"--limit %" PRIu64 ": at least 4m (a memcg below a few MiB "
				"thrashes on its own kernel memory)",
				opts->limit_bytes);
		return -EINVAL;
	}
	if (!opts->prefix || strncmp(opts->prefix, "lrs-", 4) || strchr(opts->prefix, '/') ||
	    strlen(opts->prefix) > 64) {
		lrs_wl__set_err(err, err_len,
				"--prefix '%s': must start with 'lrs-' (lrs-demo-, lrs-test-) "
				"and hold no '/'",
				opts->prefix ? opts->prefix : "");
		return -EINVAL;
	}

	containers = lrs_workload__containers(opts->readers);
	if (meminfo_kb("MemTotal", &total_kb) || meminfo_kb("MemAvailable", &avail_kb)) {
		lrs_wl__set_err(err, err_len,
				"cannot read MemTotal/MemAvailable from /proc/meminfo");
		return -EIO;
	}
	if (opts->limit_bytes > total_kb * 1024) {
		lrs_wl__set_err(err, err_len,
				"--limit %" PRIu64 " MiB is larger than RAM (%" PRIu64
				" MiB): choose a smaller limit",
				opts->limit_bytes >> 20, total_kb >> 10);
		return -EINVAL;
	}
	/* page cache in each memcg grows up to its limit, or the file if smaller */
	need_bytes = (opts->limit_bytes < opts->file_bytes ? opts->limit_bytes : opts->file_bytes) *
		     containers;
	if (need_bytes > avail_kb * 1024 / 100 * MEM_HEADROOM_PCT) {
		lrs_wl__set_err(err, err_len,
				"not enough free memory: %u containers x %" PRIu64 " MiB "
				"need %" PRIu64 " MiB, %" PRIu64
				" MiB available (%d%% usable): lower "
				"--readers, --limit or --size",
				containers, (need_bytes / containers) >> 20, need_bytes >> 20,
				avail_kb >> 10, MEM_HEADROOM_PCT);
		return -ENOMEM;
	}

	ret = lrs_wl__check_root(opts, &root, err, err_len);
	if (ret)
		return ret;
	for (size_t i = 0; i < lrs_wl__nr_memcgs_for(opts); i++) {
		lrs_wl__memcg_rel_name(opts, i, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", root.path, name);
		if (!access(path, F_OK)) {
			lrs_wl__set_err(
				err, err_len,
				"cgroup %s exists: another lruscope workload with prefix "
				"'%s' runs, or one was killed; if none runs, remove it with: rmdir %s",
				path, opts->prefix, path);
			return -EEXIST;
		}
	}
	if (opts->nest) {
		snprintf(path, sizeof(path), "%s/%sparent", root.path, opts->prefix);
		if (!access(path, F_OK)) {
			lrs_wl__set_err(err, err_len,
					"cgroup %s exists: another lruscope workload runs, or "
					"one was killed; if none runs, remove it with: rmdir %s",
					path, path);
			return -EEXIST;
		}
	}

	dir = lrs_wl__work_dir(opts);
	if (statfs(dir, &sfs) || statvfs(dir, &svfs)) {
		lrs_wl__set_err(err, err_len,
				"work directory %s: %s (set LRS_WORKDIR to a directory on a "
				"disk filesystem)",
				dir, strerror(errno));
		return -errno;
	}
	if (sfs.f_type == TMPFS_MAGIC_ || sfs.f_type == RAMFS_MAGIC_) {
		lrs_wl__set_err(
			err, err_len,
			"work directory %s is on tmpfs/ramfs, whose pages go to the "
			"anon or unevictable LRU, not the file LRU: set LRS_WORKDIR to a directory "
			"on a disk filesystem (ext4, xfs, btrfs)",
			dir);
		return -EINVAL;
	}
	if ((uint64_t)svfs.f_bavail * svfs.f_frsize < DISK_RESERVE_BYTES ||
	    svfs.f_favail < containers + 16) {
		lrs_wl__set_err(
			err, err_len,
			"not enough free disk in %s: %" PRIu64 " MiB and %llu inodes "
			"free, the sparse files need %llu MiB and %u inodes: free some space or set "
			"LRS_WORKDIR",
			dir, ((uint64_t)svfs.f_bavail * svfs.f_frsize) >> 20,
			(unsigned long long)svfs.f_favail, DISK_RESERVE_BYTES >> 20,
			containers + 16);
		return -ENOSPC;
	}
	if (access(dir, W_OK)) {
		lrs_wl__set_err(err, err_len, "work directory %s is not writable: %s", dir,
				strerror(errno));
		return -EACCES;
	}
	if (opts->read == LRS_READ_DD && access("/bin/dd", X_OK) && access("/usr/bin/dd", X_OK)) {
		lrs_wl__set_err(err, err_len,
				"--read dd needs dd (coreutils), not found in /bin or /usr/bin");
		return -ENOENT;
	}
	return 0;
}

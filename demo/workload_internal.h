/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload's own parts, shared by its files: workload.c (create, run,
 * stop, destroy), workload_check.c (what the machine allows, before anything
 * is made), workload_reader.c (the reader processes), workload_stale.c (what
 * a killed run left behind). Not for other modules: use demo/workload.h.
 * The file helpers they all use are in demo/workload_files.h.
 */
#ifndef LRS_WORKLOAD_INTERNAL_H
#define LRS_WORKLOAD_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "collector/live/cgroup_fs.h"
#include "demo/workload.h"
#include "model/clock.h"

#define READ_CHUNK_BYTES 4096
#define DISK_RESERVE_BYTES (64ULL << 20) /* sparse files need only metadata */
#define MEM_HEADROOM_PCT 80		 /* use at most this much of MemAvailable */
#define RMDIR_TRIES 50			 /* x 100 ms while a memcg drains */
#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6
#define OVERLAYFS_MAGIC_ 0x794c7630
/* a file of one of our memcgs: the hierarchy's mount point, the memcg, the file's name */
#define WL_PATH_BYTES (sizeof(((struct lrs_cgroup_root *)0)->path) + 320)

/* One reader's counters, shared with the parent; a cache line each. */
struct reader_shm {
	_Atomic uint64_t bytes;
	_Atomic int dd_pid; /* dd mode: the running dd, 0 between runs */
	char pad[64 - sizeof(uint64_t) - sizeof(int)];
};

struct shm_area {
	_Atomic int stop; /* readers leave their loop */
	char pad[60];
	struct reader_shm readers[];
};

struct reader {
	pid_t pid;
	size_t memcg; /* index into wl->memcgs */
	size_t file;  /* index into wl->files */
	bool reaped;
	int status;
};

struct lrs_workload {
	struct lrs_workload_opts opts;
	struct lrs_cgroup_root root; /* the memory hierarchy */
	char *parent_fs_path;	     /* nest: PREFIXparent, created by us */
	char *cpu_fs_path;	     /* v1 cpu cgroup PREFIXcpu, created by us, or NULL */
	struct lrs_workload_memcg *memcgs;
	size_t nr_memcgs;
	char *dir; /* temp dir, created by us */
	char **files;
	size_t nr_files;
	struct reader *readers;
	size_t nr_readers;
	struct shm_area *shm;
	size_t shm_bytes;
	int go_fd; /* write end of the start barrier */
	uint64_t t_start_ns, t_stop_ns;
	uint64_t bytes;
};

size_t lrs_wl__nr_memcgs_for(const struct lrs_workload_opts *opts);
void lrs_wl__memcg_rel_name(const struct lrs_workload_opts *opts, size_t i, char *buf, size_t len);
const char *lrs_wl__work_dir(const struct lrs_workload_opts *opts);
/* The memory hierarchy (opts->cgroup_root, else found), usable for our memcgs: 0 or -errno. */
int lrs_wl__check_root(const struct lrs_workload_opts *opts, struct lrs_cgroup_root *root,
		       char *err, size_t err_len);
void lrs_wl__reader_main(struct lrs_workload *wl, size_t idx, int ready_fd, int go_rd);

#endif

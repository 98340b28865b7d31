/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The readtwice load (vm-scalability case-lru-file-readtwice) in memcgs of
 * our own: per container a sparse file and two concurrent readers, a memory
 * limit per memcg so reclaim keeps the LRU moving. "shared" puts every reader
 * in one memcg (one lruvec, one lru_lock per node: the pre-5.11 world);
 * "isolated" gives each container (file, reader pair) its own memcg.
 *
 * Life cycle: check (creates nothing) -> create (memcgs, files, readers
 * parked at a barrier) -> start -> stop -> destroy (kills only our readers,
 * removes only what create made). No BPF, no curses.
 */
#ifndef LRS_WORKLOAD_H
#define LRS_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The least --size (one read) and --limit (a memcg below a few MiB thrashes on its own kernel memory) */
#define LRS_WORKLOAD_MIN_FILE_BYTES 4096ULL
#define LRS_WORKLOAD_MIN_LIMIT_BYTES (4ULL << 20)

enum lrs_layout {
	LRS_LAYOUT_SHARED,   /* all readers in one memcg */
	LRS_LAYOUT_ISOLATED, /* one memcg per container (reader pair) */
};

enum lrs_read_mode {
	LRS_READ_4K, /* pread 4 KiB after POSIX_FADV_RANDOM: page-sized folios */
	LRS_READ_DD, /* exec dd bs=4k as the original: readahead, large folios */
};

const char *lrs_layout__name(enum lrs_layout layout);
int lrs_layout__parse(const char *s, enum lrs_layout *out); /* 0 or -EINVAL */
const char *lrs_read_mode__name(enum lrs_read_mode mode);
int lrs_read_mode__parse(const char *s, enum lrs_read_mode *out);

struct lrs_workload_opts {
	enum lrs_layout layout;
	enum lrs_read_mode read;
	unsigned int readers;	 /* reader processes, two per container */
	uint64_t file_bytes;	 /* sparse file per container */
	uint64_t limit_bytes;	 /* memory limit per container (shared: times containers) */
	const char *prefix;	 /* memcg and temp dir name prefix: "lrs-demo-", "lrs-test-" */
	bool nest;		 /* memcgs under PREFIXparent/ */
	const char *dir;	 /* where the temp dir goes; NULL: $LRS_WORKDIR, else /var/tmp */
	const char *cgroup_root; /* memory hierarchy; NULL: detect (collector/live/cgroup_fs.h) */
	/*
	 * 0: readers stay in our cpu cgroup. Else they get this cpu.shares (v1:
	 * one cgroup PREFIXcpu in the cpu hierarchy; v2: cpu.weight of their
	 * memcgs, scaled) so background load on a small machine disturbs the
	 * measurement less. Skipped when no cpu controller is there.
	 */
	unsigned int cpu_shares;
};

void lrs_workload_opts__defaults(struct lrs_workload_opts *opts);

/* Containers (files) for a number of readers: ceil(readers / 2). */
unsigned int lrs_workload__containers(unsigned int readers);

/*
 * Check everything that can be checked before creating anything: option
 * values, the memory controller, memory and disk for the sizes, names free.
 * Returns 0, -EINVAL for bad values (a usage error) or another -errno.
 */
int lrs_workload__check(const struct lrs_workload_opts *opts, char *err, size_t err_len);

/* One memcg the workload made. */
struct lrs_workload_memcg {
	char *fs_path; /* /sys/fs/cgroup/memory/lrs-demo-c0 */
	char *cgroup;  /* path in the hierarchy, as the snapshot names it: /lrs-demo-c0 */
	uint64_t id;   /* cgroup id (its directory's inode number) */
	pid_t *pids;   /* its readers */
	size_t nr_pids;
	uint64_t bytes; /* read by its readers in the last start..stop */
};

struct lrs_workload;

/*
 * Create memcgs, sparse files and readers; readers join their memcg, open
 * their file and wait for start. Anything made is removed again on failure.
 * stop (may be NULL) is polled while waiting for the readers.
 */
int lrs_workload__create(const struct lrs_workload_opts *opts, volatile sig_atomic_t *stop,
			 struct lrs_workload **out, char *err, size_t err_len);
/* Release the readers; the clock starts. */
int lrs_workload__start(struct lrs_workload *wl);
/*
 * Sleep up to duration_s, returning early when *stop is set or a reader died
 * (-ECHILD, with a message in err).
 */
int lrs_workload__wait(struct lrs_workload *wl, double duration_s, volatile sig_atomic_t *stop,
		       char *err, size_t err_len);
/* True while every reader runs. */
bool lrs_workload__healthy(struct lrs_workload *wl);
/* Stop the readers and take the bytes and elapsed time. */
int lrs_workload__stop(struct lrs_workload *wl);
/* Kill and reap our readers, unlink the files, rmdir our memcgs. Accepts NULL. */
void lrs_workload__destroy(struct lrs_workload *wl);

size_t lrs_workload__nr_memcgs(const struct lrs_workload *wl);
const struct lrs_workload_memcg *lrs_workload__memcg(const struct lrs_workload *wl, size_t i);
double lrs_workload__elapsed_s(const struct lrs_workload *wl); /* start..stop, or ..now */
uint64_t lrs_workload__bytes(const struct lrs_workload *wl);   /* all readers */
/* Bytes read so far by all readers (while running). */
uint64_t lrs_workload__bytes_now(const struct lrs_workload *wl);

/*
 * Remove leftovers of a killed run: empty memcgs named PREFIX* directly under
 * the hierarchy root (and PREFIXparent/PREFIX*), temp dirs PREFIX* in dir.
 * Only call with a lock held that proves no other user of prefix runs.
 * Returns how many things were removed, or -errno.
 */
int lrs_workload__remove_stale(const struct lrs_workload_opts *opts);

#endif

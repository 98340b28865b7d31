// SPDX-License-Identifier: GPL-2.0
/*
 * The readtwice load in memcgs of our own. See workload.h.
 *
 * Robustness rules: we only ever signal PIDs we forked (or their process
 * group, which they created), only rmdir cgroups we mkdir'ed, only unlink
 * files in the temp dir we made. Readers die with us (PR_SET_PDEATHSIG).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
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

#include "demo/workload.h"

#define READ_CHUNK_BYTES 4096
#define DISK_RESERVE_BYTES (64ULL << 20)	/* sparse files need only metadata */
#define MEM_HEADROOM_PCT 80			/* use at most this much of MemAvailable */
#define RMDIR_TRIES 50				/* x 100 ms while a memcg drains */
#define TMPFS_MAGIC_ 0x01021994
#define RAMFS_MAGIC_ 0x858458f6
#define OVERLAYFS_MAGIC_ 0x794c7630

/* One reader's counters, shared with the parent; a cache line each. */
struct reader_shm {
	_Atomic uint64_t bytes;
	_Atomic int dd_pid;		/* dd mode: the running dd, 0 between runs */
	char pad[64 - sizeof(uint64_t) - sizeof(int)];
};

struct shm_area {
	_Atomic int stop;		/* readers leave their loop */
	char pad[60];
	struct reader_shm readers[];
};

struct reader {
	pid_t pid;
	size_t memcg;			/* index into wl->memcgs */
	size_t file;			/* index into wl->files */
	bool reaped;
	int status;
};

struct lrs_workload {
	struct lrs_workload_opts opts;
	struct lrs_memcg_root root;
	char *parent_fs_path;		/* nest: PREFIXparent, created by us */
	char *cpu_fs_path;		/* v1 cpu cgroup PREFIXcpu, created by us, or NULL */
	struct lrs_workload_memcg *memcgs;
	size_t nr_memcgs;
	char *dir;			/* temp dir, created by us */
	char **files;
	size_t nr_files;
	struct reader *readers;
	size_t nr_readers;
	struct shm_area *shm;
	size_t shm_bytes;
	int go_fd;			/* write end of the start barrier */
	uint64_t t_start_ns, t_stop_ns;
	uint64_t bytes;
};

static const char *const layout_names[] = { "shared", "isolated" };
static const char *const read_names[] = { "4k", "dd" };

const char *lrs_layout__name(enum lrs_layout layout)
{
	return (unsigned int)layout < 2 ? layout_names[layout] : "?";
}

int lrs_layout__parse(const char *s, enum lrs_layout *out)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(s, layout_names[i])) {
			*out = (enum lrs_layout)i;
			return 0;
		}
	return -EINVAL;
}

const char *lrs_read_mode__name(enum lrs_read_mode mode)
{
	return (unsigned int)mode < 2 ? read_names[mode] : "?";
}

int lrs_read_mode__parse(const char *s, enum lrs_read_mode *out)
{
	for (int i = 0; i < 2; i++)
		if (!strcmp(s, read_names[i])) {
			*out = (enum lrs_read_mode)i;
			return 0;
		}
	return -EINVAL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

static int write_file(const char *path, const char *val)
{
	int fd, ret = 0;
	size_t len = strlen(val);

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static bool has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += wl)
		if ((p == list || p[-1] == ' ' || p[-1] == ',') &&
		    (p[wl] == '\0' || p[wl] == ' ' || p[wl] == ',' || p[wl] == '\n'))
			return true;
	return false;
}

int lrs_memcg_root__detect(struct lrs_memcg_root *root, char *err, size_t err_len)
{
	char dev[256], mnt[256], type[64], optbuf[512], ctl[512], path[320];
	char v1[256] = "", v2[256] = "";
	FILE *f;

	f = fopen("/proc/mounts", "re");
	if (!f) {
		set_err(err, err_len, "cannot read /proc/mounts: %s", strerror(errno));
		return -errno;
	}
	while (fscanf(f, "%255s %255s %63s %511s %*d %*d", dev, mnt, type, optbuf) == 4) {
		if (!strcmp(type, "cgroup2") && !v2[0]) {
			snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
			if (!read_file(path, ctl, sizeof(ctl)) && has_word(ctl, "memory"))
				snprintf(v2, sizeof(v2), "%s", mnt);
		} else if (!strcmp(type, "cgroup") && !v1[0] && has_word(optbuf, "memory")) {
			snprintf(v1, sizeof(v1), "%s", mnt);
		}
	}
	fclose(f);
	if (v2[0]) {
		root->version = 2;
		snprintf(root->path, sizeof(root->path), "%s", v2);
		return 0;
	}
	if (v1[0]) {
		root->version = 1;
		snprintf(root->path, sizeof(root->path), "%s", v1);
		return 0;
	}
	set_err(err, err_len, "no cgroup hierarchy has the memory controller (neither a cgroup2 "
		"mount listing it in cgroup.controllers nor a v1 'memory' mount): boot with memcg "
		"enabled (cgroup_enable=memory, not cgroup_disable=memory)");
	return -ENOENT;
}

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

static size_t nr_memcgs_for(const struct lrs_workload_opts *opts)
{
	return opts->layout == LRS_LAYOUT_SHARED ? 1 : lrs_workload__containers(opts->readers);
}

/* Name of memcg i: PREFIXshared or PREFIXcN, under PREFIXparent/ with nest. */
static void memcg_rel_name(const struct lrs_workload_opts *opts, size_t i, char *buf, size_t len)
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

static const char *work_dir(const struct lrs_workload_opts *opts)
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

static int check_root(const struct lrs_workload_opts *opts, struct lrs_memcg_root *root,
		      char *err, size_t err_len)
{
	char path[512], buf[512];
	int ret;

	if (opts->cgroup_root) {
		struct statfs sfs;

		snprintf(root->path, sizeof(root->path), "%s", opts->cgroup_root);
		if (statfs(opts->cgroup_root, &sfs)) {
			set_err(err, err_len, "cgroup root %s: %s", opts->cgroup_root, strerror(errno));
			return -errno;
		}
		root->version = sfs.f_type == 0x63677270 /* CGROUP2_SUPER_MAGIC */ ? 2 : 1;
	} else {
		ret = lrs_memcg_root__detect(root, err, err_len);
		if (ret)
			return ret;
	}
	if (root->version == 1) {
		snprintf(path, sizeof(path), "%s/memory.limit_in_bytes", root->path);
		if (access(path, F_OK)) {
			set_err(err, err_len, "%s has no memory controller (no %s): pass the memory "
				"hierarchy's mount point", root->path, path);
			return -ENOENT;
		}
		return 0;
	}
	/* v2: children of the root get memory.max only if the root delegates it */
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", root->path);
	if (read_file(path, buf, sizeof(buf)) || !has_word(buf, "memory")) {
		set_err(err, err_len, "the memory controller is not enabled for children of %s: "
			"run 'echo +memory > %s' (lruscope only changes cgroups it created)",
			root->path, path);
		return -ENOENT;
	}
	return 0;
}

int lrs_workload__check(const struct lrs_workload_opts *opts, char *err, size_t err_len)
{
	struct lrs_memcg_root root;
	uint64_t total_kb = 0, avail_kb = 0, need_bytes;
	unsigned int containers;
	char name[256], path[600];
	struct statfs sfs;
	struct statvfs svfs;
	const char *dir;
	int ret;

	if (opts->readers == 0) {
		set_err(err, err_len, "--readers must be at least 1 (2 per container, as readtwice)");
		return -EINVAL;
	}
	if (opts->readers > 4096) {
		set_err(err, err_len, "--readers %u: at most 4096", opts->readers);
		return -EINVAL;
	}
	if (opts->file_bytes < READ_CHUNK_BYTES) {
		set_err(err, err_len, "--size %" PRIu64 ": at least %d bytes", opts->file_bytes,
			READ_CHUNK_BYTES);
		return -EINVAL;
	}
	if (opts->limit_bytes < (4ULL << 20)) {
		set_err(err, err_len, "--limit %" PRIu64 ": at least 4m (a memcg below a few MiB "
			"thrashes on its own kernel memory)", opts->limit_bytes);
		return -EINVAL;
	}
	if (!opts->prefix || strncmp(opts->prefix, "lrs-", 4) || strchr(opts->prefix, '/') ||
	    strlen(opts->prefix) > 64) {
		set_err(err, err_len, "--prefix '%s': must start with 'lrs-' (lrs-demo-, lrs-test-) "
			"and hold no '/'", opts->prefix ? opts->prefix : "");
		return -EINVAL;
	}

	containers = lrs_workload__containers(opts->readers);
	if (meminfo_kb("MemTotal", &total_kb) || meminfo_kb("MemAvailable", &avail_kb)) {
		set_err(err, err_len, "cannot read MemTotal/MemAvailable from /proc/meminfo");
		return -EIO;
	}
	if (opts->limit_bytes > total_kb * 1024) {
		set_err(err, err_len, "--limit %" PRIu64 " MiB is larger than RAM (%" PRIu64
			" MiB): choose a smaller limit", opts->limit_bytes >> 20, total_kb >> 10);
		return -EINVAL;
	}
	/* page cache in each memcg grows up to its limit, or the file if smaller */
	need_bytes = (opts->limit_bytes < opts->file_bytes ? opts->limit_bytes : opts->file_bytes) *
		     containers;
	if (need_bytes > avail_kb * 1024 / 100 * MEM_HEADROOM_PCT) {
		set_err(err, err_len, "not enough free memory: %u containers x %" PRIu64 " MiB "
			"need %" PRIu64 " MiB, %" PRIu64 " MiB available (%d%% usable): lower "
			"--readers, --limit or --size", containers,
			(need_bytes / containers) >> 20, need_bytes >> 20, avail_kb >> 10,
			MEM_HEADROOM_PCT);
		return -ENOMEM;
	}

	ret = check_root(opts, &root, err, err_len);
	if (ret)
		return ret;
	for (size_t i = 0; i < nr_memcgs_for(opts); i++) {
		memcg_rel_name(opts, i, name, sizeof(name));
		snprintf(path, sizeof(path), "%s/%s", root.path, name);
		if (!access(path, F_OK)) {
			set_err(err, err_len, "cgroup %s exists: another lruscope workload with prefix "
				"'%s' runs, or one was killed; if none runs, remove it with: rmdir %s",
				path, opts->prefix, path);
			return -EEXIST;
		}
	}
	if (opts->nest) {
		snprintf(path, sizeof(path), "%s/%sparent", root.path, opts->prefix);
		if (!access(path, F_OK)) {
			set_err(err, err_len, "cgroup %s exists: another lruscope workload runs, or "
				"one was killed; if none runs, remove it with: rmdir %s", path, path);
			return -EEXIST;
		}
	}

	dir = work_dir(opts);
	if (statfs(dir, &sfs) || statvfs(dir, &svfs)) {
		set_err(err, err_len, "work directory %s: %s (set LRS_WORKDIR to a directory on a "
			"disk filesystem)", dir, strerror(errno));
		return -errno;
	}
	if (sfs.f_type == TMPFS_MAGIC_ || sfs.f_type == RAMFS_MAGIC_) {
		set_err(err, err_len, "work directory %s is on tmpfs/ramfs, whose pages go to the "
			"anon or unevictable LRU, not the file LRU: set LRS_WORKDIR to a directory "
			"on a disk filesystem (ext4, xfs, btrfs)", dir);
		return -EINVAL;
	}
	if ((uint64_t)svfs.f_bavail * svfs.f_frsize < DISK_RESERVE_BYTES ||
	    svfs.f_favail < containers + 16) {
		set_err(err, err_len, "not enough free disk in %s: %" PRIu64 " MiB and %llu inodes "
			"free, the sparse files need %llu MiB and %u inodes: free some space or set "
			"LRS_WORKDIR", dir, ((uint64_t)svfs.f_bavail * svfs.f_frsize) >> 20,
			(unsigned long long)svfs.f_favail, DISK_RESERVE_BYTES >> 20, containers + 16);
		return -ENOSPC;
	}
	if (access(dir, W_OK)) {
		set_err(err, err_len, "work directory %s is not writable: %s", dir, strerror(errno));
		return -EACCES;
	}
	if (opts->read == LRS_READ_DD && access("/bin/dd", X_OK) && access("/usr/bin/dd", X_OK)) {
		set_err(err, err_len, "--read dd needs dd (coreutils), not found in /bin or /usr/bin");
		return -ENOENT;
	}
	return 0;
}

/* ---- the reader processes ---- */

static void reader_4k(struct lrs_workload *wl, size_t idx, int fd, uint64_t size)
{
	struct reader_shm *rs = &wl->shm->readers[idx];
	char buf[READ_CHUNK_BYTES] __attribute__((aligned(64)));
	uint64_t off = 0, bytes = 0;
	ssize_t n;

	while (!atomic_load_explicit(&wl->shm->stop, memory_order_relaxed)) {
		n = pread(fd, buf, sizeof(buf), (off_t)off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			_exit(3);
		}
		off += (uint64_t)n;
		if (n == 0 || off >= size)
			off = 0;	/* wrap: a run lasts a duration, not one pass */
		bytes += (uint64_t)n;
		atomic_store_explicit(&rs->bytes, bytes, memory_order_relaxed);
	}
	_exit(0);
}

static void reader_dd(struct lrs_workload *wl, size_t idx, const char *file, uint64_t size)
{
	struct reader_shm *rs = &wl->shm->readers[idx];
	char ifarg[PATH_MAX + 8];
	int status, devnull;
	pid_t pid;

	snprintf(ifarg, sizeof(ifarg), "if=%s", file);
	while (!atomic_load_explicit(&wl->shm->stop, memory_order_relaxed)) {
		pid = fork();
		if (pid < 0)
			_exit(4);
		if (pid == 0) {
			devnull = open("/dev/null", O_WRONLY);
			if (devnull >= 0) {
				dup2(devnull, 1);
				dup2(devnull, 2);
			}
			execlp("dd", "dd", "bs=4k", ifarg, "of=/dev/null", (char *)NULL);
			_exit(127);
		}
		atomic_store(&rs->dd_pid, pid);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		atomic_store(&rs->dd_pid, 0);
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
			atomic_fetch_add(&rs->bytes, size);
		else if (!atomic_load(&wl->shm->stop))
			_exit(5);
	}
	_exit(0);
}

/*
 * In the child: own process group (a terminal's ^C goes to the parent, which
 * cleans up), die with the parent, join the memcg, open the file, report
 * ready (0) or an errno, wait for the barrier, read.
 */
static void reader_main(struct lrs_workload *wl, size_t idx, int ready_fd, int go_rd)
{
	struct reader *r = &wl->readers[idx];
	const char *file = wl->files[r->file];
	char path[600], pidbuf[32], c;
	unsigned char code = 0;
	struct stat st;
	int fd = -1;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(6);

	snprintf(path, sizeof(path), "%s/cgroup.procs", wl->memcgs[r->memcg].fs_path);
	snprintf(pidbuf, sizeof(pidbuf), "%d\n", getpid());
	if (write_file(path, pidbuf)) {
		code = (unsigned char)errno ?: EIO;
		goto report;
	}
	if (wl->cpu_fs_path) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", wl->cpu_fs_path);
		if (write_file(path, pidbuf)) {
			code = (unsigned char)errno ?: EIO;
			goto report;
		}
	}
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		code = (unsigned char)errno;
		goto report;
	}
	if (wl->opts.read == LRS_READ_4K)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);	/* no readahead: 4 KiB folios */
report:
	if (write(ready_fd, &code, 1) != 1 || code)
		_exit(7);
	close(ready_fd);
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		;	/* EOF: the parent closed the barrier */
	close(go_rd);
	if (wl->opts.read == LRS_READ_4K)
		reader_4k(wl, idx, fd, (uint64_t)st.st_size);
	close(fd);
	reader_dd(wl, idx, file, (uint64_t)st.st_size);
}

/* ---- create and destroy ---- */

static int make_memcg(struct lrs_workload *wl, const char *rel, struct lrs_workload_memcg *m,
		      char *err, size_t err_len)
{
	char path[600], val[32];
	const char *limit_file;
	struct stat st;
	uint64_t limit;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", wl->root.path, rel);
	if (mkdir(path, 0755)) {
		ret = -errno;
		set_err(err, err_len, "cannot create cgroup %s: %s%s", path, strerror(errno),
			errno == EEXIST ? " (another lruscope workload runs, or remove the leftover "
			"with rmdir)" : "");
		return ret;
	}
	m->fs_path = strdup(path);
	m->cgroup = malloc(strlen(rel) + 2);
	if (!m->fs_path || !m->cgroup)
		return -ENOMEM;
	sprintf(m->cgroup, "/%s", rel);
	if (stat(path, &st))
		return -errno;
	m->id = st.st_ino;

	limit = wl->opts.limit_bytes;
	if (wl->opts.layout == LRS_LAYOUT_SHARED)
		limit *= lrs_workload__containers(wl->opts.readers);	/* same total memory */
	limit_file = wl->root.version == 2 ? "memory.max" : "memory.limit_in_bytes";
	snprintf(path, sizeof(path), "%s/%s", m->fs_path, limit_file);
	snprintf(val, sizeof(val), "%" PRIu64, limit);
	ret = write_file(path, val);
	if (ret) {
		set_err(err, err_len, "cannot set %s to %s: %s", path, val, strerror(-ret));
		return ret;
	}
	if (wl->root.version == 2 && wl->opts.cpu_shares) {
		/* cpu.weight 100 is cpu.shares 1024; best effort: no cpu controller, no weight */
		uint64_t weight = (uint64_t)wl->opts.cpu_shares * 100 / 1024;

		snprintf(path, sizeof(path), "%s/cpu.weight", m->fs_path);
		snprintf(val, sizeof(val), "%" PRIu64, weight < 1 ? 1 : weight > 10000 ? 10000 : weight);
		write_file(path, val);
	}
	return 0;
}

/* v1: a cpu cgroup for all readers with cpu.shares; best effort. */
static void make_cpu_cgroup(struct lrs_workload *wl)
{
	char dev[256], mnt[256], type[64], optbuf[512], path[600], val[32];
	bool found = false;
	FILE *f;

	if (wl->root.version != 1 || !wl->opts.cpu_shares)
		return;
	f = fopen("/proc/mounts", "re");
	while (f && fscanf(f, "%255s %255s %63s %511s %*d %*d", dev, mnt, type, optbuf) == 4)
		if (!strcmp(type, "cgroup") && has_word(optbuf, "cpu")) {
			found = true;
			break;
		}
	if (f)
		fclose(f);
	if (!found)
		return;
	snprintf(path, sizeof(path), "%s/%scpu", mnt, wl->opts.prefix);
	if (mkdir(path, 0755))
		return;	/* exists (another run's) or not allowed: run without it */
	wl->cpu_fs_path = strdup(path);
	if (!wl->cpu_fs_path) {
		rmdir(path);
		return;
	}
	snprintf(path, sizeof(path), "%s/cpu.shares", wl->cpu_fs_path);
	snprintf(val, sizeof(val), "%u", wl->opts.cpu_shares);
	write_file(path, val);
}

static int make_parent(struct lrs_workload *wl, char *err, size_t err_len)
{
	char path[600];
	int ret;

	snprintf(path, sizeof(path), "%s/%sparent", wl->root.path, wl->opts.prefix);
	if (mkdir(path, 0755)) {
		ret = -errno;
		set_err(err, err_len, "cannot create cgroup %s: %s", path, strerror(errno));
		return ret;
	}
	wl->parent_fs_path = strdup(path);
	if (!wl->parent_fs_path)
		return -ENOMEM;
	if (wl->root.version == 2) {
		/* a parent we created: delegate memory to its children */
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", wl->parent_fs_path);
		ret = write_file(path, "+memory");
		if (ret) {
			set_err(err, err_len, "cannot enable +memory in %s: %s", path, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int make_files(struct lrs_workload *wl, char *err, size_t err_len)
{
	unsigned int containers = lrs_workload__containers(wl->opts.readers);
	char tmpl[PATH_MAX];
	int fd, ret;

	snprintf(tmpl, sizeof(tmpl), "%s/%sXXXXXX", work_dir(&wl->opts), wl->opts.prefix);
	if (!mkdtemp(tmpl)) {
		ret = -errno;
		set_err(err, err_len, "cannot create a temp dir in %s: %s", work_dir(&wl->opts),
			strerror(errno));
		return ret;
	}
	wl->dir = strdup(tmpl);
	wl->files = calloc(containers, sizeof(*wl->files));
	if (!wl->dir || !wl->files)
		return -ENOMEM;
	for (unsigned int i = 0; i < containers; i++) {
		if (asprintf(&wl->files[i], "%s/c%u", wl->dir, i) < 0) {
			wl->files[i] = NULL;
			return -ENOMEM;
		}
		wl->nr_files = i + 1;
		fd = open(wl->files[i], O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0) {
			ret = -errno;
			set_err(err, err_len, "cannot create %s: %s", wl->files[i], strerror(errno));
			return ret;
		}
		/* sparse: reads return zeros from the page cache, no disk I/O */
		if (ftruncate(fd, (off_t)wl->opts.file_bytes)) {
			ret = -errno;
			set_err(err, err_len, "cannot size %s to %" PRIu64 " bytes: %s%s", wl->files[i],
				wl->opts.file_bytes, strerror(errno),
				errno == EFBIG || errno == EINVAL ? " (choose a smaller --size)" : "");
			close(fd);
			return ret;
		}
		/* drop any cached pages so the readers charge them to their memcg */
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
	return 0;
}

static int spawn_readers(struct lrs_workload *wl, volatile sig_atomic_t *stop, char *err,
			 size_t err_len)
{
	int ready[2] = { -1, -1 }, go[2] = { -1, -1 }, ret = 0;
	size_t got = 0;
	uint64_t deadline;

	if (pipe2(ready, O_CLOEXEC) || pipe2(go, O_CLOEXEC)) {
		ret = -errno;
		set_err(err, err_len, "pipe: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < wl->nr_readers; i++) {
		struct reader *r = &wl->readers[i];

		r->file = i / 2;
		r->memcg = wl->opts.layout == LRS_LAYOUT_SHARED ? 0 : r->file;
		r->pid = fork();
		if (r->pid < 0) {
			ret = -errno;
			set_err(err, err_len, "fork of reader %zu: %s", i, strerror(errno));
			goto out;
		}
		if (r->pid == 0) {
			close(ready[0]);
			close(go[1]);
			reader_main(wl, i, ready[1], go[0]);
			_exit(0);
		}
		setpgid(r->pid, r->pid);	/* also from here: no race with kill(-pid) */
		struct lrs_workload_memcg *m = &wl->memcgs[r->memcg];
		pid_t *p = realloc(m->pids, (m->nr_pids + 1) * sizeof(*p));
		if (!p) {
			ret = -ENOMEM;
			goto out;
		}
		m->pids = p;
		m->pids[m->nr_pids++] = r->pid;
	}
	close(ready[1]);
	ready[1] = -1;

	deadline = now_ns() + 10ULL * 1000000000ULL;
	while (got < wl->nr_readers) {
		struct pollfd pfd = { .fd = ready[0], .events = POLLIN };
		unsigned char code;
		ssize_t n;

		if (stop && *stop) {
			ret = -EINTR;
			set_err(err, err_len, "interrupted");
			goto out;
		}
		if (now_ns() > deadline) {
			ret = -ETIMEDOUT;
			set_err(err, err_len, "readers not ready after 10 s");
			goto out;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(ready[0], &code, 1);
		if (n == 0) {
			ret = -ECHILD;
			set_err(err, err_len, "a reader died before it was ready");
			goto out;
		}
		if (n < 0)
			continue;
		if (code) {
			ret = -code;
			set_err(err, err_len, "a reader could not join its memcg or open its file: %s",
				strerror(code));
			goto out;
		}
		got++;
	}
	wl->go_fd = go[1];
	go[1] = -1;
out:
	for (int i = 0; i < 2; i++) {
		if (ready[i] >= 0)
			close(ready[i]);
	}
	if (go[0] >= 0)
		close(go[0]);
	if (go[1] >= 0)
		close(go[1]);	/* on failure: releases parked readers, which see stop */
	return ret;
}

int lrs_workload__create(const struct lrs_workload_opts *opts, volatile sig_atomic_t *stop,
			 struct lrs_workload **out, char *err, size_t err_len)
{
	struct lrs_workload *wl;
	char rel[300];
	int ret;

	*out = NULL;
	ret = lrs_workload__check(opts, err, err_len);
	if (ret)
		return ret;
	wl = calloc(1, sizeof(*wl));
	if (!wl)
		return -ENOMEM;
	wl->opts = *opts;
	wl->go_fd = -1;
	wl->nr_readers = opts->readers;
	wl->readers = calloc(wl->nr_readers, sizeof(*wl->readers));
	wl->memcgs = calloc(nr_memcgs_for(opts), sizeof(*wl->memcgs));
	wl->shm_bytes = sizeof(struct shm_area) + wl->nr_readers * sizeof(struct reader_shm);
	wl->shm = mmap(NULL, wl->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		       -1, 0);
	if (wl->shm == MAP_FAILED)
		wl->shm = NULL;
	if (!wl->readers || !wl->memcgs || !wl->shm) {
		ret = -ENOMEM;
		set_err(err, err_len, "out of memory");
		goto fail;
	}
	ret = check_root(opts, &wl->root, err, err_len);
	if (ret)
		goto fail;
	if (opts->nest) {
		ret = make_parent(wl, err, err_len);
		if (ret)
			goto fail;
	}
	for (size_t i = 0; i < nr_memcgs_for(opts); i++) {
		memcg_rel_name(opts, i, rel, sizeof(rel));
		wl->nr_memcgs = i + 1;
		ret = make_memcg(wl, rel, &wl->memcgs[i], err, err_len);
		if (ret)
			goto fail;
	}
	make_cpu_cgroup(wl);
	ret = make_files(wl, err, err_len);
	if (ret)
		goto fail;
	ret = spawn_readers(wl, stop, err, err_len);
	if (ret)
		goto fail;
	*out = wl;
	return 0;
fail:
	lrs_workload__destroy(wl);
	return ret;
}

int lrs_workload__start(struct lrs_workload *wl)
{
	if (wl->go_fd < 0)
		return -EINVAL;
	wl->t_start_ns = now_ns();
	wl->t_stop_ns = 0;
	close(wl->go_fd);	/* EOF on the barrier: every reader starts now */
	wl->go_fd = -1;
	return 0;
}

static bool reader_alive(struct reader *r)
{
	pid_t p;

	if (r->reaped)
		return false;
	p = waitpid(r->pid, &r->status, WNOHANG);
	if (p == r->pid) {
		r->reaped = true;
		return false;
	}
	return true;
}

bool lrs_workload__healthy(struct lrs_workload *wl)
{
	for (size_t i = 0; i < wl->nr_readers; i++)
		if (!reader_alive(&wl->readers[i]))
			return false;
	return true;
}

int lrs_workload__wait(struct lrs_workload *wl, double duration_s, volatile sig_atomic_t *stop,
		       char *err, size_t err_len)
{
	uint64_t end = now_ns() + (uint64_t)(duration_s * 1e9);

	while (now_ns() < end) {
		if (stop && *stop)
			return 0;
		if (!lrs_workload__healthy(wl)) {
			set_err(err, err_len, "a reader exited early (see dmesg for an OOM kill; "
				"a larger --limit may help)");
			return -ECHILD;
		}
		uint64_t left_ms = (end - now_ns()) / 1000000;
		sleep_ms(left_ms < 100 ? (unsigned int)left_ms + 1 : 100);
	}
	return 0;
}

/* Bytes read by the running dd of a dd-mode reader: its rchar. */
static uint64_t dd_rchar(pid_t pid)
{
	char path[64], buf[512];
	char *p;

	snprintf(path, sizeof(path), "/proc/%d/io", pid);
	if (read_file(path, buf, sizeof(buf)))
		return 0;
	p = strstr(buf, "rchar:");
	return p ? strtoull(p + 6, NULL, 10) : 0;
}

int lrs_workload__stop(struct lrs_workload *wl)
{
	uint64_t deadline;

	if (!wl->t_start_ns || wl->t_stop_ns)
		return -EINVAL;
	atomic_store(&wl->shm->stop, 1);
	wl->t_stop_ns = now_ns();
	wl->bytes = 0;
	for (size_t i = 0; i < wl->nr_memcgs; i++)
		wl->memcgs[i].bytes = 0;
	for (size_t i = 0; i < wl->nr_readers; i++) {
		struct reader_shm *rs = &wl->shm->readers[i];
		uint64_t b = atomic_load(&rs->bytes);
		int dd = atomic_load(&rs->dd_pid);

		if (dd > 0)
			b += dd_rchar(dd);
		wl->memcgs[wl->readers[i].memcg].bytes += b;
		wl->bytes += b;
	}
	/* 4k readers see the flag within a read; dd is killed with its group */
	deadline = now_ns() + 1000000000ULL;
	for (size_t i = 0; i < wl->nr_readers; i++) {
		struct reader *r = &wl->readers[i];

		if (wl->opts.read == LRS_READ_DD && reader_alive(r))
			kill(-r->pid, SIGKILL);
		while (reader_alive(r) && now_ns() < deadline)
			sleep_ms(5);
	}
	return 0;
}

static void reap_all(struct lrs_workload *wl)
{
	if (wl->shm)
		atomic_store(&wl->shm->stop, 1);
	if (wl->go_fd >= 0) {
		close(wl->go_fd);	/* parked readers start, see stop, exit */
		wl->go_fd = -1;
	}
	for (size_t i = 0; i < wl->nr_readers; i++) {
		struct reader *r = &wl->readers[i];

		if (r->pid <= 0 || r->reaped)
			continue;
		/* our pid, not reaped yet: its number (and group) cannot be reused */
		kill(-r->pid, SIGKILL);
		kill(r->pid, SIGKILL);
		while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
			;
		r->reaped = true;
	}
}

static void rmdir_retry(const char *path)
{
	for (int i = 0; i < RMDIR_TRIES; i++) {
		if (!rmdir(path) || errno == ENOENT)
			return;
		if (errno != EBUSY)
			break;
		sleep_ms(100);	/* exiting tasks still charged: the memcg drains */
	}
	fprintf(stderr, "lruscope: could not remove cgroup %s: %s; remove it with: rmdir %s\n",
		path, strerror(errno), path);
}

void lrs_workload__destroy(struct lrs_workload *wl)
{
	if (!wl)
		return;
	reap_all(wl);
	/* files first: unlinking frees their page cache, so the memcgs empty */
	for (size_t i = 0; i < wl->nr_files; i++) {
		if (wl->files[i])
			unlink(wl->files[i]);
		free(wl->files[i]);
	}
	free(wl->files);
	if (wl->dir && rmdir(wl->dir))
		fprintf(stderr, "lruscope: could not remove %s: %s\n", wl->dir, strerror(errno));
	free(wl->dir);
	for (size_t i = wl->nr_memcgs; i-- > 0;) {
		struct lrs_workload_memcg *m = &wl->memcgs[i];

		if (m->fs_path)
			rmdir_retry(m->fs_path);
		free(m->fs_path);
		free(m->cgroup);
		free(m->pids);
	}
	free(wl->memcgs);
	if (wl->parent_fs_path)
		rmdir_retry(wl->parent_fs_path);
	free(wl->parent_fs_path);
	if (wl->cpu_fs_path)
		rmdir_retry(wl->cpu_fs_path);
	free(wl->cpu_fs_path);
	if (wl->shm)
		munmap(wl->shm, wl->shm_bytes);
	free(wl->readers);
	free(wl);
}

size_t lrs_workload__nr_memcgs(const struct lrs_workload *wl)
{
	return wl->nr_memcgs;
}

const struct lrs_workload_memcg *lrs_workload__memcg(const struct lrs_workload *wl, size_t i)
{
	return i < wl->nr_memcgs ? &wl->memcgs[i] : NULL;
}

double lrs_workload__elapsed_s(const struct lrs_workload *wl)
{
	if (!wl->t_start_ns)
		return 0;
	return (double)((wl->t_stop_ns ? wl->t_stop_ns : now_ns()) - wl->t_start_ns) / 1e9;
}

uint64_t lrs_workload__bytes(const struct lrs_workload *wl)
{
	return wl->bytes;
}

uint64_t lrs_workload__bytes_now(const struct lrs_workload *wl)
{
	uint64_t b = 0;

	if (wl->t_stop_ns)
		return wl->bytes;
	for (size_t i = 0; i < wl->nr_readers; i++)
		b += atomic_load_explicit(&wl->shm->readers[i].bytes, memory_order_relaxed);
	return b;
}

/* NAME is PREFIX + one of the names create uses: shared, parent, cpu, c<N>. */
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
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
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
		if (!strcmp(type, "cgroup") && has_word(optbuf, "cpu")) {
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
	struct lrs_memcg_root root;
	char err[256];
	int removed;

	if (!opts->prefix || strncmp(opts->prefix, "lrs-", 4) || strlen(opts->prefix) < 5)
		return -EINVAL;
	/* files first, so the stale memcgs hold no page cache */
	removed = remove_prefixed_dirs(work_dir(opts), opts->prefix, false);
	removed += remove_stale_cpu(opts->prefix);
	if (check_root(opts, &root, err, sizeof(err)))
		return removed;
	return removed + remove_prefixed_dirs(root.path, opts->prefix, true);
}

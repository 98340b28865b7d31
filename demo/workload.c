// SPDX-License-Identifier: GPL-2.0
/*
 * The readtwice load in memcgs of our own (see workload.h): create, start,
 * wait, stop, destroy. The checks, the readers and the stale-leftover removal
 * are in workload_check.c, workload_reader.c and workload_stale.c, the file
 * helpers they share in workload_files.c.
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

#include "demo/workload_files.h"
#include "demo/workload_internal.h"

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

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ---- create and destroy ---- */

static int make_memcg(struct lrs_workload *wl, const char *rel, struct lrs_workload_memcg *m,
		      char *err, size_t err_len)
{
	char path[WL_PATH_BYTES], val[32];
	const char *limit_file;
	struct stat st;
	uint64_t limit;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", wl->root.path, rel);
	if (mkdir(path, 0755)) {
		ret = -errno;
		lrs_wl__set_err(err, err_len, "cannot create cgroup %s: %s%s", path,
				strerror(errno),
				errno == EEXIST ?
					" (another lruscope workload runs, or remove the leftover "
					"with rmdir)" :
					"");
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
		limit *= lrs_workload__containers(wl->opts.readers); /* same total memory */
	limit_file = wl->root.version == 2 ? "memory.max" : "memory.limit_in_bytes";
	snprintf(path, sizeof(path), "%s/%s", m->fs_path, limit_file);
	snprintf(val, sizeof(val), "%" PRIu64, limit);
	ret = lrs_wl__write_file(path, val);
	if (ret) {
		lrs_wl__set_err(err, err_len, "cannot set %s to %s: %s", path, val, strerror(-ret));
		return ret;
	}
	if (wl->root.version == 2 && wl->opts.cpu_shares) {
		/* cpu.weight 100 is cpu.shares 1024; best effort: no cpu controller, no weight */
		uint64_t weight = (uint64_t)wl->opts.cpu_shares * 100 / 1024;

		snprintf(path, sizeof(path), "%s/cpu.weight", m->fs_path);
		snprintf(val, sizeof(val), "%" PRIu64,
			 weight < 1	? 1 :
			 weight > 10000 ? 10000 :
					  weight);
		lrs_wl__write_file(path, val);
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
		if (!strcmp(type, "cgroup") && lrs_wl__has_word(optbuf, "cpu")) {
			found = true;
			break;
		}
	if (f)
		fclose(f);
	if (!found)
		return;
	snprintf(path, sizeof(path), "%s/%scpu", mnt, wl->opts.prefix);
	if (mkdir(path, 0755))
		return; /* exists (another run's) or not allowed: run without it */
	wl->cpu_fs_path = strdup(path);
	if (!wl->cpu_fs_path) {
		rmdir(path);
		return;
	}
	snprintf(path, sizeof(path), "%s/cpu.shares", wl->cpu_fs_path);
	snprintf(val, sizeof(val), "%u", wl->opts.cpu_shares);
	lrs_wl__write_file(path, val);
}

static int make_parent(struct lrs_workload *wl, char *err, size_t err_len)
{
	char path[WL_PATH_BYTES];
	int ret;

	snprintf(path, sizeof(path), "%s/%sparent", wl->root.path, wl->opts.prefix);
	if (mkdir(path, 0755)) {
		ret = -errno;
		lrs_wl__set_err(err, err_len, "cannot create cgroup %s: %s", path, strerror(errno));
		return ret;
	}
	wl->parent_fs_path = strdup(path);
	if (!wl->parent_fs_path)
		return -ENOMEM;
	if (wl->root.version == 2) {
		/* a parent we created: delegate memory to its children */
		snprintf(path, sizeof(path), "%s/cgroup.subtree_control", wl->parent_fs_path);
		ret = lrs_wl__write_file(path, "+memory");
		if (ret) {
			lrs_wl__set_err(err, err_len, "cannot enable +memory in %s: %s", path,
					strerror(-ret));
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

	snprintf(tmpl, sizeof(tmpl), "%s/%sXXXXXX", lrs_wl__work_dir(&wl->opts), wl->opts.prefix);
	if (!mkdtemp(tmpl)) {
		ret = -errno;
		lrs_wl__set_err(err, err_len, "cannot create a temp dir in %s: %s",
				lrs_wl__work_dir(&wl->opts), strerror(errno));
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
			lrs_wl__set_err(err, err_len, "cannot create %s: %s", wl->files[i],
					strerror(errno));
			return ret;
		}
		/* sparse: reads return zeros from the page cache, no disk I/O */
		if (ftruncate(fd, (off_t)wl->opts.file_bytes)) {
			ret = -errno;
			lrs_wl__set_err(err, err_len, "cannot size %s to %" PRIu64 " bytes: %s%s",
					wl->files[i], wl->opts.file_bytes, strerror(errno),
					errno == EFBIG || errno == EINVAL ?
						" (choose a smaller --size)" :
						"");
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
		lrs_wl__set_err(err, err_len, "pipe: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < wl->nr_readers; i++) {
		struct reader *r = &wl->readers[i];

		r->file = i / 2;
		r->memcg = wl->opts.layout == LRS_LAYOUT_SHARED ? 0 : r->file;
		r->pid = fork();
		if (r->pid < 0) {
			ret = -errno;
			lrs_wl__set_err(err, err_len, "fork of reader %zu: %s", i, strerror(errno));
			goto out;
		}
		if (r->pid == 0) {
			close(ready[0]);
			close(go[1]);
			lrs_wl__reader_main(wl, i, ready[1], go[0]);
			_exit(0);
		}
		setpgid(r->pid, r->pid); /* also from here: no race with kill(-pid) */
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

	deadline = lrs_now_ns() + 10ULL * 1000000000ULL;
	while (got < wl->nr_readers) {
		struct pollfd pfd = { .fd = ready[0], .events = POLLIN };
		unsigned char code;
		ssize_t n;

		if (stop && *stop) {
			ret = -EINTR;
			lrs_wl__set_err(err, err_len, "interrupted");
			goto out;
		}
		if (lrs_now_ns() > deadline) {
			ret = -ETIMEDOUT;
			lrs_wl__set_err(err, err_len, "readers not ready after 10 s");
			goto out;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(ready[0], &code, 1);
		if (n == 0) {
			ret = -ECHILD;
			lrs_wl__set_err(err, err_len, "a reader died before it was ready");
			goto out;
		}
		if (n < 0)
			continue;
		if (code) {
			ret = -code;
			lrs_wl__set_err(err, err_len,
					"a reader could not join its memcg or open its file: %s",
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
		close(go[1]); /* on failure: releases parked readers, which see stop */
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
	wl->memcgs = calloc(lrs_wl__nr_memcgs_for(opts), sizeof(*wl->memcgs));
	wl->shm_bytes = sizeof(struct shm_area) + wl->nr_readers * sizeof(struct reader_shm);
	wl->shm = mmap(NULL, wl->shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		       0);
	if (wl->shm == MAP_FAILED)
		wl->shm = NULL;
	if (!wl->readers || !wl->memcgs || !wl->shm) {
		ret = -ENOMEM;
		lrs_wl__set_err(err, err_len, "out of memory");
		goto fail;
	}
	ret = lrs_wl__check_root(opts, &wl->root, err, err_len);
	if (ret)
		goto fail;
	if (opts->nest) {
		ret = make_parent(wl, err, err_len);
		if (ret)
			goto fail;
	}
	for (size_t i = 0; i < lrs_wl__nr_memcgs_for(opts); i++) {
		lrs_wl__memcg_rel_name(opts, i, rel, sizeof(rel));
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
	wl->t_start_ns = lrs_now_ns();
	wl->t_stop_ns = 0;
	close(wl->go_fd); /* EOF on the barrier: every reader starts now */
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
	uint64_t end = lrs_now_ns() + (uint64_t)(duration_s * 1e9);

	while (lrs_now_ns() < end) {
		if (stop && *stop)
			return 0;
		if (!lrs_workload__healthy(wl)) {
			lrs_wl__set_err(err, err_len,
					"a reader exited early (see dmesg for an OOM kill; "
					"a larger --limit may help)");
			return -ECHILD;
		}
		uint64_t left_ms = (end - lrs_now_ns()) / 1000000;
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
	if (lrs_wl__read_file(path, buf, sizeof(buf)))
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
	wl->t_stop_ns = lrs_now_ns();
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
	deadline = lrs_now_ns() + 1000000000ULL;
	for (size_t i = 0; i < wl->nr_readers; i++) {
		struct reader *r = &wl->readers[i];

		if (wl->opts.read == LRS_READ_DD && reader_alive(r))
			kill(-r->pid, SIGKILL);
		while (reader_alive(r) && lrs_now_ns() < deadline)
			sleep_ms(5);
	}
	return 0;
}

static void reap_all(struct lrs_workload *wl)
{
	if (wl->shm)
		atomic_store(&wl->shm->stop, 1);
	if (wl->go_fd >= 0) {
		close(wl->go_fd); /* parked readers start, see stop, exit */
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
		sleep_ms(100); /* exiting tasks still charged: the memcg drains */
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
	return (double)((wl->t_stop_ns ? wl->t_stop_ns : lrs_now_ns()) - wl->t_start_ns) / 1e9;
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

// SPDX-License-Identifier: GPL-2.0
/* The workload's reader processes: 4 KiB preads or dd, each in its memcg. */
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
			off = 0; /* wrap: a run lasts a duration, not one pass */
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
void lrs_wl__reader_main(struct lrs_workload *wl, size_t idx, int ready_fd, int go_rd)
{
	struct reader *r = &wl->readers[idx];
	const char *file = wl->files[r->file];
	char path[WL_PATH_BYTES], pidbuf[32], c;
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
	if (lrs_wl__write_file(path, pidbuf)) {
		code = (unsigned char)errno ?: EIO;
		goto report;
	}
	if (wl->cpu_fs_path) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", wl->cpu_fs_path);
		if (lrs_wl__write_file(path, pidbuf)) {
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
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM); /* no readahead: 4 KiB folios */
report:
	if (write(ready_fd, &code, 1) != 1 || code)
		_exit(7);
	close(ready_fd);
	while (read(go_rd, &c, 1) < 0 && errno == EINTR)
		; /* EOF: the parent closed the barrier */
	close(go_rd);
	if (wl->opts.read == LRS_READ_4K)
		reader_4k(wl, idx, fd, (uint64_t)st.st_size);
	close(fd);
	reader_dd(wl, idx, file, (uint64_t)st.st_size);
}

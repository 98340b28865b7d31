// SPDX-License-Identifier: GPL-2.0
/* Opening a recording by name: a FIFO waits for its writer at most a bound. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/time.h>

#include "collector/replay/input_open.h"

static volatile sig_atomic_t ticks;

static void on_tick(int sig)
{
	(void)sig;
	ticks++;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A blocking open() of a FIFO returns once a writer opened it (at once when
 * one has, as for a shell's <(...)). A repeating timer interrupts it: one
 * tick that came just before open() was entered cannot make it wait forever.
 * An interruption without a tick is someone else's signal (Ctrl-C): given up.
 */
static int open_fifo(const char *path, unsigned int wait_s)
{
	struct sigaction sa, old_sa;
	struct itimerval tick = { { 0, 100000 }, { 0, 100000 } }, off = {}, old_it;
	double deadline = now_s() + wait_s;
	int fd, e;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_tick; /* no SA_RESTART: open() must return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, &old_sa);
	setitimer(ITIMER_REAL, &tick, &old_it);
	for (;;) {
		sig_atomic_t before = ticks;

		fd = open(path, O_RDONLY | O_CLOEXEC);
		e = errno;
		if (fd >= 0 || e != EINTR)
			break;
		if (ticks == before) {
			e = EINTR;
			break;
		}
		if (now_s() >= deadline) {
			e = ETIMEDOUT;
			break;
		}
	}
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old_sa, NULL);
	setitimer(ITIMER_REAL, &old_it, NULL);
	return fd >= 0 ? fd : -e;
}

static const char *kind_of(mode_t mode)
{
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int lrs_input__open(const char *path, unsigned int wait_s, char *err, size_t err_len)
{
	struct stat st;
	int fd;

	if (stat(path, &st)) {
		fd = -errno;
		snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
		return fd;
	}
	if (S_ISDIR(st.st_mode)) {
		snprintf(err, err_len,
			 "%s: is a directory, not a recording: name a file "
			 "('lruscope record -o FILE' makes one)",
			 path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
		snprintf(err, err_len,
			 "%s: is %s, not a recording: name a file, or pipe the "
			 "recording into '-'",
			 path, kind_of(st.st_mode));
		return -EINVAL;
	}
	fd = S_ISFIFO(st.st_mode) ? open_fifo(path, wait_s) : open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -ETIMEDOUT)
		snprintf(err, err_len,
			 "%s: a FIFO that no writer opened in %u s: start the "
			 "recorder writing into it first (lruscope record -o %s), or name a file",
			 path, wait_s, path);
	else if (fd == -EINTR)
		snprintf(err, err_len,
			 "%s: interrupted while waiting for a writer to open the FIFO", path);
	else if (fd < 0)
		snprintf(err, err_len, "%s: cannot open: %s", path, strerror(-fd));
	return fd;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The lab's causes guest (tests/lab/causes.t): one kernel path that takes lruvec locks,
 * driven in a loop for SECS seconds, by a task the guest script has put in a memcg and
 * pinned to a CPU. Busybox has no tool for these syscalls; the test builds this with
 * gcc -static and packs it into the initramfs.
 *
 *   lrs-paths read SECS FILE OFF LEN       4 KiB preads over the range, no readahead
 *   lrs-paths activate SECS FILE OFF LEN   rounds of: this task reads the range (adds,
 *                                          alone), one thread on each CPU reads it again
 *                                          (folio_activate, all at once), this task drops it
 *   lrs-paths pageout SECS FILE OFF LEN    map the range shared, touch it, MADV_PAGEOUT
 *   lrs-paths mlock SECS LEN               anonymous memory, mlock and munlock in turn
 *   lrs-paths migrate SECS LEN             anonymous memory, move_pages(2) to the other node
 *   lrs-paths fragment SECS LEN            anonymous memory with every other page freed,
 *                                          made anew every second
 *   lrs-paths compact SECS                 write /proc/sys/vm/compact_memory
 *
 * Prints "lrs-paths MODE: N rounds" at the end; exit 1 on a failed syscall (named).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096UL
#define MPOL_MF_MOVE (1 << 1)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *mode, const char *what)
{
	fprintf(stderr, "lrs-paths %s: %s failed: %s\n", mode, what, strerror(errno));
	exit(1);
}

/* activate: the range, and a barrier the readers and the task that loads and drops it share */
static struct {
	int fd;
	off_t off;
	size_t len;
	double end;
	pthread_barrier_t go, done;
} act;

static void read_pages(int fd, off_t off, size_t len, int times, const char *mode)
{
	char buf[PAGE];

	for (size_t at = 0; at < len; at += PAGE)
		for (int t = 0; t < times; t++)
			if (pread(fd, buf, PAGE, off + (off_t)at) < 0)
				die(mode, "pread");
}

static char *anon(size_t len, const char *mode)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die(mode, "mmap");
	for (size_t at = 0; at < len; at += PAGE)
		p[at] = 1;
	return p;
}

/* One round of a file mode on fd's range. */
static void file_round(const char *mode, int fd, off_t off, size_t len)
{
	if (!strcmp(mode, "read")) {
		read_pages(fd, off, len, 1, mode);
	} else if (!strcmp(mode, "activate")) {
		/* alone: the adds and the drop contend with no one */
		read_pages(fd, off, len, 1, mode);
		pthread_barrier_wait(&act.go);
		pthread_barrier_wait(&act.done);
		if (posix_fadvise(fd, off, (off_t)len, POSIX_FADV_DONTNEED))
			die(mode, "posix_fadvise(DONTNEED)");
	} else {
		volatile char sum = 0;
		char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, off);

		if (p == MAP_FAILED)
			die(mode, "mmap");
		for (size_t at = 0; at < len; at += PAGE)
			sum += p[at];
		if (madvise(p, len, MADV_PAGEOUT))
			die(mode, "madvise(MADV_PAGEOUT)");
		munmap(p, len);
	}
}

/* A reader of activate, pinned to its CPU: reads the range once a round (the second access
 * of each folio, on the LRU and referenced: folio_activate) */
static void *activate_reader(void *arg)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET((int)(long)arg, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	for (;;) {
		pthread_barrier_wait(&act.go);
		if (now_s() < act.end)
			read_pages(act.fd, act.off, act.len, 1, "activate");
		pthread_barrier_wait(&act.done);
	}
	return NULL;
}

static void start_readers(int fd, off_t off, size_t len, double end)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	act.fd = fd;
	act.off = off;
	act.len = len;
	act.end = end;
	if (pthread_barrier_init(&act.go, NULL, (unsigned)ncpu + 1) ||
	    pthread_barrier_init(&act.done, NULL, (unsigned)ncpu + 1))
		die("activate", "pthread_barrier_init");
	for (long c = 0; c < ncpu; c++) {
		pthread_t t;

		if (pthread_create(&t, NULL, activate_reader, (void *)c))
			die("activate", "pthread_create");
		pthread_detach(t);
	}
}

static void migrate_round(char *p, size_t len, long round)
{
	static void **pages;
	static int *nodes, *status;
	size_t n = len / PAGE;

	if (!pages) {
		pages = calloc(n, sizeof(*pages));
		nodes = calloc(n, sizeof(*nodes));
		status = calloc(n, sizeof(*status));
		if (!pages || !nodes || !status)
			die("migrate", "calloc");
	}
	for (size_t i = 0; i < n; i++) {
		pages[i] = p + i * PAGE;
		nodes[i] = (int)(round & 1);
	}
	if (syscall(SYS_move_pages, 0, n, pages, nodes, status, MPOL_MF_MOVE) < 0)
		die("migrate", "move_pages");
}

/* every other page freed: holes between the pages compaction moves */
static void fragment_round(size_t len)
{
	char *p = anon(len, "fragment");

	for (size_t at = 0; at < len; at += 2 * PAGE)
		madvise(p + at, PAGE, MADV_DONTNEED);
	sleep(1);
	munmap(p, len);
}

static void compact_round(void)
{
	int fd = open("/proc/sys/vm/compact_memory", O_WRONLY);

	if (fd < 0 || write(fd, "1", 1) != 1)
		die("compact", "writing /proc/sys/vm/compact_memory");
	close(fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	double secs = argc > 2 ? atof(argv[2]) : 0, end;
	bool file = !strcmp(mode, "read") || !strcmp(mode, "activate") || !strcmp(mode, "pageout");
	bool compact = !strcmp(mode, "compact");
	size_t len;
	long rounds = 0;
	char *p = NULL;
	int fd = -1;
	off_t off = 0;

	if ((file && argc != 6) || (compact && argc != 3) || (!file && !compact && argc != 4) ||
	    secs <= 0) {
		fprintf(stderr, "usage: lrs-paths read|activate|pageout SECS FILE OFF LEN\n"
				"       lrs-paths mlock|migrate|fragment SECS LEN\n"
				"       lrs-paths compact SECS\n");
		return 2;
	}
	len = compact ? 0 : strtoul(argv[file ? 5 : 3], NULL, 0) & ~(PAGE - 1);
	if (file) {
		fd = open(argv[3], O_RDONLY);
		if (fd < 0)
			die(mode, argv[3]);
		off = (off_t)strtoul(argv[4], NULL, 0);
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	} else if (!strcmp(mode, "mlock") || !strcmp(mode, "migrate")) {
		p = anon(len, mode);
	} else if (!compact && strcmp(mode, "fragment")) {
		fprintf(stderr, "lrs-paths: unknown mode '%s'\n", mode);
		return 2;
	}
	end = now_s() + secs;
	if (!strcmp(mode, "activate"))
		start_readers(fd, off, len, end);
	while (now_s() < end) {
		if (file) {
			file_round(mode, fd, off, len);
		} else if (!strcmp(mode, "mlock")) {
			if (mlock(p, len))
				die(mode, "mlock");
			if (munlock(p, len))
				die(mode, "munlock");
		} else if (!strcmp(mode, "migrate")) {
			migrate_round(p, len, rounds);
		} else if (compact) {
			compact_round();
		} else {
			fragment_round(len);
		}
		rounds++;
	}
	printf("lrs-paths %s: %ld rounds\n", mode, rounds);
	return 0;
}

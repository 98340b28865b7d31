// SPDX-License-Identifier: GPL-2.0
/*
 * Waits on a process's own mmap_lock, for tests/integration/report.t: THREADS
 * threads of one process map 64 KiB of anonymous memory, touch it and unmap
 * it, in a loop, for SECS seconds. Each mmap and munmap takes the mm's
 * mmap_lock for writing; a fault that finds its VMA changing takes it for
 * reading: an rwsem the threads queue on.
 *
 *   lrs-mmap-load THREADS SECS
 *
 * Prints "lrs-mmap-load: N maps" at the end; exit 1 on a failed syscall (named).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define MAP_LEN (64 * 1024)
#define MAX_THREADS 64

static double run_secs;

static double now_secs(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void *map_loop(void *arg)
{
	double end = now_secs() + run_secs;
	unsigned long maps = 0;

	(void)arg;
	while (now_secs() < end) {
		for (int i = 0; i < 64; i++, maps++) {
			char *p = mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED) {
				perror("lrs-mmap-load: mmap");
				exit(1);
			}
			p[0] = 1;
			if (munmap(p, MAP_LEN)) {
				perror("lrs-mmap-load: munmap");
				exit(1);
			}
		}
	}
	return (void *)maps;
}

int main(int argc, char **argv)
{
	pthread_t threads[MAX_THREADS];
	unsigned long total = 0;
	int nr;

	if (argc != 3 || (nr = atoi(argv[1])) < 1 || nr > MAX_THREADS ||
	    (run_secs = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: lrs-mmap-load THREADS(1-%d) SECS\n", MAX_THREADS);
		return 2;
	}
	for (int i = 0; i < nr; i++) {
		int err = pthread_create(&threads[i], NULL, map_loop, NULL);

		if (err) {
			fprintf(stderr, "lrs-mmap-load: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (int i = 0; i < nr; i++) {
		void *maps;

		pthread_join(threads[i], &maps);
		total += (unsigned long)maps;
	}
	printf("lrs-mmap-load: %lu maps\n", total);
	return 0;
}

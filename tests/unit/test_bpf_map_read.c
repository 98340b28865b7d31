// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's map readers on real BPF maps of this kernel: the batched
 * reads give every entry once with its value, past the first allocation, and
 * the same as the paths a kernel without batch ops takes (key by key, element
 * by element). Needs root (or CAP_BPF): skipped, saying so, without it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "collector/live/bpf_map_read.h"

/* more than the readers' first allocation (1,024 entries): they must grow */
#define NR_KEYS 3000
#define NR_SLOTS 300

struct key {
	uint64_t addr;
	uint32_t cgid;
	uint32_t pad;
};

static int nr_cpus;

/* A map of this kernel's, or a skip that says why there is none. */
static int map_or_skip(enum bpf_map_type type, size_t key_size, size_t value_size, uint32_t max)
{
	int fd = bpf_map_create(type, "lrs_test_read", (uint32_t)key_size, (uint32_t)value_size,
				max, NULL);

	if (fd < 0) {
		fprintf(stderr, "# skip: creating a BPF map failed (%s): needs root or CAP_BPF\n",
			strerror(errno));
		skip();
	}
	return fd;
}

static uint64_t value_of(uint64_t key, int cpu)
{
	return key * 1000003u + (uint64_t)cpu * 7 + 1;
}

static struct key key_of(int i)
{
	return (struct key){ .addr = 0xffff888000000000ull + (uint64_t)i * 64,
			     .cgid = (uint32_t)i % 7 };
}

/* Checks a read of the hash filled below: each key once, with its value. */
static void check_hash_read(const struct key *keys, const uint64_t *values, size_t nr, int copies)
{
	char *seen = calloc(NR_KEYS, 1);

	assert_non_null(seen);
	assert_int_equal(nr, NR_KEYS);
	for (size_t i = 0; i < nr; i++) {
		uint64_t n = (keys[i].addr - 0xffff888000000000ull) / 64;

		assert_true(n < NR_KEYS);
		assert_int_equal(keys[i].cgid, n % 7);
		assert_int_equal(seen[n], 0);
		seen[n] = 1;
		for (int c = 0; c < copies; c++)
			assert_int_equal(values[i * (size_t)copies + (size_t)c], value_of(n, c));
	}
	free(seen);
}

static void fill_hash(int fd, int copies)
{
	uint64_t *v = calloc((size_t)copies, sizeof(*v));

	assert_non_null(v);
	for (int i = 0; i < NR_KEYS; i++) {
		struct key k = key_of(i);

		for (int c = 0; c < copies; c++)
			v[c] = value_of((uint64_t)i, c);
		assert_int_equal(bpf_map_update_elem(fd, &k, v, BPF_ANY), 0);
	}
	free(v);
}

static void read_hash_both_ways(enum bpf_map_type type, int copies)
{
	int fd = map_or_skip(type, sizeof(struct key), sizeof(uint64_t), NR_KEYS * 2);
	size_t value_size = sizeof(uint64_t) * (size_t)copies, nr = 0;
	void *keys = NULL, *values = NULL;

	fill_hash(fd, copies);
	assert_int_equal(
		lrs_bpf_map__read_all(fd, sizeof(struct key), value_size, &keys, &values, &nr), 0);
	check_hash_read(keys, values, nr, copies);
	free(keys);
	free(values);
	assert_int_equal(lrs_bpf_map__read_all_by_key(fd, sizeof(struct key), value_size, &keys,
						      &values, &nr),
			 0);
	check_hash_read(keys, values, nr, copies);
	free(keys);
	free(values);
	close(fd);
}

static void test_hash(void **state)
{
	(void)state;
	read_hash_both_ways(BPF_MAP_TYPE_HASH, 1);
}

static void test_percpu_hash(void **state)
{
	(void)state;
	read_hash_both_ways(BPF_MAP_TYPE_PERCPU_HASH, nr_cpus);
}

/* A per-CPU array read up to a slot below its end, batched and element by element, the same. */
static void test_percpu_array(void **state)
{
	int fd = map_or_skip(BPF_MAP_TYPE_PERCPU_ARRAY, sizeof(uint32_t), sizeof(uint64_t),
			     NR_SLOTS);
	size_t value_size = sizeof(uint64_t) * (size_t)nr_cpus;
	uint32_t nr = NR_SLOTS - 37; /* the highest slot in use, as the collector reads */
	uint64_t *v = calloc((size_t)nr_cpus, sizeof(*v));
	uint64_t *batched = calloc(NR_SLOTS + 1, value_size), *each = calloc(nr, value_size);

	(void)state;
	assert_true(v && batched && each);
	for (uint32_t i = 0; i < NR_SLOTS; i++) {
		for (int c = 0; c < nr_cpus; c++)
			v[c] = value_of(i, c);
		assert_int_equal(bpf_map_update_elem(fd, &i, v, BPF_ANY), 0);
	}
	assert_int_equal(lrs_bpf_map__read_array(fd, nr, value_size, batched), 0);
	assert_int_equal(lrs_bpf_map__read_array_by_elem(fd, nr, value_size, each), 0);
	for (uint32_t i = 0; i < nr; i++)
		for (int c = 0; c < nr_cpus; c++)
			assert_int_equal(batched[i * (size_t)nr_cpus + (size_t)c], value_of(i, c));
	assert_memory_equal(batched, each, nr * value_size);
	/* past the array's end: an error, never a short read taken for the whole */
	assert_int_not_equal(lrs_bpf_map__read_array(fd, NR_SLOTS + 1, value_size, batched), 0);
	assert_int_not_equal(lrs_bpf_map__read_array_by_elem(fd, NR_SLOTS + 1, value_size, batched),
			     0);
	free(v);
	free(batched);
	free(each);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_percpu_hash),
		cmocka_unit_test(test_percpu_array),
	};

	nr_cpus = libbpf_num_possible_cpus();
	if (nr_cpus <= 0) {
		fprintf(stderr, "test_bpf_map_read: libbpf_num_possible_cpus failed (%d)\n",
			nr_cpus);
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}

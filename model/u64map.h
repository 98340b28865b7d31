/* SPDX-License-Identifier: GPL-2.0 */
/* A small open-addressing map from u64 keys to size_t values (indices). */
#ifndef LRS_U64MAP_H
#define LRS_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct u64map_slot {
	uint64_t key;
	size_t value;
	bool used;
};

struct u64map {
	struct u64map_slot *slots;
	size_t cap; /* a power of two */
	size_t len;
};

void u64map__init(struct u64map *map);
void u64map__clear(struct u64map *map); /* keeps the memory */
void u64map__destroy(struct u64map *map);
/* Insert or overwrite. Returns 0 or -ENOMEM. */
int u64map__set(struct u64map *map, uint64_t key, size_t value);
/* Returns true and sets *value when key is present. */
bool u64map__get(const struct u64map *map, uint64_t key, size_t *value);

/* Combine two keys into one (memcg id and node, lock address and cgroup id). */
static inline uint64_t u64map__key2(uint64_t a, uint64_t b)
{
	return a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL + (a << 6) + (a >> 2));
}

#endif

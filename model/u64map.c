// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/u64map.h"

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return (size_t)key & (cap - 1);
}

void u64map__init(struct u64map *map)
{
	memset(map, 0, sizeof(*map));
}

void u64map__clear(struct u64map *map)
{
	if (map->slots)
		memset(map->slots, 0, map->cap * sizeof(*map->slots));
	map->len = 0;
}

void u64map__destroy(struct u64map *map)
{
	free(map->slots);
	u64map__init(map);
}

static int grow(struct u64map *map)
{
	size_t new_cap = map->cap ? map->cap * 2 : 64;
	struct u64map_slot *old = map->slots, *slots = calloc(new_cap, sizeof(*slots));
	size_t old_cap = map->cap;

	if (!slots)
		return -ENOMEM;
	map->slots = slots;
	map->cap = new_cap;
	map->len = 0;
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].used)
			u64map__set(map, old[i].key, old[i].value);
	free(old);
	return 0;
}

int u64map__set(struct u64map *map, uint64_t key, size_t value)
{
	size_t i;

	/* keep the load under 1/2 so probes stay short */
	if ((map->len + 1) * 2 > map->cap && grow(map))
		return -ENOMEM;
	for (i = slot_of(key, map->cap);; i = (i + 1) & (map->cap - 1)) {
		if (!map->slots[i].used) {
			map->slots[i].used = true;
			map->slots[i].key = key;
			map->slots[i].value = value;
			map->len++;
			return 0;
		}
		if (map->slots[i].key == key) {
			map->slots[i].value = value;
			return 0;
		}
	}
}

bool u64map__get(const struct u64map *map, uint64_t key, size_t *value)
{
	if (!map->cap)
		return false;
	for (size_t i = slot_of(key, map->cap);; i = (i + 1) & (map->cap - 1)) {
		if (!map->slots[i].used)
			return false;
		if (map->slots[i].key == key) {
			*value = map->slots[i].value;
			return true;
		}
	}
}

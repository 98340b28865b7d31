// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>

#include "collector/live/bpf_map_read.h"

/*
 * Entries in the first allocation: 1,024, fewer for large values (a per-CPU
 * map's value is one copy per CPU: 30 KB a lock on 104 CPUs), at most 1 MiB.
 */
static size_t first_cap(size_t key_size, size_t value_size)
{
	size_t n = ((size_t)1 << 20) / (key_size + value_size);

	return n > 1024 ? 1024 : n < 16 ? 16 : n;
}

static int grow(char **keys, char **values, size_t *cap, size_t key_size, size_t value_size)
{
	size_t ncap = *cap ? *cap * 2 : first_cap(key_size, value_size);
	char *k = realloc(*keys, ncap * key_size), *v;

	if (!k)
		return -ENOMEM;
	*keys = k;
	v = realloc(*values, ncap * value_size);
	if (!v)
		return -ENOMEM;
	*values = v;
	*cap = ncap;
	return 0;
}

static int read_batched(int fd, size_t key_size, size_t value_size, char **keys, char **values,
			size_t *cap, size_t *nr)
{
	DECLARE_LIBBPF_OPTS(bpf_map_batch_opts, opts);
	char in[64], out[64]; /* the batch token: a key-sized cursor */
	void *in_p = NULL;

	for (;;) {
		__u32 count;
		int ret;

		/* room for a batch: a quarter of the first allocation at least */
		if (*cap - *nr < first_cap(key_size, value_size) / 4 &&
		    grow(keys, values, cap, key_size, value_size))
			return -ENOMEM;
		count = (__u32)(*cap - *nr);
		ret = bpf_map_lookup_batch(fd, in_p, out, *keys + *nr * key_size,
					   *values + *nr * value_size, &count, &opts);
		if (ret && errno != ENOENT) {
			if (errno == ENOSPC) { /* a bucket larger than the room left */
				if (grow(keys, values, cap, key_size, value_size))
					return -ENOMEM;
				continue;
			}
			return -errno;
		}
		*nr += count;
		if (ret) /* ENOENT: that was the last batch */
			return 0;
		memcpy(in, out, sizeof(in));
		in_p = in;
	}
}

static int read_by_key(int fd, size_t key_size, size_t value_size, char **keys, char **values,
		       size_t *cap, size_t *nr)
{
	char prev[64], cur[64];
	void *prev_p = NULL;

	while (bpf_map_get_next_key(fd, prev_p, cur) == 0) {
		if (*nr == *cap && grow(keys, values, cap, key_size, value_size))
			return -ENOMEM;
		memcpy(prev, cur, key_size);
		prev_p = prev;
		/* an entry deleted since get_next_key is simply not there */
		if (bpf_map_lookup_elem(fd, cur, *values + *nr * value_size) == 0) {
			memcpy(*keys + *nr * key_size, cur, key_size);
			(*nr)++;
		}
	}
	return 0;
}

/*
 * The errors of a kernel without batch ops on this map type. 524 is the
 * kernel's own ENOTSUPP: 5.10 returns it for a per-CPU array.
 */
static bool no_batch_ops(int err)
{
	return err == -EINVAL || err == -ENOTSUP || err == -EOPNOTSUPP || err == -524;
}

static int read_all(int fd, size_t key_size, size_t value_size, bool batch, void **keys_out,
		    void **values_out, size_t *nr_out)
{
	char *keys = NULL, *values = NULL;
	size_t cap = 0, nr = 0;
	int ret = 0;

	if (key_size > 64)
		return -EINVAL;
	if (batch)
		ret = read_batched(fd, key_size, value_size, &keys, &values, &cap, &nr);
	if (!batch || no_batch_ops(ret)) {
		nr = 0; /* asked for, or no batch ops on this kernel: start over key by key */
		ret = read_by_key(fd, key_size, value_size, &keys, &values, &cap, &nr);
	}
	if (ret) {
		free(keys);
		free(values);
		return ret;
	}
	*keys_out = keys;
	*values_out = values;
	*nr_out = nr;
	return 0;
}

int lrs_bpf_map__read_all(int fd, size_t key_size, size_t value_size, void **keys, void **values,
			  size_t *nr)
{
	return read_all(fd, key_size, value_size, true, keys, values, nr);
}

int lrs_bpf_map__read_all_by_key(int fd, size_t key_size, size_t value_size, void **keys,
				 void **values, size_t *nr)
{
	return read_all(fd, key_size, value_size, false, keys, values, nr);
}

/* Reads the array in batches into VALUES; DONE is how many elements it read. */
static int read_array_batched(int fd, __u32 nr, size_t value_size, void *values, __u32 *done)
{
	DECLARE_LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 in = 0, out = 0, *keys = calloc(nr ? nr : 1, sizeof(*keys));
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	while (*done < nr) {
		__u32 count = nr - *done;

		ret = bpf_map_lookup_batch(fd, *done ? &in : NULL, &out, keys + *done,
					   (char *)values + *done * value_size, &count, &opts);
		if (ret && errno != ENOENT) {
			ret = -errno;
			break;
		}
		ret = 0;
		*done += count;
		in = out;
		if (!count)
			break;
	}
	free(keys);
	return ret;
}

int lrs_bpf_map__read_array(int fd, __u32 nr, size_t value_size, void *values)
{
	__u32 done = 0;
	int ret = read_array_batched(fd, nr, value_size, values, &done);

	if (done == 0 && no_batch_ops(ret)) /* no batch ops on this kernel */
		return lrs_bpf_map__read_array_by_elem(fd, nr, value_size, values);
	if (!ret && done < nr)
		ret = -EIO; /* an array has every element: a short read is an error */
	return ret;
}

int lrs_bpf_map__read_array_by_elem(int fd, __u32 nr, size_t value_size, void *values)
{
	for (__u32 i = 0; i < nr; i++)
		if (bpf_map_lookup_elem(fd, &i, (char *)values + i * value_size))
			return -errno;
	return 0;
}

int lrs_bpf_map__drain(int fd, size_t key_size, size_t value_size, void **keys, void **values,
		       size_t *nr)
{
	int ret = lrs_bpf_map__read_all(fd, key_size, value_size, keys, values, nr);

	for (size_t i = 0; !ret && i < *nr; i++) {
		char *key = (char *)*keys + i * key_size, *value = (char *)*values + i * value_size;

		/* ENOENT: gone since the read, the value read stands */
		if (bpf_map_lookup_and_delete_elem(fd, key, value) && errno != ENOENT)
			bpf_map_delete_elem(fd, key);
	}
	return ret;
}

/* SPDX-License-Identifier: GPL-2.0 */
/* Read BPF maps whole: counters without deleting anything, names by draining. */
#ifndef LRS_BPF_MAP_READ_H
#define LRS_BPF_MAP_READ_H

#include <stddef.h>
#include <linux/types.h>

/*
 * Copies all keys and values into new arrays (caller frees both). Uses batch
 * lookups (a few syscalls for thousands of entries) and falls back to
 * key-by-key reads where the kernel has no batch ops. Returns 0 or -errno.
 */
int lrs_bpf_map__read_all(int fd, size_t key_size, size_t value_size, void **keys, void **values,
			  size_t *nr);

/*
 * Elements [0, nr) of a BPF array (per-CPU: value_size is all CPUs' copies)
 * into values, nr x value_size bytes: batch lookups, or element by element
 * where the kernel has none for this map type. Returns 0 or -errno.
 */
int lrs_bpf_map__read_array(int fd, __u32 nr, size_t value_size, void *values);

/*
 * The paths the two above take on a kernel without batch ops (key by key,
 * element by element), on any kernel: the tests compare them with the
 * batched ones.
 */
int lrs_bpf_map__read_all_by_key(int fd, size_t key_size, size_t value_size, void **keys,
				 void **values, size_t *nr);
int lrs_bpf_map__read_array_by_elem(int fd, __u32 nr, size_t value_size, void *values);

/*
 * Like read_all, and each entry read is deleted with its latest value: one
 * updated between the read and the delete keeps its update. For maps of
 * records that are consumed once (names), never for counters.
 */
int lrs_bpf_map__drain(int fd, size_t key_size, size_t value_size, void **keys, void **values,
		       size_t *nr);

#endif

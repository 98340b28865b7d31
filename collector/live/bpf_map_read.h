/* SPDX-License-Identifier: GPL-2.0 */
/* Read every entry of a BPF hash map: counters without deleting anything, names by draining. */
#ifndef LRS_BPF_MAP_READ_H
#define LRS_BPF_MAP_READ_H

#include <stddef.h>

/*
 * Copies all keys and values into new arrays (caller frees both). Uses batch
 * lookups (a few syscalls for thousands of entries) and falls back to
 * key-by-key reads where the kernel has no batch ops. Returns 0 or -errno.
 */
int lrs_bpf_map__read_all(int fd, size_t key_size, size_t value_size, void **keys, void **values,
			  size_t *nr);

/*
 * The same, and each entry read is deleted with its latest value: one
 * updated between the read and the delete keeps its update. For maps of
 * records that are consumed once (names), never for counters.
 */
int lrs_bpf_map__drain(int fd, size_t key_size, size_t value_size, void **keys, void **values,
		       size_t *nr);

#endif

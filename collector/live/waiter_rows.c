// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/live/bpf_map_read.h"
#include "collector/live/waiter_rows.h"

/*
 * The waiter rows with a slot in waiter_counts: waiter_slots' keys with their
 * identity, each row's copies per CPU summed. rows has room for extra more.
 */
static int read_slot_waiters(const struct lrs_waiter_maps *m, size_t extra,
			     struct lrs_waiter_read **rows, size_t *n)
{
	struct waiter_key *keys = NULL;
	struct waiter_slot *slots = NULL;
	char *copies = NULL;
	size_t stride = lrs_percpu__stride(sizeof(struct waiter_count));
	__u32 hi = 0;
	int ret;

	*rows = NULL;
	ret = lrs_bpf_map__read_all(m->slots_fd, sizeof(*keys), sizeof(*slots), (void **)&keys,
				    (void **)&slots, n);
	if (ret)
		return ret;
	for (size_t i = 0; i < *n; i++)
		hi = slots[i].slot >= hi ? slots[i].slot + 1 : hi;
	copies = malloc(hi ? hi * stride * m->nr_cpus : 1);
	*rows = calloc(*n + extra ? *n + extra : 1, sizeof(**rows));
	if (!copies || !*rows) {
		ret = -ENOMEM;
		goto out;
	}
	ret = lrs_bpf_map__read_array(m->counts_fd, hi, stride * (size_t)m->nr_cpus, copies);
	if (ret)
		goto out;
	for (size_t i = 0; i < *n; i++) {
		struct lrs_waiter_read *r = &(*rows)[i];
		struct waiter_count c;

		lrs_percpu__merge_waiter_count(copies + slots[i].slot * stride * m->nr_cpus, stride,
					       m->nr_cpus, &c);
		r->key = keys[i];
		r->stat.contended = c.contended;
		r->stat.wait_ns = c.wait_ns;
		r->stat.waiter_cgid = keys[i].waiter_cgid;
		memcpy(r->stat.comm, slots[i].comm, sizeof(r->stat.comm));
	}
out:
	if (ret) {
		free(*rows);
		*rows = NULL;
	}
	free(keys);
	free(slots);
	free(copies);
	return ret;
}

/* Every waiter row: the per-CPU ones, and the shared table's added to them. */
int lrs_waiter_rows__read(const struct lrs_waiter_maps *m, struct lrs_waiter_read **rows, size_t *n)
{
	struct waiter_key *shk = NULL;
	char *shv = NULL;
	size_t nsh = 0;
	int ret;

	ret = lrs_bpf_map__read_all(m->shared_fd, sizeof(*shk), sizeof(struct waiter_stat),
				    (void **)&shk, (void **)&shv, &nsh);
	if (ret)
		return ret;
	ret = read_slot_waiters(m, nsh, rows, n);
	if (!ret)
		*n = lrs_percpu__add_shared_waiters(*rows, *n, shk, shv, sizeof(struct waiter_stat),
						    nsh);
	free(shk);
	free(shv);
	return ret;
}

/*
 * Check mode, once detached: each per-CPU waiter row against the counts of
 * the same waits in waiter_check, counted by key in a shared table.
 */
void lrs_waiter_rows__check(const struct lrs_waiter_maps *m)
{
	struct waiter_key *keys = NULL, *shk = NULL;
	struct waiter_count *counts = NULL;
	struct lrs_waiter_read *rows = NULL;
	size_t n = 0, nc = 0, agreed = 0, disagreed = 0, nsh = 0;
	char *shv = NULL;
	unsigned long long waits = 0;
	int ret;

	ret = read_slot_waiters(m, 0, &rows, &n);
	if (!ret)
		ret = lrs_bpf_map__read_all(m->shared_fd, sizeof(*shk), sizeof(struct waiter_stat),
					    (void **)&shk, (void **)&shv, &nsh);
	if (!ret)
		ret = lrs_bpf_map__read_all(m->check_fd, sizeof(*keys), sizeof(*counts),
					    (void **)&keys, (void **)&counts, &nc);
	if (ret) {
		fprintf(stderr, "lruscope: waiter rows check: reading the rows failed: %s\n",
			strerror(-ret));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct waiter_count *c = NULL;

		for (size_t j = 0; j < nc && !c; j++)
			if (!memcmp(&keys[j], &rows[i].key, sizeof(keys[j])))
				c = &counts[j];
		if (c && c->contended == rows[i].stat.contended &&
		    c->wait_ns == rows[i].stat.wait_ns)
			agreed++;
		else
			disagreed++;
		waits += rows[i].stat.contended;
	}
	fprintf(stderr,
		"lruscope: waiter rows check: %zu per-CPU rows agreed, %zu disagreed (%llu waits), "
		"with %zu rows counted by key; %zu rows in the shared table\n",
		agreed, disagreed, waits, nc, nsh);
out:
	free(shk);
	free(shv);
	free(rows);
	free(keys);
	free(counts);
}

// SPDX-License-Identifier: GPL-2.0
/* Holders from the live collector's maps into a snapshot. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/live/attribute.h"
#include "model/holders.h"
#include "model/snapshot_holders.h"
#include "collector/live/holders_live.h"
#include "collector/live/holders_exact.h"
#include "collector/live/lock_collector.h"
#include "model/u64map.h"

struct names_ctx {
	const struct lrs_path_memory *paths;
	const struct lrs_lockstat_read *rd;
	struct u64map waiter_index; /* (lock, owner, pid) -> rd->waiters[] */
	char comm[LRS_COMM_LEN];    /* holder_comm()'s answer from /proc */
};

static uint64_t waiter_key(uint64_t lock, uint64_t owner, uint32_t pid)
{
	return u64map__key2(u64map__key2(lock, owner), pid);
}

static const char *memcg_path(void *ctx, uint64_t cgid)
{
	const struct names_ctx *nc = ctx;

	return cgid ? lrs_path_memory__get(nc->paths, cgid) : NULL;
}

/*
 * A holder from the FIFO chain was a waiter on the same lock just before: its
 * comm is there. One seen running (rule 2) may never have waited: /proc has it
 * while the task lives (a thread's id works as a pid there).
 */
static const char *holder_comm(void *ctx, uint64_t lock, uint64_t owner, uint32_t pid)
{
	struct names_ctx *nc = ctx;
	char path[64];
	size_t i;
	FILE *f;

	if (u64map__get(&nc->waiter_index, waiter_key(lock, owner, pid), &i))
		return nc->rd->waiters[i].comm;
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(nc->comm, sizeof(nc->comm), f))
		nc->comm[0] = '\0';
	fclose(f);
	nc->comm[strcspn(nc->comm, "\n")] = '\0';
	return nc->comm[0] ? nc->comm : NULL;
}

/* Add stack id to snap->stacks unless there already. */
static int add_stack(struct lrs_snapshot *snap, int32_t id, const struct lrs_ksyms *ksyms,
		     const struct lrs_stack_source *src)
{
	uint64_t ips[LRS_STACK_DEPTH];
	struct lrs_stack *st;
	int n;

	if (id < 0 || lrs_snapshot__find_stack(snap, id) || !src || !src->ips)
		return 0;
	n = src->ips(src->ctx, id, ips);
	if (n <= 0)
		return 0;
	st = lrs_snapshot__add_stack(snap);
	if (!st)
		return -ENOMEM;
	st->id = id;
	return lrs_stack__symbolize(st, ips, n, ksyms);
}

int lrs_holders__collect(struct lrs_lockstat *ls, const struct lrs_holders_exact *exact,
			 const struct lrs_lockstat_read *rd, struct lrs_path_memory *paths,
			 const struct lrs_ksyms *ksyms, const struct lrs_stack_source *stacks,
			 struct lrs_snapshot *snap)
{
	struct names_ctx nc = { .paths = paths, .rd = rd };
	struct lrs_holders_names names = { .memcg = memcg_path, .comm = holder_comm, .ctx = &nc };
	struct lrs_holders_read hrd;
	int err;

	u64map__init(&nc.waiter_index);
	err = lrs_lockstat__read_holders(ls, &hrd);
	if (err)
		goto out;
	lrs_holders_exact__counters(exact, &hrd.counters.exact_acquisitions,
				    &hrd.counters.exact_drop_full);
	err = -ENOMEM;
	for (size_t i = 0; i < rd->nr_waiters; i++)
		if (u64map__set(&nc.waiter_index,
				waiter_key(rd->waiters[i].lock_addr, rd->waiters[i].owner_cgid,
					   rd->waiters[i].pid),
				i))
			goto out;
	err = lrs_holders__attach(snap, &hrd, exact ? LRS_HOLDERS_EXACT : LRS_HOLDERS_ESTIMATED,
				  &names);
	/* stacks of the top holders only: the views show a few per lruvec */
	for (size_t i = 0, shown = 0; !err && i < snap->holders->nr_rows; i++) {
		const struct lrs_holder_row *r = &snap->holders->rows[i];

		shown = i && r->lruvec_memcg_id == r[-1].lruvec_memcg_id && r->node == r[-1].node ?
				shown + 1 :
				0;
		if (shown < 4)
			err = add_stack(snap, r->stack_id, ksyms, stacks);
	}
out:
	lrs_holders_read__clear(&hrd);
	u64map__destroy(&nc.waiter_index);
	return err;
}

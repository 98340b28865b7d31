// SPDX-License-Identifier: GPL-2.0
/* The kernel path behind a sampled lruvec-lock stack: the table and the classifier. */
#include <stdio.h>
#include <string.h>

#include "model/causes.h"
#include "model/holders.h"

static const char *const cause_keys[LRS_NR_CAUSES] = {
	[LRS_CAUSE_LRU_ADD_DRAIN] = "lru_add_drain",
	[LRS_CAUSE_ACTIVATION] = "activation",
	[LRS_CAUSE_RECLAIM] = "reclaim",
	[LRS_CAUSE_ISOLATION] = "isolation",
	[LRS_CAUSE_MEMCG_MOVE] = "memcg_move",
	[LRS_CAUSE_MLOCK] = "mlock",
	[LRS_CAUSE_NOTE_COST] = "lru_note_cost",
	[LRS_CAUSE_THP_SPLIT] = "thp_split",
	[LRS_CAUSE_FOLIO_FREE] = "folio_free",
	[LRS_CAUSE_UNCLASSIFIED] = "unclassified",
};

static const char *const cause_titles[LRS_NR_CAUSES] = {
	[LRS_CAUSE_LRU_ADD_DRAIN] = "lru-add drain",
	[LRS_CAUSE_ACTIVATION] = "activation",
	[LRS_CAUSE_RECLAIM] = "reclaim",
	[LRS_CAUSE_ISOLATION] = "isolation",
	[LRS_CAUSE_MEMCG_MOVE] = "memcg move",
	[LRS_CAUSE_MLOCK] = "mlock",
	[LRS_CAUSE_NOTE_COST] = "lru_note_cost",
	[LRS_CAUSE_THP_SPLIT] = "thp split",
	[LRS_CAUSE_FOLIO_FREE] = "folio free",
	[LRS_CAUSE_UNCLASSIFIED] = "unclassified",
};

/*
 * THE TABLE: function -> cause. A trailing '*' matches a prefix. Versions
 * say which kernels spell a function so (page spelling before the folio
 * conversions of 5.16 .. 6.3, folio spelling after); a name kept as a
 * wrapper after its rename stays listed, it still shows in stacks.
 *
 * Left out on purpose: folio_batch_move_lru (6.0+) and pagevec_lru_move_fn
 * (5.11 .. 5.19) move whatever per-CPU batch they are handed, adds as well
 * as activations and deactivations; their caller names the cause
 * (lru_add_drain_cpu: a drain, folio_activate: an activation).
 */
static const struct cause_entry {
	const char *func;
	enum lrs_cause cause;
} cause_table[] = {
	/* per-CPU LRU batches flushed to the lists: adds, drains, deactivation, rotation */
	{ "lru_add_drain*", LRS_CAUSE_LRU_ADD_DRAIN }, /* 5.11+: _cpu, _all, _per_cpu, _cpu_zone */
	{ "lru_add_and_bh_lrus_drain", LRS_CAUSE_LRU_ADD_DRAIN }, /* 5.12+ */
	{ "__pagevec_lru_add", LRS_CAUSE_LRU_ADD_DRAIN },	  /* 5.11 .. 5.19 */
	{ "lru_cache_add*", LRS_CAUSE_LRU_ADD_DRAIN }, /* 5.11 .. 6.2; _inactive_or_unevictable */
	{ "folio_add_lru*", LRS_CAUSE_LRU_ADD_DRAIN }, /* 5.16+; _vma */
	{ "__folio_batch_add_and_move", LRS_CAUSE_LRU_ADD_DRAIN }, /* 6.10+ */
	{ "rotate_reclaimable_page", LRS_CAUSE_LRU_ADD_DRAIN },	   /* 5.11 .. 5.15 */
	{ "folio_rotate_reclaimable", LRS_CAUSE_LRU_ADD_DRAIN },   /* 5.16+ */
	{ "deactivate_file_page", LRS_CAUSE_LRU_ADD_DRAIN },	   /* 5.11 .. 6.0 */
	{ "deactivate_file_folio", LRS_CAUSE_LRU_ADD_DRAIN },	   /* 6.0+ */
	{ "deactivate_page", LRS_CAUSE_LRU_ADD_DRAIN },		   /* 5.11 .. 6.3 */
	{ "folio_deactivate", LRS_CAUSE_LRU_ADD_DRAIN },	   /* 6.3+ */
	{ "mark_page_lazyfree", LRS_CAUSE_LRU_ADD_DRAIN },	   /* 5.11 .. 6.3 */
	{ "folio_mark_lazyfree", LRS_CAUSE_LRU_ADD_DRAIN },	   /* 6.3+ */
	/* activation: a second access moves a folio to the active list */
	{ "activate_page", LRS_CAUSE_ACTIVATION },	 /* 5.11 .. 5.17 */
	{ "folio_activate", LRS_CAUSE_ACTIVATION },	 /* 5.18+ */
	{ "mark_page_accessed", LRS_CAUSE_ACTIVATION },	 /* 5.11 .. 5.15, then a wrapper */
	{ "folio_mark_accessed", LRS_CAUSE_ACTIVATION }, /* 5.16+ */
	/* reclaim: isolating from and putting back to the lists, MGLRU aging and eviction */
	{ "shrink_active_list", LRS_CAUSE_RECLAIM },   /* 5.11+ */
	{ "shrink_inactive_list", LRS_CAUSE_RECLAIM }, /* 5.11+ */
	{ "isolate_lru_pages", LRS_CAUSE_RECLAIM },    /* 5.11 .. 6.2 */
	{ "isolate_lru_folios", LRS_CAUSE_RECLAIM },   /* 6.3+ */
	{ "move_pages_to_lru", LRS_CAUSE_RECLAIM },    /* 5.11 .. 6.2 */
	{ "move_folios_to_lru", LRS_CAUSE_RECLAIM },   /* 6.3+ */
	{ "evict_folios", LRS_CAUSE_RECLAIM },	       /* 6.1+, MGLRU */
	{ "inc_max_seq", LRS_CAUSE_RECLAIM },	       /* 6.1+, MGLRU aging */
	{ "try_to_inc_max_seq", LRS_CAUSE_RECLAIM },   /* 6.1+, MGLRU aging */
	{ "walk_mm", LRS_CAUSE_RECLAIM },	       /* 6.1+, MGLRU page table walk */
	/* the lock taken in a caller above when a build inlines the list shrinkers (6.1) */
	{ "shrink_lruvec", LRS_CAUSE_RECLAIM }, /* 5.11+ */
	{ "shrink_node", LRS_CAUSE_RECLAIM },	/* 5.11+ */
	/* isolation for migration and compaction */
	{ "isolate_lru_page", LRS_CAUSE_ISOLATION },	       /* 5.11 .. 6.3 */
	{ "folio_isolate_lru", LRS_CAUSE_ISOLATION },	       /* 5.16+ */
	{ "isolate_migratepages_block", LRS_CAUSE_ISOLATION }, /* 5.11+, compaction and CMA */
	{ "compact_lock_irqsave", LRS_CAUSE_ISOLATION },       /* 5.11+, its lock helper */
	/* memcg charge moving (cgroup v1) and reparenting of a removed memcg's folios */
	{ "mem_cgroup_move_account", LRS_CAUSE_MEMCG_MOVE }, /* 5.11 .. 6.10 */
	{ "memcg_reparent_objcgs", LRS_CAUSE_MEMCG_MOVE },   /* 5.11+ */
	{ "__memcg_reparent_objcgs", LRS_CAUSE_MEMCG_MOVE }, /* with LRU folio reparenting */
	{ "reparent_locks", LRS_CAUSE_MEMCG_MOVE },	     /* with LRU folio reparenting */
	{ "lru_reparent_memcg", LRS_CAUSE_MEMCG_MOVE },	     /* with LRU folio reparenting */
	{ "lru_gen_reparent_memcg", LRS_CAUSE_MEMCG_MOVE },  /* the same, MGLRU */
	/* mlock and munlock, and rescuing folios from the unevictable list */
	{ "munlock_vma_page", LRS_CAUSE_MLOCK },	      /* 5.11 .. 5.17 */
	{ "__munlock_pagevec", LRS_CAUSE_MLOCK },	      /* 5.11 .. 5.17 */
	{ "mlock_pagevec", LRS_CAUSE_MLOCK },		      /* 5.18 .. 6.1 */
	{ "__mlock_page", LRS_CAUSE_MLOCK },		      /* 5.18 .. 6.1 */
	{ "__mlock_new_page", LRS_CAUSE_MLOCK },	      /* 5.18 .. 6.1 */
	{ "__munlock_page", LRS_CAUSE_MLOCK },		      /* 5.18 .. 6.1 */
	{ "mlock_folio_batch", LRS_CAUSE_MLOCK },	      /* 6.2+ */
	{ "__mlock_folio", LRS_CAUSE_MLOCK },		      /* 6.2+ */
	{ "__mlock_new_folio", LRS_CAUSE_MLOCK },	      /* 6.2+ */
	{ "__munlock_folio", LRS_CAUSE_MLOCK },		      /* 6.2+ */
	{ "mlock_folio", LRS_CAUSE_MLOCK },		      /* 6.2+ */
	{ "munlock_folio", LRS_CAUSE_MLOCK },		      /* 6.2+ */
	{ "mlock_drain_*", LRS_CAUSE_MLOCK },		      /* 5.18+: _local, _remote */
	{ "check_move_unevictable_pages", LRS_CAUSE_MLOCK },  /* 5.11 .. 6.1 */
	{ "check_move_unevictable_folios", LRS_CAUSE_MLOCK }, /* 6.2+ */
	/* reclaim cost, charged to the lruvec and every ancestor's */
	{ "lru_note_cost*", LRS_CAUSE_NOTE_COST }, /* 5.11+; _page, _folio, _refault */
	/* huge page splits */
	{ "__split_huge_page", LRS_CAUSE_THP_SPLIT },		      /* 5.11 .. 6.14 */
	{ "split_huge_page_to_list*", LRS_CAUSE_THP_SPLIT },	      /* 5.11+; _to_order 6.8+ */
	{ "__folio_split", LRS_CAUSE_THP_SPLIT },		      /* 6.15+ */
	{ "__split_unmapped_folio", LRS_CAUSE_THP_SPLIT },	      /* 6.15+ */
	{ "__folio_freeze_and_split_unmapped", LRS_CAUSE_THP_SPLIT }, /* 6.18+ */
	/* freeing dead folios, e.g. the last reference dropped by an LRU add drain */
	{ "release_pages", LRS_CAUSE_FOLIO_FREE },	  /* 5.11+, a wrapper from 6.9 */
	{ "folios_put_refs", LRS_CAUSE_FOLIO_FREE },	  /* 6.9+ */
	{ "__page_cache_release", LRS_CAUSE_FOLIO_FREE }, /* 5.11+ */
	{ "page_cache_release", LRS_CAUSE_FOLIO_FREE },	  /* 6.9+ */
	{ "__put_single_page", LRS_CAUSE_FOLIO_FREE },	  /* 5.11 .. 5.19 */
	{ "__folio_put*", LRS_CAUSE_FOLIO_FREE },	  /* 5.16+; _small, _large */
};

const char *lrs_cause__key(enum lrs_cause cause)
{
	return (unsigned)cause < LRS_NR_CAUSES ? cause_keys[cause] : "?";
}

const char *lrs_cause__title(enum lrs_cause cause)
{
	return (unsigned)cause < LRS_NR_CAUSES ? cause_titles[cause] : "?";
}

/*
 * The function name of a frame: "sym+0x1a" or "sym.isra.0+0x1a" is "sym"
 * (compiler clones keep the name before the first dot).
 */
static size_t frame_name_len(const char *frame)
{
	return strcspn(frame, "+.");
}

static bool entry_matches(const struct cause_entry *e, const char *frame, size_t len)
{
	size_t n = strlen(e->func);

	if (n && e->func[n - 1] == '*')
		return len >= n - 1 && !strncmp(frame, e->func, n - 1);
	return len == n && !strncmp(frame, e->func, n);
}

enum lrs_cause lrs_cause__classify(char *const *frames, size_t nr_frames)
{
	for (size_t f = 0; f < nr_frames; f++) {
		size_t len;

		if (!frames[f])
			continue;
		len = frame_name_len(frames[f]);
		for (size_t i = 0; i < sizeof(cause_table) / sizeof(cause_table[0]); i++)
			if (entry_matches(&cause_table[i], frames[f], len))
				return cause_table[i].cause;
	}
	return LRS_CAUSE_UNCLASSIFIED;
}

void lrs_causes__add(struct lrs_causes *c, const struct lrs_snapshot *snap, int32_t stack_id,
		     uint64_t contended, uint64_t wait_ns)
{
	const struct lrs_stack *st = snap ? lrs_snapshot__find_stack(snap, stack_id) : NULL;
	enum lrs_cause cause = st ? lrs_cause__classify(st->frames, st->nr_frames) :
				    LRS_CAUSE_UNCLASSIFIED;

	c->by[cause].contended += contended;
	c->by[cause].wait_ns += wait_ns;
	c->contended += contended;
	c->wait_ns += wait_ns;
}

static uint64_t since(uint64_t cur, uint64_t prev)
{
	return cur >= prev ? cur - prev : cur;
}

void lrs_causes__of_lruvec(const struct lrs_snapshot *snap, const struct lrs_lruvec *lv,
			   const struct lrs_lruvec *prev, struct lrs_causes *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; lv && i < lv->nr_stacks; i++) {
		const struct lrs_stack_use *u = &lv->stacks[i];
		uint64_t contended = u->contended, wait_ns = u->wait_ns;

		for (size_t j = 0; prev && j < prev->nr_stacks; j++)
			if (prev->stacks[j].id == u->id) {
				contended = since(u->contended, prev->stacks[j].contended);
				wait_ns = since(u->wait_ns, prev->stacks[j].wait_ns);
				break;
			}
		if (contended || wait_ns)
			lrs_causes__add(out, snap, u->id, contended, wait_ns);
	}
}

void lrs_causes__of_holders(const struct lrs_snapshot *snap, const struct lrs_lruvec *lv,
			    struct lrs_causes *out)
{
	const struct lrs_holders *hs = snap ? snap->holders : NULL;
	size_t first, n;

	memset(out, 0, sizeof(*out));
	if (!lv || !hs)
		return;
	n = lrs_holders__rows_of(hs, lv->memcg_id, lv->node, &first);
	for (size_t k = first; k < first + n; k++)
		lrs_causes__add(out, snap, hs->rows[k].stack_id, hs->rows[k].holds,
				hs->rows[k].imposed_ns);
}

size_t lrs_causes__ranked(const struct lrs_causes *c, enum lrs_cause order[LRS_NR_CAUSES])
{
	size_t nr = 0;

	for (int k = 0; k < LRS_NR_CAUSES; k++) {
		const struct lrs_cause_share *s = &c->by[k];
		size_t at = nr;

		if (!s->wait_ns && !s->contended)
			continue;
		/* insertion: ten entries; equal ones keep the table's order */
		while (at > 0) {
			const struct lrs_cause_share *t = &c->by[order[at - 1]];

			if (t->wait_ns > s->wait_ns ||
			    (t->wait_ns == s->wait_ns && t->contended >= s->contended))
				break;
			order[at] = order[at - 1];
			at--;
		}
		order[at] = (enum lrs_cause)k;
		nr++;
	}
	return nr;
}

double lrs_causes__share(const struct lrs_causes *c, enum lrs_cause cause)
{
	if ((unsigned)cause >= LRS_NR_CAUSES)
		return 0;
	if (c->wait_ns)
		return (double)c->by[cause].wait_ns / (double)c->wait_ns;
	if (c->contended)
		return (double)c->by[cause].contended / (double)c->contended;
	return 0;
}

char *lrs_causes__summary(const struct lrs_causes *c, size_t max, char *buf, size_t len)
{
	enum lrs_cause order[LRS_NR_CAUSES];
	size_t nr = lrs_causes__ranked(c, order), used = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	if (!nr) {
		snprintf(buf, len, "no sampled stacks");
		return buf;
	}
	for (size_t i = 0; i < nr && used < len; i++) {
		int n;

		if (i == max) {
			snprintf(buf + used, len - used, ", +%zu more", nr - i);
			break;
		}
		n = snprintf(buf + used, len - used, "%s%.0f%% %s", i ? ", " : "",
			     100.0 * lrs_causes__share(c, order[i]), lrs_cause__title(order[i]));
		if (n < 0)
			break;
		used += (size_t)n;
	}
	return buf;
}

// SPDX-License-Identifier: GPL-2.0
/* 'lruscope walk' as a table: what walk.py read, as the collector's names say it. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "ui/text/walk_report.h"
#include "model/model.h"

/* Short list names for the columns, in enum lrs_lru_list order. */
static const char *const short_names[LRS_NR_LRU_LISTS] = {
	"inact_anon", "act_anon", "inact_file", "act_file", "unevict",
};

const char *lrs_walk_report__check(char *buf, size_t len, const struct lrs_walk *walk, size_t i)
{
	const struct lrs_walk_lists *wl = &walk->lists[i];
	const struct lrs_lruvec *lv = &walk->snap->lruvecs[i];
	size_t n = 0;

	if (!wl->walked) {
		snprintf(buf, len, "-");
		return buf;
	}
	buf[0] = '\0';
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++) {
		if (!(lv->walk.mismatch & (1u << l)))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0,
				      "%s%s walked %" PRIu64 " counted %" PRIu64, n ? ", " : "",
				      lrs_lru_list_names[l], wl->walked_pages[l], lv->lru_pages[l]);
		if (n >= len)
			n = len - 1;
	}
	/* a walk cut short (--max-folios, a fault) proves nothing either way */
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++) {
		if ((wl->complete | wl->skipped) & (1u << l))
			continue;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s cut at %" PRIu64,
				      n ? ", " : "", lrs_lru_list_names[l], wl->walked_pages[l]);
		if (n >= len)
			n = len - 1;
	}
	if (!n)
		snprintf(buf, len, "ok");
	return buf;
}

static bool has_node_locks(const struct lrs_snapshot *s)
{
	for (size_t i = 0; i < s->nr_lruvecs; i++)
		if (s->lruvecs[i].walk.node_lock)
			return true;
	return false;
}

static void print_held(FILE *f, const struct lrs_walk_held *h)
{
	fprintf(f, "held: %s", h->lruvec);
	if (h->node_lock >= 0)
		fprintf(f, ", shared by every memcg on node %d", h->node_lock);
	fprintf(f, ", %zu task(s) reference it%s%s\n", h->nr_tasks, h->nr_tasks ? ": " : "",
		h->tasks);
}

/* Before 5.11 the LOCK column is the node's pgdat->lru_lock: one line per node says so. */
static void print_node_locks(FILE *f, const struct lrs_snapshot *s)
{
	for (size_t n = 0; n < s->nr_nodes; n++) {
		const struct lrs_lruvec *first = NULL;
		size_t sharing = 0;

		for (size_t i = 0; i < s->nr_lruvecs; i++) {
			const struct lrs_lruvec *lv = &s->lruvecs[i];

			if (lv->node != s->nodes[n] || !lv->walk.node_lock)
				continue;
			first = first ? first : lv;
			sharing++;
		}
		if (!first)
			continue;
		fprintf(f,
			"lock 0x%016" PRIx64 ": node %d's pgdat->lru_lock (one lock per node "
			"before 5.11), shared by all %zu memcgs on node %d\n",
			first->lock_addr, first->node, sharing, first->node);
	}
}

int lrs_walk_report__print(FILE *f, const struct lrs_walk *walk, const char *what)
{
	const struct lrs_snapshot *s = walk->snap;
	size_t mismatched = 0;
	char name[300], state[64], check[512];

	fprintf(f,
		"walk of %s: kernel %s, %zu nodes, %" PRIu64 " memcgs, %zu lruvecs, "
		"%" PRIu64 " folios walked in %.3f s\n",
		what, s->kernel[0] ? s->kernel : "?", s->nr_nodes, walk->memcgs, s->nr_lruvecs,
		walk->folios_walked, walk->total_s);
	fprintf(f, "%-28s %-18s %-24s %9s", "MEMCG@NODE", "LOCK", "LOCK STATE", "LRU PAGES");
	for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
		fprintf(f, " %10s", short_names[l]);
	fprintf(f, "  WALKED VS COUNTED\n");
	for (size_t i = 0; i < s->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &s->lruvecs[i];

		snprintf(name, sizeof(name), "%s@N%d", lv->memcg ? lv->memcg : "?", lv->node);
		fprintf(f, "%-28s 0x%016" PRIx64 " %-24s %9" PRIu64, name, lv->lock_addr,
			lrs_lock_state__format(state, sizeof(state), &lv->walk),
			lrs_lruvec__lru_total(lv));
		for (int l = 0; l < LRS_NR_LRU_LISTS; l++)
			fprintf(f, " %10" PRIu64, lv->lru_pages[l]);
		fprintf(f, "  %s\n", lrs_walk_report__check(check, sizeof(check), walk, i));
		mismatched += lv->walk.mismatch != 0;
	}
	print_node_locks(f, s);
	fprintf(f, "%zu %s lock(s)%s held or waited on", lrs_snapshot__walk_locks_busy(s),
		has_node_locks(s) ? "node" : "lruvec",
		has_node_locks(s) ? " (pgdat->lru_lock)" : "");
	fprintf(f, "; %zu lruvec(s) whose walk differs from the counters\n", mismatched);
	if (walk->checked)
		fprintf(f,
			"lru_check: %" PRIu64 " violation(s) of \"a folio's memcg is stable "
			"while it is on an LRU\"\n",
			walk->violations_total);
	for (size_t i = 0; i < walk->nr_held; i++)
		print_held(f, &walk->held[i]);
	if (walk->owner_method) {
		fprintf(f, "page owner (%s):\n", walk->owner_method);
		for (size_t i = 0; i < walk->nr_owners; i++)
			fprintf(f, "  %-30s %" PRIu64 " pages\n", walk->owners[i].memcg,
				walk->owners[i].pages);
	}
	for (size_t i = 0; i < walk->nr_warnings; i++)
		fprintf(f, "warning: %s\n", walk->warnings[i]);
	return ferror(f) ? -EIO : 0;
}

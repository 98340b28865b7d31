// SPDX-License-Identifier: GPL-2.0
/* A drgn walk's results: freeing them, and a walked lock word as words. */
#include <stdio.h>
#include <stdlib.h>

#include "model/walk.h"

void lrs_walk__free(struct lrs_walk *walk)
{
	if (!walk)
		return;
	for (size_t i = 0; i < walk->nr_held; i++) {
		free(walk->held[i].lruvec);
		free(walk->held[i].tasks);
	}
	free(walk->held);
	for (size_t i = 0; i < walk->nr_owners; i++)
		free(walk->owners[i].memcg);
	free(walk->owners);
	free(walk->owner_method);
	for (size_t i = 0; i < walk->nr_warnings; i++)
		free(walk->warnings[i]);
	free(walk->warnings);
	free(walk->lists);
	lrs_snapshot__free(walk->snap);
	free(walk);
}

const char *lrs_lock_state__format(char *buf, size_t len, const struct lrs_lruvec_walk *w)
{
	int n;

	if (!w || !w->known) {
		snprintf(buf, len, "?");
		return buf;
	}
	if (!w->locked && !w->pending && w->tail_cpu < 0) {
		snprintf(buf, len, "free");
		return buf;
	}
	n = snprintf(buf, len, "%s%s", w->locked ? "locked" : "unlocked",
		     w->pending ? ", pending" : "");
	if (w->tail_cpu >= 0 && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, ", queue tail cpu%d", w->tail_cpu);
	return buf;
}

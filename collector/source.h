/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A source of snapshots: the live BPF collector, a recording, or drgn JSON.
 * The views' main loops own the timing: they call take() when a snapshot is
 * due, so a source never sleeps.
 */
#ifndef LRS_SOURCE_H
#define LRS_SOURCE_H

#include "model/snapshot.h"

struct lrs_source {
	const char *name;  /* "live", "replay", "drgn" */
	double interval_s; /* time between snapshots the loop should keep */
	/*
	 * Produce the next snapshot (caller owns it). -ENODATA: the source ended;
	 * -EAGAIN: none yet (a stream's next line has not come), ask again soon.
	 */
	int (*take)(struct lrs_source *src, struct lrs_snapshot **out);
	/* Optional: the live source changes its collection interval. */
	void (*set_interval)(struct lrs_source *src, double interval_s);
	void (*destroy)(struct lrs_source *src); /* accepts NULL via lrs_source__destroy */
	void *ctx;
	/*
	 * A recording: its snapshots need no waiting for, so a view that wants
	 * only the end (a screenshot) takes them one after the other at once.
	 */
	bool recorded;
	/*
	 * Optional: an action (enum lrs_action) the source handles itself, as a
	 * replay's seek and speed keys. Returns true when it did: the view then
	 * redraws and re-reads name and interval_s.
	 */
	bool (*control)(struct lrs_source *src, int action);
};

static inline void lrs_source__destroy(struct lrs_source *src)
{
	if (src && src->destroy)
		src->destroy(src);
}

#endif

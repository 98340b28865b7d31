/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A source of snapshots: the live BPF collector, a recording, or drgn JSON.
 * The views' main loop (ui/view_loop.c) owns the timing: it calls take()
 * when a snapshot is due, so a source never sleeps, and it puts every
 * snapshot into the model, a seek's too: a source never touches the model.
 */
#ifndef LRS_SOURCE_H
#define LRS_SOURCE_H

#include <stdbool.h>

#include "model/snapshot.h"

/* Where a recorded source seeks: one snapshot on or back, the first with rates, the last. */
enum lrs_seek {
	LRS_SEEK_NEXT,
	LRS_SEEK_PREV,
	LRS_SEEK_FIRST,
	LRS_SEEK_LAST,
};

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
	 * Optional transport, a recording's (NULL for live sources and walks).
	 * seek: move to another snapshot; *at gets it and *before the one
	 * before it (NULL at the first), so rates show at once (the caller owns
	 * both; the next take() continues after *at). 0, or -errno when it
	 * cannot move (-ENODATA: nothing to show yet).
	 */
	int (*seek)(struct lrs_source *src, enum lrs_seek to, struct lrs_snapshot **before,
		    struct lrs_snapshot **at);
	/*
	 * pause: the source asks the view to pause. A recording does when it
	 * comes to its end, holding the last snapshot so one can step back;
	 * asked after each take() and seek, true once for each stop.
	 */
	bool (*pause)(struct lrs_source *src);
	/* speed: one step faster (up) or slower; name and interval_s follow. */
	void (*speed)(struct lrs_source *src, bool up);
};

static inline void lrs_source__destroy(struct lrs_source *src)
{
	if (src && src->destroy)
		src->destroy(src);
}

#endif

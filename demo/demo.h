/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The demo: the per-memcg lru_lock experiment, rebuilt on a kernel that has
 * the patch. "shared" puts every reader in one memcg: one lruvec, one lock
 * per node, as before 5.11. "isolated" gives each container its own memcg, as
 * after. Runs both under the live collector, alternating, and summarises.
 */
#ifndef LRS_DEMO_H
#define LRS_DEMO_H

#include <signal.h>
#include <stdbool.h>

#include "demo/workload.h"

#define DEMO_PREFIX "lrs-demo-"
#define DEMO_LOCK_PATH "/run/lruscope-demo.lock"
/*
 * Calibrated on a 2-core VM (docs/demo.md): 16 readers give a lruvec wait
 * ratio of 40x and more, 8 readers about 13x. More containers than CPUs make
 * it rare that a container's two readers run at the same time.
 */
#define DEMO_READERS_PER_CPU 8
#define DEMO_MAX_READERS 256
#define DEMO_DURATION_S 8.0
#define DEMO_RUNS 3
#define DEMO_FILE_BYTES (1ULL << 30)
#define DEMO_LIMIT_BYTES (256ULL << 20)
#define DEMO_MIN_LIMIT_BYTES (32ULL << 20)
/* 8 default task groups' worth: background builds on 2 cores disturb less */
#define DEMO_CPU_SHARES 8192

struct lrs_demo_opts {
	struct lrs_workload_opts wl;
	bool both;	   /* --layout both (default) */
	unsigned int runs; /* per layout */
	double duration_s; /* per run */
	double interval_s; /* TUI refresh */
	bool batch, json, no_color;
	bool limit_given, size_given;
	bool readers_given, runs_given, duration_given;
	bool lab;		/* --lab: the lab's two real kernels (demo/demo_lab.h) */
	const char *record_dir; /* --record DIR: a recording per layout, or NULL */
	int spin_source;	/* --spin-source (collector/live/spin_choice.h) */
};

/*
 * Check, lock (one demo at a time), run every round with the live collector
 * (the TUI unless o->batch), then print the summary (text or JSON) on stdout.
 * stop ends it early (a signal). Returns a process exit status: 0, 1 or 2.
 */
int lrs_demo__run(const struct lrs_demo_opts *o, volatile sig_atomic_t *stop);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's page: lruvec lock waits as Prometheus metrics, in the
 * Prometheus text format (0.0.4) or OpenMetrics 1.0. It writes what it is
 * given; which memcgs get series of their own and which are folded into
 * memcg="other" is decided before (ui/export/series.c). docs/metrics.md is
 * the reference of every name written here.
 */
#ifndef LRS_EXPOSITION_H
#define LRS_EXPOSITION_H

#include <stdbool.h>
#include <stdio.h>

#include "model/causes.h"
#include "model/snapshot.h"

/* One memcg x node, or the fold of several into memcg="other". */
struct lrs_expo_lruvec {
	const char *memcg; /* the label: cgroup path, or "other" */
	int node;
	bool contended; /* has lock series: a wait was ever seen */
	struct lrs_lock_counters counters;
	uint64_t lru_pages[LRS_NR_LRU_LISTS];
	bool causes; /* own lock series: the sampled wait by cause below */
	uint64_t cause_wait_ns[LRS_NR_CAUSES]; /* cumulative; a cause at 0 has no series */
};

/* A lock that is not an lruvec lock, its waits summed over locks of the same name. */
struct lrs_expo_lock {
	const char *name;
	uint64_t wait_ns;
	uint64_t contended;
};

/* Wait that holders of holder_memcg imposed on the waiters of one lruvec. */
struct lrs_expo_imposed {
	const char *memcg;
	int node;
	const char *holder_memcg; /* "unknown": no holder found; "other": folded */
	uint64_t imposed_ns;
};

/* The exporter itself. */
struct lrs_expo_self {
	uint64_t snapshots;		    /* taken since start */
	uint64_t missed_intervals;	    /* intervals the collector woke too late to keep */
	double last_snapshot_unix;	    /* seconds since the epoch */
	double cpu_seconds;		    /* the process's user + system time */
	uint64_t own_memcgs, folded_memcgs; /* memcgs with own series / in "other" now */
	uint64_t folded_memcgs_total;	    /* memcgs ever folded (never given own series) */
	uint64_t textfile_errors;
	bool textfile; /* --textfile: say its error count */
	struct lrs_bpf_cost bpf_cost;
};

struct lrs_exposition {
	const struct lrs_expo_lruvec *lruvecs;
	size_t nr_lruvecs;
	const struct lrs_expo_lock *locks; /* the top N other locks */
	size_t nr_locks;
	bool holders; /* --holders: the imposed family */
	const struct lrs_expo_imposed *imposed;
	size_t nr_imposed;
	struct lrs_drops drops;
	struct lrs_expo_self self;
	const char *version;
	const char *kernel;
	const struct lrs_spin_source *spin; /* NULL or LRS_SPIN_UNKNOWN: no family */
};

enum lrs_expo_format {
	LRS_EXPO_PROMETHEUS,  /* text/plain; version=0.0.4 */
	LRS_EXPO_OPENMETRICS, /* application/openmetrics-text; version=1.0.0 */
};

/* The Content-Type of a format. */
const char *lrs_expo__content_type(enum lrs_expo_format fmt);
/* The format an HTTP Accept header asks for (OpenMetrics only when it names it). */
enum lrs_expo_format lrs_expo__negotiate(const char *accept);
/* Write the whole page; -errno when f fails. */
int lrs_expo__write(FILE *f, const struct lrs_exposition *e, enum lrs_expo_format fmt);

/*
 * The histogram's upper bounds: every other power of two of the BPF
 * histogram's ns buckets, 2^10 ns (1 us) to 2^30 ns (1.07 s), then +Inf.
 */
#define LRS_EXPO_LE_FIRST_LOG2 10
#define LRS_EXPO_LE_LAST_LOG2 30
#define LRS_EXPO_LE_STEP_LOG2 2

#endif

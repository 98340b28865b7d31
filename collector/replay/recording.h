/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Recordings: a header line, then one snapshot per line (docs/design.md's schema),
 * plain, gzip or zstd. docs/recording-format.md describes the format: after a full
 * line, a line may be a delta ("delta": [sections]) that leaves out what did
 * not change and writes cumulative counters as increments; the reader turns
 * every line back into the full snapshot the live collector built. Both kinds
 * of line are written and read by model/json/snapshot_json.h.
 */
#ifndef LRS_RECORDING_H
#define LRS_RECORDING_H

#include <stdio.h>

#include "model/snapshot.h"
#include "collector/replay/zstream.h"

#define LRS_RECORDING_VERSION 1		   /* of the header and the delta encoding */
#define LRS_RECORDING_MAX_LINE (64u << 20) /* longer lines are refused */
#define LRS_RECORDING_KEYFRAME_EVERY 300   /* a full line every N snapshots */

struct lrs_recording_header {
	int schema; /* snapshot schema major version */
	char kernel[64];
	char host[256];
	int *nodes;
	size_t nr_nodes;
	uint64_t interval_ns;	  /* what the recorder asked for */
	uint64_t started_unix_ns; /* wall clock at the start, 0 if unknown */
	bool headerless;	  /* a file of bare snapshot lines (report -f json) */
};

void lrs_recording_header__clear(struct lrs_recording_header *hdr); /* frees nodes */
/* The header of a recording of this machine: its kernel, host, online nodes and the clock now. */
void lrs_recording_header__fill_local(struct lrs_recording_header *hdr, double interval_s);

/* The header as one JSON line (its snapshot lines: model/json/snapshot_json.h). */
int lrs_recording__write_header(FILE *f, const struct lrs_recording_header *hdr);

/* ---- reader ------------------------------------------------------------------ */

struct lrs_recording;

/*
 * Open path ("-": stdin, through a descriptor of its own) and read its header.
 * On failure returns -errno and a message naming the file and line in err.
 * max_line 0: LRS_RECORDING_MAX_LINE.
 */
int lrs_recording__open(struct lrs_recording **out, const char *path, size_t max_line, char *err,
			size_t err_len);
/* The same over an open stream (not closed); name is used in messages. */
int lrs_recording__open_file(struct lrs_recording **out, FILE *f, const char *name, size_t max_line,
			     char *err, size_t err_len);
const struct lrs_recording_header *lrs_recording__header(const struct lrs_recording *rec);

/*
 * Non-blocking: next_line() and next() return -EAGAIN when a whole line has
 * not come yet (a pipe from a live recorder), and keep what came.
 */
void lrs_recording__set_nonblocking(struct lrs_recording *rec, bool on);
/*
 * The raw text of the next snapshot line (valid until the next call) and its
 * line number. Returns 0, -ENODATA at the end, -EAGAIN (non-blocking, not
 * yet), or -errno with a message.
 */
int lrs_recording__next_line(struct lrs_recording *rec, const char **line, size_t *len,
			     size_t *lineno);
/* The next snapshot (caller owns it). Returns 0, -ENODATA at the end, or -errno. */
int lrs_recording__next(struct lrs_recording *rec, struct lrs_snapshot **out);
/* The message of the last failure: "FILE:LINE: what; what to do". */
const char *lrs_recording__error(const struct lrs_recording *rec);
/* A warning about the end (a cut-short last line), or NULL. */
const char *lrs_recording__warning(const struct lrs_recording *rec);
const char *lrs_recording__name(const struct lrs_recording *rec);
void lrs_recording__close(struct lrs_recording *rec); /* accepts NULL */

/* ---- writer ------------------------------------------------------------------ */

struct lrs_recording_writer;

/* Write to f (not closed) with the given compression; writes the header now. */
int lrs_recording_writer__open(struct lrs_recording_writer **out, FILE *f, enum lrs_zkind kind,
			       const struct lrs_recording_header *hdr);
/* Append one snapshot and flush it to f, so a killed writer leaves it readable. */
int lrs_recording_writer__write(struct lrs_recording_writer *w, const struct lrs_snapshot *snap);
uint64_t lrs_recording_writer__snapshots(const struct lrs_recording_writer *w);
/*
 * End the stream; returns the first error seen. Accepts NULL. bytes, if not
 * NULL, gets the bytes written (after compression, trailer included): also
 * right for a pipe, which has no size to ask for.
 */
int lrs_recording_writer__close(struct lrs_recording_writer *w, uint64_t *bytes);

/*
 * The whole recording as one snapshot (last minus first, lrs_snapshot__diff).
 * Prints what went wrong, with file and line, on stderr. For 'report -i'.
 */
int lrs_report__from_recording(const char *path, struct lrs_snapshot **out);

/*
 * Every snapshot of the recording at path into run (model/compare.h), the
 * first one's kernel into kernel. Prints what went wrong on stderr, one line
 * naming the file; a recording needs two snapshots. For 'diff'.
 */
struct lrs_cmp_run;
int lrs_recording__read_run(const char *path, struct lrs_cmp_run *run, char *kernel,
			    size_t kernel_len);

#endif

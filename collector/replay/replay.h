/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The replay source: a recording played back through struct lrs_source. A
 * file is read and checked whole when opened (so seeking works and a bad
 * line is reported before the view starts); stdin (or a pipe) is read as it
 * comes, without waiting: take() says -EAGAIN until its next line is whole.
 * Its transport (seek, pause at the end, speed) is struct lrs_source's.
 * Memory: the recording's decompressed text plus a snapshot every 32 lines.
 */
#ifndef LRS_REPLAY_H
#define LRS_REPLAY_H

#include "collector/source.h"

struct lrs_replay_opts {
	double speed;	 /* 1: real time; 0 means 1 */
	bool once;	 /* end (take() -ENODATA) after the last snapshot, not pause */
	size_t max_line; /* 0: LRS_RECORDING_MAX_LINE */
};

/* Open path ("-": stdin). On failure returns -errno and a "FILE:LINE: ..." message in err. */
int lrs_replay__open(const char *path, const struct lrs_replay_opts *opts, struct lrs_source **out,
		     char *err, size_t err_len);
/* A failure or warning met while playing (a corrupt line in a stream), or NULL. */
const char *lrs_replay__error(const struct lrs_source *src);
const char *lrs_replay__warning(const struct lrs_source *src);
/* Snapshots known so far, and the index of the one last taken (or -1). */
size_t lrs_replay__count(const struct lrs_source *src);

#endif

// SPDX-License-Identifier: GPL-2.0
/* The recording writer: a header, then a full or delta line per snapshot, plain or compressed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "collector/replay/recording.h"
#include "model/snapshot_diff.h"

struct lrs_recording_writer {
	struct lrs_zwriter *zw;
	struct lrs_snapshot *prev;
	uint64_t snapshots;
	int err;
};

/* Render into memory with a stdio writer, then hand the bytes to the compressor. */
static int put_rendered(struct lrs_recording_writer *w, int (*render)(FILE *, const void *, const void *),
			const void *a, const void *b)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int err;

	if (!m)
		return -ENOMEM;
	err = render(m, a, b);
	if (fclose(m) && !err)
		err = -ENOMEM;
	if (!err)
		err = lrs_zwriter__write(w->zw, buf, len);
	free(buf);
	return err;
}

static int render_header(FILE *f, const void *hdr, const void *unused)
{
	return lrs_recording__write_header(f, hdr);
}

static int render_line(FILE *f, const void *snap, const void *prev)
{
	return lrs_recording__write_line(f, snap, prev);
}

int lrs_recording_writer__open(struct lrs_recording_writer **out, FILE *f, enum lrs_zkind kind,
			       const struct lrs_recording_header *hdr)
{
	struct lrs_recording_writer *w = calloc(1, sizeof(*w));
	int err;

	if (!w)
		return -ENOMEM;
	/* zstd 9: a third smaller than 3 on recordings, ~1 ms a line */
	err = lrs_zwriter__open(&w->zw, f, kind, kind == LRS_Z_ZSTD ? 9 : 0);
	if (!err)
		err = put_rendered(w, render_header, hdr, NULL);
	if (!err)
		err = lrs_zwriter__flush(w->zw);
	if (err) {
		lrs_zwriter__close(w->zw, NULL);
		free(w);
		return err;
	}
	*out = w;
	return 0;
}

int lrs_recording_writer__write(struct lrs_recording_writer *w, const struct lrs_snapshot *snap)
{
	struct lrs_snapshot *copy;
	const struct lrs_snapshot *base = w->prev;
	int err;

	if (w->err)
		return w->err;
	/* a full line now and then: tools can start there, a damaged file loses less */
	if (w->snapshots % LRS_RECORDING_KEYFRAME_EVERY == 0)
		base = NULL;
	copy = lrs_snapshot__clone(snap);
	if (!copy)
		return -ENOMEM;
	err = put_rendered(w, render_line, snap, base);
	if (!err)
		err = lrs_zwriter__flush(w->zw);
	if (err) {
		lrs_snapshot__free(copy);
		return w->err = err;
	}
	lrs_snapshot__free(w->prev);
	w->prev = copy;
	w->snapshots++;
	return 0;
}

uint64_t lrs_recording_writer__snapshots(const struct lrs_recording_writer *w)
{
	return w->snapshots;
}

int lrs_recording_writer__close(struct lrs_recording_writer *w, uint64_t *bytes)
{
	int err;

	if (bytes)
		*bytes = 0;
	if (!w)
		return 0;
	err = lrs_zwriter__close(w->zw, bytes);
	if (w->err)
		err = w->err;
	lrs_snapshot__free(w->prev);
	free(w);
	return err;
}

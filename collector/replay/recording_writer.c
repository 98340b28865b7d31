// SPDX-License-Identifier: GPL-2.0
/* The recording writer: a header, then a full or delta line per snapshot, plain or compressed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>

#include "model/json/json_writer.h"
#include "model/json/snapshot_json.h"
#include "collector/replay/recording.h"
#include "model/snapshot_diff.h"

struct lrs_recording_writer {
	struct lrs_zwriter *zw;
	struct lrs_snapshot *prev;
	uint64_t snapshots;
	int err;
};

int lrs_recording__write_header(FILE *f, const struct lrs_recording_header *hdr)
{
	struct lrs_json j;

	lrs_json__init(&j, f);
	lrs_json__obj_begin(&j);
	lrs_json__key(&j, "lruscope_recording");
	lrs_json__i64(&j, LRS_RECORDING_VERSION);
	lrs_json__key(&j, "schema");
	lrs_json__i64(&j, hdr->schema ? hdr->schema : LRS_SCHEMA_VERSION);
	lrs_json__key(&j, "kernel");
	lrs_json__str(&j, hdr->kernel);
	lrs_json__key(&j, "host");
	lrs_json__str(&j, hdr->host);
	lrs_json__key(&j, "nodes");
	lrs_json__arr_begin(&j);
	for (size_t i = 0; i < hdr->nr_nodes; i++)
		lrs_json__i64(&j, hdr->nodes[i]);
	lrs_json__arr_end(&j);
	lrs_json__key(&j, "interval_ns");
	lrs_json__u64(&j, hdr->interval_ns);
	lrs_json__key(&j, "started_unix_ns");
	lrs_json__u64(&j, hdr->started_unix_ns);
	lrs_json__obj_end(&j);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* Render into memory with a stdio writer, then hand the bytes to the compressor. */
static int put_rendered(struct lrs_recording_writer *w,
			int (*render)(FILE *, const void *, const void *), const void *a,
			const void *b)
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
	return lrs_snapshot__write_json_delta(snap, prev, f);
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

void lrs_recording_header__fill_local(struct lrs_recording_header *hdr, double interval_s)
{
	struct utsname uts;
	struct timespec ts;
	FILE *f;
	char line[64];

	memset(hdr, 0, sizeof(*hdr));
	hdr->schema = LRS_SCHEMA_VERSION;
	hdr->interval_ns = (uint64_t)(interval_s * 1e9);
	if (!uname(&uts)) {
		snprintf(hdr->kernel, sizeof(hdr->kernel), "%.63s", uts.release);
		snprintf(hdr->host, sizeof(hdr->host), "%.255s", uts.nodename);
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	hdr->started_unix_ns = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	/* the online nodes; each snapshot lists its own too */
	f = fopen("/sys/devices/system/node/online", "r");
	if (f && fgets(line, sizeof(line), f)) {
		char *p = line;

		while (*p) {
			char *end;
			long a = strtol(p, &end, 10), b;

			if (end == p)
				break;
			b = a;
			if (*end == '-')
				b = strtol(end + 1, &end, 10);
			for (long n = a; n <= b && n - a < 4096; n++) {
				int *nodes = realloc(hdr->nodes, (hdr->nr_nodes + 1) * sizeof(int));

				if (!nodes)
					break;
				hdr->nodes = nodes;
				hdr->nodes[hdr->nr_nodes++] = (int)n;
			}
			p = *end == ',' ? end + 1 : end;
			if (*p == '\n')
				break;
		}
	}
	if (f)
		fclose(f);
}

// SPDX-License-Identifier: GPL-2.0
/* lruscope demo --record: a recording per layout, written by a source in front of the collector. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collector/replay/recording.h"
#include "demo/demo_record.h"

struct layout_rec {
	struct lrs_demo_record *rec;
	char path[4096];
	FILE *f;
	struct lrs_recording_writer *w; /* NULL: layout not recorded */
	struct lrs_source tee;		/* hands on inner's snapshots */
	struct lrs_source *inner;
	bool resumed; /* a later run begins: see _source() */
};

struct lrs_demo_record {
	struct layout_rec layout[2];
	int err;
	char msg[600];
};

static void fail(struct lrs_demo_record *rec, int err, const char *path, const char *what)
{
	if (rec->err)
		return;
	rec->err = err;
	snprintf(rec->msg, sizeof(rec->msg), "--record: %.300s: %s: %s", path, what,
		 strerror(-err));
}

static int tee_take(struct lrs_source *src, struct lrs_snapshot **out)
{
	struct layout_rec *l = src->ctx;
	int ret;

	/*
	 * A later run's first snapshot: take one for nothing first, so that its
	 * interval_ns (since the collector's last snapshot) is short while its
	 * time since this file's last line spans the runs between: a pause to diff.
	 */
	if (l->resumed && l->inner->take(l->inner, out) == 0)
		lrs_snapshot__free(*out);
	l->resumed = false;
	ret = l->inner->take(l->inner, out);
	if (ret)
		return ret;
	if (!l->rec->err) {
		int werr = lrs_recording_writer__write(l->w, *out);

		if (werr)
			fail(l->rec, werr, l->path, "writing a snapshot failed");
	}
	return 0;
}

static void tee_set_interval(struct lrs_source *src, double interval_s)
{
	struct layout_rec *l = src->ctx;

	if (l->inner->set_interval)
		l->inner->set_interval(l->inner, interval_s);
	src->interval_s = l->inner->interval_s;
}

/* Make dir when missing (one level); a path that is there must be a directory. */
static int make_dir(const char *dir, char *err, size_t err_len)
{
	struct stat st;

	if (!mkdir(dir, 0755))
		return 0;
	if (errno != EEXIST) {
		snprintf(err, err_len, "--record %s: cannot make the directory: %s", dir,
			 strerror(errno));
		return -errno;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_len,
			 "--record %s: not a directory: name a directory for the recordings", dir);
		return -ENOTDIR;
	}
	return 0;
}

/* Create l's file, refusing one that exists, and write its header. */
static int open_layout(struct layout_rec *l, const char *dir, enum lrs_layout layout,
		       double interval_s, char *err, size_t err_len)
{
	struct lrs_recording_header hdr;
	FILE *f;
	int fd, ret;

	snprintf(l->path, sizeof(l->path), "%s/%s.jsonl", dir, lrs_layout__name(layout));
	fd = open(l->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, err_len, "--record %s: %s: %s", dir, l->path,
			 errno == EEXIST ? "exists: remove it, or record into another directory" :
					   strerror(errno));
		l->path[0] = '\0'; /* not ours: never removed */
		return ret;
	}
	f = l->f = fdopen(fd, "wb");
	if (!f) {
		ret = -errno;
		close(fd);
		snprintf(err, err_len, "--record: %s: %s", l->path, strerror(-ret));
		return ret;
	}
	lrs_recording_header__fill_local(&hdr, interval_s);
	ret = lrs_recording_writer__open(&l->w, f, LRS_Z_PLAIN, &hdr);
	lrs_recording_header__clear(&hdr);
	if (ret)
		snprintf(err, err_len, "--record: %s: writing the header failed: %s", l->path,
			 strerror(-ret));
	return ret;
}

/* Close l's writer and its file; remove the file when remove is set. Returns the first error. */
static int close_layout(struct layout_rec *l, bool remove)
{
	int ret = 0;

	ret = lrs_recording_writer__close(l->w, NULL);
	l->w = NULL;
	if (l->f && fclose(l->f) && !ret)
		ret = -errno;
	l->f = NULL;
	if (remove && l->path[0])
		unlink(l->path);
	return ret;
}

int lrs_demo_record__open(struct lrs_demo_record **out, const char *dir, const bool use[2],
			  double interval_s, char *err, size_t err_len)
{
	struct lrs_demo_record *rec = calloc(1, sizeof(*rec));
	int ret;

	if (!rec) {
		snprintf(err, err_len, "--record %s: out of memory", dir);
		return -ENOMEM;
	}
	ret = make_dir(dir, err, err_len);
	for (int k = 0; !ret && k < 2; k++) {
		struct layout_rec *l = &rec->layout[k];

		l->rec = rec;
		if (use[k])
			ret = open_layout(l, dir, (enum lrs_layout)k, interval_s, err, err_len);
	}
	if (ret) {
		for (int k = 0; k < 2; k++)
			close_layout(&rec->layout[k], true);
		free(rec);
		return ret;
	}
	*out = rec;
	return 0;
}

struct lrs_source *lrs_demo_record__source(struct lrs_demo_record *rec, enum lrs_layout layout,
					   struct lrs_source *src)
{
	struct layout_rec *l = &rec->layout[layout];

	if (!l->w)
		return src;
	l->inner = src;
	l->resumed = lrs_recording_writer__snapshots(l->w) > 0;
	l->tee = (struct lrs_source){ .name = src->name,
				      .interval_s = src->interval_s,
				      .take = tee_take,
				      .set_interval = tee_set_interval,
				      .ctx = l };
	return &l->tee;
}

int lrs_demo_record__error(const struct lrs_demo_record *rec, char *err, size_t err_len)
{
	if (rec->err)
		snprintf(err, err_len, "%s", rec->msg);
	return rec->err;
}

const char *lrs_demo_record__path(const struct lrs_demo_record *rec, enum lrs_layout layout)
{
	return rec->layout[layout].w || rec->layout[layout].path[0] ? rec->layout[layout].path :
								      NULL;
}

size_t lrs_demo_record__snapshots(const struct lrs_demo_record *rec, enum lrs_layout layout)
{
	const struct layout_rec *l = &rec->layout[layout];

	return l->w ? (size_t)lrs_recording_writer__snapshots(l->w) : 0;
}

int lrs_demo_record__close(struct lrs_demo_record *rec, char *err, size_t err_len)
{
	int ret;

	if (!rec)
		return 0;
	for (int k = 0; k < 2; k++) {
		struct layout_rec *l = &rec->layout[k];
		bool unusable = l->w && lrs_recording_writer__snapshots(l->w) < 2;
		int cerr = close_layout(l, unusable);

		if (cerr)
			fail(rec, cerr, l->path, "finishing the file failed");
		if (unusable)
			l->path[0] = '\0';
	}
	ret = lrs_demo_record__error(rec, err, err_len);
	free(rec);
	return ret;
}

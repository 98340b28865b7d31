// SPDX-License-Identifier: GPL-2.0
/* Replay: recording lines kept as text, decoded on demand from checkpoints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "collector/replay/recording.h"
#include "collector/replay/replay.h"
#include "model/json/snapshot_json.h"
#include "model/snapshot_diff.h"

#define CHECKPOINT_EVERY 32

struct replay_line {
	char *text;
	size_t len;
	size_t lineno;
};

struct replay {
	struct lrs_recording *rec;
	struct replay_line *lines;
	size_t nr_lines, cap_lines;
	struct lrs_snapshot **checkpoints; /* decoded line i * CHECKPOINT_EVERY */
	struct lrs_snapshot *last;	   /* decoded last loaded line: the next one's base */
	bool ended;			   /* no more lines will come */
	long pos;			   /* index of the snapshot last taken, -1 before */
	double base_interval_s, speed;
	bool once;
	bool hold; /* stopped at the end: pause() says so once */
	char name[96];
	char err[600];
};

static const double speeds[] = { 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 128 };

static void update_name(struct lrs_source *src)
{
	struct replay *r = src->ctx;

	snprintf(r->name, sizeof(r->name), "replay %gx %ld/%zu%s", r->speed, r->pos + 1,
		 r->nr_lines, r->ended ? "" : "+");
	src->name = r->name;
}

/*
 * Read, check and keep one more line; false at the end or on an error
 * (r->err), both with r->ended, or when a stream's next line has not come.
 */
static bool load_next(struct replay *r)
{
	struct lrs_snapshot *snap;
	struct replay_line *l;
	const char *text;
	char why[400];
	size_t len, lineno;
	int err;

	if (r->ended)
		return false;
	err = lrs_recording__next_line(r->rec, &text, &len, &lineno);
	if (err == -EAGAIN)
		return false;
	if (err) {
		if (err != -ENODATA)
			snprintf(r->err, sizeof(r->err), "%s", lrs_recording__error(r->rec));
		r->ended = true;
		return false;
	}
	err = lrs_snapshot__read_json(text, len, r->last, &snap, why, sizeof(why));
	if (err) {
		snprintf(r->err, sizeof(r->err), "%.150s:%zu: %s", lrs_recording__name(r->rec),
			 lineno, why);
		r->ended = true;
		return false;
	}
	if (r->nr_lines == r->cap_lines) {
		size_t cap = r->cap_lines ? r->cap_lines * 2 : 256;
		void *p = realloc(r->lines, cap * sizeof(*r->lines));
		void *c = p ? realloc(r->checkpoints,
				      (cap / CHECKPOINT_EVERY + 1) * sizeof(*r->checkpoints)) :
			      NULL;

		if (p)
			r->lines = p;
		if (c)
			r->checkpoints = c;
		if (!p || !c)
			goto nomem;
		r->cap_lines = cap;
	}
	l = &r->lines[r->nr_lines];
	l->text = malloc(len ? len : 1);
	if (!l->text)
		goto nomem;
	memcpy(l->text, text, len);
	l->len = len;
	l->lineno = lineno;
	if (r->nr_lines % CHECKPOINT_EVERY == 0) {
		r->checkpoints[r->nr_lines / CHECKPOINT_EVERY] = lrs_snapshot__clone(snap);
		if (!r->checkpoints[r->nr_lines / CHECKPOINT_EVERY]) {
			free(l->text);
			goto nomem;
		}
	}
	r->nr_lines++;
	lrs_snapshot__free(r->last);
	r->last = snap;
	return true;
nomem:
	lrs_snapshot__free(snap);
	snprintf(r->err, sizeof(r->err), "%s: out of memory after %zu snapshots",
		 lrs_recording__name(r->rec), r->nr_lines);
	r->ended = true;
	return false;
}

/* Snapshot k (< nr_lines), decoded from its checkpoint. */
static int decode_at(struct replay *r, size_t k, struct lrs_snapshot **out)
{
	size_t c = k / CHECKPOINT_EVERY;
	struct lrs_snapshot *s = lrs_snapshot__clone(r->checkpoints[c]);

	if (!s)
		return -ENOMEM;
	for (size_t i = c * CHECKPOINT_EVERY + 1; i <= k; i++) {
		struct lrs_snapshot *n;
		int err = lrs_snapshot__read_json(r->lines[i].text, r->lines[i].len, s, &n, r->err,
						  sizeof(r->err));

		lrs_snapshot__free(s);
		if (err)
			return err; /* cannot happen: every line was decoded once */
		s = n;
	}
	*out = s;
	return 0;
}

/* A file's end reached (by playing or seeking): hold the last frame, paused, so one can step back. */
static void hold_at_end(struct replay *r)
{
	if (!r->once && r->ended && (size_t)(r->pos + 1) == r->nr_lines)
		r->hold = true;
}

static int replay_take(struct lrs_source *src, struct lrs_snapshot **out)
{
	struct replay *r = src->ctx;
	size_t next = (size_t)(r->pos + 1);
	int err;

	if (next >= r->nr_lines && !load_next(r)) {
		if (!r->ended)
			return -EAGAIN; /* a stream's next line has not come yet */
		/* a stream's end, known only now: hold its last frame as a file's */
		if (!r->once && r->nr_lines && !r->err[0]) {
			r->hold = true;
			update_name(src);
			return -EAGAIN;
		}
		return -ENODATA;
	}
	err = decode_at(r, next, out);
	if (err)
		return err;
	r->pos = (long)next;
	hold_at_end(r);
	update_name(src);
	return 0;
}

/* Snapshot k with the one before it (its rates): the view pushes both. */
static int seek_to(struct lrs_source *src, long k, struct lrs_snapshot **before,
		   struct lrs_snapshot **at)
{
	struct replay *r = src->ctx;
	struct lrs_snapshot *a = NULL, *b = NULL;
	int err;

	while (k >= (long)r->nr_lines && load_next(r))
		;
	if (k >= (long)r->nr_lines)
		k = (long)r->nr_lines - 1;
	if (k < 0)
		return -ENODATA;
	err = k > 0 ? decode_at(r, (size_t)k - 1, &a) : 0;
	if (!err)
		err = decode_at(r, (size_t)k, &b);
	if (err) {
		lrs_snapshot__free(a);
		return err;
	}
	*before = a;
	*at = b;
	r->pos = k;
	hold_at_end(r);
	update_name(src);
	return 0;
}

static int replay_seek(struct lrs_source *src, enum lrs_seek to, struct lrs_snapshot **before,
		       struct lrs_snapshot **at)
{
	struct replay *r = src->ctx;

	switch (to) {
	case LRS_SEEK_NEXT:
		return seek_to(src, r->pos + 1, before, at);
	case LRS_SEEK_PREV:
		return seek_to(src, r->pos > 1 ? r->pos - 1 : 1, before, at);
	case LRS_SEEK_FIRST: /* the first with rates */
		return seek_to(src, r->nr_lines > 1 ? 1 : 0, before, at);
	case LRS_SEEK_LAST:
		/* a stream has no end yet: the newest line read, without waiting for more */
		return seek_to(src, (long)r->nr_lines - 1, before, at);
	default:
		return -EINVAL;
	}
}

static bool replay_pause(struct lrs_source *src)
{
	struct replay *r = src->ctx;
	bool hold = r->hold;

	r->hold = false;
	return hold;
}

static void replay_speed(struct lrs_source *src, bool up)
{
	struct replay *r = src->ctx;
	const size_t n = sizeof(speeds) / sizeof(speeds[0]);
	size_t i;

	for (i = 0; i < n && speeds[i] < r->speed * 0.999; i++)
		;
	if (up && i + 1 < n)
		i++;
	else if (!up && i > 0)
		i--;
	if (i >= n)
		i = n - 1;
	r->speed = speeds[i];
	src->interval_s = r->base_interval_s / r->speed;
	update_name(src);
}

static void replay_destroy(struct lrs_source *src)
{
	struct replay *r;

	if (!src)
		return;
	r = src->ctx;
	if (r) {
		for (size_t i = 0; i < r->nr_lines; i++)
			free(r->lines[i].text);
		for (size_t i = 0; i < r->nr_lines; i += CHECKPOINT_EVERY)
			lrs_snapshot__free(r->checkpoints[i / CHECKPOINT_EVERY]);
		free(r->lines);
		free(r->checkpoints);
		lrs_snapshot__free(r->last);
		lrs_recording__close(r->rec);
		free(r);
	}
	free(src);
}

int lrs_replay__open(const char *path, const struct lrs_replay_opts *opts, struct lrs_source **out,
		     char *err, size_t err_len)
{
	struct lrs_source *src = calloc(1, sizeof(*src));
	struct replay *r = calloc(1, sizeof(*r));
	const struct lrs_recording_header *hdr;
	struct stat st;
	int ret;

	if (!src || !r) {
		free(src);
		free(r);
		snprintf(err, err_len, "%s: out of memory", path);
		return -ENOMEM;
	}
	src->ctx = r;
	src->take = replay_take;
	src->recorded = true;
	src->seek = replay_seek;
	src->pause = replay_pause;
	src->speed = replay_speed;
	src->destroy = replay_destroy;
	r->pos = -1;
	r->speed = opts && opts->speed > 0 ? opts->speed : 1.0;
	r->once = opts && opts->once;
	ret = lrs_recording__open(&r->rec, path, opts ? opts->max_line : 0, err, err_len);
	if (ret)
		goto fail;
	hdr = lrs_recording__header(r->rec);
	r->base_interval_s = hdr->interval_ns ? (double)hdr->interval_ns / 1e9 : 1.0;
	/* a file is read and checked now: a bad line is reported before the view starts */
	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode)) {
		while (load_next(r))
			;
		if (r->err[0]) {
			snprintf(err, err_len, "%s", r->err);
			ret = -EINVAL;
			goto fail;
		}
		if (!r->nr_lines) {
			snprintf(err, err_len, "%s: the recording has a header but no snapshot",
				 path);
			ret = -ENODATA;
			goto fail;
		}
	} else {
		/* a stream: the view takes its lines as they come, never waits for one */
		lrs_recording__set_nonblocking(r->rec, true);
	}
	if (!hdr->interval_ns && r->nr_lines > 1 && r->lines[0].len) {
		/* headerless: the time between the first two snapshots */
		struct lrs_snapshot *a = NULL, *b = NULL;

		if (!decode_at(r, 0, &a) && !decode_at(r, 1, &b) && b->t_ns > a->t_ns)
			r->base_interval_s = (double)(b->t_ns - a->t_ns) / 1e9;
		lrs_snapshot__free(a);
		lrs_snapshot__free(b);
	}
	src->interval_s = r->base_interval_s / r->speed;
	update_name(src);
	*out = src;
	return 0;
fail:
	replay_destroy(src);
	return ret;
}

const char *lrs_replay__error(const struct lrs_source *src)
{
	const struct replay *r = src->ctx;

	return r->err[0] ? r->err : NULL;
}

const char *lrs_replay__warning(const struct lrs_source *src)
{
	const struct replay *r = src->ctx;

	return r->rec ? lrs_recording__warning(r->rec) : NULL;
}

size_t lrs_replay__count(const struct lrs_source *src)
{
	return ((const struct replay *)src->ctx)->nr_lines;
}

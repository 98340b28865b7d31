// SPDX-License-Identifier: GPL-2.0
/* Reading a recording: its header, then snapshot by snapshot; and as a whole for 'report -i'. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/json/json_get.h"
#include "collector/replay/input_open.h"
#include "collector/replay/recording.h"
#include "model/compare.h"
#include "model/json/snapshot_json.h"
#include "model/snapshot_diff.h"

void lrs_recording_header__clear(struct lrs_recording_header *hdr)
{
	if (!hdr)
		return;
	free(hdr->nodes);
	hdr->nodes = NULL;
	hdr->nr_nodes = 0;
}

struct lrs_recording {
	FILE *own; /* opened here: closed here */
	struct lrs_zreader *zr;
	char *name;
	size_t max_line;
	char *buf;
	size_t cap, start, end; /* unread text is buf[start, end) */
	bool eof;
	size_t lineno; /* of the last line returned */
	struct lrs_recording_header hdr;
	struct lrs_snapshot *prev;
	char *pending; /* headerless: the first snapshot line, read with the header */
	size_t pending_len;
	bool pending_used;
	char err[512];
	char warn[512];
};

static int rec_fail(struct lrs_recording *rec, int err, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int rec_fail(struct lrs_recording *rec, int err, size_t line, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line)
		snprintf(rec->err, sizeof(rec->err), "%s:%zu: %s", rec->name, line, what);
	else
		snprintf(rec->err, sizeof(rec->err), "%s: %s", rec->name, what);
	return err;
}

/* What a failed read means, for "FILE:LINE: ..." */
static const char *read_error(long err)
{
	switch (err) {
	case -EISDIR:
		return "is a directory, not a recording";
	case -EINTR:
		return "reading was interrupted";
	default:
		return strerror((int)-err);
	}
}

/*
 * The next raw line; -ENODATA at the end, -EAGAIN when a non-blocking stream
 * has not given a whole line yet (what came is kept). The last line may lack
 * its newline.
 */
static int read_line(struct lrs_recording *rec, char **line, size_t *len, bool *unterminated)
{
	size_t scanned = rec->start;

	*unterminated = false;
	for (;;) {
		char *nl = rec->end > scanned ?
				   memchr(rec->buf + scanned, '\n', rec->end - scanned) :
				   NULL;
		long n;

		if (nl) {
			*line = rec->buf + rec->start;
			*len = (size_t)(nl - *line);
			rec->start = (size_t)(nl - rec->buf) + 1;
			rec->lineno++;
			if (*len > rec->max_line)
				return rec_fail(
					rec, -E2BIG, rec->lineno,
					"a line of %zu bytes, over the limit of %zu: not an lruscope "
					"recording, or a corrupt one",
					*len, rec->max_line);
			return 0;
		}
		scanned = rec->end;
		if (rec->end - rec->start > rec->max_line)
			return rec_fail(
				rec, -E2BIG, rec->lineno + 1,
				"a line longer than the limit of %zu bytes: not an lruscope "
				"recording, or a corrupt one",
				rec->max_line);
		if (rec->eof) {
			if (rec->start == rec->end)
				return -ENODATA;
			*line = rec->buf + rec->start;
			*len = rec->end - rec->start;
			rec->start = rec->end;
			rec->lineno++;
			*unterminated = true;
			return 0;
		}
		/* make room: move the partial line to the front, then grow */
		if (rec->start) {
			memmove(rec->buf, rec->buf + rec->start, rec->end - rec->start);
			rec->end -= rec->start;
			scanned -= rec->start;
			rec->start = 0;
		}
		if (rec->cap - rec->end < 65536) {
			size_t cap = rec->cap ? rec->cap * 2 : 262144;
			char *b = realloc(rec->buf, cap);

			if (!b)
				return rec_fail(rec, -ENOMEM, rec->lineno + 1, "out of memory");
			rec->buf = b;
			rec->cap = cap;
		}
		n = lrs_zreader__read(rec->zr, rec->buf + rec->end, rec->cap - rec->end);
		if (n == -EAGAIN)
			return -EAGAIN; /* a stream: the rest of the line has not come yet */
		if (n < 0)
			return rec_fail(
				rec, (int)n, rec->lineno + 1, "%s",
				n == -EBADMSG ?
					"corrupt compressed data: the recording is damaged here" :
					read_error(n));
		if (n == 0)
			rec->eof = true;
		rec->end += (size_t)n;
	}
}

/*
 * The next line that is not blank. A last line without its newline that is
 * not JSON is what a killed recorder leaves: warn and end there.
 */
static int next_raw(struct lrs_recording *rec, char **line, size_t *len)
{
	bool unterminated;
	int err;

	do {
		err = read_line(rec, line, len, &unterminated);
		if (err)
			break;
	} while (*len == 0 || (*len == 1 && (*line)[0] == '\r'));
	if (err == -ENODATA && lrs_zreader__cut_short(rec->zr) && !rec->warn[0])
		snprintf(rec->warn, sizeof(rec->warn),
			 "%s: the %s stream has no end mark (was the recorder killed?): it ends at "
			 "byte %llu; read up to line %zu",
			 rec->name, lrs_zkind_names[lrs_zreader__kind(rec->zr)],
			 (unsigned long long)lrs_zreader__offset(rec->zr), rec->lineno);
	if (!err && unterminated) {
		struct lrs_jdoc doc;
		char why[160];

		if (lrs_jdoc__parse(&doc, *line, *len, why, sizeof(why))) {
			snprintf(rec->warn, sizeof(rec->warn),
				 "%s:%zu: the last line is cut short (was the recorder killed?): "
				 "ignored it, read the lines before",
				 rec->name, rec->lineno);
			return -ENODATA;
		}
		lrs_jdoc__free(&doc);
	}
	return err;
}

static int parse_header(struct lrs_recording *rec)
{
	const struct lrs_jval *root, *v, *nodes;
	struct lrs_jdoc doc;
	char *line, why[160];
	size_t len;
	double ver;
	int err;

	err = next_raw(rec, &line, &len);
	if (err == -ENODATA && lrs_zreader__cut_short(rec->zr))
		return rec_fail(
			rec, -EINVAL, 0,
			"truncated or corrupt: the %s stream ends at byte %llu without its end "
			"mark, before a whole header line (was the recorder killed, or the "
			"file cut?)",
			lrs_zkind_names[lrs_zreader__kind(rec->zr)],
			(unsigned long long)lrs_zreader__offset(rec->zr));
	if (err == -ENODATA)
		return rec_fail(rec, -EINVAL, 0, "empty: not an lruscope recording");
	if (err)
		return err;
	if (len == 0 || line[0] != '{' || memchr(line, '\0', len))
		return rec_fail(rec, -EINVAL, rec->lineno,
				"not an lruscope recording (no JSON header line); make one with "
				"'sudo lruscope record -o FILE'");
	err = lrs_jdoc__parse(&doc, line, len, why, sizeof(why));
	if (err)
		return rec_fail(rec, err == -ENOMEM ? -ENOMEM : -EINVAL, rec->lineno,
				"not an lruscope recording (the first line is not JSON: %s)", why);
	root = doc.root;
	v = lrs_jval__get(root, "lruscope_recording");
	if (!v) {
		if (lrs_jval__get(root, "schema") && lrs_jval__get(root, "lruvecs")) {
			/* bare snapshots, as 'report -f json' prints: the first is the header too */
			rec->hdr.headerless = true;
			rec->pending = malloc(len ? len : 1);
			if (!rec->pending) {
				lrs_jdoc__free(&doc);
				return rec_fail(rec, -ENOMEM, rec->lineno, "out of memory");
			}
			memcpy(rec->pending, line, len);
			rec->pending_len = len;
			rec->hdr.schema = LRS_SCHEMA_VERSION;
			lrs_jdoc__free(&doc);
			return 0;
		}
		lrs_jdoc__free(&doc);
		return rec_fail(
			rec, -EINVAL, rec->lineno,
			"not an lruscope recording (the header has no \"lruscope_recording\")");
	}
	err = -EINVAL;
	if (lrs_jval__dbl(v, &ver) || ver < 1) {
		rec_fail(rec, err, rec->lineno, "\"lruscope_recording\" is not a version number");
		goto out;
	}
	if (!(ver < LRS_RECORDING_VERSION + 1)) { /* a double: huge or NaN never reaches a cast */
		err = -EPROTONOSUPPORT;
		rec_fail(rec, err, rec->lineno,
			 "recording format version %g, but this lruscope reads version %d only: "
			 "use a newer lruscope",
			 ver, LRS_RECORDING_VERSION);
		goto out;
	}
	if (lrs_snapshot_json__schema_version(lrs_jval__get(root, "schema"), &ver, why,
					      sizeof(why))) {
		rec_fail(rec, err, rec->lineno, "the header: %s", why);
		goto out;
	}
	/* compared as a double: a huge or NaN version must not reach an int cast */
	if (!(ver >= LRS_SCHEMA_VERSION && ver < LRS_SCHEMA_VERSION + 1)) {
		err = -EPROTONOSUPPORT;
		rec_fail(
			rec, err, rec->lineno,
			"snapshot schema version %g, but this lruscope reads version %d only: use the "
			"lruscope that made the recording, or a newer one",
			ver, LRS_SCHEMA_VERSION);
		goto out;
	}
	rec->hdr.schema = (int)ver;
	snprintf(rec->hdr.kernel, sizeof(rec->hdr.kernel), "%s",
		 lrs_jval__str(lrs_jval__get(root, "kernel")) ?: "");
	snprintf(rec->hdr.host, sizeof(rec->hdr.host), "%s",
		 lrs_jval__str(lrs_jval__get(root, "host")) ?: "");
	if (lrs_jval__opt_u64(NULL, root, "interval_ns", &rec->hdr.interval_ns) ||
	    lrs_jval__opt_u64(NULL, root, "started_unix_ns", &rec->hdr.started_unix_ns)) {
		rec_fail(rec, err, rec->lineno,
			 "the header's interval_ns or started_unix_ns is not a number");
		goto out;
	}
	nodes = lrs_jval__get(root, "nodes");
	if (lrs_jval__is(nodes, LRS_JARR) && nodes->u.arr.len) {
		rec->hdr.nodes = calloc(nodes->u.arr.len, sizeof(int));
		if (!rec->hdr.nodes) {
			err = rec_fail(rec, -ENOMEM, rec->lineno, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < nodes->u.arr.len; i++)
			if (!lrs_jval__int(nodes->u.arr.items[i],
					   &rec->hdr.nodes[rec->hdr.nr_nodes]))
				rec->hdr.nr_nodes++;
	}
	err = 0;
out:
	lrs_jdoc__free(&doc);
	return err;
}

int lrs_recording__open_file(struct lrs_recording **out, FILE *f, const char *name, size_t max_line,
			     char *err, size_t err_len)
{
	struct lrs_recording *rec = calloc(1, sizeof(*rec));
	int ret;

	if (!rec || !(rec->name = strdup(name))) {
		free(rec);
		snprintf(err, err_len, "%s: out of memory", name);
		return -ENOMEM;
	}
	rec->max_line = max_line ? max_line : LRS_RECORDING_MAX_LINE;
	ret = lrs_zreader__open(&rec->zr, f);
	if (ret)
		rec_fail(rec, ret, 0, "cannot read: %s", read_error(ret));
	else
		ret = parse_header(rec);
	if (ret) {
		snprintf(err, err_len, "%s", rec->err);
		lrs_recording__close(rec);
		return ret;
	}
	*out = rec;
	return 0;
}

/*
 * stdin as a descriptor of its own: a view may then reopen stdin on the
 * terminal for its keys while the recording still comes through the pipe.
 */
static FILE *open_stdin(void)
{
	int fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;

	if (!f && fd >= 0) {
		int e = errno;

		close(fd);
		errno = e;
	}
	return f;
}

int lrs_recording__open(struct lrs_recording **out, const char *path, size_t max_line, char *err,
			size_t err_len)
{
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "(stdin)" : path;
	FILE *f;
	int ret, fd;

	if (is_stdin) {
		f = open_stdin();
		if (!f) {
			ret = -errno;
			snprintf(err, err_len, "%s: cannot open: %s", name, strerror(errno));
			return ret;
		}
	} else {
		/* a FIFO without a writer, a device: said now, not waited on forever */
		fd = lrs_input__open(path, LRS_FIFO_WRITER_WAIT_S, err, err_len);
		if (fd < 0)
			return fd;
		f = fdopen(fd, "rb");
		if (!f) {
			ret = -errno;
			snprintf(err, err_len, "%s: cannot open: %s", name, strerror(errno));
			close(fd);
			return ret;
		}
	}
	ret = lrs_recording__open_file(out, f, name, max_line, err, err_len);
	if (ret)
		fclose(f);
	else
		(*out)->own = f;
	return ret;
}

void lrs_recording__set_nonblocking(struct lrs_recording *rec, bool on)
{
	lrs_zreader__set_nonblocking(rec->zr, on);
}

const struct lrs_recording_header *lrs_recording__header(const struct lrs_recording *rec)
{
	return &rec->hdr;
}

int lrs_recording__next_line(struct lrs_recording *rec, const char **line, size_t *len,
			     size_t *lineno)
{
	char *l;
	int err;

	if (rec->pending && !rec->pending_used) {
		rec->pending_used = true;
		*line = rec->pending;
		*len = rec->pending_len;
		*lineno = 1;
		return 0;
	}
	err = next_raw(rec, &l, len);
	if (err)
		return err;
	*line = l;
	*lineno = rec->lineno;
	return 0;
}

int lrs_recording__next(struct lrs_recording *rec, struct lrs_snapshot **out)
{
	struct lrs_snapshot *snap, *copy;
	const char *line;
	char why[400];
	size_t len, lineno;
	int err;

	err = lrs_recording__next_line(rec, &line, &len, &lineno);
	if (err)
		return err;
	err = lrs_snapshot__read_json(line, len, rec->prev, &snap, why, sizeof(why));
	if (err)
		return rec_fail(rec, err, lineno, "%s", why);
	copy = lrs_snapshot__clone(snap);
	if (!copy) {
		lrs_snapshot__free(snap);
		return rec_fail(rec, -ENOMEM, lineno, "out of memory");
	}
	lrs_snapshot__free(rec->prev);
	rec->prev = copy;
	*out = snap;
	return 0;
}

const char *lrs_recording__error(const struct lrs_recording *rec)
{
	return rec->err;
}

const char *lrs_recording__warning(const struct lrs_recording *rec)
{
	return rec->warn[0] ? rec->warn : NULL;
}

const char *lrs_recording__name(const struct lrs_recording *rec)
{
	return rec->name;
}

void lrs_recording__close(struct lrs_recording *rec)
{
	if (!rec)
		return;
	lrs_zreader__close(rec->zr);
	if (rec->own)
		fclose(rec->own);
	lrs_recording_header__clear(&rec->hdr);
	lrs_snapshot__free(rec->prev);
	free(rec->pending);
	free(rec->buf);
	free(rec->name);
	free(rec);
}

/* ---- report -i and diff: a whole recording ------------------------------------ */

/*
 * Hand every snapshot of path to each (which takes it, and returns 0, or
 * non-zero after saying why on stderr to stop). Says on stderr what else
 * went wrong, naming the file. *count: snapshots read.
 */
static int for_each_snapshot(const char *path, int (*each)(void *ctx, struct lrs_snapshot *snap),
			     void *ctx, size_t * count)
{
	struct lrs_recording *rec = NULL;
	struct lrs_snapshot *snap;
	char err[600];
	int ret;

	*count = 0;
	ret = lrs_recording__open(&rec, path, 0, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope: %s\n", err);
		return ret;
	}
	while (!(ret = lrs_recording__next(rec, &snap))) {
		++*count;
		ret = each(ctx, snap);
		if (ret)
			goto out;
	}
	if (ret != -ENODATA) {
		fprintf(stderr, "lruscope: %s\n", lrs_recording__error(rec));
		goto out;
	}
	ret = 0;
	if (lrs_recording__warning(rec))
		fprintf(stderr, "lruscope: warning: %s\n", lrs_recording__warning(rec));
out:
	lrs_recording__close(rec);
	return ret;
}

struct first_last {
	struct lrs_snapshot *first, *last;
};

static int keep_first_last(void *ctx, struct lrs_snapshot *snap)
{
	struct first_last *fl = ctx;

	if (!fl->first) {
		fl->first = snap;
	} else {
		lrs_snapshot__free(fl->last);
		fl->last = snap;
	}
	return 0;
}

int lrs_report__from_recording(const char *path, struct lrs_snapshot **out)
{
	struct first_last fl = {};
	size_t count;
	int ret;

	ret = for_each_snapshot(path, keep_first_last, &fl, &count);
	if (ret)
		goto out;
	if (!fl.first) {
		fprintf(stderr, "lruscope: %s: the recording has a header but no snapshot\n", path);
		ret = -ENODATA;
		goto out;
	}
	if (!fl.last) {
		/* one snapshot: its counters are since the collector started */
		*out = fl.first;
		fl.first = NULL;
		goto out;
	}
	ret = lrs_snapshot__diff(fl.first, fl.last, out);
	if (ret)
		fprintf(stderr, "lruscope: %s: %s\n", path, strerror(-ret));
out:
	lrs_snapshot__free(fl.first);
	lrs_snapshot__free(fl.last);
	return ret;
}

struct run_reading {
	const char *path;
	struct lrs_cmp_run *run;
	char *kernel;
	size_t kernel_len, count;
};

static int push_to_run(void *ctx, struct lrs_snapshot *snap)
{
	struct run_reading *r = ctx;
	int ret;

	if (!r->count++)
		snprintf(r->kernel, r->kernel_len, "%s", snap->kernel);
	ret = lrs_cmp_run__push(r->run, snap);
	lrs_snapshot__free(snap);
	if (ret == -EINVAL)
		fprintf(stderr,
			"lruscope: %s: snapshot %zu is not later than the one before (t_ns); "
			"is it two recordings joined?\n",
			r->path, r->count);
	else if (ret)
		fprintf(stderr, "lruscope: %s: %s\n", r->path, strerror(-ret));
	return ret;
}

int lrs_recording__read_run(const char *path, struct lrs_cmp_run *run, char *kernel,
			    size_t kernel_len)
{
	struct run_reading r = {
		.path = path, .run = run, .kernel = kernel, .kernel_len = kernel_len
	};
	size_t count;
	int ret = for_each_snapshot(path, push_to_run, &r, &count);

	if (!ret && count < 2) {
		fprintf(stderr,
			"lruscope: %s: %zu snapshot%s: diff needs at least two (one interval) per recording\n",
			path, count, count == 1 ? "" : "s");
		ret = -ENODATA;
	}
	return ret;
}

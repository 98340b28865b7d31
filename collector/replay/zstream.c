// SPDX-License-Identifier: GPL-2.0
/* Plain, gzip and zstd byte streams over stdio files. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "collector/replay/zstream.h"

#define ZBUF_BYTES (64 * 1024)

const char *const lrs_zkind_names[] = { "plain", "gzip", "zstd" };

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

enum lrs_zkind lrs_zkind__from_name(const char *path)
{
	if (ends_with(path, ".gz"))
		return LRS_Z_GZIP;
	if (ends_with(path, ".zst"))
		return LRS_Z_ZSTD;
	return LRS_Z_PLAIN;
}

/* ---- reader ------------------------------------------------------------------ */

struct lrs_zreader {
	FILE *f;
	int fd;	       /* f's descriptor, read directly; -1: f has none (fmemopen) */
	bool nonblock; /* a stream: -EAGAIN instead of waiting for bytes */
	enum lrs_zkind kind;
	z_stream z;
	bool z_ready;
	bool z_ended; /* the last gzip member ended cleanly */
	ZSTD_DStream *zd;
	size_t zd_hint; /* 0: the last zstd frame ended */
	unsigned char in[ZBUF_BYTES];
	size_t in_pos, in_len;
	bool eof;
	bool cut_short;
	uint64_t offset; /* bytes read from f: where a cut-short stream ended */
};

/*
 * Up to len bytes of input: what one read() gives, so a pipe's bytes are
 * used as they come (fread would wait for len of them). 0 at the end;
 * -EAGAIN when non-blocking and none has come; -errno on a failure.
 */
static long read_raw(struct lrs_zreader *zr, void *buf, size_t len)
{
	struct pollfd p = { .fd = zr->fd, .events = POLLIN };
	ssize_t n;

	if (zr->fd < 0) {
		n = (ssize_t)fread(buf, 1, len, zr->f);
		zr->offset += (uint64_t)n;
		return n == 0 && ferror(zr->f) ? -EIO : n;
	}
	if (zr->nonblock && poll(&p, 1, 0) == 0)
		return -EAGAIN;
	n = read(zr->fd, buf, len);
	if (n < 0)
		return -errno;
	zr->offset += (uint64_t)n;
	return n;
}

static int fill(struct lrs_zreader *zr)
{
	long n;

	if (zr->in_pos < zr->in_len || zr->eof)
		return 0;
	n = read_raw(zr, zr->in, sizeof(zr->in));
	if (n < 0)
		return (int)n;
	zr->in_pos = 0;
	zr->in_len = (size_t)n;
	if (n == 0)
		zr->eof = true;
	return 0;
}

int lrs_zreader__open(struct lrs_zreader **out, FILE *f)
{
	static const unsigned char gz_magic[2] = { 0x1f, 0x8b };
	static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
	struct lrs_zreader *zr = calloc(1, sizeof(*zr));
	int err;

	if (!zr)
		return -ENOMEM;
	zr->f = f;
	zr->fd = fileno(f);
	/* at least 4 bytes for the magic, unless the input is shorter */
	while (zr->in_len < 4) {
		long n = read_raw(zr, zr->in + zr->in_len, sizeof(zr->in) - zr->in_len);

		if (n < 0) {
			free(zr);
			return (int)n;
		}
		if (n == 0)
			break;
		zr->in_len += (size_t)n;
	}
	if (zr->in_len >= 2 && !memcmp(zr->in, gz_magic, 2)) {
		zr->kind = LRS_Z_GZIP;
		/* 15 + 32: zlib or gzip headers, found automatically */
		if (inflateInit2(&zr->z, 15 + 32) != Z_OK) {
			err = -ENOMEM;
			goto fail;
		}
		zr->z_ready = true;
	} else if (zr->in_len >= 4 && !memcmp(zr->in, zstd_magic, 4)) {
		zr->kind = LRS_Z_ZSTD;
		zr->zd = ZSTD_createDStream();
		if (!zr->zd) {
			err = -ENOMEM;
			goto fail;
		}
		ZSTD_initDStream(zr->zd);
		zr->zd_hint = 1;
	}
	*out = zr;
	return 0;
fail:
	lrs_zreader__close(zr);
	return err;
}

/*
 * The decoders below go on with what input they hold when fill() says
 * -EAGAIN: output left from the last call comes out before they say it too.
 */
static long read_gzip(struct lrs_zreader *zr, void *buf, size_t len)
{
	for (;;) {
		int ret, err = fill(zr);

		if (err && err != -EAGAIN)
			return err;
		if (!err && zr->in_pos == zr->in_len) {
			/* input over: a member that did not end is a killed writer's */
			if (!zr->z_ended)
				zr->cut_short = true;
			return 0;
		}
		if (zr->z_ended) {
			if (err)
				return err; /* the next member has not come yet */
			/* another gzip member follows (cat a.gz b.gz) */
			inflateReset(&zr->z);
			zr->z_ended = false;
		}
		zr->z.next_in = zr->in + zr->in_pos;
		zr->z.avail_in = (uInt)(zr->in_len - zr->in_pos);
		zr->z.next_out = buf;
		zr->z.avail_out = (uInt)(len > UINT32_MAX ? UINT32_MAX : len);
		ret = inflate(&zr->z, Z_NO_FLUSH);
		zr->in_pos = zr->in_len - zr->z.avail_in;
		if (ret == Z_STREAM_END)
			zr->z_ended = true;
		else if (ret != Z_OK && ret != Z_BUF_ERROR)
			return -EBADMSG;
		if (zr->z.next_out != buf)
			return (long)((unsigned char *)zr->z.next_out - (unsigned char *)buf);
		if (err)
			return err;
	}
}

static long read_zstd(struct lrs_zreader *zr, void *buf, size_t len)
{
	for (;;) {
		ZSTD_inBuffer in;
		ZSTD_outBuffer o = { buf, len, 0 };
		size_t ret;
		int err = fill(zr);

		if (err && err != -EAGAIN)
			return err;
		in.src = zr->in;
		in.size = zr->in_len;
		in.pos = zr->in_pos;
		ret = ZSTD_decompressStream(zr->zd, &o, &in);
		if (ZSTD_isError(ret))
			return -EBADMSG;
		/* with nothing read, the hint is about a next frame that may never come */
		if (in.pos != zr->in_pos || o.pos)
			zr->zd_hint = ret;
		zr->in_pos = in.pos;
		if (o.pos)
			return (long)o.pos;
		if (err)
			return err;
		if (zr->in_pos == zr->in_len && zr->eof) {
			if (zr->zd_hint)
				zr->cut_short = true;
			return 0;
		}
	}
}

long lrs_zreader__read(struct lrs_zreader *zr, void *buf, size_t len)
{
	size_t n;
	int err;

	if (!len)
		return 0;
	switch (zr->kind) {
	case LRS_Z_GZIP:
		return read_gzip(zr, buf, len);
	case LRS_Z_ZSTD:
		return read_zstd(zr, buf, len);
	default:
		err = fill(zr);
		if (err)
			return err;
		n = zr->in_len - zr->in_pos;
		if (n > len)
			n = len;
		memcpy(buf, zr->in + zr->in_pos, n);
		zr->in_pos += n;
		return (long)n;
	}
}

void lrs_zreader__set_nonblocking(struct lrs_zreader *zr, bool on)
{
	zr->nonblock = on;
}

enum lrs_zkind lrs_zreader__kind(const struct lrs_zreader *zr)
{
	return zr->kind;
}

bool lrs_zreader__cut_short(const struct lrs_zreader *zr)
{
	return zr->cut_short;
}

uint64_t lrs_zreader__offset(const struct lrs_zreader *zr)
{
	return zr->offset;
}

void lrs_zreader__close(struct lrs_zreader *zr)
{
	if (!zr)
		return;
	if (zr->z_ready)
		inflateEnd(&zr->z);
	ZSTD_freeDStream(zr->zd);
	free(zr);
}

/* ---- writer ------------------------------------------------------------------ */

struct lrs_zwriter {
	FILE *f;
	enum lrs_zkind kind;
	z_stream z;
	bool z_ready;
	ZSTD_CCtx *zc;
	unsigned char out[ZBUF_BYTES];
	uint64_t bytes_out;
	int err;
};

int lrs_zwriter__open(struct lrs_zwriter **out, FILE *f, enum lrs_zkind kind, int level)
{
	struct lrs_zwriter *zw = calloc(1, sizeof(*zw));

	if (!zw)
		return -ENOMEM;
	zw->f = f;
	zw->kind = kind;
	if (kind == LRS_Z_GZIP) {
		/* 15 + 16: a gzip header and trailer, what gzip(1) reads */
		if (deflateInit2(&zw->z, level ? level : 6, Z_DEFLATED, 15 + 16, 9,
				 Z_DEFAULT_STRATEGY) != Z_OK) {
			free(zw);
			return -ENOMEM;
		}
		zw->z_ready = true;
	} else if (kind == LRS_Z_ZSTD) {
		zw->zc = ZSTD_createCCtx();
		if (!zw->zc) {
			free(zw);
			return -ENOMEM;
		}
		ZSTD_CCtx_setParameter(zw->zc, ZSTD_c_compressionLevel, level ? level : 3);
	}
	*out = zw;
	return 0;
}

/* What a failed write or flush of f says: -ENOSPC, -EPIPE, ..., -EIO when errno has nothing. */
static int write_error(void)
{
	return errno ? -errno : -EIO;
}

static int put(struct lrs_zwriter *zw, const void *buf, size_t len)
{
	errno = 0;
	if (len && fwrite(buf, 1, len, zw->f) != len)
		return zw->err = write_error();
	zw->bytes_out += len;
	return 0;
}

static int deflate_all(struct lrs_zwriter *zw, const void *buf, size_t len, int flush)
{
	int ret;

	zw->z.next_in = (Bytef *)buf;
	zw->z.avail_in = (uInt)len;
	do {
		zw->z.next_out = zw->out;
		zw->z.avail_out = sizeof(zw->out);
		ret = deflate(&zw->z, flush);
		if (ret == Z_STREAM_ERROR)
			return zw->err = -EIO;
		if (put(zw, zw->out, sizeof(zw->out) - zw->z.avail_out))
			return zw->err;
	} while (zw->z.avail_out == 0 || zw->z.avail_in ||
		 (flush == Z_FINISH && ret != Z_STREAM_END));
	return 0;
}

static int zstd_all(struct lrs_zwriter *zw, const void *buf, size_t len, ZSTD_EndDirective mode)
{
	ZSTD_inBuffer in = { buf, len, 0 };
	size_t left;

	do {
		ZSTD_outBuffer o = { zw->out, sizeof(zw->out), 0 };

		left = ZSTD_compressStream2(zw->zc, &o, &in, mode);
		if (ZSTD_isError(left))
			return zw->err = -EIO;
		if (put(zw, zw->out, o.pos))
			return zw->err;
	} while (mode == ZSTD_e_continue ? in.pos < in.size : left != 0);
	return 0;
}

int lrs_zwriter__write(struct lrs_zwriter *zw, const void *buf, size_t len)
{
	if (zw->err)
		return zw->err;
	switch (zw->kind) {
	case LRS_Z_GZIP:
		return deflate_all(zw, buf, len, Z_NO_FLUSH);
	case LRS_Z_ZSTD:
		return zstd_all(zw, buf, len, ZSTD_e_continue);
	default:
		return put(zw, buf, len);
	}
}

int lrs_zwriter__flush(struct lrs_zwriter *zw)
{
	int err = zw->err;

	if (!err && zw->kind == LRS_Z_GZIP)
		err = deflate_all(zw, NULL, 0, Z_SYNC_FLUSH);
	else if (!err && zw->kind == LRS_Z_ZSTD)
		err = zstd_all(zw, NULL, 0, ZSTD_e_flush);
	errno = 0;
	if (!err && fflush(zw->f))
		err = zw->err = write_error();
	return err;
}

int lrs_zwriter__close(struct lrs_zwriter *zw, uint64_t *bytes_out)
{
	int err;

	if (bytes_out)
		*bytes_out = 0;
	if (!zw)
		return 0;
	err = zw->err;
	if (!err && zw->kind == LRS_Z_GZIP)
		err = deflate_all(zw, NULL, 0, Z_FINISH);
	else if (!err && zw->kind == LRS_Z_ZSTD)
		err = zstd_all(zw, NULL, 0, ZSTD_e_end);
	errno = 0;
	if (!err && fflush(zw->f))
		err = write_error();
	if (bytes_out)
		*bytes_out = zw->bytes_out;
	if (zw->z_ready)
		deflateEnd(&zw->z);
	ZSTD_freeCCtx(zw->zc);
	free(zw);
	return err;
}

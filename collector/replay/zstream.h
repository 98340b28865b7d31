/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte streams for recordings: plain, gzip (zlib) or zstd. The reader finds
 * the compression from the first bytes; the writer flushes on request so a
 * killed writer leaves everything up to the last flush readable.
 */
#ifndef LRS_ZSTREAM_H
#define LRS_ZSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum lrs_zkind { LRS_Z_PLAIN, LRS_Z_GZIP, LRS_Z_ZSTD };

extern const char *const lrs_zkind_names[]; /* "plain", "gzip", "zstd" */

/* The compression a file name asks for: ".gz" gzip, ".zst" zstd, else plain. */
enum lrs_zkind lrs_zkind__from_name(const char *path);

struct lrs_zreader;

/*
 * Read from f (not closed by the reader): from its descriptor, as the bytes
 * come, when it has one. Waits for the first bytes (the compression's magic).
 */
int lrs_zreader__open(struct lrs_zreader **out, FILE *f);
/*
 * Up to len bytes into buf. Returns the count, 0 at the end, -EAGAIN (non-
 * blocking, no byte has come yet), -EBADMSG (corrupt compressed data) or
 * another -errno (a read error, as -EISDIR).
 */
long lrs_zreader__read(struct lrs_zreader *zr, void *buf, size_t len);
/* Non-blocking: a stream read by a view that must not wait on the writer. */
void lrs_zreader__set_nonblocking(struct lrs_zreader *zr, bool on);
enum lrs_zkind lrs_zreader__kind(const struct lrs_zreader *zr);
/* The compressed stream ended without its end mark (a killed writer). */
bool lrs_zreader__cut_short(const struct lrs_zreader *zr);
/* Bytes read from the file so far (compressed): at the end, where it ended. */
uint64_t lrs_zreader__offset(const struct lrs_zreader *zr);
void lrs_zreader__close(struct lrs_zreader *zr); /* accepts NULL */

struct lrs_zwriter;

/* Write to f (not closed by the writer); level 0 takes the kind's default. */
int lrs_zwriter__open(struct lrs_zwriter **out, FILE *f, enum lrs_zkind kind, int level);
int lrs_zwriter__write(struct lrs_zwriter *zw, const void *buf, size_t len);
/* Everything written so far reaches the file and can be decompressed. */
int lrs_zwriter__flush(struct lrs_zwriter *zw);
/*
 * End the stream (trailer) and free; returns the first error seen. Accepts
 * NULL. bytes_out, if not NULL, gets all bytes handed to f, trailer included.
 */
int lrs_zwriter__close(struct lrs_zwriter *zw, uint64_t *bytes_out);

#endif

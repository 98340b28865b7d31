/* SPDX-License-Identifier: GPL-2.0 */
/* A tiny PNG writer (8-bit RGB, zlib from libz) for screenshots. */
#ifndef LRS_PNG_H
#define LRS_PNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write w x h pixels of 0xAARRGGBB (alpha ignored), rows stride bytes apart,
 * as an RGB PNG to path. Returns 0 or -errno (-EIO for a zlib failure).
 */
int lrs_png__write(const char *path, const uint32_t *argb, int w, int h, size_t stride);

/*
 * Read back a PNG that lrs_png__write wrote (8-bit RGB, no interlace): for
 * tests. *out is malloc'd 0xFFRRGGBB, w * h. Returns 0 or -errno (-EINVAL for
 * other kinds of PNG).
 */
int lrs_png__read(const char *path, uint32_t **out, int *w, int *h);

#endif

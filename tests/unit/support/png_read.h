/* SPDX-License-Identifier: GPL-2.0 */
/* Tests read screenshots back (libpng) to check their pixels. */
#ifndef LRS_TEST_PNG_READ_H
#define LRS_TEST_PNG_READ_H

#include <stdint.h>

/*
 * Read an 8-bit RGB or RGBA PNG: *out is malloc'd 0xFFRRGGBB, w * h.
 * Returns 0 or -errno (-EINVAL for a file that is not such a PNG).
 */
int lrs_png__read(const char *path, uint32_t **out, int *w, int *h);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Screenshots as PNG files, written with libpng. */
#ifndef LRS_PNG_H
#define LRS_PNG_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write w x h pixels of 0xAARRGGBB (alpha ignored), rows stride bytes apart,
 * as an 8-bit RGB PNG to path. Returns 0 or -errno (-EIO when libpng fails).
 */
int lrs_png__write(const char *path, const uint32_t *argb, int w, int h, size_t stride);

#endif

// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#include "ui/gui/png.h"

/* libpng reports errors by longjmp: everything it may jump over is volatile or static. */
static int png__write_rows(FILE *f, const uint32_t *argb, int w, int h, size_t stride,
			   unsigned char *row)
{
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	png_infop info = png ? png_create_info_struct(png) : NULL;

	if (!png || !info) {
		png_destroy_write_struct(&png, NULL);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return -EIO;
	}
	png_init_io(png, f);
	png_set_compression_level(png, 9);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int y = 0; y < h; y++) {
		const uint32_t *src = (const uint32_t *)((const char *)argb + (size_t)y * stride);

		for (int x = 0; x < w; x++) {
			row[3 * x] = (unsigned char)(src[x] >> 16);
			row[3 * x + 1] = (unsigned char)(src[x] >> 8);
			row[3 * x + 2] = (unsigned char)src[x];
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return 0;
}

int lrs_png__write(const char *path, const uint32_t *argb, int w, int h, size_t stride)
{
	unsigned char *row;
	FILE *f;
	int err;

	if (w <= 0 || h <= 0 || !argb)
		return -EINVAL;
	row = malloc((size_t)w * 3);
	if (!row)
		return -ENOMEM;
	f = fopen(path, "wb");
	if (!f) {
		err = -errno;
		free(row);
		return err;
	}
	err = png__write_rows(f, argb, w, h, stride, row);
	if (fclose(f) && !err)
		err = -errno;
	free(row);
	return err;
}

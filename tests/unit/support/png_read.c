// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>

#include "png_read.h"

int lrs_png__read(const char *path, uint32_t **out, int *w, int *h)
{
	png_image img = { .version = PNG_IMAGE_VERSION };
	uint32_t *px;

	*out = NULL;
	if (!png_image_begin_read_from_file(&img, path)) {
		FILE *f = fopen(path, "rb");

		if (!f)
			return -errno;
		fclose(f);
		return -EINVAL;
	}
	/* BGRA in memory is 0xAARRGGBB as a little-endian uint32_t */
	img.format = PNG_FORMAT_BGRA;
	px = malloc(PNG_IMAGE_SIZE(img));
	if (!px) {
		png_image_free(&img);
		return -ENOMEM;
	}
	if (!png_image_finish_read(&img, NULL, px, 0, NULL)) {
		free(px);
		png_image_free(&img);
		return -EINVAL;
	}
	*out = px;
	*w = (int)img.width;
	*h = (int)img.height;
	return 0;
}

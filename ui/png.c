// SPDX-License-Identifier: GPL-2.0
/* PNG: signature, IHDR, one IDAT (zlib), IEND; each chunk with its CRC. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "png.h"

static const unsigned char signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };

static int chunk__write(FILE *f, const char *type, const unsigned char *data, size_t len)
{
	uint32_t be_len = htonl((uint32_t)len), crc;
	unsigned char be_crc[4];

	crc = (uint32_t)crc32(0, (const Bytef *)type, 4);
	if (len)
		crc = (uint32_t)crc32(crc, data, (uInt)len);
	be_crc[0] = crc >> 24;
	be_crc[1] = crc >> 16;
	be_crc[2] = crc >> 8;
	be_crc[3] = crc;
	if (fwrite(&be_len, 4, 1, f) != 1 || fwrite(type, 4, 1, f) != 1 ||
	    (len && fwrite(data, len, 1, f) != 1) || fwrite(be_crc, 4, 1, f) != 1)
		return -EIO;
	return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Filter type f of one byte: x is the pixel's byte, a left, b up, c up-left. */
static unsigned char filter__byte(int f, int x, int a, int b, int c)
{
	switch (f) {
	case 1: return (unsigned char)(x - a);
	case 2: return (unsigned char)(x - b);
	case 3: return (unsigned char)(x - (a + b) / 2);
	case 4: return (unsigned char)(x - paeth(a, b, c));
	default: return (unsigned char)x;
	}
}

/*
 * The scanline's filter: of the five, the one with the least sum of absolute
 * (signed) bytes, the usual heuristic (libpng's); dst gets the type then the row.
 */
static void row__filter(unsigned char *dst, const unsigned char *cur, const unsigned char *prev,
			size_t n)
{
	unsigned long best_sum = ~0ul;
	int best = 0;

	for (int f = 0; f < 5; f++) {
		unsigned long sum = 0;

		for (size_t i = 0; i < n && sum < best_sum; i++) {
			int a = i >= 3 ? cur[i - 3] : 0, b = prev ? prev[i] : 0;
			int c = prev && i >= 3 ? prev[i - 3] : 0;
			unsigned char v = filter__byte(f, cur[i], a, b, c);

			sum += v < 128 ? v : 256 - v;
		}
		if (sum < best_sum) {
			best_sum = sum;
			best = f;
		}
	}
	dst[0] = (unsigned char)best;
	for (size_t i = 0; i < n; i++) {
		int a = i >= 3 ? cur[i - 3] : 0, b = prev ? prev[i] : 0;
		int c = prev && i >= 3 ? prev[i - 3] : 0;

		dst[1 + i] = filter__byte(best, cur[i], a, b, c);
	}
}

int lrs_png__write(const char *path, const uint32_t *argb, int w, int h, size_t stride)
{
	size_t row_len = (size_t)w * 3, raw_len = (row_len + 1) * (size_t)h;
	unsigned char ihdr[13], *raw = NULL, *rgb = NULL, *zbuf = NULL;
	uLongf zlen;
	FILE *f = NULL;
	int err = 0;

	if (w <= 0 || h <= 0 || !argb)
		return -EINVAL;
	raw = malloc(raw_len);
	rgb = malloc(2 * row_len);
	zlen = compressBound((uLong)raw_len);
	zbuf = malloc(zlen);
	if (!raw || !rgb || !zbuf) {
		err = -ENOMEM;
		goto out;
	}
	for (int y = 0; y < h; y++) {
		const uint32_t *src = (const uint32_t *)((const char *)argb + (size_t)y * stride);
		unsigned char *cur = rgb + (y & 1) * row_len, *prev = rgb + ((y + 1) & 1) * row_len;

		for (int x = 0; x < w; x++) {
			cur[3 * x] = (unsigned char)(src[x] >> 16);
			cur[3 * x + 1] = (unsigned char)(src[x] >> 8);
			cur[3 * x + 2] = (unsigned char)src[x];
		}
		row__filter(raw + (size_t)y * (row_len + 1), cur, y ? prev : NULL, row_len);
	}
	if (compress2(zbuf, &zlen, raw, (uLong)raw_len, 9) != Z_OK) {
		err = -EIO;
		goto out;
	}
	put32(ihdr, (uint32_t)w);
	put32(ihdr + 4, (uint32_t)h);
	ihdr[8] = 8;	/* bit depth */
	ihdr[9] = 2;	/* colour type: RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;	/* deflate, adaptive filters, no interlace */
	f = fopen(path, "wb");
	if (!f) {
		err = -errno;
		goto out;
	}
	if (fwrite(signature, sizeof(signature), 1, f) != 1 || chunk__write(f, "IHDR", ihdr, 13) ||
	    chunk__write(f, "IDAT", zbuf, zlen) || chunk__write(f, "IEND", NULL, 0))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	f = NULL;
	if (err)
		unlink(path);
out:
	free(raw);
	free(rgb);
	free(zbuf);
	return err;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int lrs_png__read(const char *path, uint32_t **out, int *wp, int *hp)
{
	unsigned char *file = NULL, *idat = NULL, *raw = NULL;
	size_t len = 0, cap = 0, idat_len = 0, pos = 8, row_len;
	uLongf raw_len;
	uint32_t *px = NULL, w = 0, h = 0;
	FILE *f;
	int err = -EINVAL;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	for (;;) {
		size_t n;

		if (len == cap) {
			void *p = realloc(file, cap = cap ? 2 * cap : 65536);

			if (!p) {
				err = -ENOMEM;
				fclose(f);
				goto out;
			}
			file = p;
		}
		n = fread(file + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	if (len < 8 || memcmp(file, signature, 8))
		goto out;
	idat = malloc(len);
	if (!idat) {
		err = -ENOMEM;
		goto out;
	}
	while (pos + 12 <= len) {
		uint32_t clen = get32(file + pos);
		const unsigned char *type = file + pos + 4, *data = file + pos + 8;

		if (clen > len - pos - 12)
			goto out;
		if ((uint32_t)crc32(crc32(0, type, 4), data, clen) != get32(data + clen))
			goto out;
		if (!memcmp(type, "IHDR", 4)) {
			if (clen != 13 || data[8] != 8 || data[9] != 2 || data[12] != 0)
				goto out;
			w = get32(data);
			h = get32(data + 4);
		} else if (!memcmp(type, "IDAT", 4)) {
			memcpy(idat + idat_len, data, clen);
			idat_len += clen;
		} else if (!memcmp(type, "IEND", 4)) {
			break;
		}
		pos += 12 + clen;
	}
	if (!w || !h || w > 1 << 15 || h > 1 << 15)
		goto out;
	row_len = (size_t)w * 3;
	raw_len = (uLongf)((row_len + 1) * h);
	raw = malloc(raw_len);
	px = malloc((size_t)w * h * sizeof(*px));
	if (!raw || !px) {
		err = -ENOMEM;
		goto out;
	}
	if (uncompress(raw, &raw_len, idat, (uLong)idat_len) != Z_OK ||
	    raw_len != (row_len + 1) * h)
		goto out;
	for (uint32_t y = 0; y < h; y++) {
		unsigned char *r = raw + y * (row_len + 1), *cur = r + 1;
		unsigned char *prev = y ? raw + (y - 1) * (row_len + 1) + 1 : NULL;

		for (size_t i = 0; i < row_len; i++) {
			int a = i >= 3 ? cur[i - 3] : 0, b = prev ? prev[i] : 0;
			int c = prev && i >= 3 ? prev[i - 3] : 0;

			switch (r[0]) {
			case 0: break;
			case 1: cur[i] += a; break;
			case 2: cur[i] += b; break;
			case 3: cur[i] += (a + b) / 2; break;
			case 4: cur[i] += paeth(a, b, c); break;
			default: goto out;
			}
		}
		for (uint32_t x = 0; x < w; x++)
			px[y * w + x] = 0xff000000u | (uint32_t)cur[3 * x] << 16 |
					(uint32_t)cur[3 * x + 1] << 8 | cur[3 * x + 2];
	}
	*out = px;
	px = NULL;
	*wp = (int)w;
	*hp = (int)h;
	err = 0;
out:
	free(file);
	free(idat);
	free(raw);
	free(px);
	return err;
}

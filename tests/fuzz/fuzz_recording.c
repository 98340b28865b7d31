// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the recording reader: any bytes as a recording (plain,
 * gzip or zstd by their magic), read to the end; every snapshot read is also
 * written back as a line, diffed and reported folded, as report -i does.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "collector/replay/recording.h"
#include "model/snapshot_diff.h"
#include "model/json/snapshot_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lrs_recording *rec;
	struct lrs_snapshot *first = NULL, *s, *d;
	FILE *f, *null = fopen("/dev/null", "w");
	char err[700];
	int n = 0;

	if (!size || !null)
		goto out;
	f = fmemopen((void *)data, size, "rb");
	if (!f)
		goto out;
	/* a small line limit: the limit's path is reached without huge inputs */
	if (!lrs_recording__open_file(&rec, f, "fuzz", 1 << 20, err, sizeof(err))) {
		while (n++ < 10000 && !lrs_recording__next(rec, &s)) {
			lrs_snapshot__write_json(s, null);
			if (first) {
				lrs_snapshot__write_json_delta(s, first, null);
				if (!lrs_snapshot__diff(first, s, &d))
					lrs_snapshot__free(d);
				lrs_snapshot__free(s);
			} else {
				first = s;
			}
		}
		lrs_recording__close(rec);
	}
	fclose(f);
out:
	lrs_snapshot__free(first);
	if (null)
		fclose(null);
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench_json's json-c side, in a file of its own: json-c's and jansson's
 * headers cannot share one (json_object, json_type, json_object_get clash).
 */
#ifndef LRS_BENCH_JSONC_H
#define LRS_BENCH_JSONC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int bench_jsonc__open(int max_depth);
/* Parse one line into json-c's tree (and visit every value when walk), then free it. */
int bench_jsonc__parse(const char *line, size_t len, bool walk, uint64_t *sink);
void bench_jsonc__close(void);

#endif

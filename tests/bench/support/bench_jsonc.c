// SPDX-License-Identifier: GPL-2.0
/* json-c for bench_json: json_tokener_parse_ex() of a whole line. */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "tests/bench/support/bench_jsonc.h"

static struct json_tokener *tok;

int bench_jsonc__open(int max_depth)
{
	tok = json_tokener_new_ex(max_depth);
	return tok ? 0 : -ENOMEM;
}

void bench_jsonc__close(void)
{
	json_tokener_free(tok);
	tok = NULL;
}

static void walk(struct json_object *v, uint64_t *sink)
{
	switch (json_object_get_type(v)) {
	case json_type_int:
		*sink += json_object_get_uint64(v);
		break;
	case json_type_string:
		*sink += (uint64_t)json_object_get_string_len(v);
		break;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(v); i++)
			walk(json_object_array_get_idx(v, i), sink);
		break;
	case json_type_object: {
		json_object_object_foreach(v, key, item)
		{
			*sink += (unsigned char)key[0];
			walk(item, sink);
		}
		break;
	}
	default:
		(*sink)++;
	}
}

int bench_jsonc__parse(const char *line, size_t len, bool walk_it, uint64_t *sink)
{
	struct json_object *root;

	json_tokener_reset(tok);
	root = json_tokener_parse_ex(tok, line, (int)len);
	if (!root || json_tokener_get_parse_end(tok) != len) {
		fprintf(stderr, "bench_json: json-c: %s at byte %zu\n",
			json_tokener_error_desc(json_tokener_get_error(tok)),
			json_tokener_get_parse_end(tok));
		json_object_put(root);
		return -EINVAL;
	}
	if (walk_it)
		walk(root, sink);
	json_object_put(root);
	return 0;
}

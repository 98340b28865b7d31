// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <linux/magic.h>

#include "collector/live/cgroup_fs.h"

/* mountinfo escapes spaces and such as \040: undo it in place. */
static void unescape(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] && r[3]) {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = 0;
}

static int has_option(const char *opts, const char *opt)
{
	size_t n = strlen(opt);

	for (const char *p = opts; (p = strstr(p, opt)); p += n)
		if ((p == opts || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
			return 1;
	return 0;
}

int lrs_cgroup_root__parse(const char *mountinfo, int (*has_memory_v2)(const char *mount_point),
			   struct lrs_cgroup_root *out)
{
	char v1[4096] = "", v2[4096] = "";
	const char *line = mountinfo;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[8192], *fields[12], *sep, *save = NULL, *tok;
		int n = 0;

		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = 0;
		line = end ? end + 1 : NULL;
		/* id parent major:minor root mount-point options [optional...] - fstype source super-options */
		sep = strstr(buf, " - ");
		if (!sep)
			continue;
		*sep = 0;
		for (tok = strtok_r(buf, " ", &save); tok && n < 6;
		     tok = strtok_r(NULL, " ", &save))
			fields[n++] = tok;
		if (n < 5)
			continue;
		char *fstype = strtok_r(sep + 3, " ", &save);
		strtok_r(NULL, " ", &save); /* source */
		char *super = strtok_r(NULL, " ", &save);

		unescape(fields[4]);
		if (fstype && !strcmp(fstype, "cgroup2") && !v2[0] &&
		    (!has_memory_v2 || has_memory_v2(fields[4])))
			snprintf(v2, sizeof(v2), "%s", fields[4]);
		else if (fstype && !strcmp(fstype, "cgroup") && super &&
			 has_option(super, "memory") && !v1[0])
			snprintf(v1, sizeof(v1), "%s", fields[4]);
	}
	if (v2[0]) {
		out->version = 2;
		snprintf(out->path, sizeof(out->path), "%s", v2);
		return 0;
	}
	if (v1[0]) {
		out->version = 1;
		snprintf(out->path, sizeof(out->path), "%s", v1);
		return 0;
	}
	return -ENOENT;
}

static int v2_has_memory(const char *mount_point)
{
	char path[4200], buf[512];
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mount_point);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		for (char *save = NULL, *t = strtok_r(buf, " \n", &save); t;
		     t = strtok_r(NULL, " \n", &save))
			if (!strcmp(t, "memory"))
				found = 1;
	}
	fclose(f);
	return found;
}

int lrs_cgroup_root__detect(struct lrs_cgroup_root *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *text = NULL;
	size_t cap = 0;
	int err;

	if (!f)
		return -errno;
	/* mountinfo is not seekable for its size: read it whole */
	err = getdelim(&text, &cap, 0, f) < 0 ? -EIO : 0;
	fclose(f);
	if (!err)
		err = lrs_cgroup_root__parse(text, v2_has_memory, out);
	free(text);
	return err;
}

int lrs_cgroup_root__from_path(const char *path, struct lrs_cgroup_root *out)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return -errno;
	if (sf.f_type == CGROUP2_SUPER_MAGIC)
		out->version = 2;
	else if (sf.f_type == CGROUP_SUPER_MAGIC)
		out->version = 1;
	else
		return -ENOTDIR;
	snprintf(out->path, sizeof(out->path), "%s", path);
	return 0;
}

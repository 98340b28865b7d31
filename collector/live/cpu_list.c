// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "collector/live/cpu_list.h"

int lrs_cpu_list__span(const char *list)
{
	const char *p = list;
	long last = -1;

	while (*p && *p != '\n') {
		char *end;
		long first = strtol(p, &end, 10), to;

		if (end == p || first < 0)
			return -EINVAL;
		to = first;
		if (*end == '-') {
			p = end + 1;
			to = strtol(p, &end, 10);
			if (end == p || to < first)
				return -EINVAL;
		}
		if (to > last)
			last = to;
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return -EINVAL;
		p = end;
	}
	return last < 0 || last >= 1 << 20 ? -EINVAL : (int)last + 1;
}

int lrs_cpu_list__online_span(void)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int err;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		err = ferror(f) ? -EIO : -EINVAL;
		fclose(f);
		return err;
	}
	fclose(f);
	return lrs_cpu_list__span(buf);
}

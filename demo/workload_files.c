// SPDX-License-Identifier: GPL-2.0
/* The workload's file and message helpers (see workload_files.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "demo/workload_files.h"

void lrs_wl__set_err(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (!err || !err_len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, err_len, fmt, ap);
	va_end(ap);
}

int lrs_wl__write_file(const char *path, const char *val)
{
	int fd, ret = 0;
	size_t len = strlen(val);

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, len) != (ssize_t)len)
		ret = -errno;
	close(fd);
	return ret;
}

int lrs_wl__read_file(const char *path, char *buf, size_t len)
{
	int fd;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

bool lrs_wl__has_word(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; (p = strstr(p, word)); p += wl)
		if ((p == list || p[-1] == ' ' || p[-1] == ',') &&
		    (p[wl] == '\0' || p[wl] == ' ' || p[wl] == ',' || p[wl] == '\n'))
			return true;
	return false;
}

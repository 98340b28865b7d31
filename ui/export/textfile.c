// SPDX-License-Identifier: GPL-2.0
/* DIR/lruscope.prom, replaced whole by rename(2). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "ui/export/textfile.h"

int lrs_textfile__check(const char *dir, char *err, size_t err_len)
{
	struct stat st;

	if (stat(dir, &st)) {
		int e = errno;

		if (e == EACCES)
			snprintf(err, err_len, "--textfile %s: cannot write there as uid %d: %s",
				 dir, (int)geteuid(), strerror(e));
		else
			snprintf(
				err, err_len, "--textfile %s: %s%s", dir, strerror(e),
				e == ENOENT ?
					": create it, or give node_exporter's --collector.textfile.directory" :
					"");
		return -e;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_len,
			 "--textfile %s: not a directory (give the directory; the file is %s)", dir,
			 LRS_TEXTFILE_NAME);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		int e = errno;

		snprintf(err, err_len, "--textfile %s: cannot write there as uid %d: %s", dir,
			 (int)geteuid(), strerror(e));
		return -e;
	}
	return 0;
}

int lrs_textfile__write(const char *dir, const char *text, size_t len, char *err, size_t err_len)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	size_t done = 0;
	int fd, e;

	/* a dot file: node_exporter reads only *.prom */
	if (snprintf(tmp, sizeof(tmp), "%s/.%s.%d.tmp", dir, LRS_TEXTFILE_NAME, (int)getpid()) >=
		    (int)sizeof(tmp) ||
	    snprintf(dst, sizeof(dst), "%s/%s", dir, LRS_TEXTFILE_NAME) >= (int)sizeof(dst)) {
		snprintf(err, err_len, "--textfile %s: path too long", dir);
		return -ENAMETOOLONG;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		e = errno;
		snprintf(err, err_len, "--textfile: cannot create %s: %s", tmp, strerror(e));
		return -e;
	}
	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			snprintf(err, err_len, "--textfile: writing %s failed: %s", tmp,
				 strerror(e));
			close(fd);
			unlink(tmp);
			return -e;
		}
		done += (size_t)n;
	}
	if (close(fd)) {
		e = errno;
		snprintf(err, err_len, "--textfile: writing %s failed: %s", tmp, strerror(e));
		unlink(tmp);
		return -e;
	}
	if (rename(tmp, dst)) {
		e = errno;
		snprintf(err, err_len, "--textfile: renaming %s to %s failed: %s", tmp, dst,
			 strerror(e));
		unlink(tmp);
		return -e;
	}
	return 0;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The small file and message helpers that the workload's files (workload.c,
 * workload_check.c, workload_reader.c, workload_stale.c) share: read and write
 * a cgroup or /proc file whole, find a word in a list, fill an error message.
 * A module of their own, so that no file of the workload calls back into
 * another for them.
 */
#ifndef LRS_WORKLOAD_FILES_H
#define LRS_WORKLOAD_FILES_H

#include <stdbool.h>
#include <stddef.h>

/* Format into err (err_len bytes; nothing when err is NULL), as snprintf. */
void lrs_wl__set_err(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Write val to path in one write(): 0 or -errno. */
int lrs_wl__write_file(const char *path, const char *val);
/* Read up to len - 1 bytes of path into buf, NUL-terminated: 0 or -errno. */
int lrs_wl__read_file(const char *path, char *buf, size_t len);
/* Whether list (words separated by spaces, commas or a newline) holds word. */
bool lrs_wl__has_word(const char *list, const char *word);

#endif

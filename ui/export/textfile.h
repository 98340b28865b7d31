/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --textfile DIR: the page as DIR/lruscope.prom for node_exporter's textfile
 * collector, written to a hidden temporary file and renamed over the old
 * one, so a reader sees the old page or the new one, never half of one.
 */
#ifndef LRS_EXPORT_TEXTFILE_H
#define LRS_EXPORT_TEXTFILE_H

#include <stddef.h>

#define LRS_TEXTFILE_NAME "lruscope.prom"

/* Can we write there? 0, or -errno with what to do said in err. */
int lrs_textfile__check(const char *dir, char *err, size_t err_len);
/* Replace DIR/lruscope.prom with text; 0 or -errno (err says which step failed). */
int lrs_textfile__write(const char *dir, const char *text, size_t len, char *err, size_t err_len);

#endif

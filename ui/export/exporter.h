/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lruscope export's loop: a snapshot every interval, folded into series
 * (series.h), rendered in both formats (ui/text/exposition.h), published to
 * the HTTP server (http.h) and/or written as a textfile (textfile.h).
 */
#ifndef LRS_EXPORTER_H
#define LRS_EXPORTER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "collector/source.h"
#include "ui/export/http.h"

struct lrs_export_opts {
	struct lrs_http *http;	  /* serve here, or NULL */
	const char *textfile_dir; /* write DIR/lruscope.prom, or NULL */
	size_t max_series;
	size_t top_locks;
	bool holders;
	double duration_s; /* stop after; 0: until a signal */
	const char *version;
};

/*
 * Run until *stop or the duration ends. Returns 0, or -errno when the source
 * fails (err says what); a textfile that cannot be written is counted and
 * said once on stderr, and the loop goes on.
 */
int lrs_export__run(struct lrs_source *src, const struct lrs_export_opts *opts,
		    volatile sig_atomic_t *stop, char *err, size_t err_len);

#endif

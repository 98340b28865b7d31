/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running the drgn scripts: find drgn-scripts/ (the build tree, the install
 * tree, or $LRS_DRGN_SCRIPTS), check python3 and drgn, run walk.py --json.
 * Errors are said on stderr, one line each, before a negative errno returns.
 */
#ifndef LRS_WALK_RUN_H
#define LRS_WALK_RUN_H

#include <stdbool.h>
#include <stddef.h>

#define WALK_PYTHON "/usr/bin/python3" /* the python3 on PATH may lack drgn */

struct lrs_walk_run_opts {
	const char *core, *vmlinux; /* a vmcore and its vmlinux, or NULL: the live kernel */
	const char *max_folios;
	bool page_owner;
};

/* walk.py's directory into dir: $LRS_DRGN_SCRIPTS, the build tree, the install tree. */
int lrs_walk_scripts__find(char *dir, size_t len);
/* python3 and drgn are there, else one line saying what to install. */
int lrs_walk_python__check(void);
/*
 * Run walk.py --json with its stderr passed through; its stdout into *json
 * (malloc'd, NUL-terminated). 0, or -EIO after saying why (walk.py's own
 * one-line error included).
 */
int lrs_walk__run_script(const struct lrs_walk_run_opts *o, const char *dir, char **json,
			 size_t *len);

#endif

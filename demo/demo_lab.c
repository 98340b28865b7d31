// SPDX-License-Identifier: GPL-2.0
/* 'lruscope demo --lab': the lab's script of the build tree this binary is in, run. */
#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "demo/demo_lab.h"

#define LAB_SCRIPT "tests/lab/lib/lab_demo.py"
#define LAB_PYTHON "/usr/bin/python3" /* the lab's Python, the one with Debian's modules */

/* The top of the build tree whose build/lruscope this is, with the lab in it. */
static int lab_root(char *root, size_t len, char *exe, size_t exe_len)
{
	char path[PATH_MAX + 64];
	struct stat st;
	ssize_t n = readlink("/proc/self/exe", exe, exe_len - 1);

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	snprintf(root, len, "%s", exe);
	dirname(dirname(root)); /* build/lruscope -> the tree's top */
	snprintf(path, sizeof(path), "%s/" LAB_SCRIPT, root);
	return stat(path, &st) ? -ENOENT : 0;
}

int lrs_demo__run_lab(const struct lrs_demo_opts *o)
{
	char root[PATH_MAX], exe[PATH_MAX], script[PATH_MAX + 64], out[PATH_MAX + 32];
	char rounds[16], containers[16], duration[32], size[32], limit[32];
	const char *argv[24];
	int argc = 0;

	if (lab_root(root, sizeof(root), exe, sizeof(exe))) {
		fprintf(stderr,
			"lruscope demo --lab: the lab is part of lruscope's source tree "
			"(" LAB_SCRIPT "), not of this install: run 'sudo make lab-demo' in a "
			"clone\n");
		return 1;
	}
	snprintf(script, sizeof(script), "%s/" LAB_SCRIPT, root);
	if (o->record_dir) /* --record DIR: the lab's recordings, pictures and summary there */
		snprintf(out, sizeof(out), "%s", o->record_dir);
	else
		snprintf(out, sizeof(out), "%s/build/lab-demo", root);
	argv[argc++] = LAB_PYTHON;
	argv[argc++] = script;
	argv[argc++] = "--lruscope";
	argv[argc++] = exe;
	argv[argc++] = "--out";
	argv[argc++] = out;
	if (o->runs_given) {
		snprintf(rounds, sizeof(rounds), "%u", o->runs);
		argv[argc++] = "--rounds";
		argv[argc++] = rounds;
	}
	if (o->readers_given) { /* two readers a container, as everywhere in the demo */
		snprintf(containers, sizeof(containers), "%u",
			 o->wl.readers > 1 ? o->wl.readers / 2 : 1);
		argv[argc++] = "--containers";
		argv[argc++] = containers;
	}
	if (o->duration_given) {
		snprintf(duration, sizeof(duration), "%.0f", o->duration_s < 3 ? 3 : o->duration_s);
		argv[argc++] = "--duration";
		argv[argc++] = duration;
	}
	if (o->size_given) {
		snprintf(size, sizeof(size), "%" PRIu64, o->wl.file_bytes);
		argv[argc++] = "--size";
		argv[argc++] = size;
	}
	if (o->limit_given) {
		snprintf(limit, sizeof(limit), "%" PRIu64, o->wl.limit_bytes);
		argv[argc++] = "--limit";
		argv[argc++] = limit;
	}
	argv[argc] = NULL;
	fflush(NULL);
	execv(LAB_PYTHON, (char *const *)argv);
	fprintf(stderr, "lruscope demo --lab: %s: %s (install python3)\n", LAB_PYTHON,
		strerror(errno));
	return 1;
}

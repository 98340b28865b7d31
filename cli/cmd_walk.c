// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope walk: run drgn-scripts/walk.py on a vmcore or the live kernel and
 * show its snapshot in the TUI (LRU pages per memcg x node, lock words), as a
 * table, or as walk.py's JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run.h"
#include "model/model.h"
#include "collector/walk/walk_import.h"
#include "collector/walk/walk_run.h"
#include "ui/tui/tui.h"
#include "ui/text/walk_report.h"

struct walk_opts {
	struct lrs_walk_run_opts run;
	bool json, no_color;
};

enum { OPT_JSON = LRS_OPT_KEY_LONG, OPT_PAGE_OWNER, OPT_MAX_FOLIOS, OPT_NO_COLOR };

static const struct lrs_opt opts[] = {
	{ "core", 'c', LRS_OPT_SHORT | LRS_OPT_FILE, "VMCORE",
	  "a vmcore instead of the live kernel" },
	{ "vmlinux", 's', LRS_OPT_SHORT | LRS_OPT_FILE, "VMLINUX",
	  "the kernel's debug info (vmlinux with DWARF)",
	  .man = "The kernel's debug info (a vmlinux with DWARF). A vmcore needs the vmlinux of the\n"
		 "kernel that wrote it.\n" },
	{ "json", OPT_JSON, 0, NULL, "print walk.py's JSON object as is (docs/drgn.md)",
	  .man = "Print walk.py's JSON object as is.\n" },
	{ "page-owner", OPT_PAGE_OWNER, 0, NULL, "also count the pages each memcg owns" },
	{ "max-folios", OPT_MAX_FOLIOS, 0, "N",
	  "stop walking a list after N folios (default 1048576)",
	  .man = "Stop walking a list after\n"
		 ".I N\n"
		 "folios (default 1048576).\n" },
	{ "no-color", OPT_NO_COLOR, 0, NULL, "no colours (also when NO_COLOR is set)",
	  .alias = "no-colour" },
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f, "usage: lruscope walk [-c VMCORE -s VMLINUX] [--json] [options]\n"
		   "\n"
		   "Read a kernel's memory with drgn (drgn-scripts/walk.py) and show every\n"
		   "memcg x node lruvec at one instant: the pages on each LRU list (the kernel's\n"
		   "counters, checked by walking the lists), the lru_lock word (locked, pending,\n"
		   "queue tail CPU), lru_check's invariant violations and the tasks holding a\n"
		   "taken lock. On a terminal the result is the heatmap (cells: LRU pages; m\n"
		   "switches; q quits), otherwise a table.\n"
		   "\n"
		   "Without -c it reads the running kernel through /proc/kcore: that needs root\n"
		   "and a kernel with CONFIG_PROC_KCORE, and a vmlinux with debug info (drgn\n"
		   "searches the usual places; -s names one). A vmcore needs the vmlinux of the\n"
		   "kernel that wrote it.\n"
		   "\n"
		   "options:\n");
	lrs_opts__write_help(f, opts);
	fprintf(f, "\n"
		   "walk.py is found in $LRS_DRGN_SCRIPTS, else in ../drgn-scripts next to this\n"
		   "binary (the build tree), else in ../share/lruscope/drgn-scripts (make\n"
		   "install). It runs under " WALK_PYTHON " with drgn (Debian: python3-drgn).\n"
		   "\n"
		   "exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

static int apply(void *ctx, int key, const char *value)
{
	struct walk_opts *o = ctx;
	char *end;

	switch (key) {
	case 'c':
		o->run.core = value;
		return 0;
	case 's':
		o->run.vmlinux = value;
		return 0;
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_PAGE_OWNER:
		o->run.page_owner = true;
		return 0;
	case OPT_MAX_FOLIOS:
		errno = 0;
		if (!*value || *value == '-' || strtoul(value, &end, 10) == 0 || *end || errno) {
			fprintf(stderr,
				"lruscope walk: --max-folios '%s': want a positive number\n",
				value);
			return -EINVAL;
		}
		o->run.max_folios = value;
		return 0;
	case OPT_NO_COLOR:
		o->no_color = true;
		return 0;
	default:
		return -ENOENT; /* the table has no other */
	}
}

/* ---- a source of one snapshot: the TUI takes it once ------------------------ */

static int instant__take(struct lrs_source *src, struct lrs_snapshot **out)
{
	struct lrs_walk *walk = src->ctx;

	if (!walk->snap)
		return -ENODATA;
	*out = walk->snap; /* the model owns it now */
	walk->snap = NULL;
	return 0;
}

static int walk__show(const struct walk_opts *o, struct lrs_walk *walk)
{
	struct lrs_source src = {
		.name = "drgn walk", .interval_s = 0, .take = instant__take, .ctx = walk
	};
	struct lrs_tui_opts topts = { .stop = &lrs_stop, .no_color = o->no_color };
	char banner[512];

	snprintf(banner, sizeof(banner),
		 "walk of %s: LRU pages per memcg x node and lock words "
		 "(drgn)%s",
		 o->run.core ? o->run.core : "the live kernel (/proc/kcore)",
		 walk->violations_total ? "; lru_check found violations: see --json" : "");
	topts.banner = banner;
	return lrs_cli__run_view(&(struct lrs_cli_view){ .cmd = "walk",
							 .src = &src,
							 .history = 1,
							 .sort = LRS_SORT_NAME,
							 .metric = LRS_METRIC_LRU_PAGES,
							 .tui = &topts });
}

/* walk.py's JSON to stdout as it came: the exit status. */
static int write_json(const char *json, size_t len)
{
	if (fwrite(json, 1, len, stdout) != len || fflush(stdout)) {
		/* a reader that stopped early (| head) is not an error to report */
		if (errno != EPIPE)
			fprintf(stderr, "lruscope walk: writing the JSON: %s\n", strerror(errno));
		return LRS_EXIT_FAIL;
	}
	return LRS_EXIT_OK;
}

/* The walk's snapshot: the heatmap on a terminal, else the table. The exit status. */
static int show(struct walk_opts *o, struct lrs_walk *walk)
{
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		if (getenv("NO_COLOR"))
			o->no_color = true;
		return walk__show(o, walk);
	}
	if (lrs_walk_report__print(stdout, walk, o->run.core ? o->run.core : "the live kernel") ||
	    fflush(stdout)) {
		fprintf(stderr, "lruscope walk: writing the table: %s\n", strerror(errno));
		return LRS_EXIT_FAIL;
	}
	return LRS_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct walk_opts o = { 0 };
	struct lrs_walk *walk = NULL;
	char dir[PATH_MAX], err[512], *json = NULL;
	size_t len = 0;
	int status;

	if (lrs_opts__parse(&lrs_command_walk, argc, argv, apply, &o, &status) < 0)
		return status;
	if (!o.run.core && access("/proc/kcore", F_OK) == 0 && access("/proc/kcore", R_OK)) {
		fprintf(stderr, "lruscope walk: reading the live kernel (/proc/kcore) needs root; "
				"or give a vmcore with -c VMCORE -s VMLINUX\n");
		return LRS_EXIT_FAIL;
	}
	if (lrs_walk_scripts__find(dir, sizeof(dir)) || lrs_walk_python__check())
		return LRS_EXIT_FAIL;
	lrs_signals__install();
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "lruscope walk: walking %s...\n",
			o.run.core ? o.run.core : "the live kernel (/proc/kcore)");
	if (lrs_walk__run_script(&o.run, dir, &json, &len))
		return LRS_EXIT_FAIL;
	if (o.json) {
		status = write_json(json, len);
	} else if (lrs_walk__import(json, len, &walk, err, sizeof(err))) {
		fprintf(stderr, "lruscope walk: walk.py's output: %s\n", err);
		status = LRS_EXIT_FAIL;
	} else {
		status = show(&o, walk);
	}
	lrs_walk__free(walk);
	free(json);
	return status;
}

const struct lrs_command lrs_command_walk = {
	.name = "walk",
	.synopsis =
		"walk     [-c VMCORE -s VMLINUX] [--json]  run the drgn scripts, show the result",
	.opts = opts,
	.operand_hint = " (a vmcore is given with -c)",
	.help = help,
	.run = run,
};

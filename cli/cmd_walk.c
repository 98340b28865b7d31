// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope walk: run drgn-scripts/walk.py on a vmcore or the live kernel and
 * show its snapshot in the TUI (LRU pages per memcg x node, lock words), as a
 * table, or as walk.py's JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
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
#include "model/model.h"
#include "collector/walk/walk_import.h"
#include "collector/walk/walk_run.h"
#include "ui/tui/tui.h"
#include "ui/text/walk_report.h"

struct walk_opts {
	struct lrs_walk_run_opts run;
	bool json, no_color;
};

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope walk [-c VMCORE -s VMLINUX] [--json] [options]\n"
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
		"options:\n"
		"  -c, --core VMCORE      a vmcore instead of the live kernel\n"
		"  -s, --vmlinux VMLINUX  the kernel's debug info (vmlinux with DWARF)\n"
		"      --json             print walk.py's JSON object as is (docs/drgn.md)\n"
		"      --page-owner       also count the pages each memcg owns\n"
		"      --max-folios N     stop walking a list after N folios (default 1048576)\n"
		"      --no-color         no colours (also when NO_COLOR is set)\n"
		"  -h, --help             this text\n"
		"\n"
		"walk.py is found in $LRS_DRGN_SCRIPTS, else in ../drgn-scripts next to this\n"
		"binary (the build tree), else in ../share/lruscope/drgn-scripts (make\n"
		"install). It runs under " WALK_PYTHON " with drgn (Debian: python3-drgn).\n"
		"\n"
		"exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

/* ---- a source of one snapshot: the TUI takes it once ------------------------ */

static int instant__take(struct lrs_source *src, struct lrs_snapshot **out)
{
	struct lrs_walk *walk = src->ctx;

	if (!walk->snap)
		return -ENODATA;
	*out = walk->snap;	/* the model owns it now */
	walk->snap = NULL;
	return 0;
}

static int walk__show(const struct walk_opts *o, struct lrs_walk *walk)
{
	struct lrs_source src = { .name = "drgn walk", .interval_s = 0, .take = instant__take,
				  .ctx = walk };
	struct lrs_tui_opts topts = { .stop = &lrs_stop, .no_color = o->no_color };
	char banner[512];
	struct lrs_model *model;
	int err;

	model = lrs_model__new(1);
	if (!model) {
		fprintf(stderr, "lruscope walk: out of memory for the model\n");
		return LRS_EXIT_FAIL;
	}
	model->sort = LRS_SORT_NAME;
	model->metric = LRS_METRIC_LRU_PAGES;
	snprintf(banner, sizeof(banner), "walk of %s: LRU pages per memcg x node and lock words "
		 "(drgn)%s", o->run.core ? o->run.core : "the live kernel (/proc/kcore)",
		 walk->violations_total ? "; lru_check found violations: see --json" : "");
	topts.banner = banner;
	err = lrs_tui__run(&src, model, &topts);
	lrs_model__free(model);
	return err && err != -ENODATA ? LRS_EXIT_FAIL : LRS_EXIT_OK;
}

int lrs_cmd_walk(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "core", required_argument, NULL, 'c' },
		{ "vmlinux", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'J' },
		{ "page-owner", no_argument, NULL, 'P' },
		{ "max-folios", required_argument, NULL, 'M' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-colour", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct walk_opts o = { 0 };
	struct lrs_walk *walk = NULL;
	char dir[PATH_MAX], err[512], *json = NULL, *end;
	size_t len = 0;
	int c, ret = LRS_EXIT_FAIL;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":c:s:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.run.core = optarg;
			break;
		case 's':
			o.run.vmlinux = optarg;
			break;
		case 'J':
			o.json = true;
			break;
		case 'P':
			o.run.page_owner = true;
			break;
		case 'M':
			errno = 0;
			if (!*optarg || *optarg == '-' || strtoul(optarg, &end, 10) == 0 || *end || errno) {
				fprintf(stderr, "lruscope walk: --max-folios '%s': want a positive number\n",
					optarg);
				return LRS_EXIT_USAGE;
			}
			o.run.max_folios = optarg;
			break;
		case 'C':
			o.no_color = true;
			break;
		case 'h':
			help(stdout);
			return lrs_cli__stdout_done("walk", "the help");
		default:
			return lrs_cli__bad_option("walk", c, argv);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope walk: unexpected argument '%s' (a vmcore is given with -c)\n",
			argv[optind]);
		return LRS_EXIT_USAGE;
	}
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
		if (fwrite(json, 1, len, stdout) != len || fflush(stdout)) {
			/* a reader that stopped early (| head) is not an error to report */
			if (errno != EPIPE)
				fprintf(stderr, "lruscope walk: writing the JSON: %s\n", strerror(errno));
			goto out;
		}
		ret = LRS_EXIT_OK;
		goto out;
	}
	if (lrs_walk__import(json, len, &walk, err, sizeof(err))) {
		fprintf(stderr, "lruscope walk: walk.py's output: %s\n", err);
		goto out;
	}
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		if (getenv("NO_COLOR"))
			o.no_color = true;
		ret = walk__show(&o, walk);
		goto out;
	}
	if (lrs_walk_report__print(stdout, walk, o.run.core ? o.run.core : "the live kernel") ||
	    fflush(stdout)) {
		fprintf(stderr, "lruscope walk: writing the table: %s\n", strerror(errno));
		goto out;
	}
	ret = LRS_EXIT_OK;
out:
	lrs_walk__free(walk);
	free(json);
	return ret;
}

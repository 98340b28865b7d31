// SPDX-License-Identifier: GPL-2.0
/* lruscope gui: the live SDL2 window over the BPF collector. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"

#if !LRS_GUI
int lrs_cmd_gui(int argc, char **argv)
{
	fprintf(stderr, "lruscope gui: this lruscope was built without the SDL2 window (make GUI=0); "
			"use 'lruscope top', or rebuild with libsdl2-dev, libsdl2-ttf-dev and "
			"libpng-dev installed\n");
	return LRS_EXIT_USAGE;
}
#else
#include "collector/live/live.h"
#include "model/model.h"
#include "ui/gui/gui.h"
#include "ui/gui/gui_font.h"
#include "ui/keymap.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope gui [-i SECS] [options]\n"
		"\n"
		"A live window of LRU lock contention. On top, the heatmap: one row per\n"
		"memory cgroup, one column per NUMA node; each cell is one lruvec's\n"
		"lru_lock, coloured by the time tasks waited for it per second (viridis,\n"
		"log scale, legend below). Under it, the hottest lruvecs over time, and the\n"
		"selected lruvec's wait histogram over time (log2 buckets). On the right,\n"
		"the selected lruvec's detail: rates, waiting tasks and their memcgs,\n"
		"waiting stacks, LRU list sizes, and the other contended locks.\n"
		"Loading the BPF programs needs root (or CAP_BPF and CAP_PERFMON); to watch\n"
		"as yourself, record as root and replay: sudo lruscope record -o - |\n"
		"lruscope replay - --gui.\n"
		"\n"
		"options:\n"
		"  -i, --interval SECS     time between updates (default 1; + and - change it)\n"
		"  -d, --duration SECS     exit after this long (default: until q)\n"
		"      --screenshot FILE   no window: collect for -d SECS (default 3), draw\n"
		"                          one frame into FILE (PNG), exit\n"
		"      --screenshot-window with --screenshot: show the window for -d SECS,\n"
		"                          then save its last frame (needs a display)\n"
		"      --size WxH          window size in points (default 1280x800; from 320x240\n"
		"                          to 16384x16384)\n"
		"      --font FILE         a TTF font (default: $LRS_FONT, DejaVu Sans Mono)\n"
		LRS_COLLECTOR_OPTS_HELP
		"  -h, --help              this text\n"
		"\n"
		"keys and mouse:\n");
	lrs_keymap__write_help(f, LRS_KEYMAP_GUI, LRS_KEYMAP_REPLAY);
}

/* --size bounds: the smallest window the panels fit in, the largest SDL texture most GPUs take */
#define GUI_MIN_W 320
#define GUI_MIN_H 240
#define GUI_MAX_SIDE 16384

static int parse_size(const char *s, int *w, int *h)
{
	char x, rest;

	if (sscanf(s, "%d%c%d%c", w, &x, h, &rest) != 3 || (x != 'x' && x != 'X') || *w < GUI_MIN_W ||
	    *h < GUI_MIN_H || *w > GUI_MAX_SIDE || *h > GUI_MAX_SIDE)
		return -EINVAL;
	return 0;
}

int lrs_cmd_gui(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "screenshot", required_argument, NULL, 'O' },
		{ "screenshot-window", no_argument, NULL, 'W' },
		{ "size", required_argument, NULL, 'z' },
		{ "font", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		LRS_COLLECTOR_LONG_OPTS,
		{}
	};
	struct lrs_collector_opts copts;
	struct lrs_gui_opts gopts = { .stop = &lrs_stop, .title = "lruscope: LRU lock waits" };
	struct lrs_source *src = NULL;
	struct lrs_model *model = NULL;
	char err[512] = "";
	const char *font;
	int c, applied, ret = LRS_EXIT_FAIL;

	lrs_collector_opts__defaults(&copts);
	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:d:vh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (lrs_cli__seconds("gui", 'i', optarg, &copts.interval_s))
				return LRS_EXIT_USAGE;
			break;
		case 'd':
			if (lrs_cli__seconds("gui", 'd', optarg, &gopts.duration_s))
				return LRS_EXIT_USAGE;
			break;
		case 'O':
			gopts.screenshot = optarg;
			break;
		case 'W':
			gopts.screenshot_window = true;
			break;
		case 'z':
			if (parse_size(optarg, &gopts.width, &gopts.height)) {
				fprintf(stderr, "lruscope gui: --size '%s': want WIDTHxHEIGHT, from %dx%d "
						"to %dx%d\n", optarg, GUI_MIN_W, GUI_MIN_H, GUI_MAX_SIDE,
					GUI_MAX_SIDE);
				return LRS_EXIT_USAGE;
			}
			break;
		case 'F':
			gopts.font_path = optarg;
			break;
		case 'h':
			help(stdout);
			return lrs_cli__stdout_done("gui", "the help");
		default:
			applied = lrs_cli__collector_option("gui", c, optarg, &copts);
			if (applied > 0)
				break;
			if (!applied)
				lrs_cli__bad_option("gui", c, argv);
			return LRS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope gui: unexpected argument '%s'\n", argv[optind]);
		return LRS_EXIT_USAGE;
	}
	if (gopts.screenshot && !gopts.duration_s)
		gopts.duration_s = 3;
	/* a picture that cannot be saved is said now, not after collecting for it */
	if (gopts.screenshot && lrs_cli__writable("gui", "--screenshot", gopts.screenshot))
		return LRS_EXIT_FAIL;

	/* say so before loading anything into the kernel */
	font = lrs_gui_font__find(gopts.font_path);
	if (!font || access(font, R_OK)) {
		fprintf(stderr, "lruscope gui: font %s: %s; install fonts-dejavu-core, or pass "
				"--font FILE.ttf (or set LRS_FONT)\n", font ? font : "DejaVuSansMono.ttf",
			font ? strerror(errno) : "not found");
		return LRS_EXIT_FAIL;
	}

	if ((!gopts.screenshot || gopts.screenshot_window) && lrs_gui__check_display())
		return LRS_EXIT_FAIL;

	lrs_signals__install();
	if (lrs_collector__open(&copts, &src, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err[0] ? err : "lruscope gui: cannot start the collector");
		return LRS_EXIT_FAIL;
	}
	model = lrs_model__new(LRS_HISTORY_DEFAULT);
	if (!model) {
		fprintf(stderr, "lruscope gui: out of memory for the model\n");
		goto out;
	}
	model->sort = LRS_SORT_NAME;
	ret = lrs_gui__run(src, model, &gopts) ? LRS_EXIT_FAIL : LRS_EXIT_OK;
out:
	lrs_model__free(model);
	lrs_source__destroy(src);
	return ret;
}
#endif /* LRS_GUI */

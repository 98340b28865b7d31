// SPDX-License-Identifier: GPL-2.0
/* lruscope gui: the live SDL2 window over the BPF collector. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/collector_opts.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run.h"
#include "collector/live/live.h"
#include "ui/gui/gui.h"
#include "ui/keymap.h"
#if LRS_GUI
#include "ui/gui/gui_font.h"
#endif

enum { OPT_SCREENSHOT = LRS_OPT_KEY_LONG, OPT_SCREENSHOT_WINDOW, OPT_SIZE, OPT_FONT };

/* --size bounds: the smallest window the panels fit in, the largest SDL texture most GPUs take */
#define GUI_MIN_W 320
#define GUI_MIN_H 240
#define GUI_MAX_SIDE 16384

static const struct lrs_opt opts[] = {
	{ "interval", 'i', LRS_OPT_SHORT, "SECS",
	  "time between updates (default 1; + and - change it)" },
	{ "duration", 'd', LRS_OPT_SHORT, "SECS", "exit after this long (default: until q)" },
	{ "screenshot", OPT_SCREENSHOT, LRS_OPT_FILE, "FILE",
	  "no window: collect for -d SECS (default 3), draw one frame into FILE (PNG), exit",
	  .man = "No window: collect for\n"
		 ".B \\-d\n"
		 ".I SECS\n"
		 "(default 3), draw one frame into\n"
		 ".I FILE\n"
		 "(PNG) and exit. Works without a display.\n" },
	{ "screenshot-window", OPT_SCREENSHOT_WINDOW, 0, NULL,
	  "with --screenshot: show the window for -d SECS, then save its last frame (needs a display)",
	  .man = "With\n"
		 ".BR \\-\\-screenshot :\n"
		 "show the window for\n"
		 ".B \\-d\n"
		 ".IR SECS ,\n"
		 "then save its last frame (needs a display).\n" },
	{ "size", OPT_SIZE, 0, "WxH",
	  "window size in points (default 1280x800; from 320x240 to 16384x16384)" },
	{ "font", OPT_FONT, LRS_OPT_FILE, "FILE",
	  "a TTF font (default: $LRS_FONT, DejaVu Sans Mono)",
	  .man = "A TTF font (default:\n"
		 ".BR $LRS_FONT ,\n"
		 "then DejaVu Sans Mono).\n" },
	LRS_OPT_GROUP(lrs_opts_collector),
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f, "usage: lruscope gui [-i SECS] [options]\n"
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
		   "options:\n");
	lrs_opts__write_help(f, opts);
	fprintf(f, "\nkeys and mouse:\n");
	lrs_keymap__write_help(f, LRS_KEYMAP_GUI, LRS_KEYMAP_REPLAY);
}

struct gui_args {
	struct lrs_collector_opts copts;
	struct lrs_gui_opts gopts;
};

static int parse_size(const char *s, int *w, int *h)
{
	char x, rest;

	if (sscanf(s, "%d%c%d%c", w, &x, h, &rest) != 3 || (x != 'x' && x != 'X') ||
	    *w < GUI_MIN_W || *h < GUI_MIN_H || *w > GUI_MAX_SIDE || *h > GUI_MAX_SIDE)
		return -EINVAL;
	return 0;
}

static int apply(void *ctx, int key, const char *value)
{
	struct gui_args *a = ctx;

	switch (key) {
	case 'i':
		return lrs_cli__seconds("gui", 'i', value, &a->copts.interval_s);
	case 'd':
		return lrs_cli__seconds("gui", 'd', value, &a->gopts.duration_s);
	case OPT_SCREENSHOT:
		a->gopts.screenshot = value;
		return 0;
	case OPT_SCREENSHOT_WINDOW:
		a->gopts.screenshot_window = true;
		return 0;
	case OPT_SIZE:
		if (parse_size(value, &a->gopts.width, &a->gopts.height)) {
			fprintf(stderr,
				"lruscope gui: --size '%s': want WIDTHxHEIGHT, from %dx%d to %dx%d\n",
				value, GUI_MIN_W, GUI_MIN_H, GUI_MAX_SIDE, GUI_MAX_SIDE);
			return -EINVAL;
		}
		return 0;
	case OPT_FONT:
		a->gopts.font_path = value;
		return 0;
	default:
		return lrs_cli__collector_option("gui", key, value, &a->copts);
	}
}

#if LRS_GUI
/* Everything a user can get wrong, said before anything is loaded into the kernel. */
static int check(struct gui_args *a)
{
	const char *font;

	if (a->gopts.screenshot && !a->gopts.duration_s)
		a->gopts.duration_s = 3;
	/* a picture that cannot be saved is said now, not after collecting for it */
	if (a->gopts.screenshot && lrs_cli__writable("gui", "--screenshot", a->gopts.screenshot))
		return -EINVAL;
	font = lrs_gui_font__find(a->gopts.font_path);
	if (!font || access(font, R_OK)) {
		fprintf(stderr,
			"lruscope gui: font %s: %s; install fonts-dejavu-core, or pass "
			"--font FILE.ttf (or set LRS_FONT)\n",
			font ? font : "DejaVuSansMono.ttf", font ? strerror(errno) : "not found");
		return -ENOENT;
	}
	if ((!a->gopts.screenshot || a->gopts.screenshot_window) && lrs_gui__check_display())
		return -ENXIO;
	return 0;
}
#endif

static int run(int argc, char **argv)
{
	struct gui_args a = { .gopts = { .stop = &lrs_stop, .title = "lruscope: LRU lock waits" } };
	int status;

	lrs_collector_opts__defaults(&a.copts);
	if (lrs_opts__parse(&lrs_command_gui, argc, argv, apply, &a, &status) < 0)
		return status;
#if LRS_GUI
	if (check(&a))
		return LRS_EXIT_FAIL;
	return lrs_cli__run_view(&(struct lrs_cli_view){
		.cmd = "gui", .live = &a.copts, .sort = LRS_SORT_NAME, .gui = &a.gopts });
#else
	fprintf(stderr,
		"lruscope gui: this lruscope was built without the SDL2 window (make GUI=0); "
		"use 'lruscope top', or rebuild with libsdl2-dev, libsdl2-ttf-dev and "
		"libpng-dev installed\n");
	return LRS_EXIT_USAGE;
#endif
}

const struct lrs_command lrs_command_gui = {
	.name = "gui",
	.synopsis = "gui      [-i SECS]                        live SDL2 window",
	.opts = opts,
	.help = help,
	.run = run,
};

// SPDX-License-Identifier: GPL-2.0
/* lruscope replay: a recording through the TUI (or the GUI); no root needed. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run.h"
#include "ui/keymap.h"
#include "collector/replay/replay.h"
#include "ui/gui/gui.h"
#include "ui/tui/tui.h"

enum { OPT_SCREENSHOT = LRS_OPT_KEY_LONG, OPT_ONCE, OPT_NO_COLOR };

static const struct lrs_opt opts[] = {
	{ "gui", 'g', LRS_OPT_SHORT, NULL, "the SDL2 window instead of the terminal",
	  .man = "The SDL2 window instead of the terminal.\n" },
	{ "screenshot", OPT_SCREENSHOT, LRS_OPT_FILE, "FILE.png",
	  "with --gui: render the recording's last frame headless into FILE.png and exit (no "
	  "display needed; read at once, not played in real time)",
	  .man = "With\n"
		 ".BR \\-\\-gui :\n"
		 "render the recording's last frame headless into\n"
		 ".I FILE.png\n"
		 "and exit: every snapshot is read as fast as it can be, not played in real time.\n" },
	{ "speed", 's', LRS_OPT_SHORT, "X", "X times real time (default 1; 0.25 to 128)",
	  .man = "Play at\n"
		 ".I X\n"
		 "times real time (default 1; 0.25 to 128).\n" },
	{ "once", OPT_ONCE, 0, NULL, "quit after the last snapshot (default: pause on it)" },
	{ "duration", 'd', LRS_OPT_SHORT, "SECS", "quit after SECS of wall time",
	  .man = "Quit after\n"
		 ".I SECS\n"
		 "of wall time.\n" },
	{ "no-color", OPT_NO_COLOR, 0, NULL, "no colour (also when NO_COLOR is set)" },
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope replay FILE [--gui] [--speed X] [options]\n\n"
		"Play a recording ('lruscope record') in the live view. FILE may be gzip or zstd\n"
		"compressed; '-' reads stdin: sudo lruscope record -o - | lruscope replay -\n"
		"No root needed.\n\n");
	lrs_opts__write_help(f, opts);
	fprintf(f, "\nkeys (besides top's and gui's):\n");
	lrs_keymap__write_help(f, LRS_KEYMAP_REPLAY, 0);
	fprintf(f, "\nexit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

struct replay_args {
	struct lrs_replay_opts ropts;
	struct lrs_tui_opts topts;
	bool gui;
	const char *screenshot;
	double duration;
};

static int apply(void *ctx, int key, const char *value)
{
	struct replay_args *a = ctx;

	switch (key) {
	case 'g':
		a->gui = true;
		return 0;
	case 's':
		/* the range the speed keys step through ([ and ]) */
		if (lrs_parse_seconds(value, &a->ropts.speed) || a->ropts.speed < 0.25 ||
		    a->ropts.speed > 128) {
			fprintf(stderr,
				"lruscope replay: --speed '%s': want a number from 0.25 to 128\n",
				value);
			return -EINVAL;
		}
		return 0;
	case OPT_SCREENSHOT:
		a->screenshot = value;
		return 0;
	case OPT_ONCE:
		a->ropts.once = true;
		return 0;
	case 'd':
		return lrs_cli__seconds("replay", 'd', value, &a->duration);
	case OPT_NO_COLOR:
		a->topts.no_color = true;
		return 0;
	default:
		return -ENOENT; /* the table has no other */
	}
}

static int run(int argc, char **argv)
{
	struct replay_args a = { .ropts = { .speed = 1.0 }, .topts = { .stop = &lrs_stop } };
	struct lrs_replay_opts ropts;
	struct lrs_tui_opts topts;
	struct lrs_source *src = NULL;
	struct lrs_gui_opts gopts;
	bool gui;
	const char *screenshot;
	double duration;
	char err[700];
	int ret, status = LRS_EXIT_FAIL;

	/* optind: the first operand, as getopt left it */
	if (lrs_opts__parse(&lrs_command_replay, argc, argv, apply, &a, &status) < 0)
		return status;
	/* what follows reads the options as locals */
	ropts = a.ropts;
	topts = a.topts;
	gui = a.gui;
	screenshot = a.screenshot;
	duration = a.duration;
	if (optind + 1 != argc) {
		fprintf(stderr, "lruscope replay: want one FILE (or '-' for stdin)%s\n",
			optind + 1 < argc ? ", got more" : "");
		return LRS_EXIT_USAGE;
	}
	if (screenshot && !gui) {
		fprintf(stderr, "lruscope replay: --screenshot goes with --gui\n");
		return LRS_EXIT_USAGE;
	}
	if (screenshot && lrs_cli__writable("replay", "--screenshot", screenshot))
		return LRS_EXIT_FAIL;
	if (gui && !LRS_GUI) { /* make GUI=0: no window in this build */
		fprintf(stderr, "lruscope replay: --gui: this lruscope was built without the SDL2 "
				"window (make GUI=0); replay in the terminal, without --gui\n");
		return LRS_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "-") && !gui && isatty(STDIN_FILENO)) {
		fprintf(stderr,
			"lruscope replay: '-' reads a recording from stdin, which is a terminal: "
			"pipe one in (sudo lruscope record -o - | lruscope replay -)\n");
		return LRS_EXIT_USAGE;
	}
	lrs_signals__install();
	ret = lrs_replay__open(argv[optind], &ropts, &src, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope: %s\n", err);
		return LRS_EXIT_FAIL;
	}
	if (lrs_replay__warning(src))
		fprintf(stderr, "lruscope: warning: %s\n", lrs_replay__warning(src));
	if (!gui && !isatty(STDOUT_FILENO)) {
		fprintf(stderr,
			"lruscope replay: the view needs a terminal; for text use "
			"'lruscope report -i %s'\n",
			argv[optind]);
		lrs_source__destroy(src);
		return LRS_EXIT_FAIL;
	}
	topts.duration_s = duration;
	if (getenv("NO_COLOR"))
		topts.no_color = true;
	gopts = (struct lrs_gui_opts){ .stop = &lrs_stop,
				       .duration_s = duration,
				       .title = "lruscope replay",
				       .screenshot = screenshot };
	/* the recording has a descriptor of its own: stdin becomes the keys' terminal */
	if (!gui && !strcmp(argv[optind], "-") && !freopen("/dev/tty", "r", stdin)) {
		fprintf(stderr, "lruscope replay: keys come from the terminal, but /dev/tty: %s\n",
			strerror(errno));
		lrs_source__destroy(src);
		return LRS_EXIT_FAIL;
	}
	/* the source paces itself from --speed: the GUI keeps its interval */
	return lrs_cli__run_view(&(struct lrs_cli_view){ .cmd = "replay",
							 .src = src,
							 .tui = gui ? NULL : &topts,
							 .gui = gui ? &gopts : NULL,
							 .error_of = lrs_replay__error });
}

const struct lrs_command lrs_command_replay = {
	.name = "replay",
	.synopsis = "replay   FILE [--gui] [--speed X]         play a recording in the TUI or GUI",
	.opts = opts,
	.operands = LRS_OPT_FILE,
	.help = help,
	.run = run,
};

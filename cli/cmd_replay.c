// SPDX-License-Identifier: GPL-2.0
/* lruscope replay: a recording through the TUI (or the GUI); no root needed. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "ui/keymap.h"
#include "collector/replay/replay.h"
#include "ui/gui/gui.h"
#include "ui/tui/tui.h"

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope replay FILE [--gui] [--speed X] [options]\n\n"
		"Play a recording ('lruscope record') in the live view. FILE may be gzip or zstd\n"
		"compressed; '-' reads stdin: sudo lruscope record -o - | lruscope replay -\n"
		"No root needed.\n\n"
		"  -g, --gui               the SDL2 window instead of the terminal\n"
		"      --screenshot FILE.png  with --gui: render the recording's last frame\n"
		"                          headless into FILE.png and exit (no display needed;\n"
		"                          read at once, not played in real time)\n"
		"  -s, --speed X           X times real time (default 1; 0.25 to 128)\n"
		"      --once              quit after the last snapshot (default: pause on it)\n"
		"  -d, --duration SECS     quit after SECS of wall time\n"
		"      --no-color          no colour (also when NO_COLOR is set)\n"
		"  -h, --help              this text\n\n"
		"keys (besides top's and gui's):\n");
	lrs_keymap__write_help(f, LRS_KEYMAP_REPLAY, 0);
	fprintf(f, "\nexit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

int lrs_cmd_replay(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "gui", no_argument, NULL, 'g' },
		{ "screenshot", required_argument, NULL, 'P' },
		{ "speed", required_argument, NULL, 's' },
		{ "once", no_argument, NULL, 'O' },
		{ "duration", required_argument, NULL, 'd' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct lrs_replay_opts ropts = { .speed = 1.0 };
	struct lrs_tui_opts topts = { .stop = &lrs_stop };
	struct lrs_source *src = NULL;
	struct lrs_model *model = NULL;
	bool gui = false;
	const char *screenshot = NULL;
	double duration = 0;
	char err[700];
	int c, ret, status = LRS_EXIT_FAIL;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":gs:d:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			gui = true;
			break;
		case 's':
			/* the range the speed keys step through ([ and ]) */
			if (lrs_parse_seconds(optarg, &ropts.speed) || ropts.speed < 0.25 || ropts.speed > 128) {
				fprintf(stderr, "lruscope replay: --speed '%s': want a number from 0.25 to 128\n",
					optarg);
				return LRS_EXIT_USAGE;
			}
			break;
		case 'P':
			screenshot = optarg;
			break;
		case 'O':
			ropts.once = true;
			break;
		case 'd':
			if (lrs_cli__seconds("replay", 'd', optarg, &duration))
				return LRS_EXIT_USAGE;
			break;
		case 'C':
			topts.no_color = true;
			break;
		case 'h':
			help(stdout);
			return lrs_cli__stdout_done("replay", "the help");
		default:
			return lrs_cli__bad_option("replay", c, argv);
		}
	}
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
	if (gui && !LRS_GUI) {	/* make GUI=0: no window in this build */
		fprintf(stderr, "lruscope replay: --gui: this lruscope was built without the SDL2 "
				"window (make GUI=0); replay in the terminal, without --gui\n");
		return LRS_EXIT_USAGE;
	}
	if (!strcmp(argv[optind], "-") && !gui && isatty(STDIN_FILENO)) {
		fprintf(stderr, "lruscope replay: '-' reads a recording from stdin, which is a terminal: "
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
	model = lrs_model__new(LRS_HISTORY_DEFAULT);
	if (!model) {
		fprintf(stderr, "lruscope replay: out of memory\n");
		goto out;
	}
	topts.duration_s = duration;
	if (getenv("NO_COLOR"))
		topts.no_color = true;
	if (gui) {
#if LRS_GUI
		struct lrs_gui_opts gopts = {
			.stop = &lrs_stop, .duration_s = duration, .title = "lruscope replay",
			.screenshot = screenshot,
		};

		/* the source paces itself from --speed: the GUI keeps its interval */
		ret = lrs_gui__run(src, model, &gopts);
#endif
	} else {
		if (!isatty(STDOUT_FILENO)) {
			fprintf(stderr, "lruscope replay: the view needs a terminal; for text use "
					"'lruscope report -i %s'\n", argv[optind]);
			goto out;
		}
		/* the recording has a descriptor of its own: stdin becomes the keys' terminal */
		if (!strcmp(argv[optind], "-") && !freopen("/dev/tty", "r", stdin)) {
			fprintf(stderr, "lruscope replay: keys come from the terminal, but /dev/tty: %s\n",
				strerror(errno));
			goto out;
		}
		ret = lrs_tui__run(src, model, &topts);
	}
	if (lrs_replay__error(src)) {
		fprintf(stderr, "lruscope: %s\n", lrs_replay__error(src));
		goto out;
	}
	if (ret && ret != -ENODATA)
		goto out;
	status = LRS_EXIT_OK;
out:
	lrs_model__free(model);
	lrs_source__destroy(src);
	return status;
}

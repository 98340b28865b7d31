// SPDX-License-Identifier: GPL-2.0
/* A source opened, a model over it, a screen run on them, all freed: the viewing commands' life. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "collector/live/live.h"
#include "ui/tui/tui.h"
#if LRS_GUI
#include "ui/gui/gui.h"
#endif

int lrs_cli__open_live(const char *cmd, const struct lrs_collector_opts *copts,
		       struct lrs_source **src)
{
	char err[512] = "";
	int ret;

	lrs_signals__install();
	ret = lrs_collector__open(copts, src, err, sizeof(err));
	if (ret) {
		if (err[0])
			fprintf(stderr, "%s\n", err);
		else
			fprintf(stderr, "lruscope %s: cannot start the collector: %s\n", cmd,
				strerror(-ret));
	}
	return ret;
}

/* The screen v asks for on src and model: its return. */
static int run_screen(const struct lrs_cli_view *v, struct lrs_source *src, struct lrs_model *model)
{
	if (!v->gui)
		return lrs_tui__run(src, model, v->tui);
#if LRS_GUI
	return lrs_gui__run(src, model, v->gui);
#else
	fprintf(stderr,
		"lruscope %s: this lruscope was built without the SDL2 window (make GUI=0)\n",
		v->cmd);
	return -ENOTSUP;
#endif
}

int lrs_cli__run_view(const struct lrs_cli_view *v)
{
	struct lrs_source *src = v->src;
	struct lrs_model *model = NULL;
	int ret, status = LRS_EXIT_FAIL;

	if (!src && lrs_cli__open_live(v->cmd, v->live, &src))
		return LRS_EXIT_FAIL;
	model = lrs_model__new(v->history ? v->history : LRS_HISTORY_DEFAULT);
	if (!model) {
		fprintf(stderr, "lruscope %s: out of memory for the model\n", v->cmd);
		goto out;
	}
	model->sort = v->sort;
	model->metric = v->metric;
	ret = run_screen(v, src, model);
	if (v->error_of && v->error_of(src)) {
		fprintf(stderr, "lruscope: %s\n", v->error_of(src));
		goto out;
	}
	/* -ENODATA: a source of a few snapshots showed them all */
	if (!ret || ret == -ENODATA)
		status = LRS_EXIT_OK;
out:
	lrs_model__free(model);
	lrs_source__destroy(src);
	return status;
}

// SPDX-License-Identifier: GPL-2.0
/* A source opened, a model over it, a screen run on them, all freed: the viewing commands' life. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/run.h"
#include "collector/live/live.h"
#include "ui/tui/tui.h"
#if LRS_GUI
#include "ui/gui/gui.h"
#endif

/*
 * --ready-file: the PID written under a temporary name and renamed, so that a
 * script polling for a file that is not empty never reads half of it.
 */
static int write_ready_file(const char *cmd, const char *path)
{
	char tmp[4096];
	FILE *f;
	int ret = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(tmp))
		ret = -ENAMETOOLONG;
	else if (!(f = fopen(tmp, "w")))
		ret = -errno;
	else if ((fprintf(f, "%d\n", (int)getpid()) < 0) | (fclose(f) != 0))
		ret = -EIO;
	else if (rename(tmp, path))
		ret = -errno;
	if (ret) {
		unlink(tmp);
		fprintf(stderr, "lruscope %s: --ready-file %s: cannot write it: %s\n", cmd, path,
			strerror(-ret));
	}
	return ret;
}

int lrs_cli__open_live(const char *cmd, const struct lrs_collector_opts *copts,
		       struct lrs_source **src)
{
	char err[512] = "";
	int ret;

	lrs_signals__install();
	/* emptied now: an old one must not say ready before this run is, and one that cannot be
	 * written is said before minutes of loading */
	if (copts->ready_file) {
		int fd = open(copts->ready_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd < 0) {
			ret = -errno;
			fprintf(stderr, "lruscope %s: --ready-file %s: cannot write it: %s\n", cmd,
				copts->ready_file, strerror(-ret));
			return ret;
		}
		close(fd);
	}
	ret = lrs_collector__open(copts, src, err, sizeof(err));
	if (ret) {
		if (err[0])
			fprintf(stderr, "%s\n", err);
		else
			fprintf(stderr, "lruscope %s: cannot start the collector: %s\n", cmd,
				strerror(-ret));
		return ret;
	}
	if (copts->ready_file) {
		ret = write_ready_file(cmd, copts->ready_file);
		if (ret) {
			lrs_source__destroy(*src);
			*src = NULL;
		}
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

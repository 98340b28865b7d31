// SPDX-License-Identifier: GPL-2.0
/*
 * Every action once: its name, what it asks of the screen and the loop, and
 * how the model's and the screen state's own are applied, so that the TUI,
 * the GUI and the key table cannot disagree about one.
 */
#include "ui/action.h"

#define REDRAW LRS_REACT_REDRAW
#define MOVED LRS_REACT_USER_MOVED
#define REFETCH LRS_REACT_REFETCH
#define RETIME LRS_REACT_RETIME
#define FOLLOW LRS_REACT_FOLLOW
#define SOURCE LRS_REACT_SOURCE

static const struct {
	const char *name;
	unsigned int reaction;
} actions[LRS_NR_ACTIONS] = {
	[LRS_ACT_NONE] = { "-", 0 },
	[LRS_ACT_QUIT] = { "quit", REDRAW | LRS_REACT_QUIT },
	[LRS_ACT_SORT_NEXT] = { "sort", REDRAW },
	[LRS_ACT_PAUSE] = { "pause", REDRAW },
	/* the loop times the next snapshot from the last one taken */
	[LRS_ACT_INTERVAL_UP] = { "interval-up", REDRAW | SOURCE },
	[LRS_ACT_INTERVAL_DOWN] = { "interval-down", REDRAW | SOURCE },
	/* the filter picks the rows: its first one stays selected */
	[LRS_ACT_FILTER] = { "filter", REDRAW | MOVED },
	[LRS_ACT_HELP] = { "help", REDRAW },
	[LRS_ACT_DETAIL] = { "detail", REDRAW },
	[LRS_ACT_UP] = { "up", REDRAW | MOVED },
	[LRS_ACT_DOWN] = { "down", REDRAW | MOVED },
	[LRS_ACT_LEFT] = { "left", REDRAW | MOVED },
	[LRS_ACT_RIGHT] = { "right", REDRAW | MOVED },
	[LRS_ACT_PAGE_UP] = { "page-up", REDRAW | MOVED },
	[LRS_ACT_PAGE_DOWN] = { "page-down", REDRAW | MOVED },
	[LRS_ACT_HOME] = { "home", REDRAW | MOVED },
	[LRS_ACT_END] = { "end", REDRAW | MOVED },
	[LRS_ACT_STEP_FORWARD] = { "step-forward", REDRAW | REFETCH | RETIME | FOLLOW | SOURCE },
	[LRS_ACT_STEP_BACK] = { "step-back", REDRAW | REFETCH | RETIME | FOLLOW | SOURCE },
	[LRS_ACT_SEEK_START] = { "seek-start", REDRAW | REFETCH | RETIME | FOLLOW | SOURCE },
	[LRS_ACT_SEEK_END] = { "seek-end", REDRAW | REFETCH | RETIME | FOLLOW | SOURCE },
	[LRS_ACT_SPEED_UP] = { "speed-up", REDRAW | RETIME | FOLLOW | SOURCE },
	[LRS_ACT_SPEED_DOWN] = { "speed-down", REDRAW | RETIME | FOLLOW | SOURCE },
	[LRS_ACT_TIME_VIEW] = { "time-view", REDRAW },
	[LRS_ACT_METRIC_NEXT] = { "metric", REDRAW },
	[LRS_ACT_ESCAPE] = { "escape", REDRAW },
	[LRS_ACT_MATRIX] = { "matrix", REDRAW },
	[LRS_ACT_MATRIX_COLUMNS] = { "matrix-columns", REDRAW },
	[LRS_ACT_LANES] = { "lanes", REDRAW },
};

void lrs_view_state__init(struct lrs_view_state *vs)
{
	*vs = (struct lrs_view_state){ .show_detail = true };
}

const char *lrs_action__name(enum lrs_action action)
{
	if ((unsigned int)action >= LRS_NR_ACTIONS || !actions[action].name)
		return "?";
	return actions[action].name;
}

unsigned int lrs_action__reaction(enum lrs_action action)
{
	if ((unsigned int)action >= LRS_NR_ACTIONS)
		return 0;
	return actions[action].reaction;
}

unsigned int lrs_action__apply(enum lrs_action action, struct lrs_model *model,
			       struct lrs_view_state *vs, size_t page)
{
	long i = lrs_model__selected_index(model);

	if (page < 1)
		page = 1;
	switch (action) {
	case LRS_ACT_UP:
		lrs_model__select_index(model, i - 1);
		break;
	case LRS_ACT_DOWN:
		lrs_model__select_index(model, i + 1);
		break;
	case LRS_ACT_PAGE_UP:
		lrs_model__select_index(model, i - (long)page);
		break;
	case LRS_ACT_PAGE_DOWN:
		lrs_model__select_index(model, i + (long)page);
		break;
	case LRS_ACT_HOME:
		lrs_model__select_index(model, 0);
		break;
	case LRS_ACT_END:
		lrs_model__select_index(model, (long)model->nr_visible - 1);
		break;
	case LRS_ACT_LEFT:
		if (model->sel_node_idx > 0)
			model->sel_node_idx--;
		break;
	case LRS_ACT_RIGHT:
		if (model->sel_node_idx + 1 < model->nr_nodes)
			model->sel_node_idx++;
		break;
	case LRS_ACT_SORT_NEXT:
		model->sort = (model->sort + 1) % LRS_NR_SORTS;
		lrs_model__refresh_view(model);
		break;
	case LRS_ACT_METRIC_NEXT:
		model->metric = (model->metric + 1) % LRS_NR_METRICS;
		break;
	case LRS_ACT_PAUSE:
		vs->paused = !vs->paused;
		break;
	case LRS_ACT_HELP:
		vs->show_help = !vs->show_help;
		break;
	case LRS_ACT_DETAIL:
		vs->show_detail = !vs->show_detail;
		break;
	default:
		return 0;
	}
	return lrs_action__reaction(action);
}

bool lrs_action__scroll(enum lrs_action action, size_t *top, size_t nr_rows, size_t page)
{
	switch (action) {
	case LRS_ACT_UP:
		*top -= *top > 0;
		return true;
	case LRS_ACT_DOWN:
		*top += *top + 1 < nr_rows;
		return true;
	case LRS_ACT_PAGE_UP:
		*top = *top > page ? *top - page : 0;
		return true;
	case LRS_ACT_PAGE_DOWN:
		*top = *top + page < nr_rows ? *top + page : nr_rows;
		return true;
	case LRS_ACT_HOME:
		*top = 0;
		return true;
	case LRS_ACT_END:
		*top = nr_rows;
		return true;
	default:
		return false;
	}
}

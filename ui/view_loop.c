// SPDX-License-Identifier: GPL-2.0
/*
 * The loop state both screens share: one place decides when a snapshot is
 * due, what the selection follows and what an action does to the model, so
 * the TUI and the GUI cannot drift apart on it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "model/clock.h"
#include "ui/view_loop.h"

static const double interval_steps[] = { 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

#define LRS_VIEW_RETRY_S 0.1 /* how soon to ask a stream again for a snapshot not yet come */

double lrs_view__interval_next(double cur, bool up)
{
	const size_t n = sizeof(interval_steps) / sizeof(interval_steps[0]);

	if (up) {
		for (size_t i = 0; i < n; i++)
			if (interval_steps[i] > cur * 1.001)
				return interval_steps[i];
		return interval_steps[n - 1];
	}
	for (size_t i = n; i-- > 0;)
		if (interval_steps[i] < cur * 0.999)
			return interval_steps[i];
	return interval_steps[0];
}

void lrs_view__select_hottest(struct lrs_model *model)
{
	double best = 0;

	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];

		for (size_t n = 0; n < model->nr_nodes; n++) {
			double v = lrs_cell__value(&row->cells[n], model->metric);

			if (v <= best)
				continue;
			best = v;
			model->sel_memcg_id = row->memcg_id;
			model->sel_node_idx = n;
		}
	}
}

static void loop__say(struct lrs_view_loop *lp, bool keep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void loop__say(struct lrs_view_loop *lp, bool keep, const char *fmt, ...)
{
	char text[256];
	va_list ap;

	if (!lp->message)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	lp->message(lp->ctx, keep, text);
}

static double loop__interval(const struct lrs_view_loop *lp)
{
	return lp->src->interval_s / (lp->speed > 0 ? lp->speed : 1);
}

void lrs_view_loop__init(struct lrs_view_loop *lp, struct lrs_source *src, struct lrs_model *model,
			 struct lrs_view_state *state, double now)
{
	lp->src = src;
	lp->model = model;
	lp->state = state;
	lp->start_s = lp->next_due_s = now;
}

bool lrs_view_loop__over(const struct lrs_view_loop *lp, double now)
{
	return lp->duration_s > 0 && now - lp->start_s >= lp->duration_s;
}

bool lrs_view_loop__due(struct lrs_view_loop *lp, double now)
{
	if (lp->state->paused != lp->paused_before) {
		lp->paused_before = lp->state->paused;
		/* resuming: the next snapshot is due now, no long catch-up interval */
		if (!lp->state->paused)
			lp->next_due_s = now;
	}
	return !lp->state->paused && now >= lp->next_due_s;
}

/* Every snapshot reaches the model here: a take's, and a seek's two. */
static int loop__push(struct lrs_view_loop *lp, struct lrs_snapshot *snap)
{
	int err = lrs_model__push(lp->model, snap);

	if (err)
		loop__say(lp, true, "model: %s", strerror(-err));
	return err;
}

/* A source that stopped where it holds (a recording's end) pauses the view. */
static void loop__source_pause(struct lrs_view_loop *lp)
{
	if (lp->src->pause && lp->src->pause(lp->src))
		lp->state->paused = true;
}

int lrs_view_loop__take(struct lrs_view_loop *lp, double now)
{
	struct lrs_snapshot *snap = NULL;
	double iv = loop__interval(lp);
	int err;

	lp->last_take_s = now;
	lp->next_due_s += iv;
	if (lp->next_due_s < now) /* fell behind (a slow take, a pause): no catching up */
		lp->next_due_s = now + iv;
	err = lp->src->take(lp->src, &snap);
	loop__source_pause(lp);
	if (err == -ENODATA)
		return err;
	if (err == -EAGAIN) {
		/* a stream's next snapshot has not come: look again soon, not an interval later */
		lp->next_due_s = now + (iv < LRS_VIEW_RETRY_S ? iv : LRS_VIEW_RETRY_S);
		return 0;
	}
	if (err) {
		loop__say(lp, true, "snapshot from %s failed: %s", lp->src->name, strerror(-err));
		return 0;
	}
	if (loop__push(lp, snap))
		return 0;
	if (!lp->user_moved)
		lrs_view__select_hottest(lp->model);
	return 1;
}

double lrs_view_loop__wait_s(const struct lrs_view_loop *lp, double now, bool idle, double idle_s,
			     double max_s)
{
	double w = idle || lp->state->paused ? idle_s : lp->next_due_s - now;

	if (lp->duration_s > 0 && lp->start_s + lp->duration_s - now < w)
		w = lp->start_s + lp->duration_s - now;
	return w > max_s ? max_s : w;
}

static void loop__set_interval(struct lrs_view_loop *lp, bool up)
{
	double iv;

	if (!(lp->src->interval_s > 0)) {
		loop__say(lp, false, "%s is one instant: no interval to change", lp->src->name);
		return;
	}
	iv = lrs_view__interval_next(lp->src->interval_s, up);
	lp->src->interval_s = iv;
	if (lp->src->set_interval)
		lp->src->set_interval(lp->src, iv);
	lp->next_due_s = lp->last_take_s + loop__interval(lp);
	loop__say(lp, false, "interval %.3gs", iv);
}

/* A replay's seek: the snapshot sought and the one before it into the model. */
static bool loop__seek(struct lrs_view_loop *lp, enum lrs_action act)
{
	struct lrs_snapshot *before = NULL, *at = NULL;
	enum lrs_seek to;

	switch (act) {
	case LRS_ACT_STEP_FORWARD:
		to = LRS_SEEK_NEXT;
		break;
	case LRS_ACT_STEP_BACK:
		to = LRS_SEEK_PREV;
		break;
	case LRS_ACT_SEEK_START:
		to = LRS_SEEK_FIRST;
		break;
	case LRS_ACT_SEEK_END:
		to = LRS_SEEK_LAST;
		break;
	default:
		return false;
	}
	if (!lp->src->seek || lp->src->seek(lp->src, to, &before, &at))
		return false;
	/* the model keeps what it is given; history for the jump is a gap */
	if (before)
		loop__push(lp, before);
	loop__push(lp, at);
	loop__source_pause(lp);
	return true;
}

unsigned int lrs_view_loop__apply(struct lrs_view_loop *lp, struct lrs_filter_edit *filter,
				  enum lrs_action act, size_t page)
{
	struct lrs_model *model = lp->model;
	unsigned int r = lrs_action__reaction(act);

	switch (act) {
	case LRS_ACT_NONE:
		return 0;
	case LRS_ACT_QUIT:
		break;
	case LRS_ACT_ESCAPE:
		if (lp->state->show_help)
			lp->state->show_help = false;
		else if (lp->escape_quits)
			r |= LRS_REACT_QUIT;
		break;
	case LRS_ACT_FILTER:
		lrs_filter_edit__begin(filter, model);
		break;
	case LRS_ACT_INTERVAL_UP:
	case LRS_ACT_INTERVAL_DOWN:
		loop__set_interval(lp, act == LRS_ACT_INTERVAL_UP);
		break;
	case LRS_ACT_SPEED_UP:
	case LRS_ACT_SPEED_DOWN:
		if (!lp->src->speed)
			return 0; /* a live source has none */
		lp->src->speed(lp->src, act == LRS_ACT_SPEED_UP);
		break;
	default:
		if (r & LRS_REACT_REFETCH) {
			if (!loop__seek(lp, act))
				return 0;
			break;
		}
		r = lrs_action__apply(act, model, lp->state, page);
		break;
	}
	if (r & LRS_REACT_QUIT)
		lp->quit = true;
	if (r & LRS_REACT_USER_MOVED)
		lp->user_moved = true;
	if (r & LRS_REACT_RETIME) /* a replay moved or changed speed: a whole interval */
		lp->next_due_s = lrs_now_s() + loop__interval(lp);
	if ((r & LRS_REACT_FOLLOW) && !lp->user_moved)
		lrs_view__select_hottest(model);
	return r;
}

/* ---- the filter prompt ---------------------------------------------------- */

/*
 * Apply the filter; one that names something selects its hottest cell (memcg and
 * node): the node selected before may be one where the memcg waits on nothing.
 */
static void filter__show(struct lrs_filter_edit *e, struct lrs_model *model)
{
	if (e->editing)
		snprintf(model->filter, sizeof(model->filter), "%s", e->text);
	lrs_model__refresh_view(model);
	if (model->filter[0])
		lrs_view__select_hottest(model);
}

void lrs_filter_edit__begin(struct lrs_filter_edit *e, struct lrs_model *model)
{
	e->editing = true;
	snprintf(e->before, sizeof(e->before), "%s", model->filter);
	snprintf(e->text, sizeof(e->text), "%s", model->filter);
}

void lrs_filter_edit__end(struct lrs_filter_edit *e, struct lrs_model *model, bool keep)
{
	if (!keep) /* Esc: back to the filter before the prompt */
		snprintf(model->filter, sizeof(model->filter), "%s", e->before);
	e->editing = false;
	filter__show(e, model);
}

void lrs_filter_edit__erase(struct lrs_filter_edit *e, struct lrs_model *model, bool all)
{
	size_t len = strlen(e->text);

	if (all)
		e->text[0] = '\0';
	else if (len)
		e->text[len - 1] = '\0';
	filter__show(e, model);
}

void lrs_filter_edit__type(struct lrs_filter_edit *e, struct lrs_model *model, const char *text)
{
	size_t len = strlen(e->text);

	/* printable ASCII only: the path is matched as bytes and drawn as text */
	for (; *text; text++)
		if (*text >= 0x20 && *text < 0x7f && len + 1 < sizeof(e->text)) {
			e->text[len++] = *text;
			e->text[len] = '\0';
		}
	filter__show(e, model);
}

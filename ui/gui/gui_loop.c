// SPDX-License-Identifier: GPL-2.0
/*
 * The SDL2 window's loop: the shared view loop (ui/view_loop.h) says when a
 * snapshot is due, puts it into the model and applies actions; here the GUI notes the
 * histograms it keeps after each push, draws, and turns keys and the mouse
 * into actions, redrawing at up to 60 fps while something changes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/gui/gui_internal.h"
#include "ui/view_loop.h"

#define FRAME_S (1.0 / 60)

struct gui_loop {
	struct lrs_view_loop view; /* timing, selection, actions: shared with the TUI */
	struct lrs_gui *gui;
	bool dirty, ended;
	size_t taken;
};

static void loop__message(void *ctx, bool keep, const char *text)
{
	lrs_gui__message(ctx, "%s", text);
}

static int loop__take(struct gui_loop *lp, double now)
{
	int ret = lrs_view_loop__take(&lp->view, now);

	if (ret == 1) {
		lp->taken++;
		lrs_gui__observe(lp->gui, lp->view.model);
		lp->dirty = true;
	}
	return ret;
}

/* The filter prompt's keys; its text comes as SDL_TEXTINPUT. */
static void loop__filter_key(struct gui_loop *lp, SDL_Keycode key)
{
	struct lrs_gui *gui = lp->gui;
	struct lrs_model *model = lp->view.model;

	switch (key) {
	case SDLK_ESCAPE:
	case SDLK_RETURN:
	case SDLK_KP_ENTER:
		lrs_filter_edit__end(&gui->filter, model, key != SDLK_ESCAPE);
		SDL_StopTextInput();
		break;
	case SDLK_BACKSPACE:
		lrs_filter_edit__erase(&gui->filter, model, false);
		break;
	default:
		return;
	}
	gui->hot_pushes = 0; /* other rows: scan for the hottest again */
	gui__lanes_compute(gui, model);
}

static void loop__filter_text(struct gui_loop *lp, const char *text)
{
	lrs_filter_edit__type(&lp->gui->filter, lp->view.model, text);
	lp->gui->hot_pushes = 0;
	gui__lanes_compute(lp->gui, lp->view.model);
}

/* The GUI's own views' actions, else the shared loop's. */
static void loop__action(struct gui_loop *lp, enum lrs_action act)
{
	struct lrs_gui *gui = lp->gui;
	struct lrs_model *model = lp->view.model;
	unsigned int r;

	switch (act) {
	case LRS_ACT_NONE:
		return;
	case LRS_ACT_MATRIX: /* holders' matrix */
		gui->matrix_hidden = !gui->matrix_hidden;
		break;
	case LRS_ACT_MATRIX_COLUMNS:
		gui->matrix_by_holder = !gui->matrix_by_holder;
		break;
	case LRS_ACT_LANES: /* what the time heatmap shows */
		gui->lane_mode = gui->lane_mode == GUI_LANES_HOT ? GUI_LANES_MEMCG : GUI_LANES_HOT;
		break;
	default:
		r = lrs_view_loop__apply(&lp->view, &gui->filter, act,
					 gui->layout.rows_fit > 1 ? gui->layout.rows_fit - 1 : 1);
		if (act == LRS_ACT_FILTER)
			SDL_StartTextInput();
		if (r & LRS_REACT_SOURCE)
			lrs_gui__set_source(gui, lp->view.src->name, lp->view.src->interval_s);
		break;
	}
	/* the lanes follow the selection and the view */
	gui__lanes_compute(gui, model);
	lp->dirty = true;
}

static void loop__click(struct gui_loop *lp, int x, int y, int clicks)
{
	struct lrs_gui *gui = lp->gui;
	struct lrs_model *model = lp->view.model;
	struct lrs_gui_hit hit =
		lrs_gui_layout__hit(&gui->layout, x, y, gui->top, model->nr_visible);
	const struct lrs_row *row = NULL;
	size_t node = model->sel_node_idx;
	long vis;

	switch (hit.part) {
	case LRS_GUI_CELL:
	case LRS_GUI_NAME:
	case LRS_GUI_TOTAL:
		row = &model->rows[model->visible[hit.row]];
		if (hit.part == LRS_GUI_CELL)
			node = hit.node;
		break;
	case LRS_GUI_COLHDR:
		node = hit.node;
		row = lrs_model__selected_row(model);
		break;
	case LRS_GUI_LANE:
		if (hit.lane < gui->nr_lanes) {
			row = gui__row_by_id(model, gui->lanes[hit.lane].memcg_id, &vis);
			node = gui->lanes[hit.lane].node_idx;
			if (vis < 0)
				row = NULL; /* filtered out of the heatmap */
		}
		break;
	default:
		return;
	}
	if (!row || node >= model->nr_nodes)
		return;
	model->sel_memcg_id = row->memcg_id;
	model->sel_node_idx = node;
	lp->view.user_moved = true;
	if (clicks >= 2 && gui->lane_mode == GUI_LANES_HOT)
		gui->lane_mode = GUI_LANES_MEMCG; /* a double click shows its nodes over time */
	gui__lanes_compute(gui, model);
	lp->dirty = true;
}

static void loop__event(struct gui_loop *lp, const SDL_Event *ev)
{
	struct lrs_gui *gui = lp->gui;

	switch (ev->type) {
	case SDL_QUIT:
		lp->view.quit = true;
		break;
	case SDL_WINDOWEVENT:
		if (ev->window.event == SDL_WINDOWEVENT_LEAVE)
			gui->mouse_in = false;
		gui__measure(gui);
		if (gui__font_open(gui))
			lrs_gui__message(gui, "font: cannot resize; keeping the old size");
		lp->dirty = true;
		break;
	case SDL_MOUSEMOTION:
		gui->mouse_x = (int)lround(ev->motion.x * gui->scale);
		gui->mouse_y = (int)lround(ev->motion.y * gui->scale);
		gui->mouse_in = true;
		lp->dirty = true;
		break;
	case SDL_MOUSEBUTTONDOWN:
		if (ev->button.button == SDL_BUTTON_LEFT)
			loop__click(lp, (int)lround(ev->button.x * gui->scale),
				    (int)lround(ev->button.y * gui->scale), ev->button.clicks);
		break;
	case SDL_MOUSEWHEEL:
		for (int i = 0; i < 3 && ev->wheel.y; i++)
			loop__action(lp, ev->wheel.y > 0 ? LRS_ACT_UP : LRS_ACT_DOWN);
		break;
	case SDL_TEXTINPUT:
		if (gui->filter.editing) {
			loop__filter_text(lp, ev->text.text);
			lp->dirty = true;
		}
		break;
	case SDL_KEYDOWN:
		if (gui->filter.editing) {
			loop__filter_key(lp, ev->key.keysym.sym);
			lp->dirty = true;
			break;
		}
		loop__action(lp, gui__key_action(ev->key.keysym.sym, ev->key.keysym.mod));
		break;
	default:
		break;
	}
}

/*
 * Headless: take snapshots as fast as the source gives them, draw once, save.
 * The live source gives one an interval; a recording's exist already: they
 * are taken one after the other, and the frame is the recording's end.
 */
static int run__screenshot(struct gui_loop *lp, const struct lrs_gui_opts *opts,
			   volatile sig_atomic_t *stop)
{
	unsigned int want = opts->screenshot_snapshots;
	bool recorded = lp->view.src->recorded;
	int err = 0, got;

	while (!*stop) {
		double now = lrs_now_s();

		if (want && lp->taken >= want)
			break;
		/* a recording holds its last frame paused at its end: no one here unpauses */
		if (lp->gui->state.paused)
			break;
		if (lrs_view_loop__over(&lp->view, now) && lp->taken >= 2)
			break;
		if (!recorded && !lrs_view_loop__due(&lp->view, now)) {
			double wait = lrs_view_loop__wait_s(&lp->view, now, false, 0, 1e9);

			SDL_Delay(wait > 0 ? (Uint32)(wait * 1000) + 1 : 1);
			continue;
		}
		got = loop__take(lp, now);
		if (got == -ENODATA)
			break;
		if (recorded && got == 0)
			SDL_Delay(10); /* a stream's next line has not come yet */
	}
	if (!lp->view.model->prev)
		lrs_gui__message(lp->gui, "%s gave fewer than two snapshots: no rates to show",
				 lp->view.src->name);
	lrs_gui__draw(lp->gui, lp->view.model);
	err = lrs_gui__save_png(lp->gui, opts->screenshot);
	return err;
}

int lrs_gui__run(struct lrs_source *src, struct lrs_model *model, const struct lrs_gui_opts *opts)
{
	static volatile sig_atomic_t never;
	static const struct lrs_gui_opts no_opts;
	volatile sig_atomic_t *stop;
	struct gui_loop lp = { .dirty = true };
	double last_draw = 0;
	int err;

	if (!opts)
		opts = &no_opts;
	stop = opts->stop ? opts->stop : &never;
	err = lrs_gui__open(&lp.gui, opts);
	if (err)
		return err;
	lrs_gui__set_source(lp.gui, src->name, src->interval_s);
	lp.gui->replay = src->seek != NULL;
	lrs_view_loop__init(&lp.view, src, model, &lp.gui->state, lrs_now_s());
	lp.view.speed = opts->speed > 0 ? opts->speed : 1;
	lp.view.duration_s = opts->duration_s;
	lp.view.escape_quits = true;
	lp.view.message = loop__message;
	lp.view.ctx = lp.gui;
	if (opts->screenshot && !opts->screenshot_window) {
		err = run__screenshot(&lp, opts, stop);
		goto out;
	}

	while (!*stop && !lp.view.quit) {
		double now = lrs_now_s(), wait_s;
		SDL_Event ev;

		if (lrs_view_loop__over(&lp.view, now))
			break;
		if (lrs_view_loop__due(&lp.view, now) && !lp.ended &&
		    loop__take(&lp, now) == -ENODATA) {
			/* a recording ended: keep its last frame until q */
			lrs_gui__message(lp.gui, "%s: no more snapshots (q quits)", src->name);
			lp.ended = true;
			lp.dirty = true;
		}
		if (gui__status_msg(lp.gui) && now - last_draw > 0.5)
			lp.dirty = true; /* a message expires */
		if (lp.dirty) {
			lrs_gui__draw(lp.gui, model);
			last_draw = lrs_now_s();
			lp.dirty = false;
		}
		/* sleep until an event, the next snapshot, or the next frame's slot */
		now = lrs_now_s();
		wait_s = lrs_view_loop__wait_s(&lp.view, now, lp.ended, 0.5, 0.25);
		if (SDL_WaitEventTimeout(&ev, wait_s > 0 ? (int)(wait_s * 1000) + 1 : 1)) {
			loop__event(&lp, &ev);
			while (!lp.view.quit && SDL_PollEvent(&ev))
				loop__event(&lp, &ev);
			/* at most 60 frames a second: input arriving faster waits its turn */
			if (lp.dirty && lrs_now_s() - last_draw < FRAME_S)
				SDL_Delay((Uint32)((FRAME_S - (lrs_now_s() - last_draw)) * 1000) +
					  1);
		}
	}
	if (opts->screenshot) {
		lrs_gui__draw(lp.gui, model);
		err = lrs_gui__save_png(lp.gui, opts->screenshot);
	}
out:
	lrs_gui__close(lp.gui);
	return err;
}

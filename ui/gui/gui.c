// SPDX-License-Identifier: GPL-2.0
/*
 * The SDL2 window's loop: take a snapshot when one is due, push it into the
 * model, let the GUI note the histograms it keeps, draw; between snapshots,
 * turn keys and the mouse into lrs_action values and redraw at up to 60 fps
 * while something changes. Drawing is in gui_draw.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <SDL2/SDL_ttf.h>

#include "ui/gui/gui_impl.h"
#include "ui/gui/png.h"

#define FRAME_S (1.0 / 60)

double gui__now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void lrs_gui__message(struct lrs_gui *gui, const char *fmt, ...)
{
	struct gui_msg *m;
	va_list ap;

	if (!gui)
		return;
	if (gui->nr_msgs == GUI_MSGS) {
		memmove(&gui->msgs[0], &gui->msgs[1], (GUI_MSGS - 1) * sizeof(gui->msgs[0]));
		gui->nr_msgs--;
	}
	m = &gui->msgs[gui->nr_msgs++];
	va_start(ap, fmt);
	vsnprintf(m->text, sizeof(m->text), fmt, ap);
	va_end(ap);
	m->at_s = gui__now_s();
	/* the window may be gone before anyone reads it: stderr too */
	fprintf(stderr, "lruscope: %s\n", m->text);
}

const struct gui_msg *gui__status_msg(const struct lrs_gui *gui)
{
	const struct gui_msg *m;

	if (!gui->nr_msgs)
		return NULL;
	m = &gui->msgs[gui->nr_msgs - 1];
	return gui__now_s() - m->at_s < GUI_MSG_SHOW_S ? m : NULL;
}

void lrs_gui__set_source(struct lrs_gui *gui, const char *name, double interval_s)
{
	gui->source_name = name;
	gui->interval_s = interval_s;
}

enum lrs_action lrs_gui__key_action(int key)
{
	switch (key) {
	case SDLK_q: case SDLK_ESCAPE:
		return LRS_ACT_QUIT;
	case SDLK_s:
		return LRS_ACT_SORT_NEXT;
	case SDLK_p: case SDLK_SPACE:
		return LRS_ACT_PAUSE;
	case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
		return LRS_ACT_INTERVAL_UP;
	case SDLK_MINUS: case SDLK_UNDERSCORE: case SDLK_KP_MINUS:
		return LRS_ACT_INTERVAL_DOWN;
	case SDLK_SLASH: case SDLK_KP_DIVIDE:
		return LRS_ACT_FILTER;
	case SDLK_h: case SDLK_QUESTION: case SDLK_F1:
		return LRS_ACT_HELP;
	case SDLK_RETURN: case SDLK_KP_ENTER: case SDLK_d:
		return LRS_ACT_DETAIL;
	case SDLK_UP: case SDLK_k:
		return LRS_ACT_UP;
	case SDLK_DOWN: case SDLK_j:
		return LRS_ACT_DOWN;
	case SDLK_LEFT:
		return LRS_ACT_LEFT;
	case SDLK_RIGHT: case SDLK_l:
		return LRS_ACT_RIGHT;
	case SDLK_PAGEUP:
		return LRS_ACT_PAGE_UP;
	case SDLK_PAGEDOWN:
		return LRS_ACT_PAGE_DOWN;
	case SDLK_HOME: case SDLK_g:
		return LRS_ACT_HOME;
	case SDLK_END:
		return LRS_ACT_END;
	case SDLK_m:
		return LRS_ACT_METRIC_NEXT;
	/* replay, as in the TUI: . , step; ] [ speed (< > are shifted , .) */
	case SDLK_PERIOD:
		return LRS_ACT_STEP_FORWARD;
	case SDLK_COMMA:
		return LRS_ACT_STEP_BACK;
	case SDLK_RIGHTBRACKET:
		return LRS_ACT_SPEED_UP;
	case SDLK_LEFTBRACKET:
		return LRS_ACT_SPEED_DOWN;
	default:
		return LRS_ACT_NONE;
	}
}

/* ---- what the GUI keeps beside the model --------------------------------- */

const struct lrs_row *gui__row_by_id(const struct lrs_model *model, uint64_t memcg_id, long *vis)
{
	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];

		if (row->memcg_id == memcg_id) {
			if (vis)
				*vis = (long)i;
			return row;
		}
	}
	if (vis)
		*vis = -1;
	for (size_t i = 0; i < model->nr_rows; i++)
		if (model->rows[i].memcg_id == memcg_id)
			return &model->rows[i];
	return NULL;
}

#define LANE_WINDOW 60	/* snapshots a lruvec stays a lane after it was hot */

/*
 * How hot a lruvec was lately: its peak over the last LANE_WINDOW snapshots
 * as a history code (codes order as the values do: no decoding), then the
 * rate now. Read straight from the model's ring: newest at history_head - 1.
 */
static double lane__heat(const struct lrs_model *model, uint64_t memcg_id, int node, double now)
{
	const struct lrs_history *h = lrs_model__history(model, memcg_id, node);
	size_t n = model->history_len < LANE_WINDOW ? model->history_len : LANE_WINDOW;
	uint16_t peak = 0;

	for (size_t i = 0; h && i < n; i++) {
		size_t slot = (model->history_head + model->history_cap - 1 - i) % model->history_cap;

		if (h->wait_code[slot] > peak)
			peak = h->wait_code[slot];
	}
	return (double)peak * 1e12 + now;
}

static bool lane__hotter(double a, double b)
{
	return a > b;
}

/*
 * The lanes of the time heatmap: the lruvecs of the visible rows that were
 * hottest lately (shown in tree order so they do not jump), the selected one
 * always among them; or the selected memcg's nodes.
 */
/* The hottest lruvecs of the visible rows, by lane__heat: a scan of every cell. */
static void hot__scan(struct lrs_gui *gui, const struct lrs_model *model)
{
	double heat[LRS_GUI_MAX_LANES];
	size_t n = 0, want = LRS_GUI_MAX_LANES;

	for (size_t v = 0; v < model->nr_visible; v++) {
		const struct lrs_row *row = &model->rows[model->visible[v]];

		for (size_t i = 0; i < model->nr_nodes; i++) {
			double r;
			size_t at;

			if (!row->cells[i].lruvec)
				continue;
			r = lane__heat(model, row->memcg_id, model->nodes[i], row->cells[i].wait_ns_per_s);
			if (!(r > 0) || (n == want && !lane__hotter(r, heat[n - 1])))
				continue;
			for (at = n; at > 0 && lane__hotter(r, heat[at - 1]); at--)
				;
			if (n < want)
				n++;
			memmove(&gui->hot[at + 1], &gui->hot[at], (n - 1 - at) * sizeof(gui->hot[0]));
			memmove(&heat[at + 1], &heat[at], (n - 1 - at) * sizeof(heat[0]));
			gui->hot[at] = (struct gui_lane){ row->memcg_id, model->nodes[i], i };
			heat[at] = r;
		}
	}
	gui->nr_hot = n;
	gui->hot_pushes = model->pushes;
	gui->hot_view = model->visible;
	gui->hot_nr_visible = model->nr_visible;
}

void gui__lanes_compute(struct lrs_gui *gui, const struct lrs_model *model)
{
	const struct lrs_row *sel = lrs_model__selected_row(model);
	long vis[LRS_GUI_MAX_LANES];
	size_t want = gui->lane_cap ? gui->lane_cap : 12, n = 0;
	bool have_sel = false;

	if (want > LRS_GUI_MAX_LANES)
		want = LRS_GUI_MAX_LANES;
	gui->nr_lanes = 0;
	if (!model->nr_nodes)
		return;
	if (gui->lane_mode == GUI_LANES_MEMCG && sel) {
		for (size_t i = 0; i < model->nr_nodes && n < LRS_GUI_MAX_LANES; i++)
			gui->lanes[n++] = (struct gui_lane){ sel->memcg_id, model->nodes[i], i };
		gui->nr_lanes = n;
		return;
	}
	/* the scan only when the data or the visible rows changed, not per key */
	if (gui->hot_pushes != model->pushes || gui->hot_view != model->visible ||
	    gui->hot_nr_visible != model->nr_visible)
		hot__scan(gui, model);
	n = gui->nr_hot < want ? gui->nr_hot : want;
	memcpy(gui->lanes, gui->hot, n * sizeof(gui->lanes[0]));
	for (size_t i = 0; sel && i < n; i++)
		if (gui->lanes[i].memcg_id == sel->memcg_id && gui->lanes[i].node_idx == model->sel_node_idx)
			have_sel = true;
	if (sel && !have_sel && model->sel_node_idx < model->nr_nodes) {
		if (n == want)
			n--;
		gui->lanes[n++] = (struct gui_lane){ sel->memcg_id, model->nodes[model->sel_node_idx],
						     model->sel_node_idx };
	}
	/* tree order: the order of the visible rows, then node */
	for (size_t i = 0; i < n; i++)
		gui__row_by_id(model, gui->lanes[i].memcg_id, &vis[i]);
	for (size_t i = 1; i < n; i++) {
		struct gui_lane l = gui->lanes[i];
		long li = vis[i];
		size_t j = i;

		while (j > 0 && (vis[j - 1] > li ||
				 (vis[j - 1] == li && gui->lanes[j - 1].node_idx > l.node_idx))) {
			gui->lanes[j] = gui->lanes[j - 1];
			vis[j] = vis[j - 1];
			j--;
		}
		gui->lanes[j] = l;
		vis[j] = li;
	}
	gui->nr_lanes = n;
}

const struct gui_hist_ring *gui__ring(const struct lrs_gui *gui, uint64_t memcg_id, int node)
{
	for (size_t i = 0; i < GUI_RINGS; i++)
		if (gui->rings[i].used && gui->rings[i].memcg_id == memcg_id &&
		    gui->rings[i].node == node)
			return &gui->rings[i];
	return NULL;
}

static void ring__free(struct gui_hist_ring *r)
{
	free(r->push);
	free(r->interval_s);
	free(r->hist);
	memset(r, 0, sizeof(*r));
}

/* The ring of (memcg_id, node), taking the least recently tracked one if new. */
static struct gui_hist_ring *ring__get(struct lrs_gui *gui, uint64_t memcg_id, int node)
{
	struct gui_hist_ring *r = (struct gui_hist_ring *)gui__ring(gui, memcg_id, node), *old = NULL;

	if (r)
		return r;
	for (size_t i = 0; i < GUI_RINGS; i++) {
		r = &gui->rings[i];
		if (!r->used) {
			old = r;
			break;
		}
		if (!old || r->last_use < old->last_use)
			old = r;
	}
	r = old;
	if (r->used && r->last_use == gui->observed)
		return NULL;	/* every ring is tracked now */
	if (!r->push) {
		r->push = calloc(gui->ring_cap, sizeof(*r->push));
		r->interval_s = calloc(gui->ring_cap, sizeof(*r->interval_s));
		r->hist = calloc(gui->ring_cap, sizeof(*r->hist));
		if (!r->push || !r->interval_s || !r->hist) {
			ring__free(r);
			return NULL;
		}
	} else {
		memset(r->push, 0, gui->ring_cap * sizeof(*r->push));
	}
	r->used = true;
	r->memcg_id = memcg_id;
	r->node = node;
	return r;
}

static void ring__record(struct lrs_gui *gui, const struct lrs_model *model,
			 const struct lrs_row *row, size_t node_idx)
{
	struct gui_hist_ring *r = ring__get(gui, row->memcg_id, model->nodes[node_idx]);
	size_t slot;

	if (!r)
		return;
	r->last_use = gui->observed;
	slot = model->pushes % gui->ring_cap;
	r->push[slot] = model->pushes;
	r->interval_s[slot] = (float)model->interval_s;
	for (int b = 0; b < LRS_HIST_BUCKETS; b++)
		r->hist[slot][b] = (uint32_t)(row->cells[node_idx].hist[b] > UINT32_MAX ?
					      UINT32_MAX : row->cells[node_idx].hist[b]);
}

void lrs_gui__observe(struct lrs_gui *gui, const struct lrs_model *model)
{
	const struct lrs_row *sel = lrs_model__selected_row(model);

	if (!gui || !model->prev)
		return;
	if (!gui->ring_cap)
		gui->ring_cap = model->history_cap;
	gui->observed++;
	gui__lanes_compute(gui, model);
	/* the selection first: it must get a ring */
	if (sel && model->sel_node_idx < model->nr_nodes)
		ring__record(gui, model, sel, model->sel_node_idx);
	for (size_t i = 0; i < gui->nr_lanes; i++) {
		const struct lrs_row *row = gui__row_by_id(model, gui->lanes[i].memcg_id, NULL);

		if (row && gui->lanes[i].node_idx < model->nr_nodes &&
		    !(sel && row == sel && gui->lanes[i].node_idx == model->sel_node_idx))
			ring__record(gui, model, row, gui->lanes[i].node_idx);
	}
}

/* ---- open, close, screenshots -------------------------------------------- */

static int gui__font_open(struct lrs_gui *gui)
{
	char err[512] = "";
	const char *path = lrs_gui_font__find(gui->opts.font_path);
	int px = (int)lround(GUI_FONT_PT * gui->scale), ret;
	struct lrs_gui_font *f;

	if (gui->font && px == gui->font_px)
		return 0;
	ret = lrs_gui_font__open(&f, gui->ren, path, px, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope gui: %s\n", err);
		return ret;
	}
	lrs_gui_font__close(gui->font);
	gui->font = f;
	gui->font_px = px;
	return 0;
}

/* The drawable size and its scale over the window's points (HiDPI). */
static void gui__measure(struct lrs_gui *gui)
{
	int ww, wh;

	if (gui->headless) {
		gui->px_w = gui->surface->w;
		gui->px_h = gui->surface->h;
		return;
	}
	SDL_GetWindowSize(gui->win, &ww, &wh);
	if (SDL_GetRendererOutputSize(gui->ren, &gui->px_w, &gui->px_h)) {
		gui->px_w = ww;
		gui->px_h = wh;
	}
	gui->scale = ww > 0 ? (double)gui->px_w / ww : 1;
	if (gui->scale < 1)
		gui->scale = 1;
}

int lrs_gui__open(struct lrs_gui **out, const struct lrs_gui_opts *opts)
{
	struct lrs_gui *gui;
	int w, h, ret;

	*out = NULL;
	gui = calloc(1, sizeof(*gui));
	if (!gui)
		return -ENOMEM;
	if (opts)
		gui->opts = *opts;
	gui->headless = gui->opts.screenshot && !gui->opts.screenshot_window;
	gui->scale = 1;
	gui->hist_used_lo = 1;	/* nothing used */
	w = gui->opts.width > 0 ? gui->opts.width : GUI_DEFAULT_W;
	h = gui->opts.height > 0 ? gui->opts.height : GUI_DEFAULT_H;

	if (gui->headless) {
		/* no display needed: the software renderer draws into a surface */
		const char *s = getenv("LRS_GUI_SCALE");	/* a HiDPI frame, for tests */

		if (s && atof(s) >= 1 && atof(s) <= 4)
			gui->scale = atof(s);
		if (SDL_Init(0)) {
			fprintf(stderr, "lruscope gui: cannot start SDL: %s\n", SDL_GetError());
			ret = -EIO;
			goto fail;
		}
		gui->surface = SDL_CreateRGBSurfaceWithFormat(0, (int)(w * gui->scale),
							      (int)(h * gui->scale), 32,
							      SDL_PIXELFORMAT_ARGB8888);
		gui->ren = gui->surface ? SDL_CreateSoftwareRenderer(gui->surface) : NULL;
		if (!gui->ren) {
			fprintf(stderr, "lruscope gui: cannot make a %dx%d software renderer: %s\n",
				w, h, SDL_GetError());
			ret = -ENOMEM;
			goto fail;
		}
	} else {
		if (SDL_Init(SDL_INIT_VIDEO)) {
			fprintf(stderr, "lruscope gui: cannot open a window (%s); is there a display? "
					"Set DISPLAY or WAYLAND_DISPLAY, run 'lruscope top' for the "
					"terminal view, or --screenshot FILE.png for an image\n",
				SDL_GetError());
			ret = -ENXIO;
			goto fail;
		}
		gui->win = SDL_CreateWindow(gui->opts.title ? gui->opts.title : "lruscope",
					    SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
					    SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
		if (!gui->win) {
			fprintf(stderr, "lruscope gui: cannot create a window: %s\n", SDL_GetError());
			ret = -ENXIO;
			goto fail;
		}
		SDL_SetWindowMinimumSize(gui->win, 480, 360);
		gui->ren = SDL_CreateRenderer(gui->win, -1, SDL_RENDERER_ACCELERATED |
							     SDL_RENDERER_PRESENTVSYNC);
		if (!gui->ren)
			gui->ren = SDL_CreateRenderer(gui->win, -1, SDL_RENDERER_SOFTWARE);
		if (!gui->ren) {
			fprintf(stderr, "lruscope gui: cannot create a renderer: %s\n", SDL_GetError());
			ret = -ENXIO;
			goto fail;
		}
	}
	gui__measure(gui);
	ret = gui__font_open(gui);
	if (ret)
		goto fail;
	*out = gui;
	return 0;
fail:
	lrs_gui__close(gui);
	return ret;
}

void lrs_gui__close(struct lrs_gui *gui)
{
	if (!gui)
		return;
	for (size_t i = 0; i < GUI_RINGS; i++)
		ring__free(&gui->rings[i]);
	lrs_gui_font__close(gui->font);
	if (gui->time_tex)
		SDL_DestroyTexture(gui->time_tex);
	if (gui->hist_tex)
		SDL_DestroyTexture(gui->hist_tex);
	if (gui->legend_tex)
		SDL_DestroyTexture(gui->legend_tex);
	if (gui->ren)
		SDL_DestroyRenderer(gui->ren);
	if (gui->win)
		SDL_DestroyWindow(gui->win);
	if (gui->surface)
		SDL_FreeSurface(gui->surface);
	free(gui->px);
	free(gui);
	if (TTF_WasInit())
		TTF_Quit();
	SDL_Quit();
}

int lrs_gui__save_png(struct lrs_gui *gui, const char *path)
{
	uint32_t *px;
	int ret;

	if (gui->headless) {
		SDL_RenderFlush(gui->ren);
		if (SDL_MUSTLOCK(gui->surface))
			SDL_LockSurface(gui->surface);
		ret = lrs_png__write(path, gui->surface->pixels, gui->surface->w, gui->surface->h,
				     (size_t)gui->surface->pitch);
		if (SDL_MUSTLOCK(gui->surface))
			SDL_UnlockSurface(gui->surface);
	} else {
		px = malloc((size_t)gui->px_w * gui->px_h * 4);
		if (!px)
			return -ENOMEM;
		ret = SDL_RenderReadPixels(gui->ren, NULL, SDL_PIXELFORMAT_ARGB8888, px, gui->px_w * 4)
			      ? -EIO
			      : lrs_png__write(path, px, gui->px_w, gui->px_h, (size_t)gui->px_w * 4);
		free(px);
	}
	if (ret)
		fprintf(stderr, "lruscope gui: cannot write %s: %s\n", path, strerror(-ret));
	return ret;
}

/* ---- the loop ------------------------------------------------------------ */

static const double interval_steps[] = { 0.2, 0.5, 1, 2, 5, 10, 30, 60 };

static double interval_next(double cur, bool up)
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

struct gui_loop {
	struct lrs_source *src;
	struct lrs_model *model;
	struct lrs_gui *gui;
	double speed;
	double next_due_s, last_take_s;
	bool quit, dirty, ended, paused_before;
	bool user_moved;	/* until the user selects, the selection follows the hottest cell */
	size_t taken;
};

static void select_hottest(struct lrs_model *model)
{
	double best = 0;

	for (size_t i = 0; i < model->nr_visible; i++) {
		const struct lrs_row *row = &model->rows[model->visible[i]];

		for (size_t n = 0; n < model->nr_nodes; n++) {
			if (row->cells[n].wait_ns_per_s <= best)
				continue;
			best = row->cells[n].wait_ns_per_s;
			model->sel_memcg_id = row->memcg_id;
			model->sel_node_idx = n;
		}
	}
}

static int loop__take(struct gui_loop *lp, double now)
{
	struct lrs_snapshot *snap = NULL;
	double iv = lp->src->interval_s / lp->speed;
	int err;

	lp->last_take_s = now;
	lp->next_due_s += iv;
	if (lp->next_due_s < now)
		lp->next_due_s = now + iv;
	err = lp->src->take(lp->src, &snap);
	if (err == -ENODATA)
		return err;
	if (err) {
		lrs_gui__message(lp->gui, "snapshot from %s failed: %s", lp->src->name, strerror(-err));
		return 0;
	}
	err = lrs_model__push(lp->model, snap);
	if (err) {
		lrs_gui__message(lp->gui, "model: %s", strerror(-err));
		return 0;
	}
	lp->taken++;
	if (!lp->user_moved)
		select_hottest(lp->model);
	lrs_gui__observe(lp->gui, lp->model);
	lp->dirty = true;
	return 0;
}

static void loop__filter_key(struct gui_loop *lp, SDL_Keycode key)
{
	struct lrs_gui *gui = lp->gui;
	struct lrs_model *model = lp->model;
	size_t len = strlen(gui->edit);

	switch (key) {
	case SDLK_ESCAPE:
		snprintf(model->filter, sizeof(model->filter), "%s", gui->filter_before);
		gui->editing = false;
		SDL_StopTextInput();
		break;
	case SDLK_RETURN: case SDLK_KP_ENTER:
		gui->editing = false;
		SDL_StopTextInput();
		break;
	case SDLK_BACKSPACE:
		if (len)
			gui->edit[len - 1] = '\0';
		break;
	default:
		return;
	}
	if (gui->editing)
		snprintf(model->filter, sizeof(model->filter), "%s", gui->edit);
	lrs_model__refresh_view(model);
	gui->hot_pushes = 0;	/* other rows: scan for the hottest again */
	gui__lanes_compute(gui, model);
}

static void loop__filter_text(struct gui_loop *lp, const char *text)
{
	struct lrs_gui *gui = lp->gui;
	size_t len = strlen(gui->edit);

	for (; *text; text++)
		if (*text >= 0x20 && *text < 0x7f && len + 1 < sizeof(gui->edit)) {
			gui->edit[len++] = *text;
			gui->edit[len] = '\0';
		}
	snprintf(lp->model->filter, sizeof(lp->model->filter), "%s", gui->edit);
	lrs_model__refresh_view(lp->model);
	gui->hot_pushes = 0;
	gui__lanes_compute(gui, lp->model);
}

static void loop__action(struct gui_loop *lp, enum lrs_action act)
{
	struct lrs_gui *gui = lp->gui;
	struct lrs_model *model = lp->model;
	double iv;

	switch (act) {
	case LRS_ACT_NONE:
		return;
	case LRS_ACT_QUIT:
		if (model->show_help) {
			model->show_help = false;
			break;
		}
		lp->quit = true;
		break;
	case LRS_ACT_FILTER:
		lp->user_moved = true;
		gui->editing = true;
		snprintf(gui->filter_before, sizeof(gui->filter_before), "%s", model->filter);
		snprintf(gui->edit, sizeof(gui->edit), "%s", model->filter);
		SDL_StartTextInput();
		break;
	case LRS_ACT_INTERVAL_UP:
	case LRS_ACT_INTERVAL_DOWN:
		iv = interval_next(lp->src->interval_s, act == LRS_ACT_INTERVAL_UP);
		lp->src->interval_s = iv;
		if (lp->src->set_interval)
			lp->src->set_interval(lp->src, iv);
		lrs_gui__set_source(gui, lp->src->name, iv);
		lp->next_due_s = lp->last_take_s + iv / lp->speed;
		lrs_gui__message(gui, "interval %.3gs", iv);
		break;
	default:
		if (lp->src->control && lp->src->control(lp->src, (int)act)) {
			/* a replay moved or changed speed: the next take waits a whole interval */
			lrs_gui__set_source(gui, lp->src->name, lp->src->interval_s);
			lp->next_due_s = lp->last_take_s + lp->src->interval_s / lp->speed;
			break;
		}
		if (lrs_action__moves_selection(act))
			lp->user_moved = true;
		lrs_model__apply(model, act, gui->layout.rows_fit > 1 ? gui->layout.rows_fit - 1 : 1);
		break;
	}
	/* the lanes follow the selection and the view */
	gui__lanes_compute(gui, model);
	lp->dirty = true;
}

static void loop__click(struct gui_loop *lp, int x, int y, int clicks)
{
	struct lrs_gui *gui = lp->gui;
	struct lrs_model *model = lp->model;
	struct lrs_gui_hit hit = lrs_gui_layout__hit(&gui->layout, x, y, gui->top, model->nr_visible);
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
				row = NULL;	/* filtered out of the heatmap */
		}
		break;
	default:
		return;
	}
	if (!row || node >= model->nr_nodes)
		return;
	model->sel_memcg_id = row->memcg_id;
	model->sel_node_idx = node;
	lp->user_moved = true;
	if (clicks >= 2 && gui->lane_mode == GUI_LANES_HOT)
		gui->lane_mode = GUI_LANES_MEMCG;	/* a double click shows its nodes over time */
	gui__lanes_compute(gui, model);
	lp->dirty = true;
}

static void loop__event(struct gui_loop *lp, const SDL_Event *ev)
{
	struct lrs_gui *gui = lp->gui;

	switch (ev->type) {
	case SDL_QUIT:
		lp->quit = true;
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
		if (gui->editing) {
			loop__filter_text(lp, ev->text.text);
			lp->dirty = true;
		}
		break;
	case SDL_KEYDOWN:
		if (gui->editing) {
			loop__filter_key(lp, ev->key.keysym.sym);
			lp->dirty = true;
			break;
		}
		if (ev->key.keysym.sym == SDLK_x || ev->key.keysym.sym == SDLK_c) {	/* holders' matrix */
			if (ev->key.keysym.sym == SDLK_x)
				gui->matrix_hidden = !gui->matrix_hidden;
			else
				gui->matrix_by_holder = !gui->matrix_by_holder;
			lp->dirty = true;
			break;
		}
		if (ev->key.keysym.sym == SDLK_n) {	/* GUI only: what the time heatmap shows */
			gui->lane_mode = gui->lane_mode == GUI_LANES_HOT ? GUI_LANES_MEMCG : GUI_LANES_HOT;
			gui__lanes_compute(gui, lp->model);
			lp->dirty = true;
			break;
		}
		/* '?', '<' and '>' arrive as shifted '/', ',' and '.' */
		if ((ev->key.keysym.mod & KMOD_SHIFT) && ev->key.keysym.sym == SDLK_SLASH) {
			loop__action(lp, LRS_ACT_HELP);
			break;
		}
		if ((ev->key.keysym.mod & KMOD_SHIFT) &&
		    (ev->key.keysym.sym == SDLK_COMMA || ev->key.keysym.sym == SDLK_PERIOD)) {
			loop__action(lp, ev->key.keysym.sym == SDLK_COMMA ? LRS_ACT_SEEK_START : LRS_ACT_SEEK_END);
			break;
		}
		loop__action(lp, lrs_gui__key_action(ev->key.keysym.sym));
		break;
	default:
		break;
	}
}

/* Headless: take snapshots as fast as the source gives them, draw once, save. */
static int run__screenshot(struct gui_loop *lp, const struct lrs_gui_opts *opts,
			   volatile sig_atomic_t *stop)
{
	unsigned int want = opts->screenshot_snapshots;
	double start = gui__now_s();
	int err = 0;

	while (!*stop) {
		double now = gui__now_s();

		if (want && lp->taken >= want)
			break;
		if (opts->duration_s > 0 && now - start >= opts->duration_s && lp->taken >= 2)
			break;
		if (now < lp->next_due_s) {
			double wait = lp->next_due_s - now;

			if (opts->duration_s > 0 && start + opts->duration_s - now < wait)
				wait = start + opts->duration_s - now;
			SDL_Delay(wait > 0 ? (Uint32)(wait * 1000) + 1 : 1);
			continue;
		}
		err = loop__take(lp, now);
		if (err == -ENODATA) {
			err = 0;
			break;
		}
	}
	if (!lp->model->prev)
		lrs_gui__message(lp->gui, "%s gave fewer than two snapshots: no rates to show",
				 lp->src->name);
	lrs_gui__draw(lp->gui, lp->model);
	err = lrs_gui__save_png(lp->gui, opts->screenshot);
	return err;
}

int lrs_gui__run(struct lrs_source *src, struct lrs_model *model, const struct lrs_gui_opts *opts)
{
	static volatile sig_atomic_t never;
	static const struct lrs_gui_opts no_opts;
	volatile sig_atomic_t *stop;
	struct gui_loop lp = { .src = src, .model = model, .dirty = true };
	double start, last_draw = 0;
	int err;

	if (!opts)
		opts = &no_opts;
	stop = opts->stop ? opts->stop : &never;
	lp.speed = opts->speed > 0 ? opts->speed : 1;
	err = lrs_gui__open(&lp.gui, opts);
	if (err)
		return err;
	lrs_gui__set_source(lp.gui, src->name, src->interval_s);
	start = gui__now_s();
	lp.next_due_s = start;
	if (opts->screenshot && !opts->screenshot_window) {
		err = run__screenshot(&lp, opts, stop);
		goto out;
	}

	while (!*stop && !lp.quit) {
		double now = gui__now_s(), wait_s;
		SDL_Event ev;

		if (opts->duration_s > 0 && now - start >= opts->duration_s)
			break;
		if (model->paused != lp.paused_before) {
			lp.paused_before = model->paused;
			if (!model->paused)
				lp.next_due_s = now;
		}
		if (!model->paused && !lp.ended && now >= lp.next_due_s) {
			err = loop__take(&lp, now);
			if (err == -ENODATA) {
				/* a recording ended: keep its last frame until q */
				lrs_gui__message(lp.gui, "%s: no more snapshots (q quits)", src->name);
				lp.ended = true;
				lp.dirty = true;
			}
			err = 0;
		}
		if (gui__status_msg(lp.gui) && now - last_draw > 0.5)
			lp.dirty = true;	/* a message expires */
		if (lp.dirty) {
			lrs_gui__draw(lp.gui, model);
			last_draw = gui__now_s();
			lp.dirty = false;
		}
		/* sleep until an event, the next snapshot, or the next frame's slot */
		wait_s = model->paused || lp.ended ? 0.5 : lp.next_due_s - gui__now_s();
		if (opts->duration_s > 0 && start + opts->duration_s - gui__now_s() < wait_s)
			wait_s = start + opts->duration_s - gui__now_s();
		if (wait_s > 0.25)
			wait_s = 0.25;
		if (SDL_WaitEventTimeout(&ev, wait_s > 0 ? (int)(wait_s * 1000) + 1 : 1)) {
			loop__event(&lp, &ev);
			while (!lp.quit && SDL_PollEvent(&ev))
				loop__event(&lp, &ev);
			/* at most 60 frames a second: input arriving faster waits its turn */
			if (lp.dirty && gui__now_s() - last_draw < FRAME_S)
				SDL_Delay((Uint32)((FRAME_S - (gui__now_s() - last_draw)) * 1000) + 1);
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

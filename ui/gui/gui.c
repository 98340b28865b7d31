// SPDX-License-Identifier: GPL-2.0
/*
 * The SDL2 window: open and close it (or a headless surface), its font and
 * HiDPI scale, status messages, the keys as the keymap names them, and
 * screenshots. The loop is in gui_loop.c, drawing in gui_frame.c and the
 * panels' files.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <SDL2/SDL_ttf.h>

#include "ui/gui/gui_internal.h"
#include "ui/keymap.h"
#include "ui/view_loop.h"
#include "ui/gui/png.h"

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
	m->at_s = lrs_now_s();
	/* the window may be gone before anyone reads it: stderr too */
	fprintf(stderr, "lruscope: %s\n", m->text);
}

const struct gui_msg *gui__status_msg(const struct lrs_gui *gui)
{
	const struct gui_msg *m;

	if (!gui->nr_msgs)
		return NULL;
	m = &gui->msgs[gui->nr_msgs - 1];
	return lrs_now_s() - m->at_s < GUI_MSG_SHOW_S ? m : NULL;
}

void lrs_gui__set_source(struct lrs_gui *gui, const char *name, double interval_s)
{
	gui->source_name = name;
	gui->interval_s = interval_s;
}

/* An SDL key as the keymap names it: '?', '<' and '>' arrive as shifted '/', ',' and '.'. */
static int gui__key(int k, unsigned int mod)
{
	bool shift = mod & KMOD_SHIFT;

	switch (k) {
	case SDLK_UP:
		return LRS_KEY_UP;
	case SDLK_DOWN:
		return LRS_KEY_DOWN;
	case SDLK_LEFT:
		return LRS_KEY_LEFT;
	case SDLK_RIGHT:
		return LRS_KEY_RIGHT;
	case SDLK_PAGEUP:
		return LRS_KEY_PAGE_UP;
	case SDLK_PAGEDOWN:
		return LRS_KEY_PAGE_DOWN;
	case SDLK_HOME:
		return LRS_KEY_HOME;
	case SDLK_END:
		return LRS_KEY_END;
	case SDLK_F1:
		return LRS_KEY_F1;
	case SDLK_RETURN:
	case SDLK_KP_ENTER:
		return LRS_KEY_ENTER;
	case SDLK_ESCAPE:
		return LRS_KEY_ESC;
	case SDLK_KP_PLUS:
		return '+';
	case SDLK_KP_MINUS:
		return '-';
	case SDLK_KP_DIVIDE:
		return '/';
	case SDLK_SLASH:
		return shift ? '?' : '/';
	case SDLK_COMMA:
		return shift ? '<' : ',';
	case SDLK_PERIOD:
		return shift ? '>' : '.';
	default:
		if (shift && k >= 'a' && k <= 'z')
			return k - 'a' + 'A';
		return k >= 0x20 && k < 0x7f ? k : 0;
	}
}

enum lrs_action gui__key_action(int sdl_keycode, unsigned int mod)
{
	int key = gui__key(sdl_keycode, mod);
	enum lrs_action act = lrs_keymap__action(key, LRS_KEYMAP_GUI);

	/* Shift and a letter: its own binding (G), else the letter's */
	if (act == LRS_ACT_NONE && key >= 'A' && key <= 'Z')
		act = lrs_keymap__action(key - 'A' + 'a', LRS_KEYMAP_GUI);
	return act;
}

enum lrs_action lrs_gui__key_action(int sdl_keycode)
{
	return gui__key_action(sdl_keycode, 0);
}

/* ---- open, close, screenshots -------------------------------------------- */

int gui__font_open(struct lrs_gui *gui)
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
void gui__measure(struct lrs_gui *gui)
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

/*
 * With SDL's video started: whether its driver shows anything. With no
 * display SDL falls back to drawing offscreen, where a window runs unseen;
 * that is refused unless asked for by name (SDL_VIDEODRIVER).
 */
static int gui__check_driver(void)
{
	const char *driver = SDL_GetCurrentVideoDriver(), *asked = getenv("SDL_VIDEODRIVER");
	const char *x11 = getenv("DISPLAY"), *wl = getenv("WAYLAND_DISPLAY");
	char why[160];

	if (!driver || (strcmp(driver, "offscreen") && strcmp(driver, "dummy")) ||
	    (asked && strstr(asked, driver)))
		return 0;
	if ((x11 && *x11) || (wl && *wl))
		snprintf(why, sizeof(why),
			 "no display answered at DISPLAY '%.40s', WAYLAND_DISPLAY '%.40s'",
			 x11 ? x11 : "", wl ? wl : "");
	else
		snprintf(why, sizeof(why), "DISPLAY and WAYLAND_DISPLAY are not set");
	fprintf(stderr,
		"lruscope: no display to show a window on (%s; SDL would draw %s, unseen): "
		"use the terminal view ('lruscope top', or replay without --gui), or "
		"--screenshot FILE.png for a picture\n",
		why, driver);
	return -ENXIO;
}

/*
 * Wayland's socket lives in XDG_RUNTIME_DIR: without a usable one (sudo, a
 * bare ssh session) libwayland prints "error: XDG_RUNTIME_DIR is invalid"
 * on stderr when SDL tries it, above lruscope's own message. Then SDL is
 * asked for its other drivers only, unless SDL_VIDEODRIVER names some.
 */
static void gui__skip_wayland_without_runtime_dir(void)
{
	const char *run = getenv("XDG_RUNTIME_DIR"), *wl = getenv("WAYLAND_DISPLAY");
	char drivers[256] = "";
	struct stat st;
	size_t used = 0;

	if (getenv("SDL_VIDEODRIVER") || (wl && wl[0] == '/') ||
	    (run && run[0] == '/' && !stat(run, &st) && S_ISDIR(st.st_mode)))
		return;
	for (int i = 0; i < SDL_GetNumVideoDrivers(); i++) {
		const char *d = SDL_GetVideoDriver(i);
		int n;

		if (!d || !strcmp(d, "wayland"))
			continue;
		n = snprintf(drivers + used, sizeof(drivers) - used, "%s%s", used ? "," : "", d);
		if (n < 0 || (size_t)n >= sizeof(drivers) - used)
			break;
		used += (size_t)n;
	}
	if (used)
		SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers);
}

/* SDL's video, or a message saying why not (no display: what to do instead). */
static int gui__video_init(void)
{
	gui__skip_wayland_without_runtime_dir();
	if (SDL_Init(SDL_INIT_VIDEO)) {
		fprintf(stderr,
			"lruscope gui: cannot open a window (%s); is there a display? "
			"Set DISPLAY or WAYLAND_DISPLAY, run 'lruscope top' for the "
			"terminal view, or --screenshot FILE.png for an image\n",
			SDL_GetError());
		return -ENXIO;
	}
	return gui__check_driver();
}

int lrs_gui__check_display(void)
{
	int ret = gui__video_init();

	SDL_Quit();
	return ret;
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
	gui->hist_used_lo = 1; /* nothing used */
	lrs_view_state__init(&gui->state);
	w = gui->opts.width > 0 ? gui->opts.width : GUI_DEFAULT_W;
	h = gui->opts.height > 0 ? gui->opts.height : GUI_DEFAULT_H;

	if (gui->headless) {
		/* no display needed: the software renderer draws into a surface */
		const char *s = getenv("LRS_GUI_SCALE"); /* a HiDPI frame, for tests */

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
		ret = gui__video_init();
		if (ret)
			goto fail;
		gui->win = SDL_CreateWindow(gui->opts.title ? gui->opts.title : "lruscope",
					    SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
					    SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
		if (!gui->win) {
			fprintf(stderr, "lruscope gui: cannot create a window: %s\n",
				SDL_GetError());
			ret = -ENXIO;
			goto fail;
		}
		SDL_SetWindowMinimumSize(gui->win, 480, 360);
		/*
		 * SDL starts with text input on: the '/' that opens the filter would
		 * arrive as the filter's first character. The prompt turns it on.
		 */
		SDL_StopTextInput();
		gui->ren = SDL_CreateRenderer(gui->win, -1,
					      SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
		if (!gui->ren)
			gui->ren = SDL_CreateRenderer(gui->win, -1, SDL_RENDERER_SOFTWARE);
		if (!gui->ren) {
			fprintf(stderr, "lruscope gui: cannot create a renderer: %s\n",
				SDL_GetError());
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
		gui__ring_free(&gui->rings[i]);
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
		ret = SDL_RenderReadPixels(gui->ren, NULL, SDL_PIXELFORMAT_ARGB8888, px,
					   gui->px_w * 4) ?
			      -EIO :
			      lrs_png__write(path, px, gui->px_w, gui->px_h, (size_t)gui->px_w * 4);
		free(px);
	}
	if (ret)
		fprintf(stderr, "lruscope gui: cannot write %s: %s\n", path, strerror(-ret));
	return ret;
}

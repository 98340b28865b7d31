// SPDX-License-Identifier: GPL-2.0
/*
 * The curses TUI: setup, the order of a frame, the status line and help, and
 * the scan-then-draw loop: take a snapshot when one is due, push it into the
 * model, draw, then wait for keys until the next one. Drawing only reads the
 * model; keys become lrs_action values.
 */
#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ui/keymap.h"
#include "ui/tui/tui_internal.h"
#include "ui/view_loop.h"

#define TUI_MSG_SHOW_S 8.0
#define TUI_POLL_MAX_MS 250

/* ---- messages ------------------------------------------------------------ */

void lrs_tui__message(struct lrs_tui *tui, bool keep, const char *fmt, ...)
{
	struct tui_msg *m;
	va_list ap;

	if (!tui)
		return;
	if (tui->nr_msgs == TUI_MSGS) {
		/* full: drop the oldest message that need not be kept, else the oldest */
		size_t drop = 0;

		for (size_t i = 0; i < TUI_MSGS; i++)
			if (!tui->msgs[i].keep) {
				drop = i;
				break;
			}
		memmove(&tui->msgs[drop], &tui->msgs[drop + 1],
			(TUI_MSGS - drop - 1) * sizeof(tui->msgs[0]));
		tui->nr_msgs--;
	}
	m = &tui->msgs[tui->nr_msgs++];
	va_start(ap, fmt);
	vsnprintf(m->text, sizeof(m->text), fmt, ap);
	va_end(ap);
	m->keep = keep;
	m->at_s = lrs_now_s();
}

/* ---- the parts of a frame ------------------------------------------------ */

static const char *banner_text(const struct lrs_tui *tui)
{
	if (tui->opts.banner_fn)
		return tui->opts.banner_fn(tui->opts.banner_ctx);
	return tui->opts.banner;
}

static const struct tui_msg *status_msg(const struct lrs_tui *tui)
{
	const struct tui_msg *m;

	if (!tui->nr_msgs)
		return NULL;
	m = &tui->msgs[tui->nr_msgs - 1];
	return lrs_now_s() - m->at_s < TUI_MSG_SHOW_S ? m : NULL;
}

/* The status line's word for a key: some say what pressing it shows next. */
static const char *status_hint(const struct lrs_tui *tui, const struct lrs_model *model,
			       const struct lrs_binding *b)
{
	switch (b->map[0].action) {
	case LRS_ACT_TIME_VIEW:
		return tui->time_view ? "heatmap" : "history";
	case LRS_ACT_METRIC_NEXT:
		return lrs_metric_names[(model->metric + 1) % LRS_NR_METRICS];
	case LRS_ACT_MATRIX:
		return tui->matrix ? "heatmap" : "matrix";
	default:
		return b->hint;
	}
}

static void draw_status(struct lrs_tui *tui, const struct lrs_model *model)
{
	const struct lrs_view_layout *l = &tui->layout;
	const struct tui_msg *m = status_msg(tui);
	bool holders = model->cur && model->cur->holders;
	const struct lrs_binding *b;
	int y = l->status_y, w = l->width, x = 0;
	size_t i = 0;

	if (tui->filter.editing) {
		char f[sizeof(tui->filter.text)];

		tui__sanitize(f, sizeof(f), tui->filter.text);
		x = tui__put(y, 0, w, A_BOLD, "filter: ");
		x = tui__put(y, x, w - x, 0, f);
		tui__put(y, x, w - x, A_REVERSE, " ");
		tui__put(y, x + 2, w - x - 2, tui->faint_attr, "(Enter keeps, Esc cancels)");
		return;
	}
	if (m) {
		tui__put(y, 0, w, m->keep ? tui->warn_attr : A_BOLD, m->text);
		return;
	}
	while ((b = lrs_keymap__next_hint(&i, LRS_KEYMAP_TUI, tui->replay)) && x < w) {
		/* x and c only with holders; c only in the matrix */
		if ((b->map[0].action == LRS_ACT_MATRIX && !holders) ||
		    (b->map[0].action == LRS_ACT_MATRIX_COLUMNS && (!holders || !tui->matrix)))
			continue;
		x = tui__put(y, x, w - x, tui->key_attr | A_BOLD,
			     b->hint_keys ? b->hint_keys : b->keys);
		x = tui__putf(y, x, w - x, 0, " %s  ", status_hint(tui, model, b));
	}
}

void lrs_tui__draw(struct lrs_tui *tui, const struct lrs_model *model)
{
	struct lrs_view_layout_in in = { 0 };
	const char *banner = banner_text(tui);
	int h, w;

	getmaxyx(stdscr, h, w);
	in.width = w;
	in.height = h;
	in.nr_nodes = model->nr_nodes;
	in.sel_node_idx = model->sel_node_idx;
	in.first_node = tui->first_node;
	in.name_len = tui__name_len(model);
	in.nr_rows = model->nr_visible;
	in.banner = banner != NULL;
	in.unavailable = model->cur && model->cur->unavailable;
	/* the other locks' title stays, with a line saying none contended */
	in.nr_others = model->cur ? (tui__others_active(model) ? tui__others_active(model) : 1) : 0;
	if (tui__one_instant(tui))
		in.nr_others = 0; /* a walk reads no contention */
	in.detail = tui->state.show_detail;
	in.time_view = tui->time_view;
	in.history_cap = model->history_cap;
	lrs_view_layout__compute(&tui->layout, &in);
	tui->first_node = tui->layout.first_node;
	{
		long sel = lrs_model__selected_index(model);

		tui->top = lrs_view_layout__scroll(
			tui->top, sel < 0 ? 0 : (size_t)sel, model->nr_visible,
			tui->layout.rows_h > 0 ? (size_t)tui->layout.rows_h : 0);
	}
	/* before the legend: it shows their scale */
	if (tui->time_view)
		tui__strips_compute(tui, model);

	erase();
	if (banner && tui->layout.banner_y >= 0) {
		char b[512];

		/* the banner is ours (the demo's): UTF-8 passes where the terminal takes it */
		tui__sanitize_keep(b, sizeof(b), banner, tui->utf8);
		tui__fill(tui->layout.banner_y, 0, w, tui->title_attr);
		tui__putf(tui->layout.banner_y, 0, w, tui->title_attr, " %s", b);
	}
	tui__draw_header(tui, model);
	tui__draw_legend(tui, model);
	if (tui->time_view) {
		tui__draw_time_colhdr(tui, model);
		tui__draw_time_rows(tui, model);
		tui__draw_time_axis(tui, model);
	} else {
		tui__draw_colhdr(tui, model);
		tui__draw_rows(tui, model);
	}
	tui__draw_others(tui, model);
	tui__draw_detail(tui, model);
	if (tui->matrix)
		tui__draw_matrix(tui, model);
	draw_status(tui, model);
	if (tui->state.show_help)
		tui__draw_help(tui);
	/* park the cursor on the status line: some terminals show it anyway */
	move(tui->layout.status_y, 0);
	wnoutrefresh(stdscr);
	doupdate();
}

/* ---- setup and teardown ------------------------------------------------- */

int lrs_tui__open(struct lrs_tui **out, const struct lrs_tui_opts *opts, const char *term,
		  FILE *outf, FILE *inf)
{
	struct lrs_tui *tui = calloc(1, sizeof(*tui));
	char why[200];
	const char *cs;

	*out = NULL;
	if (!tui)
		return -ENOMEM;
	if (opts)
		tui->opts = *opts;
	tui->outf = outf ? outf : stdout;
	tui->inf = inf ? inf : stdin;
	tui->interval_s = 1.0;
	tui->source_name = "";
	lrs_view_state__init(&tui->state);

	/* LC_CTYPE only: number formatting and parsing stay in the C locale */
	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	tui->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));

	if (lrs_tui__term_check(term, fileno(tui->outf), why, sizeof(why)) ||
	    !(tui->screen = newterm(term, tui->outf, tui->inf))) {
		free(tui);
		return -ENOTTY;
	}
	set_term(tui->screen);
	cbreak(); /* not raw(): ^C still sends SIGINT, handled as a clean exit */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE); /* the loop waits in poll(); getch only drains */
	set_escdelay(25);
	curs_set(0);
	/* COLORS is only known after start_color(): ask terminfo */
	tui->mode = lrs_colour__mode(has_colors() ? tigetnum("colors") : 0, tui->opts.no_color,
				     getenv("NO_COLOR"));
	tui__colours_init(tui);
	*out = tui;
	return 0;
}

void lrs_tui__close(struct lrs_tui *tui)
{
	if (!tui)
		return;
	if (tui->screen) {
		set_term(tui->screen);
		curs_set(1);
		endwin();
		delscreen(tui->screen);
	}
	for (size_t i = 0; i < tui->nr_msgs; i++)
		if (tui->msgs[i].keep)
			fprintf(stderr, "lruscope: %s\n", tui->msgs[i].text);
	free(tui->strips);
	free(tui);
}

void lrs_tui__resize(struct lrs_tui *tui, int lines, int cols)
{
	set_term(tui->screen);
	resizeterm(lines, cols);
}

struct lrs_view_state *lrs_tui__view_state(struct lrs_tui *tui)
{
	return &tui->state;
}

void lrs_tui__set_source(struct lrs_tui *tui, const char *name, double interval_s)
{
	tui->source_name = name ? name : "";
	tui->interval_s = interval_s;
}

void lrs_tui__set_matrix_view(struct lrs_tui *tui, bool on, bool by_holder)
{
	tui->matrix = on;
	tui->matrix_by_holder = by_holder;
}

bool lrs_tui__matrix_key(struct lrs_tui *tui, enum lrs_action act)
{
	if (act == LRS_ACT_MATRIX) {
		tui->matrix = !tui->matrix;
		return true;
	}
	if (act == LRS_ACT_MATRIX_COLUMNS && tui->matrix) {
		tui->matrix_by_holder = !tui->matrix_by_holder;
		return true;
	}
	return false;
}

void lrs_tui__set_time_view(struct lrs_tui *tui, bool on, bool all_nodes)
{
	tui->time_view = on;
	tui->time_all_nodes = all_nodes;
}

/* A curses key as the keymap names it. */
static int tui__key(int key)
{
	switch (key) {
	case KEY_UP:
		return LRS_KEY_UP;
	case KEY_DOWN:
		return LRS_KEY_DOWN;
	case KEY_LEFT:
		return LRS_KEY_LEFT;
	case KEY_RIGHT:
		return LRS_KEY_RIGHT;
	case KEY_PPAGE:
		return LRS_KEY_PAGE_UP;
	case KEY_NPAGE:
		return LRS_KEY_PAGE_DOWN;
	case KEY_HOME:
		return LRS_KEY_HOME;
	case KEY_END:
		return LRS_KEY_END;
	case KEY_F(1):
		return LRS_KEY_F1;
	case '\n':
	case '\r':
	case KEY_ENTER:
		return LRS_KEY_ENTER;
	case 27:
		return LRS_KEY_ESC;
	default:
		return key >= 0x20 && key < 0x7f ? key : 0;
	}
}

enum lrs_action lrs_tui__key_action(int key)
{
	return lrs_keymap__action(tui__key(key), LRS_KEYMAP_TUI);
}

/* ---- the loop ------------------------------------------------------------ */

/*
 * While curses owns the terminal, stderr goes into a pipe whose lines become
 * status messages: libraries (libbpf) may print at any time.
 */
struct stderr_capture {
	int saved_fd;
	int read_fd;
	char buf[1024];
	size_t len;
};

static void capture__start(struct stderr_capture *c)
{
	int p[2];

	c->saved_fd = c->read_fd = -1;
	c->len = 0;
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK))
		return;
	fflush(stderr);
	c->saved_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (c->saved_fd < 0 || dup2(p[1], STDERR_FILENO) < 0) {
		if (c->saved_fd >= 0)
			close(c->saved_fd);
		c->saved_fd = -1;
		close(p[0]);
		close(p[1]);
		return;
	}
	close(p[1]);
	c->read_fd = p[0];
}

static void capture__drain(struct stderr_capture *c, struct lrs_tui *tui)
{
	ssize_t n;

	if (c->read_fd < 0)
		return;
	fflush(stderr);
	while ((n = read(c->read_fd, c->buf + c->len, sizeof(c->buf) - 1 - c->len)) > 0) {
		char *nl;

		c->len += (size_t)n;
		c->buf[c->len] = '\0';
		while ((nl = strchr(c->buf, '\n')) || c->len == sizeof(c->buf) - 1) {
			size_t line = nl ? (size_t)(nl - c->buf) : c->len;

			c->buf[line] = '\0';
			if (line)
				lrs_tui__message(tui, true, "%s", c->buf);
			if (nl)
				line++;
			memmove(c->buf, c->buf + line, c->len - line);
			c->len -= line;
			c->buf[c->len] = '\0';
		}
	}
}

static void capture__stop(struct stderr_capture *c, struct lrs_tui *tui)
{
	if (c->read_fd < 0)
		return;
	capture__drain(c, tui);
	if (c->len)
		lrs_tui__message(tui, true, "%.*s", (int)c->len, c->buf);
	fflush(stderr);
	dup2(c->saved_fd, STDERR_FILENO);
	close(c->saved_fd);
	close(c->read_fd);
	c->read_fd = c->saved_fd = -1;
}

bool lrs_tui__time_view_key(struct lrs_tui *tui, const struct lrs_model *model, enum lrs_action act)
{
	if (act == LRS_ACT_TIME_VIEW) {
		tui->time_view = !tui->time_view;
		return true;
	}
	if (!tui->time_view || model->nr_nodes < 2)
		return false;
	if (act == LRS_ACT_RIGHT && model->sel_node_idx + 1 >= model->nr_nodes) {
		tui->time_all_nodes = true;
		return true;
	}
	if (act == LRS_ACT_LEFT && tui->time_all_nodes) {
		tui->time_all_nodes = false;
		return true;
	}
	return false;
}

/* The filter prompt's keys: it applies as it is typed. */
static void filter__key(struct lrs_tui *tui, struct lrs_model *model, int ch)
{
	char c[2] = { (char)ch, '\0' };

	switch (ch) {
	case 27: /* Esc: back to the filter before the prompt */
		lrs_filter_edit__end(&tui->filter, model, false);
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		lrs_filter_edit__end(&tui->filter, model, true);
		break;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		lrs_filter_edit__erase(&tui->filter, model, false);
		break;
	case 21: /* ^U */
		lrs_filter_edit__erase(&tui->filter, model, true);
		break;
	default:
		if (ch >= 0x20 && ch < 0x7f)
			lrs_filter_edit__type(&tui->filter, model, c);
		break;
	}
}

struct tui_loop {
	struct lrs_view_loop view; /* timing, selection, actions: shared with the GUI */
	struct lrs_tui *tui;
	bool dirty;
	bool msg_shown;	    /* a status message is on screen: redraw when it expires */
	bool instant_taken; /* a source of one instant (interval 0) gave its snapshot */
};

static void loop__message(void *ctx, bool keep, const char *text)
{
	lrs_tui__message(ctx, keep, "%s", text);
}

/* One key: the filter prompt's, the TUI's own views', or an action for the shared loop. */
static void loop__key(struct tui_loop *lp, int ch)
{
	struct lrs_tui *tui = lp->tui;
	struct lrs_model *model = lp->view.model;
	enum lrs_action act;
	unsigned int r;

	lp->dirty = true;
	if (ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		return;
	}
	if (tui->filter.editing) {
		filter__key(tui, model, ch);
		return;
	}
	act = lrs_tui__key_action(ch);
	if (tui__help_key(tui, act) || lrs_tui__matrix_key(tui, act))
		return;
	if (lrs_tui__time_view_key(tui, model, act)) {
		/* there, left and right past the nodes are still the user's moves */
		if (lrs_action__reaction(act) & LRS_REACT_USER_MOVED)
			lp->view.user_moved = true;
		return;
	}
	r = lrs_view_loop__apply(&lp->view, &tui->filter, act,
				 tui->layout.rows_h > 1 ? (size_t)tui->layout.rows_h - 1 : 1);
	lp->dirty = r & LRS_REACT_REDRAW;
	/* the header follows the interval and a replay's position */
	if (r & LRS_REACT_SOURCE)
		lrs_tui__set_source(tui, lp->view.src->name, lp->view.src->interval_s);
}

/*
 * The terminal is gone when its fd reports a hangup, or polls readable again
 * and again with no key to read (end of file).
 */
static bool input__lost(short revents, bool got_key)
{
	if (revents & (POLLHUP | POLLERR | POLLNVAL))
		return true;
	return (revents & POLLIN) && !got_key;
}

int lrs_tui__run(struct lrs_source *src, struct lrs_model *model, const struct lrs_tui_opts *opts)
{
	static volatile sig_atomic_t never;
	volatile sig_atomic_t *stop = opts && opts->stop ? opts->stop : &never;
	struct stderr_capture cap = { .saved_fd = -1, .read_fd = -1 };
	struct tui_loop lp = { .dirty = true };
	int err, fd = fileno(stdin), eof_strikes = 0;
	char why[200] = "";

	if (!isatty(fd) || !isatty(fileno(stdout))) {
		fprintf(stderr, "lruscope: the live view needs a terminal (stdin and stdout); "
				"use 'lruscope report' for text\n");
		return -ENOTTY;
	}
	err = lrs_tui__term_check(NULL, fileno(stdout), why, sizeof(why));
	if (!err)
		err = lrs_tui__open(&lp.tui, opts, NULL, NULL, NULL);
	if (err) {
		if (!why[0])
			snprintf(why, sizeof(why), "TERM=%.60s", getenv("TERM"));
		fprintf(stderr, "lruscope: cannot start the live view: %s\n", why);
		return err;
	}
	capture__start(&cap);
	lrs_tui__set_source(lp.tui, src->name, src->interval_s);
	lp.tui->replay = src->seek != NULL;
	lrs_view_loop__init(&lp.view, src, model, &lp.tui->state, lrs_now_s());
	lp.view.duration_s = opts ? opts->duration_s : 0;
	lp.view.message = loop__message;
	lp.view.ctx = lp.tui;

	while (!*stop && !lp.view.quit) {
		double now = lrs_now_s(), wait_s;
		struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN },
					 { .fd = cap.read_fd, .events = POLLIN } };
		bool got_key = false;
		int ch, timeout_ms;

		if (lrs_view_loop__over(&lp.view, now))
			break;
		if (lrs_view_loop__due(&lp.view, now) && !lp.instant_taken) {
			err = lrs_view_loop__take(&lp.view, now);
			if (err == -ENODATA) {
				lrs_tui__message(lp.tui, true, "%s: no more snapshots", src->name);
				err = 0;
				break;
			}
			lp.instant_taken = err == 1 && !(src->interval_s > 0);
			lp.dirty = true;
			err = 0;
		}
		capture__drain(&cap, lp.tui);
		if (lp.dirty || lp.tui->opts.banner_fn || lp.msg_shown || status_msg(lp.tui)) {
			lp.msg_shown = status_msg(lp.tui) != NULL;
			lrs_tui__draw(lp.tui, model);
			lp.dirty = false;
		}

		now = lrs_now_s();
		wait_s = lrs_view_loop__wait_s(&lp.view, now, lp.instant_taken, 1.0,
					       TUI_POLL_MAX_MS / 1000.0);
		timeout_ms = wait_s <= 0 ? 0 : (int)(wait_s * 1000) + 1;
		if (timeout_ms > TUI_POLL_MAX_MS)
			timeout_ms = TUI_POLL_MAX_MS;
		if (poll(pfd, cap.read_fd >= 0 ? 2 : 1, timeout_ms) < 0 && errno != EINTR) {
			err = -errno;
			break;
		}
		/* also after EINTR: SIGWINCH leaves a KEY_RESIZE to read */
		while ((ch = getch()) != ERR) {
			got_key = true;
			loop__key(&lp, ch);
			if (lp.view.quit)
				break;
		}
		if (input__lost(pfd[0].revents, got_key)) {
			if ((pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) ||
			    ++eof_strikes >= 3) {
				lrs_tui__message(lp.tui, true, "terminal lost: stopping");
				break;
			}
		} else {
			eof_strikes = 0;
		}
	}
	capture__stop(&cap, lp.tui);
	lrs_tui__close(lp.tui);
	return err;
}

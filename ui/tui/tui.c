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

#include "ui/tui/tui_internal.h"

#define TUI_MSG_SHOW_S 8.0
#define TUI_POLL_MAX_MS 250

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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
	m->at_s = now_s();
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
	return now_s() - m->at_s < TUI_MSG_SHOW_S ? m : NULL;
}

static void draw_status(struct lrs_tui *tui, const struct lrs_model *model)
{
	const char *const keys[][2] = {
		{ "q", "quit" }, { "arrows", "select" }, { "Enter", "detail" },
		{ "t", tui->time_view ? "heatmap" : "history" },
		{ "m", lrs_metric_names[(model->metric + 1) % LRS_NR_METRICS] }, { "s", "sort" },
		{ "p", "pause" }, { "+/-", "interval" }, { "/", "filter" }, { "h", "help" },
		{ "x", tui->matrix ? "heatmap" : "matrix" }, { "c", "columns" },
	};
	size_t nr_keys = sizeof(keys) / sizeof(keys[0]);
	const struct lrs_view_layout *l = &tui->layout;
	const struct tui_msg *m = status_msg(tui);
	int y = l->status_y, w = l->width, x = 0;

	if (tui->editing) {
		char f[sizeof(tui->edit)];

		tui__sanitize(f, sizeof(f), tui->edit);
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
	/* x and c only with holders; c only in the matrix */
	if (!model->cur || !model->cur->holders)
		nr_keys -= 2;
	else if (!tui->matrix)
		nr_keys--;
	for (size_t i = 0; i < nr_keys && x < w; i++) {
		x = tui__put(y, x, w - x, tui->key_attr | A_BOLD, keys[i][0]);
		x = tui__putf(y, x, w - x, 0, " %s  ", keys[i][1]);
	}
}

static void draw_help(struct lrs_tui *tui)
{
	static const char *const lines[] = {
		"lruscope top: where Linux waits on LRU locks",
		"",
		"Rows are memory cgroups, columns NUMA nodes: each cell is one",
		"lruvec (memcg x node) and its lru_lock. A cell shows the time",
		"tasks spent waiting for that lock per second of the last",
		"interval, and how many contended acquisitions per second.",
		"Colours follow a log scale below the hottest cell (legend).",
		"\"other locks\" are the contended locks that are not lruvec locks.",
		"A waiter's memcg in colour differs from the lock's: reclaim",
		"from kswapd or from a parent's limit.",
		"",
		"arrows, PgUp/PgDn, Home/End   select a cell",
		"Enter                         detail pane on/off",
		"t                             time view: wait history per row",
		"m                             cells: wait/s or LRU pages (a walk's)",
		"  <- ->  (time view)          one node, or all nodes summed",
		"s                             sort: wait, count, max, name",
		"/                             filter by cgroup path",
		"p  or  space                  pause / resume",
		"+  -                          longer / shorter interval",
		"x                             holders: memcg x memcg matrix on/off",
		"c  (matrix)                   columns: lruvec owner or holder's memcg",
		"h  or  ?                      this help",
		"q                             quit",
	};
	const int n = (int)(sizeof(lines) / sizeof(lines[0]));
	int w = 70, h = n + 4, y0, x0;

	if (w > tui->layout.width - 2)
		w = tui->layout.width - 2;
	if (h > tui->layout.height - 2)
		h = tui->layout.height - 2;
	if (w < 10 || h < 4)
		return;
	y0 = (tui->layout.height - h) / 2;
	x0 = (tui->layout.width - w) / 2;
	for (int y = y0; y < y0 + h; y++)
		tui__fill(y, x0, w, 0);
	attron(A_BOLD);
	mvhline(y0, x0, ACS_HLINE, w);
	mvhline(y0 + h - 1, x0, ACS_HLINE, w);
	mvvline(y0, x0, ACS_VLINE, h);
	mvvline(y0, x0 + w - 1, ACS_VLINE, h);
	mvaddch(y0, x0, ACS_ULCORNER);
	mvaddch(y0, x0 + w - 1, ACS_URCORNER);
	mvaddch(y0 + h - 1, x0, ACS_LLCORNER);
	mvaddch(y0 + h - 1, x0 + w - 1, ACS_LRCORNER);
	attroff(A_BOLD);
	tui__put(y0, x0 + 2, w - 4, A_BOLD, " help (h closes) ");
	for (int i = 0; i < n && i < h - 4; i++)
		tui__put(y0 + 2 + i, x0 + 3, w - 6, i == 0 ? A_BOLD : 0, lines[i]);
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
		in.nr_others = 0;	/* a walk reads no contention */
	in.detail = model->show_detail;
	in.time_view = tui->time_view;
	in.history_cap = model->history_cap;
	lrs_view_layout__compute(&tui->layout, &in);
	tui->first_node = tui->layout.first_node;
	{
		long sel = lrs_model__selected_index(model);

		tui->top = lrs_view_layout__scroll(tui->top, sel < 0 ? 0 : (size_t)sel, model->nr_visible,
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
	if (model->show_help)
		draw_help(tui);
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

	/* LC_CTYPE only: number formatting and parsing stay in the C locale */
	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	tui->utf8 = cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));

	tui->screen = newterm(term, tui->outf, tui->inf);
	if (!tui->screen) {
		free(tui);
		return -ENOTTY;
	}
	set_term(tui->screen);
	cbreak();		/* not raw(): ^C still sends SIGINT, handled as a clean exit */
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);	/* the loop waits in poll(); getch only drains */
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

bool lrs_tui__matrix_key(struct lrs_tui *tui, int key)
{
	if (key == 'x' || key == 'X') {
		tui->matrix = !tui->matrix;
		return true;
	}
	if ((key == 'c' || key == 'C') && tui->matrix) {
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

enum lrs_action lrs_tui__key_action(int key)
{
	switch (key) {
	case 'q': case 'Q':
		return LRS_ACT_QUIT;
	case 's': case 'S':
		return LRS_ACT_SORT_NEXT;
	case 'p': case 'P': case ' ':
		return LRS_ACT_PAUSE;
	case 't': case 'T':
		return LRS_ACT_TIME_VIEW;
	case 'm': case 'M':
		return LRS_ACT_METRIC_NEXT;
	case '+': case '=':
		return LRS_ACT_INTERVAL_UP;
	case '-': case '_':
		return LRS_ACT_INTERVAL_DOWN;
	case '/':
		return LRS_ACT_FILTER;
	case 'h': case 'H': case '?': case KEY_F(1):
		return LRS_ACT_HELP;
	case '\n': case '\r': case KEY_ENTER: case 'd':
		return LRS_ACT_DETAIL;
	case KEY_UP: case 'k':
		return LRS_ACT_UP;
	case KEY_DOWN: case 'j':
		return LRS_ACT_DOWN;
	case KEY_LEFT:
		return LRS_ACT_LEFT;
	case KEY_RIGHT: case 'l':
		return LRS_ACT_RIGHT;
	case KEY_PPAGE:
		return LRS_ACT_PAGE_UP;
	case KEY_NPAGE:
		return LRS_ACT_PAGE_DOWN;
	case KEY_HOME: case 'g':
		return LRS_ACT_HOME;
	case KEY_END: case 'G':
		return LRS_ACT_END;
	/* a replay's transport (the source handles them) */
	case '.':
		return LRS_ACT_STEP_FORWARD;
	case ',':
		return LRS_ACT_STEP_BACK;
	case '<':
		return LRS_ACT_SEEK_START;
	case '>':
		return LRS_ACT_SEEK_END;
	case ']':
		return LRS_ACT_SPEED_UP;
	case '[':
		return LRS_ACT_SPEED_DOWN;
	default:
		return LRS_ACT_NONE;
	}
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

static void filter__key(struct lrs_tui *tui, struct lrs_model *model, int ch)
{
	size_t len = strlen(tui->edit);

	switch (ch) {
	case 27:	/* Esc: back to the filter before the prompt */
		snprintf(model->filter, sizeof(model->filter), "%s", tui->filter_before);
		tui->editing = false;
		break;
	case '\n': case '\r': case KEY_ENTER:
		tui->editing = false;
		break;
	case KEY_BACKSPACE: case 127: case 8:
		if (len)
			tui->edit[len - 1] = '\0';
		break;
	case 21:	/* ^U */
		tui->edit[0] = '\0';
		break;
	default:
		if (ch >= 0x20 && ch < 0x7f && len + 1 < sizeof(tui->edit)) {
			tui->edit[len] = (char)ch;
			tui->edit[len + 1] = '\0';
		}
		break;
	}
	if (tui->editing)
		snprintf(model->filter, sizeof(model->filter), "%s", tui->edit);
	/* the filter applies as it is typed */
	lrs_model__refresh_view(model);
}

struct tui_loop {
	struct lrs_source *src;
	struct lrs_model *model;
	struct lrs_tui *tui;
	double next_due_s;
	double last_take_s;
	bool quit;
	bool dirty;
	bool paused_before;
	bool msg_shown;		/* a status message is on screen: redraw when it expires */
	bool user_moved;	/* until the user selects, the selection follows the hottest cell */
	bool instant_taken;	/* a source of one instant (interval 0) gave its snapshot */
};

/* Select the cell with the most wait: what the detail pane should show first. */
static void select_hottest(struct lrs_model *model)
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

bool lrs_tui__time_view_key(struct lrs_tui *tui, const struct lrs_model *model,
			    enum lrs_action act)
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

/* One key: an action on the model, or on the loop (quit, filter, interval). */
static void loop__key(struct tui_loop *lp, int ch)
{
	struct lrs_tui *tui = lp->tui;
	struct lrs_model *model = lp->model;
	enum lrs_action act;
	double iv;

	lp->dirty = true;
	if (ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		return;
	}
	if (tui->editing) {
		filter__key(tui, model, ch);
		return;
	}
	if (model->show_help && ch == 27) {
		model->show_help = false;
		return;
	}
	if (lrs_tui__matrix_key(tui, ch))
		return;
	act = lrs_tui__key_action(ch);
	if (lrs_tui__time_view_key(tui, model, act)) {
		lp->user_moved |= act != LRS_ACT_TIME_VIEW;
		return;
	}
	switch (act) {
	case LRS_ACT_NONE:
		lp->dirty = false;
		break;
	case LRS_ACT_QUIT:
		lp->quit = true;
		break;
	case LRS_ACT_FILTER:
		lp->user_moved = true;	/* the filter picks the rows: keep its first one */
		tui->editing = true;
		snprintf(tui->filter_before, sizeof(tui->filter_before), "%s", model->filter);
		snprintf(tui->edit, sizeof(tui->edit), "%s", model->filter);
		break;
	case LRS_ACT_INTERVAL_UP:
	case LRS_ACT_INTERVAL_DOWN:
		if (tui__one_instant(tui)) {
			lrs_tui__message(tui, false, "%s is one instant: no interval to change",
					 lp->src->name);
			break;
		}
		iv = interval_next(lp->src->interval_s, act == LRS_ACT_INTERVAL_UP);
		lp->src->interval_s = iv;
		if (lp->src->set_interval)
			lp->src->set_interval(lp->src, iv);
		lrs_tui__set_source(tui, lp->src->name, iv);
		lp->next_due_s = lp->last_take_s + iv;
		lrs_tui__message(tui, false, "interval %.3gs", iv);
		break;
	default:
		if (lp->src->control && lp->src->control(lp->src, (int)act)) {
			/* a replay moved or changed speed: the header follows, the next take waits */
			lrs_tui__set_source(tui, lp->src->name, lp->src->interval_s);
			lp->next_due_s = now_s() + lp->src->interval_s;
			break;
		}
		if (lrs_action__moves_selection(act))
			lp->user_moved = true;
		lrs_model__apply(model, act, tui->layout.rows_h > 1 ? (size_t)tui->layout.rows_h - 1 : 1);
		break;
	}
}

static int loop__take(struct tui_loop *lp, double now)
{
	struct lrs_snapshot *snap = NULL;
	int err;

	lp->last_take_s = now;
	lp->next_due_s += lp->src->interval_s;
	if (lp->next_due_s < now)	/* fell behind (a slow take, a pause): no catching up */
		lp->next_due_s = now + lp->src->interval_s;
	err = lp->src->take(lp->src, &snap);
	if (err == -ENODATA)
		return err;
	if (err) {
		lrs_tui__message(lp->tui, true, "snapshot from %s failed: %s", lp->src->name,
				 strerror(-err));
		return 0;
	}
	err = lrs_model__push(lp->model, snap);
	if (err)
		lrs_tui__message(lp->tui, true, "model: %s", strerror(-err));
	else if (!lp->user_moved)
		select_hottest(lp->model);
	lp->instant_taken = !err && !(lp->src->interval_s > 0);
	lp->dirty = true;
	return 0;
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
	struct tui_loop lp = { .src = src, .model = model, .dirty = true };
	int err, fd = fileno(stdin), eof_strikes = 0;
	double start;

	if (!isatty(fd) || !isatty(fileno(stdout))) {
		fprintf(stderr, "lruscope: the live view needs a terminal (stdin and stdout); "
				"use 'lruscope report' for text\n");
		return -ENOTTY;
	}
	err = lrs_tui__open(&lp.tui, opts, NULL, NULL, NULL);
	if (err) {
		fprintf(stderr, "lruscope: cannot start curses on TERM=%s\n",
			getenv("TERM") ? getenv("TERM") : "(unset)");
		return err;
	}
	capture__start(&cap);
	lrs_tui__set_source(lp.tui, src->name, src->interval_s);
	start = now_s();
	lp.next_due_s = start;

	while (!*stop && !lp.quit) {
		double now = now_s(), wait_s;
		struct pollfd pfd[2] = { { .fd = fd, .events = POLLIN },
					 { .fd = cap.read_fd, .events = POLLIN } };
		bool got_key = false;
		int ch, timeout_ms;

		if (opts && opts->duration_s > 0 && now - start >= opts->duration_s)
			break;
		if (model->paused != lp.paused_before) {
			lp.paused_before = model->paused;
			/* resuming: the next snapshot is due now, no long catch-up interval */
			if (!model->paused)
				lp.next_due_s = now;
		}
		if (!model->paused && !lp.instant_taken && now >= lp.next_due_s) {
			err = loop__take(&lp, now);
			if (err == -ENODATA) {
				lrs_tui__message(lp.tui, true, "%s: no more snapshots", src->name);
				err = 0;
				break;
			}
		}
		capture__drain(&cap, lp.tui);
		if (lp.dirty || lp.tui->opts.banner_fn || lp.msg_shown || status_msg(lp.tui)) {
			lp.msg_shown = status_msg(lp.tui) != NULL;
			lrs_tui__draw(lp.tui, model);
			lp.dirty = false;
		}

		wait_s = model->paused || lp.instant_taken ? 1.0 : lp.next_due_s - now_s();
		if (opts && opts->duration_s > 0 && start + opts->duration_s - now_s() < wait_s)
			wait_s = start + opts->duration_s - now_s();
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
			if (lp.quit)
				break;
		}
		if (input__lost(pfd[0].revents, got_key)) {
			if ((pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL)) || ++eof_strikes >= 3) {
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

// SPDX-License-Identifier: GPL-2.0
/*
 * The keys of both screens in one table: lookups, the help overlays' lines,
 * the --help paragraphs and the man page's KEYS section are made from it,
 * so a key cannot be documented on one screen and forgotten on the other.
 */
#include "ui/keymap.h"
#include "ui/roff.h"

#define K(code, act)      \
	{                 \
		code, act \
	}
#define TUI LRS_KEYMAP_TUI
#define GUI LRS_KEYMAP_GUI
#define BOTH LRS_KEYMAP_BOTH
#define REPLAY LRS_KEYMAP_REPLAY
#define MOUSE LRS_KEYMAP_MOUSE

const struct lrs_binding lrs_keymap[] = {
	{ "arrows, k j l",
	  { K(LRS_KEY_UP, LRS_ACT_UP), K(LRS_KEY_DOWN, LRS_ACT_DOWN), K(LRS_KEY_LEFT, LRS_ACT_LEFT),
	    K(LRS_KEY_RIGHT, LRS_ACT_RIGHT), K('k', LRS_ACT_UP), K('j', LRS_ACT_DOWN),
	    K('l', LRS_ACT_RIGHT) },
	  BOTH,
	  "select a cell",
	  "arrows",
	  "select" },
	{ "PgUp PgDn",
	  { K(LRS_KEY_PAGE_UP, LRS_ACT_PAGE_UP), K(LRS_KEY_PAGE_DOWN, LRS_ACT_PAGE_DOWN) },
	  BOTH,
	  "move the selection a page" },
	{ "Home g, End G",
	  { K(LRS_KEY_HOME, LRS_ACT_HOME), K('g', LRS_ACT_HOME), K(LRS_KEY_END, LRS_ACT_END),
	    K('G', LRS_ACT_END) },
	  BOTH,
	  "to the first row, to the last" },
	{ "Enter, d",
	  { K(LRS_KEY_ENTER, LRS_ACT_DETAIL), K('d', LRS_ACT_DETAIL) },
	  BOTH,
	  "detail pane on/off",
	  "Enter",
	  "detail" },
	{ "t",
	  { K('t', LRS_ACT_TIME_VIEW), K('T', LRS_ACT_TIME_VIEW) },
	  TUI,
	  "time view: wait history per row",
	  NULL,
	  "history" },
	{ "<- -> (time view)", { { 0 } }, TUI, "one node, or all nodes summed" },
	{ "m",
	  { K('m', LRS_ACT_METRIC_NEXT), K('M', LRS_ACT_METRIC_NEXT) },
	  BOTH,
	  "cells: wait/s or LRU pages (a walk's)",
	  NULL,
	  "metric" },
	{ "s",
	  { K('s', LRS_ACT_SORT_NEXT), K('S', LRS_ACT_SORT_NEXT) },
	  BOTH,
	  "sort: wait, count, max, name (alphabetical tree)",
	  NULL,
	  "sort" },
	{ "/",
	  { K('/', LRS_ACT_FILTER) },
	  BOTH,
	  "filter by path, hottest selected (Esc restores)",
	  NULL,
	  "filter" },
	{ "p, Space",
	  { K('p', LRS_ACT_PAUSE), K('P', LRS_ACT_PAUSE), K(' ', LRS_ACT_PAUSE) },
	  BOTH,
	  "pause / resume",
	  "p",
	  "pause" },
	{ "+ -",
	  { K('+', LRS_ACT_INTERVAL_UP), K('=', LRS_ACT_INTERVAL_UP), K('-', LRS_ACT_INTERVAL_DOWN),
	    K('_', LRS_ACT_INTERVAL_DOWN) },
	  BOTH,
	  "longer / shorter interval",
	  "+/-",
	  "interval" },
	{ "n",
	  { K('n', LRS_ACT_LANES) },
	  GUI,
	  "time heatmap: hottest lruvecs or the memcg's nodes",
	  NULL,
	  "lanes" },
	{ "x",
	  { K('x', LRS_ACT_MATRIX), K('X', LRS_ACT_MATRIX) },
	  BOTH,
	  "holders: memcg x memcg matrix on/off",
	  NULL,
	  "matrix" },
	{ "c",
	  { K('c', LRS_ACT_MATRIX_COLUMNS), K('C', LRS_ACT_MATRIX_COLUMNS) },
	  BOTH,
	  "matrix columns: lruvec owner or holder's memcg",
	  NULL,
	  "columns" },
	{ "click", { { 0 } }, GUI | MOUSE, "select a cell, a lane or a node" },
	{ "double click", { { 0 } }, GUI | MOUSE, "a cell: its memcg's nodes over time" },
	{ "wheel", { { 0 } }, GUI | MOUSE, "move the selection 3 rows" },
	{ "hover", { { 0 } }, GUI | MOUSE, "exact numbers in a tooltip" },
	{ ". ,",
	  { K('.', LRS_ACT_STEP_FORWARD), K(',', LRS_ACT_STEP_BACK) },
	  BOTH | REPLAY,
	  "replay: step forward, back" },
	{ "< >",
	  { K('<', LRS_ACT_SEEK_START), K('>', LRS_ACT_SEEK_END) },
	  BOTH | REPLAY,
	  "replay: to the start, to the end" },
	{ "] [",
	  { K(']', LRS_ACT_SPEED_UP), K('[', LRS_ACT_SPEED_DOWN) },
	  BOTH | REPLAY,
	  "replay: faster, slower" },
	{ "h, ?, F1",
	  { K('h', LRS_ACT_HELP), K('H', LRS_ACT_HELP), K('?', LRS_ACT_HELP),
	    K(LRS_KEY_F1, LRS_ACT_HELP) },
	  BOTH,
	  "this help",
	  "h",
	  "help" },
	{ "arrows (in help)", { { 0 } }, TUI, "scroll this help (j k, PgUp PgDn, Home End)" },
	{ "Esc", { K(LRS_KEY_ESC, LRS_ACT_ESCAPE) }, BOTH, "close the help (the GUI: else quit)" },
	{ "q", { K('q', LRS_ACT_QUIT), K('Q', LRS_ACT_QUIT) }, BOTH, "quit", NULL, "quit" },
};

const size_t lrs_keymap_len = sizeof(lrs_keymap) / sizeof(lrs_keymap[0]);

enum lrs_action lrs_keymap__action(int key, unsigned int screen)
{
	if (!key)
		return LRS_ACT_NONE;
	for (size_t i = 0; i < lrs_keymap_len; i++) {
		const struct lrs_binding *b = &lrs_keymap[i];

		if (!(b->where & screen))
			continue;
		for (size_t k = 0; k < LRS_KEYMAP_CODES && b->map[k].code; k++)
			if (b->map[k].code == key)
				return b->map[k].action;
	}
	return LRS_ACT_NONE;
}

bool lrs_binding__shown(const struct lrs_binding *b, unsigned int screen, bool replay)
{
	return (b->where & screen) && (replay || !(b->where & LRS_KEYMAP_REPLAY));
}

const struct lrs_binding *lrs_keymap__next_hint(size_t *i, unsigned int screen, bool replay)
{
	while (*i < lrs_keymap_len) {
		const struct lrs_binding *b = &lrs_keymap[(*i)++];

		if (b->hint && lrs_binding__shown(b, screen, replay))
			return b;
	}
	return NULL;
}

bool lrs_keymap__help_line(char *buf, size_t len, unsigned int screen, bool replay, int width,
			   size_t line)
{
	for (size_t i = 0; i < lrs_keymap_len; i++) {
		const struct lrs_binding *b = &lrs_keymap[i];

		if (!lrs_binding__shown(b, screen, replay) || line--)
			continue;
		snprintf(buf, len, "%-*s %s", width - 1, b->keys, b->what);
		return true;
	}
	return false;
}

void lrs_keymap__write_help(FILE *f, unsigned int where, unsigned int without)
{
	for (size_t i = 0; i < lrs_keymap_len; i++) {
		const struct lrs_binding *b = &lrs_keymap[i];

		if ((b->where & where) == where && !(b->where & without))
			fprintf(f, "  %-22s %s\n", b->keys, b->what);
	}
}

static const char *screens_name(unsigned int where)
{
	switch (where & LRS_KEYMAP_BOTH) {
	case LRS_KEYMAP_TUI:
		return "tui";
	case LRS_KEYMAP_GUI:
		return "gui";
	default:
		return "both";
	}
}

void lrs_keymap__write_man(FILE *f)
{
	for (size_t i = 0; i < lrs_keymap_len; i++) {
		const struct lrs_binding *b = &lrs_keymap[i];
		const char *only = (b->where & LRS_KEYMAP_BOTH) == LRS_KEYMAP_TUI ?
					   " (top and replay)" :
				   (b->where & LRS_KEYMAP_BOTH) == LRS_KEYMAP_GUI ? " (gui)" :
										    "";

		fputs(".TP\n.B \"", f);
		lrs_roff__puts(f, b->keys);
		fputs("\"\n", f);
		lrs_roff__puts(f, b->what);
		fprintf(f, "%s\n", only);
	}
}

void lrs_keymap__write_table(FILE *f)
{
	fprintf(f, "%-6s %-18s %-28s %s\n", "screen", "keys", "action", "description");
	for (size_t i = 0; i < lrs_keymap_len; i++) {
		const struct lrs_binding *b = &lrs_keymap[i];
		char acts[64] = "";
		size_t n = 0;

		for (size_t k = 0; k < LRS_KEYMAP_CODES && b->map[k].code && n < sizeof(acts);
		     k++) {
			size_t seen = 0;

			/* the same action under two keys is named once */
			while (seen < k && b->map[seen].action != b->map[k].action)
				seen++;
			if (seen == k)
				n += (size_t)snprintf(acts + n, sizeof(acts) - n, "%s%s",
						      n ? "," : "",
						      lrs_action__name(b->map[k].action));
		}
		fprintf(f, "%-6s %-18s %-28s %s\n", screens_name(b->where), b->keys,
			acts[0]			    ? acts :
			b->where & LRS_KEYMAP_MOUSE ? "mouse" :
						      "-",
			b->what);
	}
}

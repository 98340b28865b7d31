/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one table of keys and mouse bindings of the TUI and the GUI: which
 * action each has, on which screen, and what it does. The screens translate
 * their key codes into lrs_key values and look them up here; the help
 * overlays, the status lines, the --help texts and the man page's KEYS
 * section are all printed from the table.
 */
#ifndef LRS_KEYMAP_H
#define LRS_KEYMAP_H

#include <stdbool.h>
#include <stdio.h>

#include "ui/action.h"

/* Where a binding applies: a screen, and whether only a replay has it. */
#define LRS_KEYMAP_TUI 0x1
#define LRS_KEYMAP_GUI 0x2
#define LRS_KEYMAP_BOTH (LRS_KEYMAP_TUI | LRS_KEYMAP_GUI)
#define LRS_KEYMAP_REPLAY 0x4 /* a recording's transport: the source handles it */
#define LRS_KEYMAP_MOUSE 0x8  /* a mouse gesture: the GUI handles it itself */

/* Key codes: printable ASCII as itself, the rest from 0x100; screens translate theirs. */
enum lrs_key {
	LRS_KEY_ESC = 27,
	LRS_KEY_UP = 0x100,
	LRS_KEY_DOWN,
	LRS_KEY_LEFT,
	LRS_KEY_RIGHT,
	LRS_KEY_PAGE_UP,
	LRS_KEY_PAGE_DOWN,
	LRS_KEY_HOME,
	LRS_KEY_END,
	LRS_KEY_ENTER,
	LRS_KEY_F1,
};

#define LRS_KEYMAP_CODES 8

/* One line of the help: its keys, each with its action (arrows: four of them). */
struct lrs_binding {
	const char *keys; /* as the help shows them */
	struct {
		int code; /* an lrs_key; 0 ends the list; none for the mouse */
		enum lrs_action action;
	} map[LRS_KEYMAP_CODES];
	unsigned int where;    /* LRS_KEYMAP_* */
	const char *what;      /* the help's description */
	const char *hint_keys; /* the status line's keys (NULL: keys) */
	const char *hint;      /* the status line's word, or NULL: not there */
};

extern const struct lrs_binding lrs_keymap[];
extern const size_t lrs_keymap_len;

/* The action of key on screen (LRS_KEYMAP_TUI or _GUI); LRS_ACT_NONE if none. */
enum lrs_action lrs_keymap__action(int key, unsigned int screen);

/* Does binding b show on screen? replay: the source is a recording (its transport keys). */
bool lrs_binding__shown(const struct lrs_binding *b, unsigned int screen, bool replay);

/* The next binding with a status-line hint on screen after *i (start at 0), or NULL. */
const struct lrs_binding *lrs_keymap__next_hint(size_t *i, unsigned int screen, bool replay);

/*
 * The help's key lines for screen, one per binding: keys padded to width,
 * then the description. line is 0-based; returns false past the last.
 */
bool lrs_keymap__help_line(char *buf, size_t len, unsigned int screen, bool replay, int width,
			   size_t line);

/* The --help texts' key lines: "  KEYS  description", the bindings in where (all bits). */
void lrs_keymap__write_help(FILE *f, unsigned int where, unsigned int without);

/* The man page's KEYS section body in man(7) roff: one .TP entry per binding. */
void lrs_keymap__write_man(FILE *f);

/* A plain table of every binding: screens, keys, action, description. */
void lrs_keymap__write_table(FILE *f);

#endif

// SPDX-License-Identifier: GPL-2.0
/* Whether the terminal can carry the live view, asked of terminfo before curses starts. */
#include <curses.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "ui/tui/tui.h"
/* last: its macros (lines, columns, ...) would rename words in the headers above */
#include <term.h>

int lrs_tui__term_check(const char *term, int fd, char *why, size_t why_len)
{
	TERMINAL *saved = cur_term;
	const char *name = term ? term : getenv("TERM");
	const char *cup;
	int errret = 0;
	bool ok;

	if (!name || !*name) {
		snprintf(why, why_len,
			 "TERM is not set: set it to the terminal's type "
			 "(as TERM=xterm-256color)");
		return -ENOTTY;
	}
	/* a terminfo entry of its own, dropped after: curses itself starts in lrs_tui__open */
	if (setupterm((char *)name, fd, &errret) != OK) {
		snprintf(why, why_len,
			 "TERM=%.60s is %s: set TERM to the terminal's type (as "
			 "TERM=xterm-256color)",
			 name,
			 errret == 1 ? "a hardcopy terminal" : "not in the terminfo database");
		set_curterm(saved);
		return -ENOTTY;
	}
	cup = tigetstr("cup");
	ok = cup && cup != (char *)-1;
	del_curterm(cur_term);
	set_curterm(saved);
	if (!ok) {
		/* a dumb terminal: every frame would be printed below the last, as garbage */
		snprintf(why, why_len,
			 "TERM=%.60s cannot move the cursor (no cursor addressing): "
			 "the live view needs a terminal that can; set TERM to the terminal's type "
			 "(as TERM=xterm-256color), or use 'lruscope report' for text",
			 name);
		return -ENOTTY;
	}
	return 0;
}

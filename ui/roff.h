/* SPDX-License-Identifier: GPL-2.0 */
/* Text into man(7) roff, for the man page's generated sections (KEYS, OPTIONS). */
#ifndef LRS_ROFF_H
#define LRS_ROFF_H

#include <stdio.h>

/* s as roff text: a backslash is \e, a minus \-; a line must not start with a control character. */
void lrs_roff__puts(FILE *f, const char *s);

#endif

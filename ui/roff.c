// SPDX-License-Identifier: GPL-2.0
/* Text into man(7) roff. */
#include "ui/roff.h"

void lrs_roff__puts(FILE *f, const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

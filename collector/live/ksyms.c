// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collector/live/ksyms.h"

static int cmp_ksym(const void *a, const void *b)
{
	const struct lrs_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct lrs_ksyms *lrs_ksyms__parse(const char *text)
{
	struct lrs_ksyms *ks = calloc(1, sizeof(*ks));
	size_t cap = 0;

	if (!ks)
		return NULL;
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n'), *p, *name;
		size_t name_len;
		unsigned long long addr;
		char type;

		/* "ffffffff81000000 T name\t[module]": parsed by hand, sscanf would
		 * measure the whole remaining text on every line */
		addr = strtoull(line, (char **)&p, 16);
		if (p == line || *p != ' ' || !p[1] || p[2] != ' ')
			goto next;
		type = p[1];
		name = p + 3;
		name_len = strcspn(name, " \t\n");
		if (!addr || !name_len || name_len > 255)
			goto next;
		if (ks->nr == cap) {
			size_t ncap = cap ? cap * 2 : 4096;
			void *q = realloc(ks->syms, ncap * sizeof(*ks->syms));

			if (!q)
				goto nomem;
			ks->syms = q;
			cap = ncap;
		}
		ks->syms[ks->nr].addr = addr;
		ks->syms[ks->nr].type = type;
		ks->syms[ks->nr].name = strndup(name, name_len);
		if (!ks->syms[ks->nr].name)
			goto nomem;
		ks->nr++;
next:
		line = end ? end + 1 : NULL;
	}
	if (ks->nr > 1) /* syms is NULL when there are none */
		qsort(ks->syms, ks->nr, sizeof(*ks->syms), cmp_ksym);
	return ks;
nomem:
	lrs_ksyms__free(ks);
	return NULL;
}

struct lrs_ksyms *lrs_ksyms__load(void)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char *text = NULL;
	size_t cap = 0;
	struct lrs_ksyms *ks = NULL;

	if (!f)
		return NULL;
	if (getdelim(&text, &cap, 0, f) >= 0)
		ks = lrs_ksyms__parse(text);
	else
		errno = EIO;
	fclose(f);
	free(text);
	return ks;
}

void lrs_ksyms__free(struct lrs_ksyms *ks)
{
	if (!ks)
		return;
	for (size_t i = 0; i < ks->nr; i++)
		free(ks->syms[i].name);
	free(ks->syms);
	free(ks);
}

const struct lrs_ksym *lrs_ksyms__find(const struct lrs_ksyms *ks, uint64_t addr)
{
	size_t lo = 0, hi;

	if (!ks || !ks->nr || addr < ks->syms[0].addr)
		return NULL;
	hi = ks->nr;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return &ks->syms[lo];
}

char *lrs_ksyms__format(const struct lrs_ksyms *ks, uint64_t addr, char *buf, size_t len)
{
	const struct lrs_ksym *s = lrs_ksyms__find(ks, addr);

	if (s)
		snprintf(buf, len, "%s+0x%" PRIx64, s->name, addr - s->addr);
	else
		snprintf(buf, len, "0x%" PRIx64, addr);
	return buf;
}

const char *lrs_ksyms__data_name(const struct lrs_ksyms *ks, uint64_t addr)
{
	const struct lrs_ksym *s = lrs_ksyms__find(ks, addr);

	if (!s || s->addr != addr)
		return NULL;
	switch (s->type) {
	case 'd':
	case 'D':
	case 'b':
	case 'B':
		return s->name;
	default:
		return NULL;
	}
}

/* The addresses of the named symbols in /proc/kallsyms (0 where absent or hidden). */
void lrs_ksyms__find_names(const char *const names[], uint64_t addrs[], int n)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], sym[256], type;
	uint64_t addr;

	memset(addrs, 0, sizeof(*addrs) * (size_t)n);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, sym) != 3)
			continue;
		for (int i = 0; i < n; i++)
			if (!addrs[i] && !strcmp(sym, names[i]))
				addrs[i] = addr;
	}
	fclose(f);
}

/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel symbols from /proc/kallsyms: address -> "sym+0xoff". */
#ifndef LRS_KSYMS_H
#define LRS_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct lrs_ksym {
	uint64_t addr;
	char *name;
	char type; /* kallsyms type letter: t/T text, d/D/b/B data */
};

struct lrs_ksyms {
	struct lrs_ksym *syms; /* sorted by address */
	size_t nr;
};

/* Parse kallsyms text (module symbols included). Returns NULL on ENOMEM. */
struct lrs_ksyms *lrs_ksyms__parse(const char *text);
/* /proc/kallsyms; NULL with errno set when unreadable. */
struct lrs_ksyms *lrs_ksyms__load(void);
void lrs_ksyms__free(struct lrs_ksyms *ksyms);

/* The symbol at or below addr, or NULL (addresses all zero: no permission). */
const struct lrs_ksym *lrs_ksyms__find(const struct lrs_ksyms *ksyms, uint64_t addr);
/* "sym+0x1a" or "0xffff..." into buf; returns buf. */
char *lrs_ksyms__format(const struct lrs_ksyms *ksyms, uint64_t addr, char *buf, size_t len);
/* Only a data symbol that starts exactly at addr names a lock; NULL otherwise. */
const char *lrs_ksyms__data_name(const struct lrs_ksyms *ksyms, uint64_t addr);
/*
 * The addresses of n named symbols, read straight from /proc/kallsyms (a few
 * at start, without keeping the table): 0 where absent or hidden.
 */
void lrs_ksyms__find_names(const char *const names[], uint64_t addrs[], int n);

#endif

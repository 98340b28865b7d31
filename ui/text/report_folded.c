// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks (flamegraph.pl, speedscope, inferno): one line per waiting
 * stack, frames root first joined by ';', the lock as the leaf frame, then the
 * wait in ns. Stacks are sampled, so each lock's stacks share its whole wait
 * in proportion to their sampled wait; a lock with no stack is a line alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "ui/text/report.h"

/* A frame as folded text: ';' separates frames and a newline ends the line. */
static void put_frame(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, f);
}

static void put_lock(FILE *f, const struct lrs_snapshot *snap, const struct lrs_stack_use *uses,
		     size_t nr, uint64_t wait_ns, const char *leaf, int node)
{
	uint64_t sampled = 0;

	if (!wait_ns)
		return;
	for (size_t i = 0; i < nr; i++)
		sampled += uses[i].wait_ns;
	for (size_t i = 0; sampled && i < nr; i++) {
		const struct lrs_stack *st = lrs_snapshot__find_stack(snap, uses[i].id);
		uint64_t share =
			(uint64_t)((double)wait_ns * (double)uses[i].wait_ns / (double)sampled +
				   0.5);

		if (!share)
			continue;
		if (st && st->nr_frames) {
			for (size_t k = st->nr_frames; k-- > 0;) {
				put_frame(f, st->frames[k]);
				fputc(';', f);
			}
		} else {
			fprintf(f, "[stack %" PRId32 "];", uses[i].id);
		}
		put_frame(f, leaf);
		if (node >= 0)
			fprintf(f, "@N%d", node);
		fprintf(f, " %" PRIu64 "\n", share);
	}
	if (!sampled) {
		put_frame(f, leaf);
		if (node >= 0)
			fprintf(f, "@N%d", node);
		fprintf(f, " %" PRIu64 "\n", wait_ns);
	}
}

int lrs_report__write_folded(const struct lrs_snapshot *snap, FILE *f)
{
	for (size_t i = 0; i < snap->nr_lruvecs; i++) {
		const struct lrs_lruvec *lv = &snap->lruvecs[i];

		put_lock(f, snap, lv->stacks, lv->nr_stacks, lv->counters.wait_ns,
			 lv->memcg ? lv->memcg : "?", lv->node);
	}
	for (size_t i = 0; i < snap->nr_other_locks; i++) {
		const struct lrs_other_lock *ol = &snap->other_locks[i];

		put_lock(f, snap, ol->stacks, ol->nr_stacks, ol->counters.wait_ns,
			 ol->name ? ol->name : "?", -1);
	}
	return ferror(f) ? -EIO : 0;
}

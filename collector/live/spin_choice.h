/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which source counts spinlock waits: the contention tracepoint or fentry on
 * the queued-spinlock slow path. Pure: the kernel's answers go in, the choice
 * and the sentence that explains it come out (collector/live/spin_probe.h
 * asks the kernel).
 */
#ifndef LRS_SPIN_CHOICE_H
#define LRS_SPIN_CHOICE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/snapshot.h"

/* How this kernel takes a contended spinlock (x86). */
enum lrs_spinlock_kind {
	LRS_SPINLOCKS_UNSURE = 0,
	LRS_SPINLOCKS_NATIVE,	/* queued: the first waiter spins before the traced queue */
	LRS_SPINLOCKS_PARAVIRT, /* paravirt queued: every slow path goes to the queue */
	LRS_SPINLOCKS_TAS,	/* virt_spin_lock(): test-and-set, returns before the queue */
};

enum lrs_spin_request {
	LRS_SPIN_ASK_AUTO = 0,
	LRS_SPIN_ASK_TRACEPOINT,
	LRS_SPIN_ASK_SLOWPATH,
};

struct lrs_spin_facts {
	enum lrs_spinlock_kind kind;
	char kind_why[160]; /* how the kind was found: "kernel log: ...", "virt_spin_lock_key on" */
	bool tracepoint;    /* lock:contention_begin/end exist (5.19+) */
	bool slowpath;	    /* the slowpath hooks loaded and attached */
	char slowpath_why[160]; /* why they did not (or were not tried) */
};

/* What can be read about the kernel's spinlocks; -1: could not be read. */
struct lrs_spin_evidence {
	int key_on;	  /* virt_spin_lock_key, through its data symbol (KALLSYMS_ALL) */
	int pv_slowpath;  /* pv_ops' slow path is __pv_queued_spin_lock_slowpath */
	int hypervisor;	  /* the "hypervisor" CPU flag */
	const char *klog; /* the kernel log, or NULL */
};

/* The spinlock kind, and how it was found and how sure that is, into f->kind and f->kind_why. */
void lrs_spin__judge_kind(const struct lrs_spin_evidence *e, struct lrs_spin_facts *f);

/* "auto", "tracepoint", "slowpath" -> the request; -1 for anything else. */
int lrs_spin_request__parse(const char *s);
const char *lrs_spinlock_kind__str(enum lrs_spinlock_kind kind);

/* Whether loading the slowpath hooks is worth a try for this request and kernel. */
bool lrs_spin__want_slowpath(enum lrs_spin_request req, const struct lrs_spin_facts *facts);

/*
 * The source for req on a kernel with these facts: 0 and *out filled, or
 * -ENOTSUP with one line in err saying why the request cannot be met here.
 */
int lrs_spin__choose(enum lrs_spin_request req, const struct lrs_spin_facts *facts,
		     struct lrs_spin_source *out, char *err, size_t err_len);

#endif

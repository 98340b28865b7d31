/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 'lruscope demo --lab': the experiment on its two real kernels, Debian's 5.10
 * (one LRU lock per node) and 6.1 (one per memcg), in the lab's QEMU guests.
 * The lab lives in the source tree (tests/lab/lib/lab_demo.py, 'make
 * lab-demo'): this finds it next to the binary of a build tree and runs it.
 */
#ifndef LRS_DEMO_LAB_H
#define LRS_DEMO_LAB_H

#include <stdbool.h>

#include "demo/demo.h"

/*
 * Run the lab demo with o's rounds, containers (--readers / 2), duration,
 * size and limit where given (the lab's own defaults otherwise); its
 * recordings and pictures go to o->record_dir, else build/lab-demo. Returns a process exit
 * status: 1 where there is no lab next to this binary (an installed one).
 */
int lrs_demo__run_lab(const struct lrs_demo_opts *o);

#endif

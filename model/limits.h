/* SPDX-License-Identifier: GPL-2.0 */
/* Sizes every part of the model shares, so no part needs another for them. */
#ifndef LRS_LIMITS_H
#define LRS_LIMITS_H

#define LRS_SCHEMA_VERSION 1
#define LRS_HIST_BUCKETS 32 /* log2 buckets of wait time in ns */
#define LRS_COMM_LEN 16	    /* TASK_COMM_LEN */

#endif

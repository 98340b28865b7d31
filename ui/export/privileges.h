/* SPDX-License-Identifier: GPL-2.0 */
/*
 * After the BPF programs are loaded and the port is bound, the exporter runs
 * as an unprivileged user that keeps only what reading BPF maps needs:
 * CAP_BPF and CAP_PERFMON. Everything else (CAP_SYS_ADMIN, file access as
 * root, the bounding set, new privileges through exec) is dropped.
 */
#ifndef LRS_EXPORT_PRIVILEGES_H
#define LRS_EXPORT_PRIVILEGES_H

#include <stddef.h>

/* Become user, keeping CAP_BPF and CAP_PERFMON. 0, or -errno with err saying which step failed. */
int lrs_privileges__drop(const char *user, char *err, size_t err_len);

#endif

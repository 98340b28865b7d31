/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs that can run tasks now, from the kernel's CPU lists
 * (/sys/devices/system/cpu/online: "0-3,8,10-11"). Per-CPU maps hold a copy
 * for every possible CPU, often many more than ever run (a VM's hot-plug
 * slots); a scan over CPUs in a BPF program need only cover the online ones.
 */
#ifndef LRS_CPU_LIST_H
#define LRS_CPU_LIST_H

/* One more than the highest CPU in list; -EINVAL if list is not a CPU list. */
int lrs_cpu_list__span(const char *list);

/* lrs_cpu_list__span() of the online CPUs; -errno if the file cannot be read. */
int lrs_cpu_list__online_span(void);

#endif

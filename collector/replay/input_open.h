/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening a recording by name without hanging on it: a FIFO waits for its
 * writer a bounded time (a blocking open() of one with no writer never
 * returns), and files that cannot hold a recording (devices, sockets) are
 * refused before any read.
 */
#ifndef LRS_INPUT_OPEN_H
#define LRS_INPUT_OPEN_H

#include <stddef.h>

/* How long a FIFO's reader waits for a writer to open it. */
#define LRS_FIFO_WRITER_WAIT_S 10

/*
 * Open path for reading. Returns a descriptor, or -errno with a message in
 * err that starts with path: -ETIMEDOUT (a FIFO no writer opened within
 * wait_s), -EINTR (a signal other than the wait's own came), -EISDIR,
 * -EINVAL (a device or socket), or open()'s own error.
 */
int lrs_input__open(const char *path, unsigned int wait_s, char *err, size_t err_len);

#endif

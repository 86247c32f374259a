/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lock that serialises changes, in the private run directory that it
 * and the journal share.
 */
#ifndef PCPCTL_LOCK_H
#define PCPCTL_LOCK_H

#include <stdbool.h>

struct sysroot;

/* How long a second pcpctl waits for the one holding the lock. */
#define LOCK_WAIT_SECONDS 10

/*
 * Take the lock, waiting up to LOCK_WAIT_SECONDS.  Returns an fd to pass
 * to lock_release, or a negative errno (-EBUSY when another pcpctl kept it)
 * after printing why.
 */
int lock_acquire(const struct sysroot *root);
void lock_release(int fd);

/* A file we own, regular, not linked elsewhere: anything else was planted. */
bool run_file_is_private(int fd);

#endif

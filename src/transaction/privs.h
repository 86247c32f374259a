/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Least privilege: what pcpctl keeps, and whether it may write a sysctl. */
#ifndef PCPCTL_PRIVS_H
#define PCPCTL_PRIVS_H

#include "kernel.h"

/*
 * Give up every capability (bounding, ambient, effective, permitted,
 * inheritable) and set no_new_privs.  No command needs one: reading
 * zoneinfo is open to all, and a /proc/sys/vm write is allowed by the
 * file's owner bits to euid 0, which capabilities do not change.
 * Returns 0 or a negative errno.
 */
int drop_privileges(void);

/*
 * Whether this process may write the sysctl: 0, -ENOMEM, or the negative
 * errno of the refusal (-EACCES, -EROFS, ...), with *path the file refused
 * (malloc'ed, for the caller to name and free).
 */
int sysctl_write_access(const struct kernel *k, enum pcp_sysctl s, char **path);

#endif

/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Least privilege: what pcpctl keeps, and whether it may write a sysctl. */
#ifndef PCPCTL_PRIVS_H
#define PCPCTL_PRIVS_H

#include <stdbool.h>

#include "kernel.h"

/*
 * Give up every capability (bounding, ambient, effective, permitted,
 * inheritable) and set no_new_privs.  No command needs one: reading
 * zoneinfo is open to all, and a /proc/sys/vm write is allowed by the
 * file's owner bits to euid 0, which capabilities do not change.
 * switch_user: as root, keep CAP_SETUID, CAP_SETGID and CAP_SETPCAP
 * permitted but not effective, for a child to raise and become another
 * user with (runas_enter(): sweep's workload) before it runs anything,
 * and CAP_KILL effective, to end that child, no longer of pcpctl's uid.
 * Returns 0 or a negative errno.
 */
int drop_privileges(bool switch_user);

/*
 * Whether this process may write the sysctl: 0, -ENOMEM, or the negative
 * errno of the refusal (-EACCES, -EROFS, ...), with *path the file refused
 * (malloc'ed, for the caller to name and free).
 */
int sysctl_write_access(const struct kernel *k, enum pcp_sysctl s, char **path);

#endif

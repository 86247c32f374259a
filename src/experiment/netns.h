/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * netns.h - the network namespace a sweep's COMMAND runs in (--netns)
 *
 * `ip netns add NAME` keeps a namespace at /run/netns/NAME.  Entering one
 * takes CAP_SYS_ADMIN, which pcpctl drops before it runs a COMMAND, and
 * `ip netns exec` cannot regain it under no_new_privs: so pcpctl enters the
 * namespace itself, first, and the COMMAND it starts later, as an ordinary
 * user, is inside.  Only the network changes: /proc/sys/vm and zoneinfo
 * are the machine's in every namespace.
 */
#ifndef PCPCTL_NETNS_H
#define PCPCTL_NETNS_H

#include <stdbool.h>

struct sysroot;

/* A name ip netns could have made: not empty, no '/', not "." or "..". */
bool netns_name_ok(const char *name);

/*
 * Move this process into the network namespace kept at PATH_NETNS/name in
 * sr's tree.  Returns 0, or -ENOENT (no such name), -EINVAL (the file is no
 * network namespace), -EPERM (no CAP_SYS_ADMIN), another negative errno.
 */
int netns_enter(const struct sysroot *sr, const char *name);

#endif
